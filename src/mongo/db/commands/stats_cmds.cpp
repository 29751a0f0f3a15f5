// collStats, dbStats, validate, fsync, shutdown.
#include <sys/statvfs.h>

#include "mongo/db/views/view_catalog.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_impl.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/server_options.h"
#include "mongo/db/service_context.h"
#include "mongo/util/log.h"

namespace mongo {


namespace {

long long scaleArg(const OpMsgRequest& req) {
    BSONElement s = req.body["scale"];
    if (s.eoo()) return 1;
    long long v = parseIntegerArg(s, req.commandName().c_str());
    if (v < 1) uasserted(ErrorCodes::BadValue, "scale has to be >= 1");
    return v;
}

// Bytes free for reuse inside the collection's file and its indexes' files (WiredTiger's
// block manager: space freed by deletes, updates and dedup write-backs, which later writes
// fill before the file grows).
struct FreeStorage {
    long long collection = 0, indexes = 0;
};
FreeStorage freeStorage(Collection* coll) {
    FreeStorage f;
    auto* impl = dynamic_cast<CollectionImpl*>(coll);
    if (!impl) return f;
    KVEngine* kv = impl->engine()->kvEngine();
    f.collection = kv->identFreeBytes(impl->metaData().ident);
    for (const std::string& ident : impl->indexCatalogImpl()->idents()) f.indexes += kv->identFreeBytes(ident);
    return f;
}

}  // namespace

void appendCollectionStorageStats(OperationContext* opCtx, const NamespaceString& nss, long long scale,
                                  BSONObjBuilder& result) {
    Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!coll) {
        ViewCatalog::uassertNotView(opCtx, nss);  // a view has no storage: 166, as MongoDB 7.0
        uasserted(ErrorCodes::NamespaceNotFound, "Collection [" + nss.ns() + "] not found.");
    }
    long long count = coll->numRecords(opCtx), size = coll->dataSize(opCtx), storage = coll->storageSize(opCtx);
    result.append("size", size / scale);
    result.append("count", count);
    if (count) result.append("avgObjSize", size / count);
    result.append("storageSize", storage / scale);
    result.append("freeStorageSize", freeStorage(coll).collection / scale);
    result.append("capped", coll->options().capped);
    if (coll->options().capped) {
        // As MongoDB: the limits of a capped collection (db.getReplicationInfo() reads the
        // oplog's maxSize).
        result.append("max", coll->options().cappedMaxDocs);
        result.append("maxSize", coll->options().cappedSize / scale);
    }
    IndexCatalog* ic = coll->getIndexCatalog();
    auto idx = ic->getAllIndexes();
    result.append("nindexes", static_cast<int>(idx.size()));
    BSONArrayBuilder builds;
    result.append("indexBuilds", builds.arr());
    long long totalIndex = 0;
    BSONObjBuilder sizes;
    for (const IndexDescriptor* d : idx) {
        long long s = ic->indexSize(opCtx, d);
        totalIndex += s;
        sizes.append(d->name, s / scale);
    }
    result.append("totalIndexSize", totalIndex / scale);
    result.append("totalSize", (storage + totalIndex) / scale);
    result.append("indexSizes", sizes.obj());
    result.append("scaleFactor", scale);
    // As MongoDB: the table's type, URI and creation configuration (what a user checks to see
    // a collection's block compressor and page layout).
    if (auto* impl = dynamic_cast<CollectionImpl*>(coll)) {
        const std::string& ident = impl->metaData().ident;
        std::string creation = impl->engine()->kvEngine()->identCreationString(ident);
        if (!creation.empty()) {
            BSONObjBuilder& wt = result.subobjStart("wiredTiger");
            BSONObjBuilder& md = wt.subobjStart("metadata");
            md.append("formatVersion", 1);
            md.doneFast();
            wt.append("creationString", creation);
            wt.append("type", "file");
            wt.append("uri", "statistics:table:" + ident);
            wt.doneFast();
        }
    }
    // Deduplicated collections: logical size (as "size"), size of the stored forms before
    // block compression, and their ratio.
    BSONObj layer = coll->storageLayerStats(opCtx);
    if (!layer.isEmpty()) result.append("dedup", layer);
}

namespace {

class CollStatsCmd : public Command {
public:
    CollStatsCmd() : Command("collStats", {"collstats"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::collStats}); }
    std::string help() const override { return "statistics of a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        long long scale = scaleArg(req);
        CatalogReadLock lock;
        result.append("ns", nss.ns());
        appendCollectionStorageStats(opCtx, nss, scale, result);
    }
};
CollStatsCmd collStatsCmd;

class DbStatsCmd : public Command {
public:
    DbStatsCmd() : Command("dbStats", {"dbstats"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onDatabase(req.db(), {ActionType::dbStats}); }
    std::string help() const override { return "statistics of a database"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        std::string db = req.db();
        long long scale = scaleArg(req);
        // freeStorage: 1 adds the free space inside the data files (it opens every table's
        // statistics, so MongoDB leaves it out unless asked).
        bool withFree = false;
        if (BSONElement fs = req.body["freeStorage"]; !fs.eoo()) withFree = parseBoolArg(fs, "dbStats");
        CatalogReadLock lock;
        auto* cat = CollectionCatalog::get();
        long long objects = 0, dataSize = 0, storageSize = 0, indexes = 0, indexSize = 0;
        long long dedupLogical = 0, dedupStored = 0, dedupCollections = 0, freeColl = 0, freeIndex = 0;
        auto colls = cat->listCollections(opCtx, db);
        for (auto& nss : colls) {
            Collection* c = cat->lookupCollection(opCtx, nss);
            if (!c) continue;
            objects += c->numRecords(opCtx);
            dataSize += c->dataSize(opCtx);
            storageSize += c->storageSize(opCtx);
            if (withFree) {
                FreeStorage f = freeStorage(c);
                freeColl += f.collection;
                freeIndex += f.indexes;
            }
            BSONObj layer = c->storageLayerStats(opCtx);
            if (!layer.isEmpty()) {
                dedupCollections++;
                dedupLogical += layer["logicalSize"].numberLong();
                dedupStored += layer["storedSize"].numberLong();
            }
            for (const IndexDescriptor* d : c->getIndexCatalog()->getAllIndexes()) {
                indexes++;
                indexSize += c->getIndexCatalog()->indexSize(opCtx, d);
            }
        }
        result.append("db", db);
        result.append("collections", static_cast<long long>(colls.size()));
        result.append("views", static_cast<int>(ViewCatalog::count(opCtx, db)));
        result.append("objects", objects);
        result.append("avgObjSize", objects ? static_cast<double>(dataSize) / objects : 0.0);
        result.append("dataSize", static_cast<double>(dataSize / scale));
        result.append("storageSize", static_cast<double>(storageSize / scale));
        if (withFree) result.append("freeStorageSize", static_cast<double>(freeColl / scale));
        result.append("indexes", indexes);
        result.append("indexSize", static_cast<double>(indexSize / scale));
        if (withFree) result.append("indexFreeStorageSize", static_cast<double>(freeIndex / scale));
        result.append("totalSize", static_cast<double>((storageSize + indexSize) / scale));
        if (withFree) result.append("totalFreeStorageSize", static_cast<double>((freeColl + freeIndex) / scale));
        result.append("scaleFactor", scale);
        if (dedupCollections) {
            BSONObjBuilder d;
            d.append("collections", dedupCollections);
            d.append("logicalSize", dedupLogical / scale);
            d.append("storedSize", dedupStored / scale);
            d.append("ratio", dedupStored > 0 ? static_cast<double>(dedupLogical) / dedupStored : 1.0);
            result.append("dedup", d.obj());
        }
        struct statvfs fs;
        if (statvfs(serverGlobalParams().dbPath.c_str(), &fs) == 0) {
            double total = static_cast<double>(fs.f_blocks) * fs.f_frsize;
            double avail = static_cast<double>(fs.f_bavail) * fs.f_frsize;
            result.append("fsUsedSize", (total - avail) / scale);
            result.append("fsTotalSize", total / scale);
        }
    }
};
DbStatsCmd dbStatsCmd;

class FsyncCmd : public Command {
public:
    FsyncCmd() : Command("fsync") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::fsync}); }
    std::string help() const override { return "flush all pending writes to the data files"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        if (!req.body["lock"].eoo() && req.body["lock"].trueValue())
            uasserted(ErrorCodes::CommandNotSupported, "fsync with lock: true is not supported by this server");
        CollectionWriteLock lock;  // no writes in flight while the checkpoint is taken
        fsyncAllFiles();
        result.append("numFiles", 1);
    }
};
FsyncCmd fsyncCmd;

class ShutdownCmd : public Command {
public:
    ShutdownCmd() : Command("shutdown") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::shutdown}); }
    std::string help() const override { return "shut the server down cleanly"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        LOGV2(4695400, Command, "Terminating via shutdown command", logv2::attrs("force", req.body["force"].trueValue()));
        requestShutdown();
    }
};
ShutdownCmd shutdownCmd;

}  // namespace
}  // namespace mongo
