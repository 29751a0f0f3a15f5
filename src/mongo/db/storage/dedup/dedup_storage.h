#pragma once
// DedupStorage: the storage layer's dbDedup service, one per process. It owns the engine
// (db/dedup: feature index, caches, governor — in-process singletons), knows every open
// DedupRecordStore by the engine's namespace for it ("<db>.<ident>"), and runs the work that
// is kept off the client's path, continuously, beside the clients:
//   * the encoder thread feeds committed inserts to the engine (Engine::onInsert), which
//     picks a source, delta-encodes and queues the source's backward delta. Its backlog is
//     bounded (--dedupBacklogMB); when it is full the next insert is stored whole (counted) or
//     its writer waits (--dedupBacklogPolicy throttle, in admitWrite, before the write lock);
//   * the write-back thread applies queued write-backs in small batches under the write lock,
//     going ahead of waiting writers, and periodically re-queues the rewrites that free
//     retained records (garbage collection).
// Encoding right behind the inserts is what keeps the raw forms off the disk: a record's page
// is written at the next checkpoint or eviction, by which time its write-back has usually
// replaced the raw bytes with a delta (the paper's order: delta at insert, write-back soon
// after, the newest version raw).
// The engine's state is saved only at a clean shutdown (dedup_saved_state.h) and loaded by the
// next start-up for the collections it still describes. Otherwise a background thread derives
// it from the stored records while the server already serves: first every record's links (from the
// stored forms' headers: bases, reference counts, chains), then the features of the records
// stored whole (the chain heads and unique records, the sources new versions are encoded
// against). Reads need neither; updates and deletes of deduplicated collections wait for the
// links; inserts wait in the encoder's backlog and are deduplicated against what is indexed.
// resync(ns) relearns one collection after a unit of work that changed the engine's
// bookkeeping rolled back.
//
// Lock order: catalog lock, write lock (catalog_lock.h), _insertMu, _queueMu, the engine's mutex,
// _storesMu. The forward delta cache's mutex is a leaf; a member's getMore waits on it
// (ForwardDeltaCache::waitFor) holding the catalog lock shared, which the encoder also takes
// only shared. The engine calls back (readStored/writeStored/removeRetained) with its mutex
// held, on the thread that called it, using that thread's DedupOpCtxScope.
// Thread safety: every method may be called from any thread.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/dedup/decoded_record_cache.h"
#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/dedup/dedup_read_stats.h"
#include "mongo/db/storage/dedup/dedup_saved_state.h"
#include "mongo/db/storage/dedup/forward_delta_cache.h"
#include "mongo/db/storage/dedup/replicated_delta.h"
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

struct DedupOptions;
class DedupRecordStore;

// What the service does beyond the engine's own options.
struct DedupServiceOptions {
    size_t backlogBytes = 16u << 20;  // --dedupBacklogMB
    bool throttleWhenFull = false;    // --dedupBacklogPolicy throttle (else storeRaw)
    size_t readCacheBytes = 32u << 20;  // --dedupReadCacheMB: the decoded record cache
    // The forward deltas kept for members fetching the oplog (forward_delta_cache.h); 0 on a
    // standalone server, where nothing reads them.
    size_t forwardDeltaCacheBytes = 16u << 20;
    // Where the engine's state is saved at a clean shutdown (dedup_saved_state.h); empty: never.
    std::string dbpath;
    // Off on replica-set members: their start-up recovers to a stable checkpoint and replays
    // the oplog, so the data at start-up is not what was there at shutdown.
    bool saveStateAtShutdown = false;
};
DedupServiceOptions dedupServiceOptions(const DedupOptions& o);

// The engine's options for mongod's --dedup* settings.
dedup::Options dedupEngineOptions(const DedupOptions& o);

// The most deltas any record of a deduplicated collection takes to decode (live or retained),
// measured on the stored forms of `stored` (the collection's underlying record store) by
// following the bases they name, not taken from the engine's bookkeeping: validate {full: true}
// reports it as dedup.longestChain. Linear in the records; a loop of bases (damaged data,
// reported by validate anyway) counts as one step per record on it. dedup_chain_depth.cpp.
long long longestStoredChain(OperationContext* opCtx, const mongo::RecordStore& stored);

class DedupStorage : public dedup::RecordStore {
public:
    // Creates the service and installs the record-store wrapper that stores collections
    // created with dedup in the catalog through DedupRecordStore. Call once, before the
    // catalog opens.
    static DedupStorage* install(StorageEngine* engine, const dedup::Options& options,
                                 const DedupServiceOptions& service = {});
    static DedupStorage* get();  // null before install()

    // After the catalog opened: starts the background threads, the first of which rebuilds
    // the engine's state from every dedup collection (serverStatus().dedup.startupRebuild).
    void start();
    // Stops the background threads (queued work is dropped: it only costs compression).
    // Call before the catalog closes. saveState (every client and writer has stopped, so
    // nothing changes the data before the storage engine closes): takes the engine's state
    // for writeSavedState, if every collection's state is complete (dedup_storage_saved.cpp).
    void shutdown(bool saveState = false);
    // After the storage engine closed cleanly: writes what shutdown() took, for the next
    // start-up to load instead of rebuilding from every stored record.
    void writeSavedState();

    dedup::Engine& engine() { return *_engine; }
    // The reads' side: decoded records shared between reads, and what reads cost.
    dedup::DecodedRecordCache& decodedCache() { return _decoded; }
    DedupReadStats& readStats() { return _readStats; }

    void registerStore(DedupRecordStore* rs);
    void unregisterStore(DedupRecordStore* rs);

    // A committed insert of `size` bytes, for the encoder thread (which reads the record as
    // it is when its turn comes). updated: a committed update, which left the record stored
    // whole; the encoder stores it against its chain again (Engine::onUpdateSettled).
    // replicated: the insert arrived as a forward delta (ReplicatedDelta).
    void enqueueInsert(const std::string& ns, int64_t id, size_t size, bool updated = false,
                       std::shared_ptr<const ReplicatedDelta> replicated = nullptr);
    // The forward deltas of recent inserts, by the engine's namespace and record id, and the
    // inserts examined without one (ForwardDeltaCache::waitFor waits for the encoder).
    const ForwardDeltaCache& forwardDeltas() const { return _forwardDeltas; }
    ForwardDeltaCache& forwardDeltas() { return _forwardDeltas; }  // replacements' deltas (repl/dedup)
    // Whether the encoder is examining inserts (not while the start-up rebuild learns the links).
    bool encoderRunning() const { return _linksReady.load(); }
    // Replicated inserts stored against the source their entry named / that fell back to a
    // similarity search (the source was no longer as the delta expects).
    long long reencoded() const { return _reencoded.load(); }
    long long reencodeFallbacks() const { return _reencodeFallbacks.load(); }
    // The collection was dropped or truncated.
    void forgetNamespace(const std::string& ns);
    // Relearns a collection from its stored records (after a rollback).
    void resync(const std::string& ns);

    void noteClientWrite();
    // admitWrite's hook (write_admission.h): before a client write takes the write lock,
    // lets a waiting write-back batch go first and, under the throttle policy, waits while
    // the encoder's backlog is full.
    void admitClientWrite(OperationContext* opCtx);
    // Before a client updates or deletes record (ns, id): throws ObjectIsBusy while the
    // collection's dedup state is being rebuilt, and keeps the encoder from learning bytes
    // of a queued record that are about to change. Returns what the engine knows of it
    // (stable while the caller holds the write lock: only client writes and write-backs,
    // both under it, change links).
    // Waits (interruptibly) while the start-up rebuild has not yet learned the links.
    void waitForLinks(OperationContext* opCtx);
    // Also waits for the links (see waitForLinks).
    dedup::RecordInfo prepareClientChange(OperationContext* opCtx, const std::string& ns, int64_t id);
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
        int64_t id = 0;
        size_t size = 0;
        long long enqueuedNanos = 0;
        uint64_t seq = 0;
        bool updated = false;
        std::shared_ptr<const ReplicatedDelta> replicated;
    };
    DedupStorage(StorageEngine* engine, const dedup::Options& options, const DedupServiceOptions& service);
public:
    ~DedupStorage() override;  // stops the threads if shutdown() was not called
private:
    DedupRecordStore* storeFor(std::string_view ns);
    // The oldest sequence number still waiting in either queue (UINT64_MAX: none). REQUIRES: _queueMu.
    uint64_t oldestPendingSeqLocked() const;
    // REQUIRES: _insertMu held.
    void processInsertLocked(OperationContext* opCtx, const PendingInsert& p);
    // A replicated insert with its source (see ReplicatedDelta): true if the engine took it.
    bool reencodeLocked(const PendingInsert& p, std::string_view bytes);
    // Keeps record p's forward delta against sourceId for the oplog's replicating readers.
    // REQUIRES: _insertMu held.
    void keepForwardDelta(OperationContext* opCtx, DedupRecordStore* rs, const PendingInsert& p, int64_t sourceId,
                          std::string delta);
    bool clientWritesPaused() const;
    void resyncLocked(const std::string& ns);
    void encoderLoop();
    void rebuildLoop();
    // REQUIRES: the links are learned (_linksReady).
    void indexRawRecords(OperationContext* opCtx, const std::string& ns, const std::vector<int64_t>& ids);
    void indexRawRange(OperationContext* opCtx, const std::string& ns, const std::vector<int64_t>& ids, size_t from,
                       size_t to);
    void writeBackLoop();
    void applyWriteBacks(size_t maxEntries);
    void collectGarbage();
    // Saved state (dedup_storage_saved.cpp). start(): reads and removes the file (decoding is
    // the rebuild thread's).
    void takeSavedState();
    // The rebuild's first step: loads the collections the saved state describes and that
    // storage confirms, and removes them from names (the rest are rebuilt from storage).
    void loadSavedState(OperationContext* opCtx, std::vector<std::string>* names);
    bool loadSavedNamespace(OperationContext* opCtx, SavedDedupNamespace& saved);
    // shutdown(): the engine's state, if complete, for writeSavedState.
    void captureSavedState();
    void markUnsynced(const std::string& ns, const Status& why);
    bool isUnsynced(const std::string& ns) const;
    void retryUnsynced();

    StorageEngine* const _storageEngine;
    const DedupServiceOptions _service;
    std::unique_ptr<dedup::Engine> _engine;
    dedup::DecodedRecordCache _decoded;
    DedupReadStats _readStats;
    ForwardDeltaCache _forwardDeltas;
    std::atomic<long long> _reencoded{0}, _reencodeFallbacks{0};

    mutable std::mutex _storesMu;
    std::map<std::string, DedupRecordStore*, std::less<>> _stores;

    // Feeding the engine inserts: held by the encoder from reading a record to telling the
    // engine, and by client updates/deletes (prepareClientChange) and resyncs.
    std::mutex _insertMu;
    // The queue only (a leaf, held for a few instructions): committing clients never wait for
    // the encoder's work, which used to hold the one lock for whole batches.
    mutable std::mutex _queueMu;
    std::condition_variable _insertCv;  // the encoder waits for work
    std::condition_variable _roomCv;    // throttled writers wait for room in the backlog
    std::deque<PendingInsert> _queue;  // within the backlog bound, in insert order
    size_t _queueBytes = 0;
    // storeRaw: inserts that found the backlog full, encoded only when _queue is empty (see
    // enqueueInsert), at most kMaxDeferredInserts.
    std::deque<PendingInsert> _deferred;
    size_t _deferredBytes = 0;
    int _encoding = 0;  // taken from a queue, not yet told to the engine (serverStatus counts it)
    // Records a client changed while their insert waited (see prepareClientChange), with the
    // sequence number of the newest insert queued then: once every insert up to it has been
    // encoded, the entry can go (pruned in encoderLoop, so it stays bounded under steady load).
    std::map<std::pair<std::string, int64_t>, uint64_t> _changedWhileQueued;
    // The same for records the engine tracks (possible sources) changed while inserts waited: a
    // forward delta against one that changed after the insert was queued would not rebuild the
    // insert's entry on a member (which holds the old bytes), so it is not kept (keepForwardDelta).
    std::map<std::pair<std::string, int64_t>, uint64_t> _sourceChangedAt;
    uint64_t _enqueuedSeq = 0;    // under _queueMu

    std::mutex _readGcMu;  // leaf lock
    std::set<std::pair<std::string, int64_t>> _retainedRead;  // bounded, see noteRetainedRead

    mutable std::mutex _unsyncedMu;
    std::set<std::string> _unsynced;  // collections whose engine state failed to rebuild

    std::mutex _threadMu;
    std::condition_variable _threadCv;
    std::atomic<bool> _stopping{false};
    std::thread _encoder, _writeBack, _rebuild;
    std::condition_variable _readyCv;  // under _threadMu: _linksReady became true
    std::atomic<bool> _linksReady{false};
    // startupRebuild: 0 not started, 1 learning links, 2 indexing features, 3 done.
    std::atomic<int> _rebuildState{0};
    std::atomic<long long> _rebuildLinksMillis{0}, _rebuildToIndex{0}, _rebuildIndexed{0};

    std::atomic<long long> _lastClientWriteNanos{0};
    std::atomic<int> _applyingWriteBacks{0};  // a batch is between the engine's queue and commit
    std::atomic<long long> _backlogStoredRaw{0}, _backlogDeferredTotal{0}, _throttledWrites{0}, _throttledMicros{0};
    std::atomic<long long> _writeBacksSinceCheckpoint{0}, _settleCheckpoints{0};
    std::atomic<long long> _decodeFailures{0}, _resyncs{0}, _writeBackRejected{0}, _writeBackFailed{0},
        _retainedRemoved{0}, _applyBatches{0}, _insertsDropped{0}, _readPathCollections{0};
    std::atomic<long long> _restoreRecords{0}, _restoreMillis{0};
    std::string _savedBytesAtStart;  // the file taken at start-up, decoded by the rebuild thread
    std::optional<SavedDedupState> _savedAtShutdown;
    std::atomic<long long> _rebuildFromSaved{0};  // collections loaded from the saved state
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
