#include "mongo/db/repl/initial_sync_cloner.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/given_collection_uuid.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/catalog/index_constraints.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

// MongoDB's fail point: holds the clone of data.namespace once data.numDocsToClone of its
// documents were copied (tests kill the source mid-clone with it).
MONGO_FAIL_POINT_DEFINE(initialSyncHangDuringCollectionClone);

namespace {

constexpr int kFindBatchSize = 1000;  // first batch; getMore batches are up to 16 MB


// Inserts one batch in one unit of work, unobserved, unique secondary indexes relaxed. A
// document whose _id exists already (the source moved it while we scanned) replaces it.
void insertBatch(OperationContext* opCtx, const NamespaceString& nss, const std::vector<BSONObj>& docs) {
    UnreplicatedWritesBlock unreplicated;
    RelaxedUniqueIndexScope relaxed;
    CollectionWriteLock lock;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    uassert(ErrorCodes::NamespaceNotFound, "initial sync: " + nss.ns() + " disappeared while it was cloned", c);
    try {
        WriteUnitOfWork wuow(opCtx);
        for (const BSONObj& d : docs) c->insertDocument(opCtx, d);
        wuow.commit();
        opCtx->recoveryUnit()->abandonSnapshot();
        return;
    } catch (const DBException& e) {
        if (e.code() != int(ErrorCodes::DuplicateKey)) throw;
    }
    WriteUnitOfWork wuow(opCtx);
    for (const BSONObj& d : docs) {
        BSONElement id = d["_id"];
        std::optional<Record> existing = id.eoo() ? std::nullopt : findDocumentById(opCtx, c, id);
        if (existing)
            c->updateDocument(opCtx, existing->id, existing->doc, d);
        else
            c->insertDocument(opCtx, d);
    }
    wuow.commit();
    opCtx->recoveryUnit()->abandonSnapshot();
}

}  // namespace

void dropReplicatedDatabases(OperationContext* opCtx) {
    UnreplicatedWritesBlock unreplicated;
    CatalogDDLLock lock;
    CollectionCatalog* catalog = CollectionCatalog::get();
    for (const std::string& db : catalog->listDatabases(opCtx)) {
        if (db == "local") continue;
        LOGV2(21782, Replication, "Initial sync: dropping a database before cloning", logv2::attrs("db", db));
        catalog->dropDatabase(opCtx, db);
    }
}

void DataCloner::cloneAll(OperationContext* opCtx) {
    BSONObjBuilder cmd;
    cmd.append("listDatabases", 1);
    cmd.append("nameOnly", true);
    BSONObj reply = runOrThrow(_source, "admin", cmd.obj());
    std::vector<std::string> dbs;
    for (BSONElement e : reply["databases"].embeddedObject()) {
        const std::string name = e.embeddedObject()["name"].str();
        if (name != "local") dbs.push_back(name);
    }
    // admin first, as MongoDB (users and roles before the data they guard).
    std::stable_sort(dbs.begin(), dbs.end(), [](const std::string& a, const std::string& b) {
        return (a == "admin") > (b == "admin");
    });
    _update([&](InitialSyncProgress& p) {
        for (const std::string& d : dbs) {
            InitialSyncProgress::Database db;
            db.name = d;
            p.databases.push_back(db);
        }
        p.databasesListed = true;
    });
    LOGV2(21150, Replication, "Initial sync: cloning databases",
          logv2::attrs("syncSource", _source->host(), "databasesToClone", static_cast<long long>(dbs.size())));
    for (size_t i = 0; i < dbs.size(); ++i) {
        _checkInterrupt();
        cloneDatabase(opCtx, i, dbs[i]);
    }
}

void DataCloner::cloneDatabase(OperationContext* opCtx, size_t dbIndex, const std::string& db) {
    const Date_t start = Date_t::now();
    BSONObjBuilder cmd;
    cmd.append("listCollections", 1);
    BSONObj reply = runOrThrow(_source, db, cmd.obj());
    struct Listed {
        std::string name;
        BSONObj options;
        std::string uuidHex;  // the source's, which the clone keeps ("" if it gave none)
    };
    std::vector<Listed> colls;
    for (BSONElement e : reply["cursor"].embeddedObject()["firstBatch"].embeddedObject()) {
        BSONObj c = e.embeddedObject();
        const std::string name = c["name"].str();
        // A view is a document of system.views, which is cloned as a collection.
        if (c["type"].type() == String && c["type"].str() != "collection") continue;
        if (name == "system.profile") continue;  // never replicated
        auto uuid = c["info"].type() == Object ? uuidHexFromElement(c["info"].embeddedObject()["uuid"]) : std::nullopt;
        colls.push_back({name, c["options"].type() == Object ? c["options"].embeddedObject().getOwned() : BSONObj(),
                         uuid ? *uuid : std::string()});
    }
    _update([&](InitialSyncProgress& p) {
        InitialSyncProgress::Database& d = p.databases[dbIndex];
        d.start = start;
        for (const auto& c : colls) {
            InitialSyncProgress::Collection pc;
            pc.ns = db + "." + c.name;
            d.collections.push_back(pc);
        }
    });
    LOGV2(21151, Replication, "Initial sync: cloning database",
          logv2::attrs("db", db, "collections", static_cast<long long>(colls.size())));
    for (size_t i = 0; i < colls.size(); ++i) {
        _checkInterrupt();
        cloneCollection(opCtx, dbIndex, i, db, colls[i].name, colls[i].options, colls[i].uuidHex);
    }
    const Date_t end = Date_t::now();
    _update([&](InitialSyncProgress& p) { p.databases[dbIndex].end = end; });
    LOGV2(21152, Replication, "Initial sync: finished cloning database",
          logv2::attrs("db", db, "collections", static_cast<long long>(colls.size()), "durationMillis",
                       static_cast<long long>(end.millis - start.millis)));
}

void DataCloner::cloneCollection(OperationContext* opCtx, size_t dbIndex, size_t collIndex, const std::string& db,
                                 const std::string& coll, const BSONObj& options, const std::string& uuidHex) {
    const NamespaceString nss = NamespaceString::parse(db + "." + coll);
    const Date_t start = Date_t::now();
    BSONObjBuilder statsCmd;
    statsCmd.append("collStats", coll);
    BSONObj stats = runOrThrow(_source, db, statsCmd.obj());
    BSONObjBuilder idxCmd;
    idxCmd.append("listIndexes", coll);
    std::vector<BSONObj> specs;
    for (RemoteCursor idx(_source, db, idxCmd.obj()); !idx.exhausted();)
        for (BSONObj& spec : idx.nextBatch()) specs.push_back(std::move(spec));
    const long long toCopy = stats["count"].numberLong(), bytes = stats["size"].numberLong();
    auto updateColl = [&](const std::function<void(InitialSyncProgress::Collection&)>& f) {
        _update([&](InitialSyncProgress& p) { f(p.databases[dbIndex].collections[collIndex]); });
    };
    updateColl([&](InitialSyncProgress::Collection& c) {
        c.start = start;
        c.documentsToCopy = toCopy;
        c.bytesToCopy = bytes;
        c.indexes = static_cast<long long>(specs.size());
    });

    // The collection, with the source's options, and its indexes while it is empty.
    {
        UnreplicatedWritesBlock unreplicated;
        RelaxedUniqueIndexScope relaxed;
        CatalogDDLLock lock;
        CollectionCatalog* catalog = CollectionCatalog::get();
        // Something of this node's own (a sessions collection made at startup) gives way.
        if (catalog->lookupCollection(opCtx, nss)) catalog->dropCollection(opCtx, nss);
        BSONObjBuilder create;
        create.append("create", coll);
        create.appendElements(options);
        auto parsed = CollectionOptions::parse(create.obj());
        uassertStatusOK(parsed.getStatus());
        GivenCollectionUuid sameAsTheSource(uuidHex);
        Collection* c = catalog->createCollection(opCtx, nss, parsed.getValue());
        for (const BSONObj& spec : specs) {
            if (spec["name"].type() == String && spec["name"].str() == "_id_") continue;
            c->getIndexCatalog()->createIndex(opCtx, spec);
        }
    }

    BSONObjBuilder find;
    find.append("find", coll);
    find.append("batchSize", kFindBatchSize);
    RemoteCursor cursor(_source, db, find.obj());
    long long copied = 0;
    while (!cursor.exhausted()) {
        std::vector<BSONObj> docs = cursor.nextBatch();
        if (!docs.empty()) {
            long long batchBytes = 0;
            for (const BSONObj& d : docs) batchBytes += d.objsize();
            insertBatch(opCtx, nss, docs);
            copied += static_cast<long long>(docs.size());
            updateColl([&](InitialSyncProgress::Collection& c) {
                c.documentsCopied = copied;
                c.approxBytesCopied += batchBytes;
                ++c.fetchedBatches;
            });
            initialSyncHangDuringCollectionClone.pauseWhileSet(_checkInterrupt, [&](const BSONObj& data) {
                return data["namespace"].type() == String && data["namespace"].str() == nss.ns() &&
                       copied >= data["numDocsToClone"].numberLong();
            });
        }
        _checkInterrupt();
    }
    const Date_t end = Date_t::now();
    updateColl([&](InitialSyncProgress::Collection& c) { c.end = end; });
    _update([&](InitialSyncProgress& p) { ++p.databases[dbIndex].clonedCollections; });
    LOGV2(21153, Replication, "Initial sync: finished cloning collection",
          logv2::attrs("namespace", nss.ns(), "documentsCopied", copied, "indexes", static_cast<long long>(specs.size()),
                       "durationMillis", static_cast<long long>(end.millis - start.millis)));
}

}  // namespace repl
}  // namespace mongo
