#pragma once
// DurableCatalog: the persistent list of collections, one BSON record per collection in the
// record store "_mdb_catalog" (as MongoDB's):
//   {ns: "db.coll", uuid: "<32 hex>", ident: "collection-...", options: {...}, [dedup: true,]
//    indexes: [{spec: {v, key, name, ...}, ident: "index-...", multikey: bool,
//               multikeyPaths: [[component, ...] per key field]}, ...]}
// Changes are made inside the caller's unit of work, together with the data they describe.
// Thread safety: thread safe (the record store is); callers serialise DDL (catalog_lock.h).
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/multikey_paths.h"
#include "mongo/db/storage/kv_engine.h"

namespace mongo {

struct IndexMetaData {
    BSONObj spec;  // as listIndexes shows it
    std::string ident;
    bool multikey = false;
    MultikeyPaths multikeyPaths;  // per key field; empty sets when not multikey
};

struct CollectionMetaData {
    std::string ns;
    std::string uuid;
    std::string ident;
    BSONObj options;  // CollectionOptions::raw
    bool dedup = false;  // records stored in the dedup format ("dedup": true in the entry)
    std::vector<IndexMetaData> indexes;

    BSONObj toBSON() const;
    // Throws DBException(InternalError) if doc is not a catalog entry.
    static CollectionMetaData parse(const BSONObj& doc);
    IndexMetaData* findIndex(const std::string& name);
};

class DurableCatalog {
public:
    static constexpr const char* kIdent = "_mdb_catalog";
    // Opens the catalog table, creating it on first startup.
    explicit DurableCatalog(KVEngine* engine);

    std::vector<std::pair<RecordId, CollectionMetaData>> getAll(OperationContext* opCtx) const;
    // REQUIRE a unit of work.
    RecordId add(OperationContext* opCtx, const CollectionMetaData& md);
    void update(OperationContext* opCtx, RecordId id, const CollectionMetaData& md);
    void remove(OperationContext* opCtx, RecordId id);

    // New unique table names, in MongoDB's style ("collection-12-8123891237").
    std::string newCollectionIdent();
    std::string newIndexIdent();
    static bool isCollectionOrIndexIdent(const std::string& ident);

private:
    std::unique_ptr<RecordStore> _rs;
    std::string _identSuffix;
    std::atomic<long long> _next{0};
};

}  // namespace mongo
