#include "mongo/db/change_stream/change_stream_cursor.h"

#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/service_context.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {
namespace {

using change_stream::ResumeToken;
using change_stream::Scope;

constexpr size_t kEntriesPerRefill = 1000;

bool isInternalDb(const std::string& db) { return db == "admin" || db == "config" || db == "local"; }

// What the $changeStream stage asks for, checked as MongoDB checks it.
ChangeStreamCursorSource::Spec parseSpec(OperationContext* opCtx, const AggregateRequest& ar) {
    BSONElement specEl = ar.stages.front().firstElement();
    uassert(50808, "$changeStream stage expects a document as argument", specEl.type() == Object);
    ChangeStreamCursorSource::Spec spec;
    std::optional<ResumeToken> resume;
    std::optional<Timestamp> startAt;
    bool allChangesForCluster = false;
    int resumeOptions = 0;
    for (BSONElement e : specEl.embeddedObject()) {
        const std::string f = e.fieldName();
        auto wrongType = [&](const char* expected) {
            uasserted(ErrorCodes::TypeMismatch, "BSON field '$changeStream." + f + "' is the wrong type '" +
                                                    typeName(e.type()) + "', expected type '" + expected + "'");
        };
        if (f == "fullDocument") {
            if (e.type() != String) wrongType("string");
            const std::string v = e.str();
            if (v == "updateLookup")
                spec.options.updateLookup = true;
            else if (v == "whenAvailable" || v == "required")
                uasserted(ErrorCodes::NotImplemented,
                          "fullDocument: '" + v + "' needs the post-images this server does not record; use "
                          "'updateLookup' or 'default'");
            else if (v != "default")
                uasserted(ErrorCodes::BadValue, "Enumeration value '" + v + "' for field '$changeStream.fullDocument' "
                                                "is not a valid value.");
        } else if (f == "fullDocumentBeforeChange") {
            if (e.type() != String) wrongType("string");
            const std::string v = e.str();
            if (v == "whenAvailable" || v == "required")
                uasserted(ErrorCodes::NotImplemented,
                          "fullDocumentBeforeChange: '" + v + "' needs the pre-images this server does not record");
            if (v != "off")
                uasserted(ErrorCodes::BadValue, "Enumeration value '" + v + "' for field "
                                                "'$changeStream.fullDocumentBeforeChange' is not a valid value.");
        } else if (f == "resumeAfter" || f == "startAfter") {
            if (e.type() != Object) wrongType("object");
            auto t = ResumeToken::parse(e.embeddedObject());
            uassertStatusOK(t.getStatus());
            uassert(ErrorCodes::InvalidResumeToken,
                    "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate "
                    "notification.",
                    !(f == "resumeAfter" && t.getValue().fromInvalidate()));
            resume = t.getValue();
            ++resumeOptions;
        } else if (f == "startAtOperationTime") {
            if (e.type() != bsonTimestamp) wrongType("timestamp");
            startAt = e.timestamp();
            ++resumeOptions;
        } else if (f == "allChangesForCluster") {
            if (e.type() != Bool) wrongType("bool");
            allChangesForCluster = e.boolean();
        } else if (f == "showExpandedEvents") {
            if (e.type() != Bool) wrongType("bool");
            uassert(ErrorCodes::NotImplemented,
                    "showExpandedEvents is not supported by this server (its streams show CRUD, drop, rename, "
                    "dropDatabase and invalidate events)",
                    !e.boolean());
        } else {
            uasserted(ErrorCodes::Location40415, "BSON field '$changeStream." + f + "' is an unknown field.");
        }
    }
    uassert(ErrorCodes::Location40674, "Only one type of resume option is allowed, but multiple were found.",
            resumeOptions <= 1);

    const std::string db = ar.nss.db();
    if (ar.collectionless) {
        if (allChangesForCluster) {
            uassert(ErrorCodes::InvalidOptions,
                    "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, "
                    "and with no collection name",
                    db == "admin");
            spec.scope.kind = Scope::Kind::kCluster;
        } else {
            uassert(ErrorCodes::InvalidNamespace, "$changeStream may not be opened on the internal " + db + " database",
                    !isInternalDb(db));
            spec.scope.kind = Scope::Kind::kDatabase;
        }
    } else {
        uassert(ErrorCodes::InvalidOptions,
                "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and "
                "with no collection name",
                !allChangesForCluster);
        uassert(ErrorCodes::InvalidNamespace, "$changeStream may not be opened on the internal " + db + " database",
                !isInternalDb(db));
        uassert(ErrorCodes::InvalidNamespace,
                "$changeStream may not be opened on the internal " + ar.nss.ns() + " collection",
                ar.nss.coll().rfind("system.", 0) != 0);
        uassert(ErrorCodes::CommandNotSupportedOnView,
                "Namespace " + ar.nss.ns() + " is a view, not a collection", !ViewCatalog::resolve(opCtx, ar.nss));
        spec.scope.kind = Scope::Kind::kCollection;
        spec.scope.coll = ar.nss.coll();
    }
    spec.scope.db = db;

    // Where the stream begins: after the resume token's entry, at startAtOperationTime, or
    // after the newest entry this member applied.
    std::optional<Timestamp> resumePoint;
    auto before = [](Timestamp t) { return Timestamp::fromULL(t.asULL() == 0 ? 0 : t.asULL() - 1); };
    if (resume && resume->kind != ResumeToken::Kind::kHighWaterMark) {
        // The token's entry is read again: an invalidate may follow the event in it.
        spec.after = before(resume->ts);
        spec.skipThrough = resume->toBSON()["_data"].str();
        spec.entryMustExist = resume->ts;
        spec.startToken = resume->toBSON();
        resumePoint = resume->ts;
    } else if (resume) {
        spec.after = resume->ts;
        spec.startToken = resume->toBSON();
        resumePoint = resume->ts;
    } else if (startAt) {
        spec.after = before(*startAt);
        resumePoint = *startAt;
    } else {
        spec.after = repl::ReplicationCoordinator::get()->lastApplied().getTimestamp();
    }
    if (spec.startToken.isEmpty()) {
        ResumeToken t;
        t.ts = spec.after;
        t.kind = ResumeToken::Kind::kHighWaterMark;
        spec.startToken = t.toBSON();
    }
    if (resumePoint) {
        const auto first = repl::LocalOplog::get()->readFirst(opCtx).first;
        uassert(ErrorCodes::ChangeStreamHistoryLost,
                "Resume of change stream was not possible, as the resume point may no longer be in the oplog.",
                first.isNull() || !(*resumePoint < first.getTimestamp()));
    }
    return spec;
}

}  // namespace

bool isChangeStreamPipeline(const AggregateRequest& ar) {
    return !ar.stages.empty() && std::string_view(ar.stages.front().firstElementFieldName()) == "$changeStream";
}

ChangeStreamCursorSource::ChangeStreamCursorSource(OperationContext* opCtx, const NamespaceString& nss, Spec spec,
                                                   const std::vector<BSONObj>& stages)
    : _client(opCtx->getClient()), _spec(std::move(spec)), _scanned(_spec.after) {
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, repl::LocalOplog::nss());
    uassert(40573, "The $changeStream stage is only supported on replica sets", oplog);
    QueryRequest qr;
    BSONObjBuilder gt;
    gt.append("$gt", _spec.after);
    BSONObjBuilder filter;
    filter.append("ts", gt.obj());
    qr.filter = filter.obj();
    qr.tailable = true;
    _exec = std::make_unique<PlanExecutor>(_client, oplog, repl::LocalOplog::nss(), qr, PlanPurpose::kFind, "", opCtx);
    PipelineContext ctx;
    ctx.db = nss.db();
    // The operation running the batch (the aggregate, then each getMore), not this one.
    ctx.checkForInterrupt = [] {
        if (const OperationContext* op = currentOperationOnThisThread()) op->checkForInterrupt();
    };
    _pipeline = std::make_unique<Pipeline>(stages, std::move(ctx));
    _pipeline->setSource([this]() -> std::optional<BSONObj> {
        if (_pending.empty()) return std::nullopt;
        BSONObj d = std::move(_pending.front());
        _pending.pop_front();
        return d;
    });
}

bool ChangeStreamCursorSource::refill(const OperationContext* interruptCtx) {
    if (_invalidated) return false;
    // Only what a majority holds: an entry past the commit point waits in _held.
    const Timestamp committed = repl::ReplicationCoordinator::get()->majorityCommitPoint().getTimestamp();
    OperationContext* storage = _exec->storageContext();
    auto lookup = [storage](const std::string& ns, const BSONObj& documentKey) -> std::optional<BSONObj> {
        Collection* c = CollectionCatalog::get()->lookupCollection(storage, NamespaceString::parse(ns));
        if (!c || documentKey["_id"].eoo()) return std::nullopt;
        auto r = findDocumentById(storage, c, documentKey["_id"]);
        if (!r) return std::nullopt;
        return r->doc.getOwned();
    };
    // The earlier entries of a transaction written as a chain: read with an operation of
    // their own, which leaves the cursor's snapshot alone.
    auto readEntry = [](const repl::OpTime& t) -> std::optional<BSONObj> {
        auto own = makeOperationContext(internalClient());
        return repl::readOplogEntryUnderCatalogLock(own.get(), t);
    };
    bool any = false;
    for (size_t n = 0; n < kEntriesPerRefill; ++n) {
        BSONObj entry;
        if (_held) {
            entry = *_held;
        } else {
            auto d = _exec->getNext(interruptCtx);
            if (!d) break;
            entry = d->getOwned();
        }
        const Timestamp ts = entry["ts"].timestamp();
        if (_spec.entryMustExist) {
            // The resume token's own entry must come first: else it is not in this oplog (rolled
            // back, another set's token): MongoDB's ChangeStreamFatalError.
            uassert(ErrorCodes::ChangeStreamFatalError, "cannot resume stream; the resume token was not found.",
                    ts == *_spec.entryMustExist);
            _spec.entryMustExist.reset();
        }
        if (committed < ts) {
            _held = entry;
            break;
        }
        _held.reset();
        for (BSONObj& ev : change_stream::eventsFor(entry, _spec.scope, _spec.options, lookup, readEntry)) {
            // Resumed from an event of this entry: what the client already had is not shown again.
            if (_spec.skipThrough && ev["_id"].embeddedObject()["_data"].str() <= *_spec.skipThrough) continue;
            if (ev["operationType"].str() == "invalidate") _invalidated = true;
            _pending.push_back(std::move(ev));
        }
        _spec.skipThrough.reset();  // only the first entry is the token's
        _scanned = ts;
        any = true;
        if (_invalidated) break;  // nothing follows an invalidate
    }
    return any;
}

std::optional<BSONObj> ChangeStreamCursorSource::next(const OperationContext* interruptCtx) {
    if (_ended) return std::nullopt;
    try {
        while (true) {
            if (auto d = _pipeline->getNext()) {
                BSONElement id = (*d)["_id"];
                auto token = id.type() == Object ? ResumeToken::parse(id.embeddedObject())
                                                 : StatusWith<ResumeToken>(ErrorCodes::BadValue, "");
                uassert(ErrorCodes::ChangeStreamFatalError,
                        "Encountered an event whose _id field, which contains the resume token, was modified by the "
                        "pipeline. Modifying the _id field of an event makes it impossible to resume the stream from "
                        "that point. Only transformations that retain the unmodified _id field are allowed.",
                        token.isOK());
                if (token.getValue().fromInvalidate()) _invalidateEmitted = true;
                ++_notReturned;
                return d;
            }
            if (_invalidated && _pending.empty()) {
                // The invalidate was filtered out: the stream ends all the same. (Emitted, it
                // ends when it is returned.)
                if (!_invalidateEmitted) _ended = true;
                return std::nullopt;
            }
            if (!refill(interruptCtx)) return std::nullopt;
        }
    } catch (const DBException& e) {
        // The oplog rolled over the stream's position: its history is gone, as MongoDB says it.
        if (e.code() == static_cast<int>(ErrorCodes::CappedPositionLost))
            uasserted(ErrorCodes::ChangeStreamHistoryLost,
                      "Resume of change stream was not possible, as the resume point may no longer be in the oplog.");
        throw;
    }
}

void ChangeStreamCursorSource::returned(const BSONObj& doc) {
    if (_notReturned > 0) --_notReturned;
    BSONElement id = doc["_id"];
    if (id.type() != Object) return;
    _lastReturned = id.embeddedObject().getOwned();
    auto token = ResumeToken::parse(*_lastReturned);
    if (token.isOK() && token.getValue().fromInvalidate()) _ended = true;
}

std::optional<BSONObj> ChangeStreamCursorSource::postBatchResumeToken() const {
    // Events produced but not yet in a batch: resume from the last one returned (or where the
    // stream began). Otherwise every entry up to _scanned is accounted for: the last event's own
    // token when it is of that entry, else a high-water mark there.
    if (!_pending.empty() || _notReturned > 0 || _scanned == _spec.after)
        return _lastReturned ? *_lastReturned : _spec.startToken;
    if (_lastReturned) {
        auto last = ResumeToken::parse(*_lastReturned);
        if (last.isOK() && last.getValue().ts == _scanned) return *_lastReturned;
    }
    ResumeToken hwm;
    hwm.ts = _scanned;
    hwm.kind = ResumeToken::Kind::kHighWaterMark;
    return hwm.toBSON();
}

void ChangeStreamCursorSource::save() { _exec->saveState(); }

void ChangeStreamCursorSource::restore() {
    _exec->restoreState(CollectionCatalog::get()->lookupCollection(_exec->storageContext(), repl::LocalOplog::nss()));
}

void runChangeStream(OperationContext* opCtx, const AggregateRequest& ar, BSONObjBuilder& result) {
    uassert(40573, "The $changeStream stage is only supported on replica sets",
            repl::ReplicationCoordinator::get()->isReplSet());
    static const std::set<std::string, std::less<>> kAllowed = {"$match",       "$project",     "$addFields",
                                                               "$set",         "$unset",       "$replaceRoot",
                                                               "$replaceWith", "$redact"};
    std::vector<BSONObj> rest(ar.stages.begin() + 1, ar.stages.end());
    for (const BSONObj& st : rest) {
        const std::string name(st.firstElementFieldName());
        uassert(ErrorCodes::Location40602, "$changeStream is only valid as the first stage in a pipeline",
                name != "$changeStream");
        uassert(ErrorCodes::IllegalOperation, name + " is not permitted in a $changeStream pipeline",
                kAllowed.count(name));
    }
    uassert(ErrorCodes::NotImplemented, "explain of a $changeStream pipeline is not supported by this server",
            !ar.explain);
    CatalogReadLock lock;
    ChangeStreamCursorSource::Spec spec = parseSpec(opCtx, ar);
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, repl::LocalOplog::nss());
    uassert(40573, "The $changeStream stage is only supported on replica sets", oplog);
    auto cursor = std::make_unique<ClientCursor>();
    cursor->nss = ar.nss;
    cursor->lsid = opCtx->lsid;
    cursor->owner = auth::cursorOwner(opCtx);
    cursor->tailable = true;
    cursor->awaitData = true;
    cursor->insertNotifier = repl::LocalOplog::get()->readerNotifier();  // commits and commit point moves
    cursor->changeStream = true;
    cursor->source = std::make_unique<ChangeStreamCursorSource>(opCtx, ar.nss, std::move(spec), rest);
    // Events stop at the commit point already: no second wait after each batch (readConcern
    // majority, or a majority default).
    opCtx->readsMajorityCommitted = false;
    BSONArrayBuilder docs;
    fillBatch(opCtx, *cursor, ar.batchSize, docs);
    const std::optional<BSONObj> token = cursor->source->postBatchResumeToken();
    long long id = 0;
    if (!cursor->source->ended()) {
        cursor->source->save();
        id = CursorManager::get().registerCursor(std::move(cursor));
    }
    appendCursorReply(result, "firstBatch", docs.arr(), id, ar.nss.ns(), token);
}

bool isChangeStreamCommand(const std::string& name, const BSONObj& body) {
    if (name == "aggregate") {
        BSONElement p = body["pipeline"];
        if (p.type() != Array) return false;
        BSONObj stages = p.embeddedObject();
        return !stages.isEmpty() && stages.firstElement().type() == Object &&
               std::string_view(stages.firstElement().embeddedObject().firstElementFieldName()) == "$changeStream";
    }
    if (name == "getMore") {
        BSONElement id = body.firstElement();
        return id.type() == NumberLong && CursorManager::get().isChangeStream(id.numberLong());
    }
    return false;
}

BSONObj withResumableChangeStreamLabel(const BSONObj& reply) {
    // The errors after which drivers resume a stream (MongoDB 7.0 labels the same ones).
    static const std::set<int> kResumable = {6,    7,    89,    91,    133,   150,   189,   234,   262,
                                             9001, 10107, 11600, 11602, 13388, 13435, 13436, 63};
    if (reply["ok"].trueValue() || !kResumable.count(reply["code"].numberInt())) return reply;
    BSONObjBuilder b;
    BSONArrayBuilder labels;
    bool has = false;
    for (BSONElement e : reply) {
        if (e.fieldNameStringData() != "errorLabels") {
            b.append(e);
            continue;
        }
        if (e.type() == Array)
            for (BSONElement l : e.embeddedObject()) {
                labels.append(l);
                if (l.type() == String && l.str() == "ResumableChangeStreamError") has = true;
            }
    }
    if (!has) labels.append("ResumableChangeStreamError");
    b.appendArray("errorLabels", labels.arr());
    return b.obj();
}

}  // namespace mongo
