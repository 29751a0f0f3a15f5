#pragma once
// DedupStorage: the storage layer's dbDedup service, one per process. It owns the engine
// (db/dedup: feature index, caches, governor — in-process singletons), knows every open
// DedupRecordStore by the engine's namespace for it ("<db>.<ident>"), and runs the work that
// is kept off the client's path:
//   * the encoder thread feeds committed inserts to the engine (Engine::onInsert), which
//     picks a source, delta-encodes and queues the source's backward delta, when client
//     writes pause (20 ms) or more than 128 MB of inserts wait;
//   * the write-back thread applies queued write-backs when client writes pause or the lossy
//     cache is three quarters full, under the write lock, and periodically re-queues the
//     rewrites that free retained records (garbage collection).
// Nothing of the engine is persisted: rebuild() derives its state from the stored records at
// start-up, and resync(ns) does so for one collection after a unit of work that changed the
// engine's bookkeeping rolled back.
//
// Lock order: catalog lock, write lock (catalog_lock.h), _insertMu, the engine's mutex,
// _storesMu. The engine calls back (readStored/writeStored/removeRetained) with its mutex
// held, on the thread that called it, using that thread's DedupOpCtxScope.
// Thread safety: every method may be called from any thread.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

struct DedupOptions;
class DedupRecordStore;

// The engine's options for mongod's --dedup* settings.
dedup::Options dedupEngineOptions(const DedupOptions& o);

class DedupStorage : public dedup::RecordStore {
public:
    // Creates the service and installs the record-store wrapper that stores collections
    // created with dedup in the catalog through DedupRecordStore. Call once, before the
    // catalog opens.
    static DedupStorage* install(StorageEngine* engine, const dedup::Options& options);
    static DedupStorage* get();  // null before install()

    // After the catalog opened: rebuilds the engine's state from every dedup collection and
    // starts the background threads.
    void start();
    // Stops the background threads (queued work is dropped: it only costs compression).
    // Call before the catalog closes.
    void shutdown();

    dedup::Engine& engine() { return *_engine; }

    void registerStore(DedupRecordStore* rs);
    void unregisterStore(DedupRecordStore* rs);

    // A committed insert of `size` bytes, for the encoder thread (which reads the record as
    // it is when its turn comes).
    void enqueueInsert(const std::string& ns, int64_t id, size_t size);
    // The collection was dropped or truncated.
    void forgetNamespace(const std::string& ns);
    // Relearns a collection from its stored records (after a rollback).
    void resync(const std::string& ns);

    void noteClientWrite();
    // Before a client updates or deletes record (ns, id): throws ObjectIsBusy while the
    // collection's dedup state is being rebuilt, and keeps the encoder from learning bytes
    // of a queued record that are about to change. Returns what the engine knows of it
    // (stable while the caller holds the write lock: only client writes and write-backs,
    // both under it, change links).
    dedup::RecordInfo prepareClientChange(const std::string& ns, int64_t id);
    void noteDecodeFailure() { _decodeFailures.fetch_add(1, std::memory_order_relaxed); }
    // A client read decoded through these retained records: collect them first.
    void noteRetainedRead(const std::string& ns, const std::vector<int64_t>& ids);
    void noteRetainedRemoved(long long n) { _retainedRemoved.fetch_add(n, std::memory_order_relaxed); }

    // serverStatus().dedup
    BSONObj serverStatusSection() const;

    // dedup::RecordStore: the engine's callbacks, routed to the collection's store.
    Status readStored(std::string_view ns, int64_t id, std::string* out) override;
    Status writeStored(std::string_view ns, int64_t id, std::string_view stored) override;
    Status removeRetained(std::string_view ns, int64_t id) override;

private:
    struct PendingInsert {
        std::string ns;
        int64_t id;
        size_t size;
    };
    DedupStorage(StorageEngine* engine, const dedup::Options& options);
public:
    ~DedupStorage() override;  // stops the threads if shutdown() was not called
private:
    DedupRecordStore* storeFor(std::string_view ns);
    // REQUIRES: _insertMu held.
    void processInsertLocked(OperationContext* opCtx, const PendingInsert& p);
    bool clientWritesPaused() const;
    void resyncLocked(const std::string& ns);
    void encoderLoop();
    void writeBackLoop();
    void applyWriteBacks(size_t maxEntries);
    void collectGarbage();
    void markUnsynced(const std::string& ns, const Status& why);
    bool isUnsynced(const std::string& ns) const;
    void retryUnsynced();

    StorageEngine* const _storageEngine;
    std::unique_ptr<dedup::Engine> _engine;

    mutable std::mutex _storesMu;
    std::map<std::string, DedupRecordStore*, std::less<>> _stores;

    std::mutex _insertMu;  // the queue, and feeding the engine inserts
    std::condition_variable _insertCv;
    std::deque<PendingInsert> _queue;
    size_t _queueBytes = 0;
    std::set<std::pair<std::string, int64_t>> _changedWhileQueued;  // see prepareClientChange

    std::mutex _readGcMu;  // leaf lock
    std::set<std::pair<std::string, int64_t>> _retainedRead;  // bounded, see noteRetainedRead

    mutable std::mutex _unsyncedMu;
    std::set<std::string> _unsynced;  // collections whose engine state failed to rebuild

    std::mutex _threadMu;
    std::condition_variable _threadCv;
    std::atomic<bool> _stopping{false};
    std::thread _encoder, _writeBack;

    std::atomic<long long> _lastClientWriteNanos{0};
    std::atomic<long long> _decodeFailures{0}, _resyncs{0}, _writeBackRejected{0}, _writeBackFailed{0},
        _retainedRemoved{0}, _applyBatches{0}, _insertsDropped{0}, _readPathCollections{0};
    long long _restoreRecords = 0, _restoreMillis = 0;
    std::atomic<long long> _longestChain{0}, _retainedRecords{0};
};

// Sets the OperationContext the engine's callbacks use on this thread, for a scope.
class DedupOpCtxScope {
public:
    explicit DedupOpCtxScope(OperationContext* opCtx);
    ~DedupOpCtxScope();
    DedupOpCtxScope(const DedupOpCtxScope&) = delete;
    DedupOpCtxScope& operator=(const DedupOpCtxScope&) = delete;
    static OperationContext* current();

private:
    OperationContext* _prev;
};

}  // namespace mongo
