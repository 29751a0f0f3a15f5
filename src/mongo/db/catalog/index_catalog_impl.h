#pragma once
// IndexCatalogImpl: a collection's indexes — their descriptors, storage (SortedDataInterface),
// key generators, multikey flags — and the maintenance of every index on document writes.
// Concurrency: as Collection (collection.h): readers under the shared catalog lock; document
// writes serialised by the write lock; index DDL under the exclusive catalog lock.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/durable_catalog.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class CollectionImpl;

class IndexCatalogImpl : public IndexCatalog {
public:
    explicit IndexCatalogImpl(CollectionImpl* collection) : _coll(collection) {}

    // Opens an index listed in the collection's catalog entry (startup / collection creation).
    void openIndex(const IndexMetaData& md);

    std::vector<const IndexDescriptor*> getAllIndexes() const override;
    const IndexDescriptor* findIndexByName(const std::string& name) const override;
    const IndexDescriptor* findIndexByKeyPattern(const BSONObj& keyPattern) const override;
    bool createIndex(OperationContext* opCtx, const BSONObj& spec) override;
    void dropIndex(OperationContext* opCtx, const std::string& name) override;
    void updateIndexSpec(OperationContext* opCtx, const std::string& name, const BSONObj& spec) override;
    std::unique_ptr<IndexCursor> newCursor(OperationContext* opCtx, const IndexDescriptor* desc,
                                           bool forward) const override;
    bool isMultikey(OperationContext* opCtx, const IndexDescriptor* desc) const override;
    MultikeyPaths getMultikeyPaths(OperationContext* opCtx, const IndexDescriptor* desc) const override;
    const Matcher* partialFilter(const IndexDescriptor* desc) const override;
    long long indexSize(OperationContext* opCtx, const IndexDescriptor* desc) const override;
    long long numKeys(OperationContext* opCtx, const IndexDescriptor* desc) const override;

    // Document maintenance. REQUIRE a unit of work; throw DuplicateKeyException.
    void indexDocument(OperationContext* opCtx, const BSONObj& doc, RecordId id);
    void unindexDocument(OperationContext* opCtx, const BSONObj& doc, RecordId id);
    void updateDocument(OperationContext* opCtx, const BSONObj& oldDoc, const BSONObj& newDoc, RecordId id);
    void truncateAll(OperationContext* opCtx);

    std::vector<std::string> idents() const;
    long long totalIndexSize(OperationContext* opCtx) const;

private:
    struct Entry {
        IndexDescriptor desc;
        std::string ident;
        std::unique_ptr<SortedDataInterface> sdi;
        std::unique_ptr<IndexKeyGenerator> keyGen;
        std::unique_ptr<Matcher> partialFilter;
        // Multikey paths: 'visible' includes the current unit of work's additions (readers
        // plan with it, so a document is never visible before its index's multikey state);
        // 'committed' is what a rollback returns to. Guarded by mkMutex; written only by the
        // (serialised) document writers.
        mutable std::mutex mkMutex;
        MultikeyPaths mkVisible;
        MultikeyPaths mkCommitted;
    };
    std::unique_ptr<Entry> makeEntry(const IndexMetaData& md) const;
    Entry* findEntry(const IndexDescriptor* desc) const;
    void getKeys(const Entry& e, const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* paths) const;
    void insertKeys(OperationContext* opCtx, Entry& e, const KeyStringSet& keys, RecordId id);
    // Records new multikey components in the catalog entry, in the caller's unit of work.
    void noteMultikey(OperationContext* opCtx, Entry& e, const MultikeyPaths& paths);
    // Fills a new index (not yet in _entries) from the collection's documents.
    void buildIndex(OperationContext* opCtx, Entry& e);

    CollectionImpl* _coll;
    std::vector<std::unique_ptr<Entry>> _entries;
};

}  // namespace mongo
