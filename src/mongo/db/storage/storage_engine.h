#pragma once
// StorageEngine: what main() starts. Owns the KVEngine (WiredTiger), the dbpath lock file
// (mongod.lock, which also tells whether the previous run shut down cleanly) and the hook
// that wraps collection record stores (dedup).
//
// Startup:  auto engine = StorageEngine::open(options);        // throws DBException
//           setRecoveryUnitFactory([&] { return engine->newRecoveryUnit(); });
//           CollectionCatalogImpl::open(opCtx, engine.get())   // db/catalog
// fsync:    engine->flushAllFiles(true);
// Shutdown: engine->cleanShutdown();  (after the last OperationContext is gone)
// Thread safety: all methods may be called concurrently, except setRecordStoreWrapper (at
// startup, before any collection is opened) and cleanShutdown.
#include <functional>
#include <memory>
#include <string>

#include "mongo/db/storage/kv_engine.h"

namespace mongo {

struct StorageEngineOptions {
    std::string dbpath = "/data/db";
    // WiredTiger cache; 0 = MongoDB's default, max(50% of (RAM - 1 GB), 256 MB).
    double cacheSizeGB = 0;
    // Block compressor of collection tables: none | snappy | zlib | zstd.
    std::string blockCompressor = "snappy";
    // Compressor of the journal's log records: none | snappy | zlib | zstd.
    std::string journalCompressor = "snappy";
    // zstd's level wherever WiredTiger compresses with zstd (MongoDB's default: 6).
    int zstdCompressionLevel = 6;
    // Write-ahead log (journal). Without it, only checkpoints are durable.
    bool journal = true;
    // Seconds between checkpoints (MongoDB's syncdelay); 0 disables the periodic checkpoint.
    int syncDelaySecs = 60;
    // Milliseconds between journal fsyncs (MongoDB's commitIntervalMs).
    int journalCommitIntervalMs = 100;
    // --dedup: user collections created from now on are stored deduplicated (a collection's
    // format is fixed at creation, like its block compressor).
    bool dedup = false;
};

// What a record-store wrapper learns about the collection it wraps.
struct CollectionStorageInfo {
    std::string ns;       // "db.coll" when the store was opened (a rename keeps the ident)
    std::string ident;
    BSONObj options;      // the collection's create options
    bool dedup = false;   // stored in the dedup format (db/storage/dedup)
};

class StorageEngine {
public:
    // Validates options (BadValue), requires dbpath to exist (NonExistentPath, as mongod),
    // locks it (DBPathInUse if another mongod holds it), opens the engine (WiredTiger
    // recovers from its journal).
    static std::unique_ptr<StorageEngine> open(const StorageEngineOptions& options);
    ~StorageEngine();

    const StorageEngineOptions& options() const { return _options; }
    KVEngine* kvEngine() const { return _kv.get(); }
    std::unique_ptr<RecoveryUnit> newRecoveryUnit() { return _kv->newRecoveryUnit(); }
    // True if mongod.lock was not empty at startup (the previous process did not shut down cleanly).
    bool recoveredFromUncleanShutdown() const { return _unclean; }

    // Wraps every collection's record store (not the catalog's own tables). The wrapper gets
    // the engine's store and what the catalog knows of the collection, and returns the store
    // Collection uses (possibly the same one).
    using RecordStoreWrapper = std::function<std::unique_ptr<RecordStore>(
        std::unique_ptr<RecordStore> base, const CollectionStorageInfo& info)>;
    void setRecordStoreWrapper(RecordStoreWrapper wrapper) { _wrapper = std::move(wrapper); }
    // Opens a collection's record store with the wrapper applied.
    std::unique_ptr<RecordStore> openCollectionRecordStore(const CollectionStorageInfo& info);

    void flushAllFiles(bool sync) { _kv->flushAllFiles(sync); }
    // Final checkpoint, close, and mark the shutdown clean in mongod.lock. Idempotent.
    // afterClose runs once the data files are closed cleanly, before the lock file is
    // released (nothing else can open the data directory meanwhile).
    void cleanShutdown(const std::function<void()>& afterClose = {});

private:
    StorageEngine() = default;
    StorageEngineOptions _options;
    std::unique_ptr<KVEngine> _kv;
    RecordStoreWrapper _wrapper;
    int _lockFd = -1;
    bool _unclean = false;
    bool _shutDown = false;
};

}  // namespace mongo
