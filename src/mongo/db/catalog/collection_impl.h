#pragma once
// CollectionImpl: a collection over a RecordStore (possibly wrapped, e.g. by dedup: it only
// uses the RecordStore interface) and its IndexCatalogImpl. Its metadata is its entry in the
// DurableCatalog. Dropped collections are kept alive (marked dropped) until the catalog is
// destroyed, so that saved cursors can find out in restore() instead of dangling.
// Concurrency: see collection.h and catalog_lock.h.
#include <atomic>
#include <memory>
#include <string>

#include "mongo/db/catalog/capped_insert_notifier.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/durable_catalog.h"
#include "mongo/db/catalog/index_catalog_impl.h"
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

class CollectionImpl : public Collection {
public:
    CollectionImpl(StorageEngine* engine, DurableCatalog* catalog, RecordId catalogId, CollectionMetaData md,
                   CollectionOptions options);

    const NamespaceString& ns() const override { return _ns; }
    const std::string& uuid() const override { return _uuid; }
    const CollectionOptions& options() const override { return _options; }
    IndexCatalog* getIndexCatalog() const override { return _indexes.get(); }
    void updateOptions(OperationContext* opCtx, const CollectionOptions& options) override;

    RecordId insertDocument(OperationContext* opCtx, const BSONObj& doc) override;
    void updateDocument(OperationContext* opCtx, RecordId id, const BSONObj& oldDoc, const BSONObj& newDoc) override;
    void deleteDocument(OperationContext* opCtx, RecordId id) override;
    std::optional<BSONObj> findDoc(OperationContext* opCtx, RecordId id) const override;
    std::unique_ptr<RecordCursor> getCursor(OperationContext* opCtx, bool forward) const override;
    void truncate(OperationContext* opCtx) override;
    long long numRecords(OperationContext* opCtx) const override;
    long long dataSize(OperationContext* opCtx) const override;
    long long storageSize(OperationContext* opCtx) const override;
    BSONObj storageLayerStats(OperationContext* opCtx) const override { return _rs->layerStats(opCtx); }
    void validateStorageLayer(OperationContext* opCtx, bool full, std::vector<std::string>* errors,
                              std::vector<std::string>* warnings, BSONObjBuilder* result) const override {
        _rs->validateLayer(opCtx, full, errors, warnings, result);
    }
    std::shared_ptr<CappedInsertNotifier> cappedInsertNotifier() const override {
        return _options.capped ? _cappedNotifier : nullptr;
    }

    // For the catalog and the index catalog.
    StorageEngine* engine() const { return _engine; }
    DurableCatalog* durableCatalog() const { return _catalog; }
    RecordStore* recordStore() const { return _rs.get(); }
    IndexCatalogImpl* indexCatalogImpl() const { return _indexes.get(); }
    RecordId catalogId() const { return _catalogId; }
    const CollectionMetaData& metaData() const { return _md; }
    // Writes md as this collection's catalog entry (in the caller's unit of work) and adopts
    // it in memory (restored if the unit of work aborts).
    void setMetaData(OperationContext* opCtx, CollectionMetaData md);
    // Renaming and dropping wake awaitData getMores: their cursors cannot go on.
    void setNs(const NamespaceString& nss) {
        _ns = nss;
        _cappedNotifier->notifyAll();
    }
    // The recovery unit of the multi-document transaction that created the collection, while
    // that transaction has not committed (null otherwise): only it sees the collection, and
    // its indexes and multikey flags are written in it.
    RecoveryUnit* creatingTransaction() const { return _creatingTransaction.load(); }
    void setCreatingTransaction(RecoveryUnit* ru) { _creatingTransaction = ru; }
    bool isDropped() const { return _dropped.load(); }
    void markDropped() {
        _dropped = true;
        _cappedNotifier->notifyAll();
    }

private:
    void enforceCappedLimits(OperationContext* opCtx, RecordId justInserted);

    StorageEngine* _engine;
    DurableCatalog* _catalog;
    RecordId _catalogId;
    CollectionMetaData _md;  // changes under the write lock (multikey flags): readers use _uuid/_ns
    const std::string _uuid;
    CollectionOptions _options;
    NamespaceString _ns;
    std::unique_ptr<RecordStore> _rs;
    std::unique_ptr<IndexCatalogImpl> _indexes;
    std::atomic<bool> _dropped{false};
    std::atomic<RecoveryUnit*> _creatingTransaction{nullptr};
    const std::shared_ptr<CappedInsertNotifier> _cappedNotifier = std::make_shared<CappedInsertNotifier>();
};

}  // namespace mongo
