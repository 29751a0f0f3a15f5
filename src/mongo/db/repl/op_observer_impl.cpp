#include "mongo/db/repl/op_observer_impl.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/repl/dedup/oplog_delta_encoding.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/repl/update_diff.h"
#include "mongo/db/transaction/transaction_scope.h"

namespace mongo {
namespace repl {
namespace {

BSONObj idOf(const BSONObj& doc) {
    BSONObjBuilder b;
    BSONElement id = doc["_id"];
    if (!id.eoo()) b.append(id);
    return b.obj();
}

std::string commandNs(const std::string& db) { return db + ".$cmd"; }

void append(OperationContext* opCtx, OplogEntry e) { LocalOplog::get()->append(opCtx, &e); }

bool active() { return LocalOplog::get()->enabled() && !UnreplicatedWritesBlock::active(); }

// --- retryable writes (retryable_write.h) ---
// A document write of a retryable write's statement: the entry carries the session fields and
// the session's record is written in the same unit. image: a findAndModify's pre/post image.
// A secondary applying such an entry records its findAndModify image instead.
void appendDocumentWrite(OperationContext* opCtx, OplogEntry* e, const BSONObj& pre, const BSONObj& post) {
    // A multi-document transaction's write joins the transaction: its commit logs them all
    // in one applyOps entry (transaction/transaction_scope.h).
    if (opCtx->transaction) {
        opCtx->transaction->addOperation(e->toApplyOpsElement());
        return;
    }
    if (ApplyingEntryScope::current()) recordRetryImageWhileApplying(opCtx, pre, post);
    RetryableWrite* rw = RetryableWrite::get(opCtx);
    if (rw) rw->decorate(e);
    LocalOplog::get()->append(opCtx, e);  // fills e's optime
    if (rw) rw->onEntryAppended(opCtx, *e, e->needsRetryImage == "postImage" ? post : pre);
}
// Whether a document write to nss is observed. A retryable write's statement on the local
// database (never replicated, so never recorded) is refused, as in 7.0; the oplog's own
// insert of the statement's entry is not such a statement.
bool observeDocumentWrite(OperationContext* opCtx, const NamespaceString& nss) {
    if (!active()) return false;
    if (OpObserverImpl::isReplicated(nss)) return true;
    if (nss == LocalOplog::nss()) return false;
    RetryableWrite* rw = RetryableWrite::get(opCtx);
    uassert(ErrorCodes::IllegalOperation, "retryable writes is not supported for unreplicated ns: " + nss.ns(),
            !rw || !rw->hasCurrentStatement() || nss.db() != "local");
    return false;
}
// --- end retryable writes ---

// A DDL change: a 'c' entry on <db>.$cmd whose o is the command as a secondary applies it.
// A transaction's (create, createIndexes) is an operation of its applyOps entry, as MongoDB's.
void appendCommand(OperationContext* opCtx, const std::string& db, const std::string& uuidHex, BSONObj o,
                   BSONObj o2 = BSONObj()) {
    OplogEntry e;
    e.op = OpTypeEnum::kCommand;
    e.ns = commandNs(db);
    e.uuidHex = uuidHex;
    e.o = std::move(o);
    if (!o2.isEmpty()) e.o2 = std::move(o2);
    if (opCtx->transaction) {
        opCtx->transaction->addOperation(e.toApplyOpsElement());
        return;
    }
    append(opCtx, std::move(e));
}

}  // namespace

bool OpObserverImpl::isReplicated(const NamespaceString& nss) {
    return nss.db() != "local" && nss.coll() != "system.profile";
}

void OpObserverImpl::onInsert(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) {
    if (!observeDocumentWrite(opCtx, coll.ns())) return;
    OplogEntry e;
    e.op = OpTypeEnum::kInsert;
    e.ns = coll.ns().ns();
    e.uuidHex = coll.uuid();
    e.o = doc;
    e.o2 = idOf(doc);
    appendDocumentWrite(opCtx, &e, BSONObj(), doc);
}

void OpObserverImpl::onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre,
                              const BSONObj& post) {
    if (!observeDocumentWrite(opCtx, coll.ns())) return;
    OplogEntry e;
    e.op = OpTypeEnum::kUpdate;
    e.ns = coll.ns().ns();
    e.uuidHex = coll.uuid();
    // The $v: 2 diff when it is smaller than the new document; else the replacement.
    if (auto diff = computeUpdateDiff(pre, post))
        e.o = OplogEntry::makeUpdateDiffObject(*diff);
    else
        e.o = post;
    e.o2 = idOf(post);
    appendDocumentWrite(opCtx, &e, pre, post);
    // Members that fetch with dedup may get o as a delta from the pre-image (repl/dedup);
    // not a transaction's update, whose entry is its commit's applyOps.
    if (!opCtx->transaction) noteUpdate(opCtx, coll, pre, e.o, e.opTime.getTimestamp());
}

void OpObserverImpl::onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& deleted) {
    if (!observeDocumentWrite(opCtx, coll.ns())) return;
    OplogEntry e;
    e.op = OpTypeEnum::kDelete;
    e.ns = coll.ns().ns();
    e.uuidHex = coll.uuid();
    e.o = idOf(deleted);
    appendDocumentWrite(opCtx, &e, deleted, BSONObj());
}

void OpObserverImpl::onCreateCollection(OperationContext* opCtx, const Collection& coll, const BSONObj& idIndexSpec) {
    if (!active() || !isReplicated(coll.ns())) return;
    BSONObjBuilder o;
    o.append("create", coll.ns().coll());
    for (BSONElement opt : coll.options().raw)
        if (opt.fieldNameStringData() != "create" && opt.fieldNameStringData() != "idIndex") o.append(opt);
    if (!idIndexSpec.isEmpty()) o.append("idIndex", idIndexSpec);
    appendCommand(opCtx, coll.ns().db(), coll.uuid(), o.obj());
}

void OpObserverImpl::onDropCollection(OperationContext* opCtx, const NamespaceString& nss, const std::string& uuid) {
    if (!active() || !isReplicated(nss)) return;
    BSONObjBuilder o;
    o.append("drop", nss.coll());
    appendCommand(opCtx, nss.db(), uuid, o.obj());
}

void OpObserverImpl::onDropDatabase(OperationContext* opCtx, const std::string& db) {
    if (!active() || db == "local") return;
    BSONObjBuilder o;
    o.append("dropDatabase", 1);
    appendCommand(opCtx, db, std::string(), o.obj());
}

void OpObserverImpl::onCreateIndex(OperationContext* opCtx, const Collection& coll, const BSONObj& spec) {
    if (!active() || !isReplicated(coll.ns())) return;
    BSONObjBuilder o;
    o.append("createIndexes", coll.ns().coll());
    for (BSONElement f : spec)
        if (f.fieldNameStringData() != "ns") o.append(f);
    appendCommand(opCtx, coll.ns().db(), coll.uuid(), o.obj());
}

void OpObserverImpl::onDropIndex(OperationContext* opCtx, const Collection& coll, const std::string& name,
                                 const BSONObj& spec) {
    if (!active() || !isReplicated(coll.ns())) return;
    BSONObjBuilder o;
    o.append("dropIndexes", coll.ns().coll());
    o.append("index", name);
    appendCommand(opCtx, coll.ns().db(), coll.uuid(), o.obj(), spec);
}

void OpObserverImpl::onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                        const NamespaceString& to, const std::string& uuid,
                                        const std::string& dropTargetUuid) {
    if (!active() || (!isReplicated(from) && !isReplicated(to))) return;
    BSONObjBuilder o;
    o.append("renameCollection", from.ns());
    o.append("to", to.ns());
    o.append("stayTemp", false);
    unsigned char bytes[16];
    if (!dropTargetUuid.empty() && uuidHexToBytes(dropTargetUuid, bytes)) o.appendBinData("dropTarget", 16, 4, bytes);
    appendCommand(opCtx, from.db(), uuid, o.obj());
}

}  // namespace repl
}  // namespace mongo
