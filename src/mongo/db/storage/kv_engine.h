#pragma once
// KVEngine: what a storage engine implements (WiredTiger: wiredtiger/wiredtiger_kv_engine.h).
// It creates, opens and drops tables by ident (record stores and indexes), makes recovery
// units, and owns durability (journal, checkpoints). It knows nothing of namespaces: the
// catalog (db/catalog) maps collections and indexes to idents.
// Thread safety: every method may be called concurrently unless stated otherwise.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/size_storer.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

struct RecordStoreOptions {
    std::string blockCompressor;  // "" = the engine's default (none|snappy|zlib|zstd)
    // Page layout; 0 = the engine's default (WiredTiger: 4 KB allocation unit, 32 KB leaf pages).
    uint32_t allocationSizeBytes = 0;  // the unit file space is handed out in
    uint32_t leafPageMaxBytes = 0;     // a leaf page splits beyond this (before compression)
    // New blocks go to the first free space that fits (WiredTiger's block_allocation=first)
    // instead of the best fit: data stays packed towards the start of the file, so the space
    // that rewritten pages free gathers at the end, where a checkpoint truncates it.
    bool firstFitAllocation = false;
    // Written to the journal (when the engine has one). WiredTiger ignores commit and read
    // timestamps on logged tables: only an unlogged table keeps versions by timestamp (and
    // is then durable only through checkpoints at the stable timestamp, as MongoDB's replica
    // set members' user tables are, the oplog replaying the rest at startup).
    bool logged = true;
};

// Options of KVEngine::compactIdent (the compact command's arguments).
struct CompactIdentOptions {
    // Leave the table alone unless at least this many MB could be given back; 0 = the engine's
    // default (WiredTiger: 20 MB). The compact command's freeSpaceTargetMB.
    long long freeSpaceTargetMB = 0;
};

// Background compaction (the autoCompact command, WiredTiger's compaction server).
struct AutoCompactOptions {
    bool enable = false;
    bool runOnce = false;             // one pass over every table, then stop
    long long freeSpaceTargetMB = 0;  // 0 = the engine's default (WiredTiger: 20 MB)
};

struct SortedDataOptions {
    key_string::Ordering ordering;
    bool unique = false;  // informational; uniqueness is enforced through insert(dupsAllowed)
};

class KVEngine {
public:
    virtual ~KVEngine() = default;

    virtual std::unique_ptr<RecoveryUnit> newRecoveryUnit() = 0;

    // Creating a table is not transactional: callers drop it if their unit of work aborts.
    // Throws DBException on failure.
    virtual void createRecordStore(const std::string& ident, const RecordStoreOptions& options) = 0;
    virtual std::unique_ptr<RecordStore> getRecordStore(const std::string& ident) = 0;
    virtual void createSortedDataInterface(const std::string& ident, const SortedDataOptions& options) = 0;
    virtual std::unique_ptr<SortedDataInterface> getSortedDataInterface(const std::string& ident,
                                                                        const SortedDataOptions& options) = 0;

    // Removes the table. Never fails: a table still in use (open cursors, a checkpoint) is
    // queued and dropped as soon as possible, at the latest at the next startup.
    // REQUIRES: nothing will use the ident again. Callers commit the catalog change first.
    virtual void dropIdent(const std::string& ident) = 0;
    virtual bool hasIdent(const std::string& ident) = 0;
    virtual std::vector<std::string> getAllIdents() = 0;
    // Bytes on disk of the ident's table (0 if unknown).
    virtual long long identSize(const std::string& ident) = 0;

    virtual SizeStorer* sizeStorer() = 0;

    // Rewrites the ident's table so that free space inside its file goes back to the file
    // system (the compact command). The table stays readable and writable meanwhile. Returns
    // the bytes freed: file size before minus after (0 or negative when nothing was gained).
    // opCtx (may be null) makes it interruptible: killOp / maxTimeMS / shutdown stop it with
    // the matching error, the table intact. Throws DBException; this default throws
    // CommandNotSupported for engines that cannot compact.
    virtual long long compactIdent(OperationContext* opCtx, const std::string& ident,
                                   const CompactIdentOptions& options = CompactIdentOptions()) {
        uasserted(ErrorCodes::CommandNotSupported, "this storage engine does not support compact");
    }

    // Bytes inside the ident's file that are free for reuse by later writes (collStats
    // freeStorageSize); 0 if unknown.
    virtual long long identFreeBytes(const std::string& ident) { return 0; }
    // The configuration the ident's table was created with (collStats' wiredTiger.creationString),
    // or "" if the engine has none.
    virtual std::string identCreationString(const std::string& ident) { return std::string(); }

    // Starts or stops compaction in the background: tables whose files hold at least
    // freeSpaceTargetMB of free space are compacted in turn, while reads and writes go on.
    // Starting it while it runs fails with ObjectIsBusy (stop it first), as autoCompact does.
    // Throws DBException; this default throws CommandNotSupported.
    virtual void configureAutoCompact(const AutoCompactOptions& options) {
        uasserted(ErrorCodes::CommandNotSupported, "this storage engine does not support background compaction");
    }
    virtual bool autoCompactEnabled() const { return false; }

    // Makes everything committed so far durable: a checkpoint, then (sync) the files flushed.
    // The fsync command and shutdown call this.
    virtual void flushAllFiles(bool sync) = 0;
    // Makes committed writes durable in the journal (j: true). Cheap if nothing is pending.
    virtual void waitUntilDurable() = 0;
    // Stops background threads, takes a final checkpoint and closes. Idempotent; nothing may
    // use the engine afterwards.
    // Returns whether the final close (and its checkpoint) succeeded; a repeated call returns
    // the first call's answer.
    virtual bool cleanShutdown() = 0;

    // Global timestamps (replica sets; the uint64_t form of recovery_unit.h). The stable
    // timestamp is the newest point every checkpoint may hold (MongoDB: the majority commit
    // point); the oldest timestamp is the oldest point readers may ask for (history older
    // than it may be discarded). Each only moves forward: a smaller value than the current one
    // is ignored, and oldest is clamped to stable. Throws DBException if the engine refuses.
    // These defaults throw CommandNotSupported.
    virtual void setStableTimestamp(uint64_t ts) {
        uasserted(ErrorCodes::CommandNotSupported, "this storage engine has no timestamps");
    }
    virtual void setOldestTimestamp(uint64_t ts) {
        uasserted(ErrorCodes::CommandNotSupported, "this storage engine has no timestamps");
    }
    // Both at once, oldest = stable = ts (a replica set whose majority point moved): one
    // engine call where the engine allows it. Same rules as the two setters.
    virtual void setStableAndOldestTimestamp(uint64_t ts) {
        setStableTimestamp(ts);
        setOldestTimestamp(ts);
    }
    // isync: moves stable and oldest to ts (> 0) even backwards, for a member whose replicated
    // data and oplog were just emptied (initial sync): its next writes commit at the sync
    // source's timestamps, which may be older than what this node applied before.
    virtual void resetStableAndOldestTimestamp(uint64_t ts) {
        uasserted(ErrorCodes::CommandNotSupported, "this storage engine has no timestamps");
    }
    virtual uint64_t stableTimestamp() const { return 0; }
    virtual uint64_t oldestTimestamp() const { return 0; }
    // The newest timestamp at or before which every timestamped transaction has committed
    // (WiredTiger's all_durable), 0 if none committed with a timestamp.
    virtual uint64_t allDurableTimestamp() const { return 0; }
    // The stable timestamp of the checkpoint the engine recovered from at startup, 0 if none.
    virtual uint64_t recoveryTimestamp() const { return 0; }

    // For serverStatus ("wiredTiger" section), may be empty.
    virtual BSONObj serverStatusSection() { return BSONObj(); }
};

}  // namespace mongo
