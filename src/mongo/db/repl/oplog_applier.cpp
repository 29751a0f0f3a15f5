#include "mongo/db/repl/oplog_applier.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/catalog/given_collection_uuid.h"
#include "mongo/db/catalog/index_constraints.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/repl/transaction_oplog.h"
#include "mongo/db/repl/update_diff.h"

namespace mongo {
namespace repl {
namespace {

Collection* collectionFor(OperationContext* opCtx, const OplogEntry& e) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString::parse(e.ns));
    uassert(ErrorCodes::NamespaceNotFound, "cannot apply an operation on " + e.ns + ": the collection does not exist", c);
    return c;
}

// The entry itself when the operation wrote none (a no-op, or an idempotent case that
// changed nothing), in its own unit of work.
void writeEntryIfNotWritten(OperationContext* opCtx, ApplyingEntryScope& scope, const BSONObj& doc) {
    if (scope.written) return;
    WriteUnitOfWork wuow(opCtx);
    LocalOplog::get()->appendVerbatim(opCtx, doc, scope.opTime(), scope.wall());
    wuow.commit();
}

// One insert, update or delete. REQUIRES: the collection write lock, a unit of work.
void applyCrudOp(OperationContext* opCtx, const OplogEntry& e) {
    Collection* c = collectionFor(opCtx, e);
    switch (e.op) {
        case OpTypeEnum::kInsert: {
            BSONElement id = e.o["_id"];
            std::optional<Record> existing = id.eoo() ? std::nullopt : findDocumentById(opCtx, c, id);
            if (existing)
                c->updateDocument(opCtx, existing->id, existing->doc, e.o);  // applied before: replace
            else
                c->insertDocument(opCtx, e.o);
            break;
        }
        case OpTypeEnum::kUpdate: {
            uassert(ErrorCodes::FailedToParse, "update entry without o2._id", e.o2 && !(*e.o2)["_id"].eoo());
            std::optional<Record> existing = findDocumentById(opCtx, c, (*e.o2)["_id"]);
            uassert(ErrorCodes::NoSuchKey,
                    "cannot apply an update to " + e.ns + ": no document with " + e.o2->jsonString() +
                        " (this member's data differs from its sync source's)",
                    existing.has_value());
            BSONObj post;
            if (e.isDiffUpdate()) {
                post = applyUpdateDiff(existing->doc, e.o["diff"].embeddedObject());
            } else {
                post = e.o;
            }
            if (!post.binaryEqual(existing->doc)) c->updateDocument(opCtx, existing->id, existing->doc, post);
            break;
        }
        case OpTypeEnum::kDelete: {
            std::optional<Record> existing = findDocumentById(opCtx, c, e.o["_id"]);
            if (existing) c->deleteDocument(opCtx, existing->id);  // a missing one was deleted before
            break;
        }
        default:
            break;
    }
}

void applyCrud(OperationContext* opCtx, const OplogEntry& e, const BSONObj& doc, OplogApplier::Mode mode) {
    CollectionWriteLock lock;
    ApplyingEntryScope scope(doc, e.opTime, e.wall);
    scope.dataMayBeAhead = mode == OplogApplier::Mode::kInitialSync;
    WriteUnitOfWork wuow(opCtx);
    applyCrudOp(opCtx, e);
    if (!scope.written) LocalOplog::get()->appendVerbatim(opCtx, doc, e.opTime, e.wall);
    onRetryableEntryApplied(opCtx, e);  // retryable writes: config.transactions follows the entry
    wuow.commit();
}

bool toleratedDuringInitialSync(int code);
void applyCommandOp(OperationContext* opCtx, const OplogEntry& e, OplogApplier::Mode mode);

// A committed transaction's applyOps entry: every operation in one unit of work, so that the
// transaction becomes visible on this member all at once, as on the primary. The entry is
// written with the first operation (ApplyingEntryScope), and the session's record follows it.
void applyTransaction(OperationContext* opCtx, const OplogEntry& e, const BSONObj& doc, OplogApplier::Mode mode) {
    if (isPartialTransactionEntry(e)) {
        // Not committed by itself: kept in the oplog until the transaction's last entry.
        CollectionWriteLock lock;
        ApplyingEntryScope scope(doc, e.opTime, e.wall);
        writeEntryIfNotWritten(opCtx, scope, doc);
        return;
    }
    // The earlier entries of a large transaction are already in this member's oplog: read
    // before any lock is taken.
    const std::vector<BSONObj> ops =
        transactionOperations(e, [&](const OpTime& t) { return readOplogEntry(opCtx, t); });
    std::vector<OplogEntry> parsed;
    bool changesCatalog = false;
    for (const BSONObj& op : ops) {
        parsed.push_back(uassertStatusOK(OplogEntry::parseApplyOpsElement(op)));
        changesCatalog = changesCatalog || parsed.back().op == OpTypeEnum::kCommand;
    }
    // A transaction that created collections or indexes takes the catalog's DDL lock.
    std::optional<CatalogDDLLock> ddlLock;
    std::optional<CollectionWriteLock> writeLock;
    if (changesCatalog)
        ddlLock.emplace();
    else
        writeLock.emplace();
    ApplyingEntryScope scope(doc, e.opTime, e.wall);
    scope.dataMayBeAhead = mode == OplogApplier::Mode::kInitialSync;
    WriteUnitOfWork wuow(opCtx);
    for (OplogEntry& inner : parsed) {
        inner.opTime = e.opTime;
        inner.wall = e.wall;
        try {
            if (inner.op == OpTypeEnum::kCommand)
                applyCommandOp(opCtx, inner, mode);
            else
                applyCrudOp(opCtx, inner);
        } catch (const DBException& ex) {
            // Refused before writing anything: the clone is already past this operation.
            if (mode != OplogApplier::Mode::kInitialSync || !toleratedDuringInitialSync(ex.code())) throw;
        }
    }
    if (!scope.written) LocalOplog::get()->appendVerbatim(opCtx, doc, e.opTime, e.wall);
    onRetryableEntryApplied(opCtx, e);  // the session's record: {state: "committed"}
    wuow.commit();
}

// A DDL entry's change (or a create / createIndexes of a transaction's applyOps entry), under
// the caller's DDL lock.
void applyCommandOp(OperationContext* opCtx, const OplogEntry& e, OplogApplier::Mode mode) {
    CollectionCatalog* catalog = CollectionCatalog::get();
    const std::string db = e.ns.substr(0, e.ns.find('.'));
    const std::string cmd(e.o.firstElementFieldName());
    auto nssOf = [&](const BSONElement& el) { return NamespaceString::parse(db + "." + el.str()); };
    if (cmd == "create") {
        NamespaceString nss = nssOf(e.o.firstElement());
        if (!catalog->lookupCollection(opCtx, nss)) {
            auto options = CollectionOptions::parse(e.o.removeField("idIndex"));
            uassertStatusOK(options.getStatus());
            GivenCollectionUuid sameAsThePrimary(e.uuidHex);
            catalog->createCollection(opCtx, nss, options.getValue());
        }
    } else if (cmd == "drop") {
        NamespaceString nss = nssOf(e.o.firstElement());
        if (catalog->lookupCollection(opCtx, nss)) catalog->dropCollection(opCtx, nss);
    } else if (cmd == "createIndexes") {
        Collection* c = catalog->lookupCollection(opCtx, nssOf(e.o.firstElement()));
        uassert(ErrorCodes::NamespaceNotFound, "createIndexes on a missing collection " + e.ns, c);
        BSONObj spec = e.o.removeField("createIndexes");
        if (!c->getIndexCatalog()->findIndexByName(spec["name"].str())) c->getIndexCatalog()->createIndex(opCtx, spec);
    } else if (cmd == "dropIndexes") {
        Collection* c = catalog->lookupCollection(opCtx, nssOf(e.o.firstElement()));
        const std::string name = e.o["index"].str();
        if (c && c->getIndexCatalog()->findIndexByName(name)) c->getIndexCatalog()->dropIndex(opCtx, name);
    } else if (cmd == "renameCollection") {
        NamespaceString from = NamespaceString::parse(e.o.firstElement().str());
        NamespaceString to = NamespaceString::parse(e.o["to"].str());
        if (catalog->lookupCollection(opCtx, from)) {
            // Initial sync: a target that exists was cloned after the rename; the source's
            // state at the rename (replayed up to here) plus the entries after it replace it.
            const bool dropTarget = mode == OplogApplier::Mode::kInitialSync ||
                                    (!e.o["dropTarget"].eoo() && e.o["dropTarget"].type() != Bool
                                         ? true
                                         : e.o["dropTarget"].trueValue());
            catalog->renameCollection(opCtx, from, to, dropTarget);
        }
    } else if (cmd == "dropDatabase") {
        catalog->dropDatabase(opCtx, db);
    } else {
        uasserted(ErrorCodes::OplogOperationUnsupported, "cannot apply the command entry " + e.o.jsonString());
    }
}

void applyCommand(OperationContext* opCtx, const OplogEntry& e, const BSONObj& doc, OplogApplier::Mode mode) {
    CatalogDDLLock lock;
    ApplyingEntryScope scope(doc, e.opTime, e.wall);
    applyCommandOp(opCtx, e, mode);
    writeEntryIfNotWritten(opCtx, scope, doc);
}

// What initial sync tolerates (see Mode): the clone is already past the entry, or a later
// entry removed what it refers to.
bool toleratedDuringInitialSync(int code) {
    switch (ErrorCodes(code)) {
        case ErrorCodes::NoSuchKey:             // update of a document deleted later
        case ErrorCodes::NamespaceNotFound:     // collection dropped or renamed later
        case ErrorCodes::NamespaceExists:       // created again later
        case ErrorCodes::IndexAlreadyExists:
        case ErrorCodes::IndexOptionsConflict:  // the index was dropped and rebuilt later
        case ErrorCodes::IndexKeySpecsConflict:
        case ErrorCodes::IndexNotFound:
            return true;
        default:
            return false;
    }
}

Status applyOnce(OperationContext* opCtx, const OplogEntry& entry, const BSONObj& doc, OplogApplier::Mode mode) {
    using Mode = OplogApplier::Mode;
    try {
        switch (entry.op) {
            case OpTypeEnum::kInsert:
            case OpTypeEnum::kUpdate:
            case OpTypeEnum::kDelete:
                applyCrud(opCtx, entry, doc, mode);
                break;
            case OpTypeEnum::kCommand:
                if (entry.isApplyOps())
                    applyTransaction(opCtx, entry, doc, mode);
                else
                    applyCommand(opCtx, entry, doc, mode);
                break;
            case OpTypeEnum::kNoop: {
                CollectionWriteLock lock;
                ApplyingEntryScope scope(doc, entry.opTime, entry.wall);
                writeEntryIfNotWritten(opCtx, scope, doc);
                break;
            }
        }
    } catch (const DBException& e) {
        if (mode != Mode::kInitialSync || !toleratedDuringInitialSync(e.code())) return e.toStatus();
        // Skipped: the entry still goes to the oplog, so the member's history is the source's.
        try {
            CollectionWriteLock lock;
            ApplyingEntryScope scope(doc, entry.opTime, entry.wall);
            writeEntryIfNotWritten(opCtx, scope, doc);
        } catch (const DBException& e2) {
            return e2.toStatus();
        }
    }
    return Status::OK();
}

}  // namespace

Status OplogApplier::apply(OperationContext* opCtx, const OplogEntry& entry, const BSONObj& doc, Mode mode,
                           const std::function<bool()>& stopRequested) {
    // Over data that may be past the entry, documents of different moments may hold a unique
    // key twice in between (index_constraints.h).
    std::optional<RelaxedUniqueIndexScope> relaxed;
    if (mode == Mode::kInitialSync) relaxed.emplace();
    // A write conflict here is with a transaction this node began as primary and that the
    // transaction reaper is about to abort (it is woken at step-down): wait and try again.
    for (int attempt = 0;; ++attempt) {
        Status st = applyOnce(opCtx, entry, doc, mode);
        if (st.code() != int(ErrorCodes::WriteConflict) || attempt >= 600) return st;
        if (stopRequested && stopRequested())
            return Status(ErrorCodes::InterruptedDueToReplStateChange, "stopped applying during a write conflict");
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt + 1, 100)));
    }
}

}  // namespace repl
}  // namespace mongo
