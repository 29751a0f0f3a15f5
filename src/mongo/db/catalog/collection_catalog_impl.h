#pragma once
// CollectionCatalogImpl: the CollectionCatalog over the DurableCatalog, loaded at startup.
// DDL (create, drop, rename, dropDatabase) runs in its own unit of work (nested in the
// caller's if there is one); tables are dropped only after the catalog change commits.
// A collection created in a multi-document transaction is kept apart, visible only through
// the transaction's recovery unit, until the transaction commits (its catalog entry is written
// in the transaction; its tables, which WiredTiger creates outside transactions, are dropped if
// it aborts).
// Concurrency: callers hold the catalog lock (shared for lookups, exclusive for DDL);
// an internal mutex additionally guards the map so that lookups never see it mid-change.
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_impl.h"
#include "mongo/db/catalog/durable_catalog.h"
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

class CollectionCatalogImpl : public CollectionCatalog {
public:
    // Loads every collection from the durable catalog and drops tables no entry refers to
    // (left by a crash between a table's creation and its catalog commit, or by queued drops).
    CollectionCatalogImpl(OperationContext* opCtx, StorageEngine* engine);
    ~CollectionCatalogImpl() override;

    Collection* lookupCollection(OperationContext* opCtx, const NamespaceString& nss) const override;
    Collection* createCollection(OperationContext* opCtx, const NamespaceString& nss,
                                 const CollectionOptions& options) override;
    void uassertNotBeingCreated(OperationContext* opCtx, const NamespaceString& nss) const override {
        checkNotCreatedUncommitted(opCtx, nss);
    }
    void dropCollection(OperationContext* opCtx, const NamespaceString& nss) override;
    void dropDatabase(OperationContext* opCtx, const std::string& db) override;
    void renameCollection(OperationContext* opCtx, const NamespaceString& from, const NamespaceString& to,
                          bool dropTarget) override;
    std::vector<std::string> listDatabases(OperationContext* opCtx) const override;
    std::vector<NamespaceString> listCollections(OperationContext* opCtx, const std::string& db) const override;
    long long databaseSizeOnDisk(OperationContext* opCtx, const std::string& db) const override;

    StorageEngine* engine() const { return _engine; }

private:
    CollectionImpl* lookupImpl(const NamespaceString& nss) const;
    // NamespaceExists / WriteConflict when nss is being created by a transaction (not committed).
    void checkNotCreatedUncommitted(OperationContext* opCtx, const NamespaceString& nss) const;
    // Adds a created collection: at once, or (owner: a transaction's recovery unit) when the
    // owner commits.
    CollectionImpl* addCreated(RecoveryUnit* ru, std::unique_ptr<CollectionImpl> coll, bool inTransaction);
    void copyCollection(OperationContext* opCtx, CollectionImpl* from, const NamespaceString& to);
    // observe=false: the caller records the drop itself (a rename's dropTarget).
    void dropCollectionImpl(OperationContext* opCtx, const NamespaceString& nss, bool observe);

    StorageEngine* _engine;
    std::unique_ptr<DurableCatalog> _durable;
    mutable std::shared_mutex _mutex;
    std::map<std::string, std::unique_ptr<CollectionImpl>> _collections;  // by "db.coll"
    // Created by a transaction not committed yet, by "db.coll" (its creatingTransaction() is the
    // transaction's recovery unit, the only one that sees it).
    std::map<std::string, std::unique_ptr<CollectionImpl>> _uncommitted;
    std::vector<std::unique_ptr<CollectionImpl>> _dropped;  // kept alive for saved cursors
};

}  // namespace mongo
