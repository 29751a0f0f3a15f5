#pragma once
// WiredTigerKVEngine: the KVEngine over one WiredTiger connection at dbpath.
//
// Durability: with the journal, WiredTiger is opened with transaction_sync=(enabled,
// method=none): every commit writes its log records to the journal file before it returns
// (so an acknowledged write survives kill -9 of the process), and a background thread fsyncs
// the journal every journalCommitIntervalMs (MongoDB's 100 ms commit interval bounds what a
// machine crash may lose). j:true commits wait for an fsync of the journal. A checkpoint runs
// every syncDelaySecs and at shutdown. Without the journal, only checkpoints are durable and
// j:true runs a checkpoint.
//
// Tables: record stores are "table:<ident>" key_format=q,value_format=u with the configured
// block compressor; indexes key_format=u,value_format=u with prefix compression.
// Thread safety: thread safe. REQUIRES: every recovery unit is destroyed before cleanShutdown.
#include <wiredtiger.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/storage_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"

namespace mongo {

class WiredTigerSizeStorer;

class WiredTigerKVEngine : public KVEngine {
public:
    // Opens (creating if needed) the WiredTiger database in options.dbpath. Throws DBException.
    explicit WiredTigerKVEngine(const StorageEngineOptions& options);
    ~WiredTigerKVEngine() override;

    std::unique_ptr<RecoveryUnit> newRecoveryUnit() override;
    void createRecordStore(const std::string& ident, const RecordStoreOptions& options) override;
    std::unique_ptr<RecordStore> getRecordStore(const std::string& ident) override;
    void createSortedDataInterface(const std::string& ident, const SortedDataOptions& options) override;
    std::unique_ptr<SortedDataInterface> getSortedDataInterface(const std::string& ident,
                                                                const SortedDataOptions& options) override;
    void dropIdent(const std::string& ident) override;
    bool hasIdent(const std::string& ident) override;
    std::vector<std::string> getAllIdents() override;
    long long identSize(const std::string& ident) override;
    SizeStorer* sizeStorer() override;
    // WT_SESSION::compact on a session of its own (compact must not run inside a transaction,
    // and the session's event handler checks opCtx for interruption). Retries a few times when
    // WiredTiger answers EBUSY (a checkpoint or cache pressure), then gives up with Interrupted.
    // If the file still holds at least freeSpaceTargetMB of free space afterwards (an emptied
    // table, which compact cannot shrink), two forced checkpoints truncate it.
    long long compactIdent(OperationContext* opCtx, const std::string& ident,
                           const CompactIdentOptions& options) override;
    long long identFreeBytes(const std::string& ident) override;
    std::string identCreationString(const std::string& ident) override;
    // WT_SESSION::compact(nullptr, "background=true|false,...") on a session of its own.
    void configureAutoCompact(const AutoCompactOptions& options) override;
    bool autoCompactEnabled() const override { return _autoCompact.load(); }
    void flushAllFiles(bool sync) override;
    void waitUntilDurable() override;
    bool cleanShutdown() override;
    BSONObj serverStatusSection() override;
    // WT_CONNECTION::set_timestamp / query_timestamp (kv_engine.h's contract).
    void setStableTimestamp(uint64_t ts) override;
    void setOldestTimestamp(uint64_t ts) override;
    void setStableAndOldestTimestamp(uint64_t ts) override;
    void resetStableAndOldestTimestamp(uint64_t ts) override;  // isync
    uint64_t stableTimestamp() const override;
    uint64_t oldestTimestamp() const override;
    uint64_t allDurableTimestamp() const override;
    uint64_t recoveryTimestamp() const override;

    WiredTigerSessionCache* sessionCache() { return _sessionCache.get(); }
    // Called by recovery units after each commit (the journal flusher skips idle periods).
    void noteCommit() { _commitsSinceFlush.fetch_add(1, std::memory_order_relaxed); }
    // Drops queued because their tables were busy; retried by the background thread.
    size_t numPendingDrops() const;
    static std::string uriFor(const std::string& ident) { return "table:" + ident; }

    // WiredTiger's default free_space_target: files with less free space are not compacted.
    static constexpr long long kDefaultFreeSpaceTargetMB = 20;

private:
    bool tryDrop(const std::string& uri);
    // Bytes of the table's file that are free for reuse (block manager statistics), 0 if unknown.
    static long long reusableBytes(WT_SESSION* s, const std::string& uri);
    void retryPendingDrops();
    void backgroundThread();
    std::string extensionsConfig() const;

    StorageEngineOptions _options;
    std::mutex _autoCompactMutex;
    std::atomic<bool> _autoCompact{false};
    WT_CONNECTION* _conn = nullptr;
    std::unique_ptr<WiredTigerSessionCache> _sessionCache;
    std::unique_ptr<WiredTigerSizeStorer> _sizeStorer;
    std::atomic<long long> _commitsSinceFlush{0};
    std::mutex _checkpointMutex;  // one checkpoint at a time
    mutable std::mutex _timestampMutex;  // set_timestamp calls in order (values only grow)
    uint64_t queryTimestamp(const char* which) const;

    std::thread _thread;
    std::mutex _threadMutex;
    std::condition_variable _threadCv;
    bool _stopping = false;
    bool _shutDown = false;
    bool _closedCleanly = false;
};

}  // namespace mongo
