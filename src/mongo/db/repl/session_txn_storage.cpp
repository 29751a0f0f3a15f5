#include "mongo/db/repl/session_txn_storage.h"

#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/retryable_write_stats.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

namespace {

// Reads outside a unit of work end their snapshot, so that the operation's next unit of
// work (or read) sees what committed meanwhile.
struct SnapshotReleaser {
    OperationContext* opCtx;
    ~SnapshotReleaser() {
        if (opCtx && !opCtx->recoveryUnit()->inUnitOfWork()) opCtx->recoveryUnit()->abandonSnapshot();
    }
};

std::optional<Record> findBySessionId(OperationContext* opCtx, Collection* c, const BSONObj& sessionId) {
    BSONObj q = sessionIdQuery(sessionId);
    return findDocumentById(opCtx, c, q.firstElement());
}

}  // namespace

StatementOutcome outcomeOf(const OplogEntry& entry) {
    StatementOutcome o;
    o.opTime = entry.opTime;
    o.op = static_cast<char>(entry.op);
    if (entry.op == OpTypeEnum::kInsert && !entry.o["_id"].eoo()) o.upsertedId = entry.o["_id"].wrap("_id");
    o.imageKind = entry.needsRetryImage;
    return o;
}

std::optional<SessionTxnRecord> StorageSessionTxnStore::readRecord(OperationContext* opCtx, const BSONObj& sessionId) {
    SnapshotReleaser release{opCtx};
    CatalogReadLock lock;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, transactionsNss());
    if (!c) return std::nullopt;
    auto r = findBySessionId(opCtx, c, sessionId);
    if (!r) return std::nullopt;
    auto parsed = SessionTxnRecord::parse(r->doc);
    uassertStatusOK(parsed.getStatus());
    return parsed.getValue();
}

TxnHistory StorageSessionTxnStore::readHistory(OperationContext* opCtx, const OpTime& lastWrite) {
    TxnHistory h;
    if (lastWrite.isNull()) return h;
    SnapshotReleaser release{opCtx};
    CatalogReadLock lock;
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
    h.complete = false;
    if (!oplog) return h;
    // Newest first: each entry found names the one before it (prevOpTime), which is older.
    Timestamp want = lastWrite.getTimestamp();
    auto cursor = oplog->getCursor(opCtx, false);
    while (auto r = cursor->next()) {
        BSONElement ts = r->doc["ts"];
        if (ts.type() != bsonTimestamp || want < ts.timestamp()) continue;
        if (ts.timestamp() < want) return h;  // the entry the chain needs is gone
        auto parsed = OplogEntry::parse(r->doc);
        if (!parsed.isOK() || !parsed.getValue().isRetryableWrite()) return h;
        const OplogEntry& e = parsed.getValue();
        if (e.stmtId >= 0) h.statements.emplace(e.stmtId, outcomeOf(e));
        if (e.prevOpTime.isNull()) {
            h.complete = true;
            return h;
        }
        want = e.prevOpTime.getTimestamp();
    }
    return h;  // ran off the oldest entry: truncated history
}

void ensureSessionCollections(OperationContext* opCtx) {
    {
        CatalogReadLock lock;
        auto* cat = CollectionCatalog::get();
        if (cat->lookupCollection(opCtx, transactionsNss()) && cat->lookupCollection(opCtx, imageCollectionNss()))
            return;
    }
    CatalogDDLLock lock;
    auto* cat = CollectionCatalog::get();
    for (const NamespaceString* nss : {&transactionsNss(), &imageCollectionNss()})
        if (!cat->lookupCollection(opCtx, *nss)) cat->createCollection(opCtx, *nss, CollectionOptions());
}

bool writeSessionRecord(OperationContext* opCtx, const SessionTxnRecord& record) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, transactionsNss());
    if (!c) return false;
    UnreplicatedWritesBlock unreplicated;
    BSONObj doc = record.toBSON();
    if (auto existing = findBySessionId(opCtx, c, record.sessionId)) {
        auto old = SessionTxnRecord::parse(existing->doc);
        if (old.isOK() && old.getValue().txnNum > record.txnNum) return true;
        c->updateDocument(opCtx, existing->id, existing->doc, doc);
    } else {
        c->insertDocument(opCtx, doc);
    }
    RetryableWriteStats::get().transactionsCollectionWriteCount.fetch_add(1);
    return true;
}

bool writeRetryImage(OperationContext* opCtx, const RetryImage& image) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, imageCollectionNss());
    if (!c) return false;
    UnreplicatedWritesBlock unreplicated;
    BSONObj doc = image.toBSON();
    if (auto existing = findBySessionId(opCtx, c, image.sessionId))
        c->updateDocument(opCtx, existing->id, existing->doc, doc);
    else
        c->insertDocument(opCtx, doc);
    return true;
}

std::optional<RetryImage> readRetryImage(OperationContext* opCtx, const BSONObj& sessionId) {
    SnapshotReleaser release{opCtx};
    CatalogReadLock lock;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, imageCollectionNss());
    if (!c) return std::nullopt;
    auto r = findBySessionId(opCtx, c, sessionId);
    if (!r) return std::nullopt;
    auto parsed = RetryImage::parse(r->doc);
    if (!parsed.isOK()) return std::nullopt;
    return parsed.getValue();
}

std::optional<BSONObj> readOplogEntry(OperationContext* opCtx, const OpTime& opTime) {
    CatalogReadLock lock;
    return readOplogEntryUnderCatalogLock(opCtx, opTime);
}

std::optional<BSONObj> readOplogEntryUnderCatalogLock(OperationContext* opCtx, const OpTime& opTime) {
    SnapshotReleaser release{opCtx};
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
    if (!oplog) return std::nullopt;
    auto cursor = oplog->getCursor(opCtx, false);
    while (auto r = cursor->next()) {
        BSONElement ts = r->doc["ts"];
        if (ts.type() != bsonTimestamp || opTime.getTimestamp() < ts.timestamp()) continue;
        if (ts.timestamp() == opTime.getTimestamp()) return r->doc.getOwned();
        return std::nullopt;
    }
    return std::nullopt;
}

void onRetryableEntryApplied(OperationContext* opCtx, const OplogEntry& entry) {
    if (!entry.isRetryableWrite() || entry.txnNumber < 0) return;
    BSONObj sessionId = entry.lsid;
    SessionTxnRecord rec;
    rec.sessionId = sessionId;
    rec.txnNum = entry.txnNumber;
    rec.lastWriteOpTime = entry.opTime;
    rec.lastWriteDate = entry.wall;
    if (entry.isApplyOps()) rec.state = "committed";  // a transaction's commit
    if (!writeSessionRecord(opCtx, rec))
        LOGV2(7100001, Replication, "Not recording a retryable write: config.transactions does not exist",
              logv2::attrs("ts", entry.opTime.toString()));
    if (entry.needsRetryImage.empty()) return;
    Collection* images = CollectionCatalog::get()->lookupCollection(opCtx, imageCollectionNss());
    if (!images) return;
    auto existing = findBySessionId(opCtx, images, sessionId);
    if (existing) {
        auto img = RetryImage::parse(existing->doc);
        if (img.isOK() && img.getValue().ts == entry.opTime.getTimestamp()) return;  // recorded while applying
    }
    RetryImage invalid;
    invalid.sessionId = sessionId;
    invalid.txnNum = entry.txnNumber;
    invalid.ts = entry.opTime.getTimestamp();
    invalid.imageKind = entry.needsRetryImage;
    invalid.invalidated = true;
    writeRetryImage(opCtx, invalid);
}

long long reapSessionRecords(OperationContext* opCtx, Date_t cutoff) {
    std::vector<BSONObj> candidates;
    std::set<std::string> live;
    {
        SnapshotReleaser release{opCtx};
        CatalogReadLock lock;
        auto* cat = CollectionCatalog::get();
        Collection* txns = cat->lookupCollection(opCtx, transactionsNss());
        if (!txns) return 0;
        auto cursor = txns->getCursor(opCtx);
        while (auto r = cursor->next()) {
            auto rec = SessionTxnRecord::parse(r->doc);
            if (rec.isOK() && rec.getValue().lastWriteDate.millis < cutoff.millis) candidates.push_back(rec.getValue().sessionId);
        }
        if (candidates.empty()) return 0;
        if (Collection* sessions = cat->lookupCollection(opCtx, NamespaceString("config", "system.sessions"))) {
            auto sc = sessions->getCursor(opCtx);
            while (auto r = sc->next())
                if (r->doc["_id"].type() == Object)
                    if (auto hex = uuidHexFromElement(r->doc["_id"].embeddedObject()["id"])) live.insert(*hex);
        }
    }
    long long removed = 0;
    for (const BSONObj& sessionId : candidates) {
        auto hex = uuidHexFromElement(sessionId["id"]);
        if (hex && live.count(*hex)) continue;
        BSONObj q = sessionIdQuery(sessionId);
        removed += performDelete(opCtx, transactionsNss(), q, true, BSONObj(), BSONObj(), nullptr);
        performDelete(opCtx, imageCollectionNss(), q, true, BSONObj(), BSONObj(), nullptr);
        SessionTxnTable::get()->forget(sessionId);
    }
    return removed;
}

}  // namespace repl
}  // namespace mongo
