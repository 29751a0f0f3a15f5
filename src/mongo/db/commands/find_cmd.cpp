// find, getMore, killCursors.
#include <algorithm>

#include "mongo/db/catalog/capped_insert_notifier.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/command_authorization.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog_fetcher.h"
#include "mongo/db/repl/dedup/forward_delta_cursor_source.h"
#include "mongo/db/repl/dedup/oplog_delta_encoding.h"
#include "mongo/db/query/find_cursor_source.h"
#include "mongo/db/views/view_requests.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

#include <algorithm>
#include <chrono>

namespace mongo {

// Holds a find after planning, before its first batch, while on ({data: {nss: "<db>.<coll>"}}
// limits it to one namespace): tests use it to catch an operation in flight. The wait ends at
// once when the operation is killed or times out.
MONGO_FAIL_POINT_DEFINE(waitInFindBeforeMakingBatch);
// failGetMoreAfterCursorCheckout {data: {errorCode: n}}: a getMore fails with errorCode once it
// has its cursor (which the failure destroys, as any failed getMore's), as MongoDB's (drivers'
// retryable-reads tests).
MONGO_FAIL_POINT_DEFINE(failGetMoreAfterCursorCheckout);

namespace {

// A member's oplog fetcher sends its term with find and getMore: a newer one than ours makes
// a primary of an older term step down before it serves the entries (observeRequestTerm).
// Only on the oplog, as MongoDB: a term on any other read is ignored.
bool isFetcherRead(const NamespaceString& nss, const BSONObj& body) {
    return body["term"].isNumber() && nss.db() == "local" && nss.coll() == "oplog.rs" &&
           repl::ReplicationCoordinator::get()->isReplSet();
}

void observeFetcherTerm(const NamespaceString& nss, const BSONObj& body) {
    if (isFetcherRead(nss, body)) repl::ReplicationCoordinator::get()->observeRequestTerm(body["term"].numberLong());
}

// ... its getMores may carry its progress (kUpdatePositionField, oplog_fetcher.h): processed as
// the replSetUpdatePosition command it holds, under that command's privilege check, before the
// getMore waits for entries.
void processFetcherPosition(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& body) {
    BSONElement pos = body[repl::kUpdatePositionField];
    if (pos.eoo()) return;
    uassert(ErrorCodes::BadValue,
            std::string("BSON field 'getMore.") + repl::kUpdatePositionField +
                "' is only for the oplog getMores of replica-set members",
            isFetcherRead(nss, body));
    uassert(ErrorCodes::TypeMismatch,
            std::string("BSON field 'getMore.") + repl::kUpdatePositionField + "' must be an object",
            pos.type() == Object);
    OpMsgRequest asCommand;
    BSONObjBuilder b;
    b.appendElements(pos.Obj());
    b.append("$db", "admin");
    asCommand.body = b.obj();
    auth::checkCommandAuthorization(opCtx, findCommand("replSetUpdatePosition"), asCommand);
    // A report this member cannot take (no config yet, another shape) must not fail the getMore:
    // its cursor would be lost and the fetcher would start over with a new find.
    try {
        BSONObjBuilder ignored;
        repl::ReplicationCoordinator::get()->processUpdatePosition(asCommand.body, &ignored);
    } catch (const DBException& e) {
        LOGV2_DEBUG(7700205, 1, Replication, "Ignored the progress report carried by a getMore",
                    logv2::attrs("error", e.toStatus().toString()));
    }
}

// ... and its reply tells the member our term and commit point ($replData).
void appendReplDataForFetcher(const NamespaceString& nss, const BSONObj& body, BSONObjBuilder& result) {
    if (isFetcherRead(nss, body)) repl::ReplicationCoordinator::get()->appendReplData(&result);
}

class FindCmd : public Command {
public:
    FindCmd() : Command("find") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::find}); }
    std::string help() const override { return "query for documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        FindRequest fr = parseFindRequest(req.body);
        observeFetcherTerm(nss, req.body);
        std::optional<CatalogReadLock> lock;
        lock.emplace();
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll) {
            // A view: the find runs as an aggregate over its collection (views/view_requests.h).
            if (auto view = ViewCatalog::resolve(opCtx, nss)) {
                lock.reset();
                AggregateRequest ar = findAsAggregate(*view, req, fr);
                return runAggregateCursor(opCtx, ar, nss, fr.singleBatch, result);
            }
        }
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = nss;
        cursor->lsid = opCtx->lsid;
        cursor->owner = auth::cursorOwner(opCtx);
        cursor->noTimeout = fr.noCursorTimeout;
        cursor->tailable = fr.tailable;
        cursor->awaitData = fr.awaitData;
        if (coll) cursor->insertNotifier = coll->cappedInsertNotifier();
        cursor->source = std::make_unique<FindCursorSource>(
            std::make_unique<PlanExecutor>(opCtx->getClient(), coll, nss, fr.qr, PlanPurpose::kFind, "", opCtx));
        // A member fetching our oplog may take inserts as forward deltas (dbDedup in replication).
        if (nss.db() == "local" && nss.coll() == "oplog.rs" && req.body[repl::kFetchForwardDeltasField].trueValue())
            cursor->source = std::make_unique<repl::ForwardDeltaCursorSource>(std::move(cursor->source));
        waitInFindBeforeMakingBatch.pauseWhileSet([&] { opCtx->checkForInterrupt(); }, [&](const BSONObj& data) {
            return !data.hasField("nss") || data["nss"].str() == nss.ns();
        });
        BSONArrayBuilder docs;
        bool exhausted = fillBatch(opCtx, *cursor, fr.batchSize, docs);
        // A tailable cursor stays open at the end of the collection, unless the collection is
        // missing or empty (MongoDB's rule: then the cursor id is 0 at once). find never waits.
        bool keep = fr.tailable ? coll && (coll->numRecords(opCtx) != 0 || cursor->nReturned > 0)
                                : !exhausted && !fr.singleBatch;
        long long id = 0;
        if (keep) {
            cursor->source->save();
            id = CursorManager::get().registerCursor(std::move(cursor));
        }
        appendCursorReply(result, "firstBatch", docs.arr(), id, nss.ns());
        appendReplDataForFetcher(nss, req.body, result);
    }
};
FindCmd findCmd;

// Holds a checked-out cursor for a getMore: returns it to the manager (checkIn), or destroys
// it (forget) when the getMore fails or exhausts it, so that the manager never keeps a
// pointer to a finished operation.
class PinnedCursor {
public:
    explicit PinnedCursor(std::unique_ptr<ClientCursor> c) : _c(std::move(c)), _id(_c ? _c->id : 0) {}
    ~PinnedCursor() {
        if (_c) CursorManager::get().forget(_id);
    }
    ClientCursor* operator->() const { return _c.get(); }
    ClientCursor& operator*() const { return *_c; }
    explicit operator bool() const { return _c != nullptr; }
    void checkIn() { CursorManager::get().checkIn(std::move(_c)); }

private:
    std::unique_ptr<ClientCursor> _c;
    long long _id;
};

// How long an awaitData getMore waits for inserts without a maxTimeMS (MongoDB's default).
constexpr long long kDefaultAwaitDataMillis = 1000;

class GetMoreCmd : public Command {
public:
    GetMoreCmd() : Command("getMore") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::getMorePrivileges(req); }
    std::string help() const override { return "retrieve more results from an existing cursor"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement idElem = req.body.firstElement();
        if (idElem.type() != NumberLong)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'getMore.getMore' is the wrong type '" +
                                                    typeName(idElem.type()) + "', expected type 'long'");
        BSONElement collElem = req.body["collection"];
        if (collElem.type() != String)
            uasserted(collElem.eoo() ? ErrorCodes::Location40414 : ErrorCodes::TypeMismatch,
                      "BSON field 'getMore.collection' is missing but a required field");
        long long batchSize = -1;  // absent or 0: as many as fit in 16 MB
        if (!req.body["batchSize"].eoo()) {
            batchSize = parseIntegerArg(req.body["batchSize"], "getMore");
            if (batchSize < 0)
                uasserted(51024, "BSON field 'batchSize' value must be >= 0, actual value '" + std::to_string(batchSize) + "'");
            if (batchSize == 0) batchSize = -1;
        }
        long long id = idElem.numberLong();
        NamespaceString nss(req.db(), collElem.valueStringData());
        observeFetcherTerm(nss, req.body);
        processFetcherPosition(opCtx, nss, req.body);
        uassertStatusOK(NamespaceString::validateCursorNamespace(nss.db(), nss.coll()));
        PinnedCursor cursor(CursorManager::get().checkOut(id, opCtx));
        if (!cursor) uasserted(ErrorCodes::CursorNotFound, "cursor id " + std::to_string(id) + " not found");
        if (cursor->nss != nss) {
            cursor.checkIn();
            uasserted(ErrorCodes::Unauthorized, "Requested getMore on namespace '" + nss.ns() +
                                                    "', but cursor belongs to a different namespace");
        }
        if (cursor->owner != auth::cursorOwner(opCtx)) {
            cursor.checkIn();
            uasserted(ErrorCodes::Unauthorized,
                      "cursor id " + std::to_string(id) + " was not created by the authenticated user");
        }
        // A cursor reads the snapshot of the transaction that opened it (its recovery unit):
        // only that transaction's getMores continue it, and a transaction continues no other.
        const std::string inTxn = opCtx->transactionCursorKey ? *opCtx->transactionCursorKey : std::string();
        if (cursor->transaction != inTxn) {
            const bool fromTxn = !cursor->transaction.empty();
            cursor.checkIn();
            uasserted(fromTxn ? 50740 : int(ErrorCodes::OperationNotSupportedInTransaction),
                      fromTxn ? "Cannot run getMore on cursor " + std::to_string(id) +
                                    ", which was created in a transaction, outside that transaction"
                              : "Cannot run getMore on cursor " + std::to_string(id) +
                                    ", which was not created in this transaction, in a transaction");
        }
        failGetMoreAfterCursorCheckout.execute([](const BSONObj& data) {
            long long code = 0;
            BSONElement e = data["errorCode"];
            if (!e.isNumber() || !e.isIntegral64(&code) || code <= 0 || code > INT32_MAX) code = static_cast<long long>(ErrorCodes::InternalError);
            uasserted(static_cast<int>(code), "Fail point failGetMoreAfterCursorCheckout enabled");
        });
        // maxTimeMS on a getMore is the time an awaitData cursor waits for inserts, and is
        // refused for other cursors (their time limit was the originating command's).
        BSONElement maxTime = req.body["maxTimeMS"];
        if (!maxTime.eoo() && !cursor->awaitData) {
            cursor.checkIn();
            uasserted(ErrorCodes::BadValue, "cannot set maxTimeMS on getMore command for a non-awaitData cursor");
        }
        std::chrono::steady_clock::time_point awaitDeadline;
        if (!cursor->awaitData && cursor->leftoverMaxTime) {
            // The originating command's maxTimeMS goes on (checkIn keeps what is left); a
            // getMore out of time fails and its cursor is destroyed, as MongoDB's.
            // (In whole milliseconds, rounded up; at least 1: 0 would mean no limit.)
            const long long leftMs = (cursor->leftoverMaxTime->count() + 999) / 1000;
            opCtx->setDeadlineAfterMillis(std::max(leftMs, 1LL));
            opCtx->checkForInterrupt();
        }
        if (cursor->awaitData) {
            opCtx->setDeadlineAfterMillis(0);  // not a deadline of the command: it just stops waiting
            long long waitMs = maxTime.eoo() ? kDefaultAwaitDataMillis : maxTime.numberLong();
            awaitDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(waitMs);
        }

        BSONArrayBuilder docs;
        const long long returnedBefore = cursor->nReturned;
        bool exhausted;
        while (true) {
            // Read the version before looking: an insert committing after the scan found
            // nothing then still ends the wait below.
            auto notifier = cursor->insertNotifier;
            uint64_t seen = notifier ? notifier->version() : 0;
            {
                CatalogReadLock lock;
                cursor->source->restore();
                exhausted = fillBatch(opCtx, *cursor, batchSize, docs);
                if (cursor->tailable) exhausted = cursor->source->ended();  // it stays open at the end
                if (!exhausted) cursor->source->save();
            }
            if (cursor->nReturned > returnedBefore || !cursor->awaitData || !notifier || exhausted) break;
            // Nothing yet: wait (holding no lock) for an insert, then look again; a wake by an
            // insert the filter does not match just leads to another wait.
            if (!notifier->waitForChange(opCtx, seen, awaitDeadline)) break;
        }
        const std::optional<BSONObj> resumeToken = cursor->source->postBatchResumeToken();
        if (!exhausted) cursor.checkIn();  // else the pin destroys it
        appendCursorReply(result, "nextBatch", docs.arr(), exhausted ? 0 : id, nss.ns(), resumeToken);
        appendReplDataForFetcher(nss, req.body, result);
    }
};
GetMoreCmd getMoreCmd;

class KillCursorsCmd : public Command {
public:
    KillCursorsCmd() : Command("killCursors") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::killCursors}); }
    std::string help() const override { return "kill a list of cursor ids"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        // The namespace of a command cursor ("$cmd.listCollections"...) is a valid target here.
        BSONElement first = req.body.firstElement();
        if (first.type() != String)
            uasserted(ErrorCodes::InvalidNamespace, "collection name has invalid type " + typeName(first.type()));
        uassertStatusOK(NamespaceString::validateCursorNamespace(req.db(), first.valueStringData()));
        BSONElement ids = req.body["cursors"];
        if (ids.type() != Array)
            uasserted(ErrorCodes::Location40414, "BSON field 'killCursors.cursors' is missing but a required field");
        BSONArrayBuilder killed, notFound, alive, unknown;
        // Only the users who opened a cursor may kill it, or one with killAnyCursor (as MongoDB):
        // checked for every id before any is killed.
        for (BSONElement e : ids.Obj()) {
            if (e.type() != NumberLong) continue;
            auto owner = CursorManager::get().ownerOf(e.numberLong());
            if (owner && *owner != auth::cursorOwner(opCtx) && !auth::mayKillAnyCursor(opCtx))
                uasserted(ErrorCodes::Unauthorized, "not authorized to kill cursor " + std::to_string(e.numberLong()));
        }
        for (BSONElement e : ids.Obj()) {
            if (e.type() != NumberLong)
                uasserted(ErrorCodes::TypeMismatch, "BSON field 'killCursors.cursors' is the wrong type");
            long long id = e.numberLong();
            if (CursorManager::get().kill(id)) killed.append(id);
            else notFound.append(id);
        }
        result.append("cursorsKilled", killed.arr());
        result.append("cursorsNotFound", notFound.arr());
        result.append("cursorsAlive", alive.arr());
        result.append("cursorsUnknown", unknown.arr());
    }
};
KillCursorsCmd killCursorsCmd;

}  // namespace
}  // namespace mongo
