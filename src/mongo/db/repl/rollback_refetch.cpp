#include "mongo/db/repl/rollback_refetch.h"

#include <map>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/catalog/index_constraints.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/repl/session_txn_record.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

constexpr size_t kIdsPerFind = 1000;            // and at most kIdBytesPerFind of them
constexpr size_t kIdBytesPerFind = 4u << 20;    // well under a command's 16 MB
constexpr size_t kWritesPerUnit = 500;          // local deletes/inserts per unit of work

// The session collections hold one record per session, keyed by lsid and derived from the
// oplog on every member: no rename or recreation can make another collection's records look
// like theirs, so their UUIDs are not compared.
bool isSessionCollection(const std::string& ns) {
    return ns == transactionsNss().ns() || ns == imageCollectionNss().ns();
}

std::string bytesOf(const BSONObj& o) { return std::string(o.objdata(), size_t(o.objsize())); }

// Every namespace to restore and its touched ids, the sessions' records included.
std::map<std::string, std::vector<BSONObj>> namespacesToRestore(const TouchedDocuments& touched) {
    std::map<std::string, std::vector<BSONObj>> out = touched.ids;
    for (const std::string& ns : {transactionsNss().ns(), imageCollectionNss().ns()}) {
        std::vector<BSONObj>& ids = out[ns];
        std::set<std::string> seen;
        for (const BSONObj& id : ids) seen.insert(bytesOf(id));
        for (const BSONObj& lsid : touched.sessions) {
            BSONObj id = sessionIdQuery(lsid);
            if (seen.insert(bytesOf(id)).second) ids.push_back(id);
        }
        if (ids.empty()) out.erase(ns);
    }
    return out;
}

// The UUID (hex) of the source's collection ns; "" when it has none of that name.
std::string sourceUuid(RemoteClient* source, const NamespaceString& nss) {
    BSONObjBuilder filter;
    filter.append("name", nss.coll());
    BSONObjBuilder cmd;
    cmd.append("listCollections", 1);
    cmd.append("filter", filter.obj());
    BSONObj reply = runOrThrow(source, nss.db(), cmd.obj());
    for (BSONElement e : reply["cursor"].embeddedObject()["firstBatch"].embeddedObject()) {
        BSONObj c = e.embeddedObject();
        if (c["info"].type() != Object) continue;
        auto uuid = uuidHexFromElement(c["info"].embeddedObject()["uuid"]);
        if (uuid) return *uuid;
    }
    return std::string();
}

// Refuses (IllegalOperation) when the source's collection named ns is not ours.
void checkSameCollection(RemoteClient* source, const RefetchedDocuments::Namespace& n) {
    if (isSessionCollection(n.ns) || n.uuidHex.empty()) return;
    const std::string theirs = sourceUuid(source, NamespaceString::parse(n.ns));
    uassert(ErrorCodes::IllegalOperation,
            "the sync source's collection " + n.ns + " is not this member's (UUID " +
                (theirs.empty() ? std::string("none") : uuidHexDashed(theirs)) + " there, " + uuidHexDashed(n.uuidHex) +
                " here): it was dropped, recreated or renamed after the common point",
            theirs == n.uuidHex);
}

// The source's documents among ids (compared by _id without collation, as the _id index is).
void fetchDocuments(RemoteClient* source, const NamespaceString& nss, const std::vector<BSONObj>& ids,
                    RefetchedDocuments* out, RefetchedDocuments::Namespace* n) {
    size_t i = 0;
    while (i < ids.size()) {
        BSONArrayBuilder in;
        size_t bytes = 0, count = 0;
        for (; i < ids.size() && count < kIdsPerFind && bytes < kIdBytesPerFind; ++i, ++count) {
            in.append(ids[i].firstElement());
            bytes += size_t(ids[i].objsize());
        }
        BSONObjBuilder inObj;
        inObj.appendArray("$in", in.arr());
        BSONObjBuilder filter;
        filter.append("_id", inObj.obj());
        BSONObjBuilder collation;
        collation.append("locale", "simple");
        BSONObjBuilder cmd;
        cmd.append("find", nss.coll());
        cmd.append("filter", filter.obj());
        cmd.append("collation", collation.obj());
        RemoteCursor cursor(source, nss.db(), cmd.obj());
        while (!cursor.exhausted()) {
            for (BSONObj& d : cursor.nextBatch()) {
                out->bytes += d.objsize();
                uassert(ErrorCodes::IllegalOperation,
                        "the documents to refetch for a rollback in place exceed " +
                            std::to_string(kMaxRefetchBytes >> 20) + " MB",
                        out->bytes <= kMaxRefetchBytes);
                n->docs.push_back(d.getOwned());
            }
        }
    }
}

// Deletes our oplog's entries after commonPoint, newest first, a unit of work at a time.
long long truncateOplogAfter(OperationContext* opCtx, const OpTime& commonPoint) {
    long long removed = 0;
    while (true) {
        CollectionWriteLock lock;
        Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
        uassert(ErrorCodes::NamespaceNotFound, "the oplog (local.oplog.rs) does not exist", oplog);
        std::vector<RecordId> doomed;
        {
            auto cursor = oplog->getCursor(opCtx, false);
            while (doomed.size() < kWritesPerUnit) {
                auto r = cursor->next();
                if (!r) break;
                auto e = OplogEntry::parse(r->doc);
                uassertStatusOK(e.getStatus());
                if (!(commonPoint < e.getValue().opTime)) break;
                doomed.push_back(r->id);
            }
        }
        if (doomed.empty()) {
            opCtx->recoveryUnit()->abandonSnapshot();
            return removed;
        }
        WriteUnitOfWork wuow(opCtx);
        for (const RecordId& id : doomed) oplog->deleteDocument(opCtx, id);
        wuow.commit();
        removed += static_cast<long long>(doomed.size());
    }
}

// Replaces the touched documents of one namespace by the source's versions (or removes them).
void restoreNamespace(OperationContext* opCtx, const RefetchedDocuments::Namespace& n) {
    const NamespaceString nss = NamespaceString::parse(n.ns);
    auto inUnits = [&](size_t total, const std::function<void(Collection*, size_t)>& step) {
        for (size_t i = 0; i < total;) {
            const size_t end = std::min(total, i + kWritesPerUnit);
            // A write conflict is with a transaction this node began as primary, which the reaper
            // aborts after the step-down: the unit is tried again, no lock held in between.
            retryDDLOnWriteConflict(opCtx, [&] {
                CollectionWriteLock lock;
                Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
                uassert(ErrorCodes::NamespaceNotFound, "cannot roll back " + n.ns + ": the collection is gone", c);
                WriteUnitOfWork wuow(opCtx);
                for (size_t j = i; j < end; ++j) step(c, j);
                wuow.commit();
            });
            i = end;
        }
    };
    // Every touched document goes first, then the source's versions come in: a source version
    // may take a unique key that another touched document holds here.
    inUnits(n.ids.size(), [&](Collection* c, size_t i) {
        if (auto r = findDocumentById(opCtx, c, n.ids[i].firstElement())) c->deleteDocument(opCtx, r->id);
    });
    inUnits(n.docs.size(), [&](Collection* c, size_t i) { c->insertDocument(opCtx, n.docs[i]); });
}

}  // namespace

std::string whyNotInPlace(OperationContext* opCtx, const TouchedDocuments& touched) {
    if (!touched.commands.empty()) {
        const BSONObj& c = touched.commands.front();
        return "the divergent entries include a command (" + c.jsonString().substr(0, 200) + ")";
    }
    CatalogReadLock lock;
    for (const auto& [ns, ids] : touched.ids) {
        Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString::parse(ns));
        if (!c) return "the collection " + ns + " of divergent writes is gone";
        // A capped collection removes its oldest documents on its own on every member, which
        // a refetch cannot restore.
        if (c->options().capped) return "divergent writes to the capped collection " + ns;
        // The featureCompatibilityVersion document is also held in memory, set by its command.
        if (ns == "admin.system.version") return "divergent writes to " + ns;
    }
    return std::string();
}

StatusWith<RefetchedDocuments> refetchTouchedDocuments(OperationContext* opCtx, RemoteClient* source,
                                                       const TouchedDocuments& touched) {
    try {
        RefetchedDocuments out;
        for (const auto& [ns, ids] : namespacesToRestore(touched)) {
            RefetchedDocuments::Namespace n;
            n.ns = ns;
            n.ids = ids;
            bool exists;
            {
                CatalogReadLock lock;
                Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString::parse(ns));
                exists = c != nullptr;
                if (c) n.uuidHex = c->uuid();
            }
            opCtx->recoveryUnit()->abandonSnapshot();
            // Only the session collections may be missing here (whyNotInPlace): without one, this
            // member recorded nothing in it to undo.
            if (!exists) continue;
            checkSameCollection(source, n);
            fetchDocuments(source, NamespaceString::parse(ns), n.ids, &out, &n);
            out.namespaces.push_back(std::move(n));
        }
        // Read after every document: each was the source's at a moment no later than this.
        auto newest = newestOplogEntry(source);
        if (!newest.isOK()) return newest.getStatus();
        auto e = OplogEntry::parse(newest.getValue());
        if (!e.isOK()) return e.getStatus();
        out.minValid = e.getValue().opTime;
        // A collection renamed or recreated on the source while we read is caught here.
        for (const auto& n : out.namespaces) checkSameCollection(source, n);
        return out;
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
}

void undoInPlace(OperationContext* opCtx, const OpTime& commonPoint, const RefetchedDocuments& refetched) {
    UnreplicatedWritesBlock unreplicated;
    // The documents are the source's as of different moments until minValid is reached: a unique
    // key may be held twice meanwhile, as during initial sync (index_constraints.h).
    RelaxedUniqueIndexScope relaxed;
    long long touched = 0, restored = 0;
    for (const auto& n : refetched.namespaces) {
        restoreNamespace(opCtx, n);
        touched += static_cast<long long>(n.ids.size());
        restored += static_cast<long long>(n.docs.size());
    }
    const long long entries = truncateOplogAfter(opCtx, commonPoint);
    opCtx->recoveryUnit()->waitUntilDurable();
    LOGV2(7700210, Replication, "Rollback: divergent writes undone in place",
          logv2::attrs("documentsTouched", touched, "documentsRefetched", restored, "oplogEntriesRemoved", entries,
                       "commonPoint", commonPoint.toBSON(), "minValid", refetched.minValid.toBSON()));
}

}  // namespace repl
}  // namespace mongo
