#pragma once
// dbDedup: similarity-based deduplication of database records (Xu et al., SIGMOD 2017).
//
// The engine sees records as (namespace, record id, bytes). For each inserted record it finds
// a similar older record (content-defined chunks -> top-K sketch -> feature index -> cache-
// aware selection), computes one delta, and returns
//   * the forward delta (older -> new record) for the oplog / replication, and
//   * the backward delta (new -> older record): the older record's new stored form, queued in
//     the lossy write-back cache until the caller says I/O is idle (drainWriteBacks).
// The new record itself is always stored raw, so reading the latest version never decodes.
// Hop encoding re-encodes some older records ("hop bases") so that decoding any record takes
// a bounded number of steps; those re-encodings are queued as write-backs too.
//
// The storage layer implements RecordStore (read a stored form, write one back, remove a
// record kept only as a decode base) and calls onInsert / onUpdate / onDelete / read /
// drainWriteBacks. Stored forms are described in stored_form.h, deltas in delta_format.h.
//
// Thread-safety: Engine is thread-safe. Its bookkeeping is guarded by one mutex; feature
// extraction runs outside it and the caches lock internally. RecordStore methods are called
// with the engine's mutex held, so they must not call back into the Engine.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/db/dedup/chain_policy.h"
#include "mongo/db/dedup/feature_extractor.h"
#include "mongo/db/dedup/stored_form.h"

namespace mongo {
namespace dedup {

struct Options {
    // Feature extraction. Mean content-defined chunk size in bytes (16 B .. 64 KB; the paper's
    // best is 64 B) and the sketch size K (features indexed per record).
    uint32_t avgChunkSize = 64;
    uint32_t sketchSize = 8;
    // Feature index: records kept per feature; beyond it the least recently used is evicted.
    uint32_t maxCandidatesPerFeature = 8;
    // Expected records per database, to size the index up front (it grows anyway).
    size_t expectedRecordsPerDb = 128;

    // Source selection: score bonus of a candidate found in the source record cache.
    uint32_t cacheReward = 2;

    // Delta compression: mean anchor interval (Algorithm 1) and the minimum number of anchors
    // a small source gets (DeltaEncoder).
    uint32_t anchorInterval = 64;
    uint32_t minAnchors = 128;
    // Search literal gaps again for short matches (smaller deltas, slower encoding).
    bool deltaGapSearch = true;
    // zstd-compress delta bodies that carry kilobytes of new text (delta_format.h 0xD2).
    // Smaller deltas on their own, but a storage engine that block-compresses whole pages
    // does better with plain deltas (see the benchmark report), hence off.
    bool compressDeltas = false;
    // A record is encoded only if its forward delta is smaller than this fraction of it.
    double maxDeltaFraction = 0.9;

    // Encoding chains: scheme and hop distance H (cluster size for version jumping).
    ChainScheme chainScheme = ChainScheme::kBoundedHop;
    uint32_t hopDistance = 16;
    // The decode bound: reading any record (live or retained) applies at most this many
    // deltas. Fixed for the engine's life. 0: the scheme's own bound for any chain the engine
    // can hold (schemeDecodeCap: H + floor(log_H(2^32 - 1)) for bounded-hop, 23 at H = 16;
    // H - 1 for version jumping; none for backward and hop). It is enforced everywhere chains
    // change: a write-back that would make some record take more steps is skipped
    // (writeBacksDepthLimited) unless it brings records already past the bound nearer their
    // root; updates and deletes never lengthen a chain; records found
    // deeper when the engine is rebuilt from storage (stored under another scheme or bound)
    // are re-encoded against a nearer base, or stored whole, by the garbage collection pass
    // (depthRepairs).
    uint32_t maxDecodeSteps = 0;

    // Caches, in bytes (paper: 32 MB source record cache, 8 MB write-back cache).
    size_t sourceCacheBytes = 32u << 20;
    size_t writeBackCacheBytes = 8u << 20;

    // Governor: disable dedup for a database whose ratio over a window of inserts stays
    // below minRatio.
    bool governor = true;
    double governorMinRatio = 1.1;
    uint64_t governorWindow = 100000;
    // Size filter: skip records smaller than this percentile of the database's record sizes,
    // re-estimated every sizeFilterUpdateEvery inserts.
    bool sizeFilter = true;
    double sizeFilterPercentile = 0.40;
    uint32_t sizeFilterUpdateEvery = 1000;
};

// Implemented by the storage layer. Namespaces are full "db.collection" names; a delta's
// base is always a record of the same namespace.
class RecordStore : public StoredRecordReader {
public:
    // readStored (from StoredRecordReader): the record's current stored form.
    // Replaces the stored form of an existing record (a write-back or a required rewrite).
    virtual Status writeStored(std::string_view ns, int64_t id, std::string_view stored) = 0;
    // Physically removes a record the client deleted earlier, kept until now because other
    // records were stored as deltas against it.
    virtual Status removeRetained(std::string_view ns, int64_t id) = 0;
};

struct InsertDecision {
    enum class Outcome {
        kEncoded,            // a source was found: forwardDelta is set
        kUnique,             // no similar record (or no delta worth keeping)
        kFilteredBySize,     // below the database's size threshold
        kDisabled,           // the governor turned dedup off for this database
        kSourceUnavailable,  // the chosen source could not be read
    };
    Outcome outcome = Outcome::kUnique;
    int64_t sourceId = 0;       // kEncoded: the record the new one was encoded against
    std::string forwardDelta;   // kEncoded: rebuilds the new record from the source
    uint32_t writeBacksQueued = 0;  // backward delta of the source + hop re-encodings
};
const char* outcomeName(InsertDecision::Outcome o);

// Records the storage layer must rewrite in the same unit of work as a client write,
// because they were stored as deltas against a record whose bytes are changing or going.
struct Rewrite {
    int64_t id;
    std::string stored;  // the record's new stored form
};

struct UpdatePlan {
    // Apply in the same unit of work as the update, which stores the new bytes raw. A rewrite
    // may be a delta against the record's new bytes.
    std::vector<Rewrite> rewrites;
    std::vector<int64_t> alsoRemove;  // retained records of this namespace now free to go
};

struct DeletePlan {
    // true: other records decode through this one; keep its stored form, hide it from
    // clients, and remove it when the engine says so (RecordStore::removeRetained).
    bool retain = false;
    std::vector<int64_t> alsoRemove;  // retained records of this namespace now free to go
};

struct DrainResult {
    uint32_t applied = 0;      // written back
    uint32_t stale = 0;        // invalidated since queued (record or base changed)
    uint32_t depthLimited = 0; // skipped: would exceed maxDecodeSteps
    uint32_t failed = 0;       // the RecordStore returned an error
    uint32_t removed = 0;      // retained records removed because nothing decodes through them
};

struct DbStats {
    std::string db;
    bool active = true;          // dedup still enabled by the governor
    double windowRatio = 1.0;    // governor's ratio over the current window
    uint64_t records = 0;        // tracked records
    uint64_t logicalBytes = 0;   // bytes of the records
    uint64_t storedBytes = 0;    // bytes of their stored forms as applied
    uint64_t sizeThreshold = 0;  // size filter cut-off
    uint64_t indexEntries = 0;
    uint64_t indexBytes = 0;
    uint64_t metadataBytes = 0;
};

struct RecordInfo {
    bool tracked = false;   // the engine knows the record
    bool retained = false;  // deleted by the client, kept as a base
    int64_t baseId = 0;     // stored as a delta against this record (0: raw)
    uint32_t refCount = 0;  // records stored as deltas against it
};

struct WriteBackBacklog {
    size_t entries = 0;
    size_t bytes = 0;
    size_t capacityBytes = 0;
};

struct Stats {
    uint64_t recordsExamined = 0;     // onInsert calls
    uint64_t recordsEncoded = 0;
    uint64_t recordsUnique = 0;
    uint64_t skippedBySizeFilter = 0;
    uint64_t skippedByGovernor = 0;
    uint64_t sourceUnavailable = 0;
    uint64_t overlappedEncodings = 0;  // the source was not the newest of its chain
    uint64_t logicalBytes = 0;        // current records
    uint64_t storedBytes = 0;         // their stored forms as applied
    uint64_t forwardDeltaBytes = 0;   // oplog payload of encoded inserts
    uint64_t insertedBytes = 0;       // bytes of all inserted records
    uint64_t indexEntries = 0;
    uint64_t indexBytes = 0;
    uint64_t metadataBytes = 0;
    uint64_t sourceCacheHits = 0, sourceCacheMisses = 0, sourceCacheBytes = 0;
    uint64_t sourceFetches = 0;       // sources read from the RecordStore
    uint64_t writeBacksQueued = 0, writeBacksApplied = 0, writeBacksDropped = 0;
    uint64_t writeBacksInvalidated = 0, writeBacksReplaced = 0, writeBacksDepthLimited = 0;
    uint64_t writeBacksPending = 0, writeBackCacheBytes = 0;
    uint64_t requiredRewrites = 0;    // from onUpdate / onDelete
    uint64_t updatesReencoded = 0;    // onUpdateSettled write-backs queued
    uint64_t longestChain = 0;        // most decode steps of any record (computeChains only)
    uint64_t retainedRecords = 0;     // deleted by clients, kept as bases (computeChains only)
    uint64_t restoredRecords = 0;     // reported through restoreRecord
    uint64_t garbageRequeued = 0;     // rewrites re-queued by garbage collection
    uint64_t depthRepairs = 0;        // rewrites queued for records deeper than the decode bound
    std::vector<DbStats> dbs;
};

class Engine {
public:
    // `store` must outlive the engine. Invalid options are clamped to their ranges.
    Engine(const Options& options, RecordStore* store);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    const Options& options() const;
    // The decode bound in force (Options::maxDecodeSteps, or the scheme's): no record takes
    // more deltas to read once the engine knows the links. 0: none (backward, hop).
    uint32_t decodeBound() const;

    // A new record (ns, id) with these bytes is being inserted; the caller stores it raw.
    // DuplicateKey if the engine already tracks (ns, id).
    StatusWith<InsertDecision> onInsert(std::string_view ns, int64_t id, std::string_view bytes);

    // Replica side: the primary encoded record (ns, id) as forwardDelta against sourceId.
    // Rebuilds the record into *bytes and does the same bookkeeping as onInsert did on the
    // primary (same chain, same write-backs). The caller stores *bytes raw.
    Status onReplicatedInsert(std::string_view ns, int64_t id, int64_t sourceId,
                              std::string_view forwardDelta, std::string* bytes);

    // A client replaces record (ns, id) with newBytes. The plan's rewrites must be applied
    // before the record's new bytes are (others decode through its old bytes).
    // keepOldAs (the paper's rule; 0: off): when others decode through the record (see
    // describe().refCount), the storage layer first stores the record's current stored form,
    // flagged retained, under a new id and passes it here. The plan then only re-points those
    // records at it (their deltas unchanged); write-backs later re-encode them against the new
    // bytes, and the old bytes go when nothing needs them. Without it they are re-encoded
    // against the new bytes at once, in the plan.
    StatusWith<UpdatePlan> onUpdate(std::string_view ns, int64_t id, std::string_view newBytes,
                                    int64_t keepOldAs = 0);

    // Some time after onUpdate (off the client's path): record (ns, id), whose bytes are now
    // `bytes`, was left stored whole by the update. Queues the write-back that stores it
    // against the record its chain position points to, so updates do not undo deduplication.
    // NoSuchKey if the engine does not track the record (the caller may treat it as an insert).
    Status onUpdateSettled(std::string_view ns, int64_t id, std::string_view bytes);

    // A client deletes record (ns, id).
    StatusWith<DeletePlan> onDelete(std::string_view ns, int64_t id);

    // Reads record (ns, id) through the RecordStore, decoding if it is stored as a delta
    // (using the source record cache where it helps). Does not take the engine's mutex.
    Status read(std::string_view ns, int64_t id, std::string* out, DecodeInfo* info = nullptr);

    // I/O is idle: apply up to maxEntries pending write-backs, most valuable first.
    DrainResult drainWriteBacks(size_t maxEntries = SIZE_MAX, size_t maxBytes = SIZE_MAX);

    // computeChains walks every tracked record to find the longest decode chain (linear).
    Stats stats(bool computeChains = false) const;
    // Cheap: what waits in the write-back cache.
    WriteBackBacklog writeBackBacklog() const;
    // dependents (may be null) receives the ids of the records stored as deltas against id.
    RecordInfo describe(std::string_view ns, int64_t id, std::vector<int64_t>* dependents = nullptr) const;

    // --- Rebuilding state from storage. The stored forms are the truth: nothing of the
    // engine is persisted, it is rebuilt at start-up (or after a storage-level rollback) from
    // the records the storage layer reports (engine_restore.cpp). ---
    // Forgets every record of ns (dropped, truncated, or about to be restored).
    void forgetNamespace(std::string_view ns);
    // One stored record of ns: its bytes, the record its stored form is a delta against
    // (0: raw), the stored form's size, and whether the client deleted it (retained as a
    // base). Any order; finishRestore(ns) then links, chains and indexes them.
    Status restoreRecord(std::string_view ns, int64_t id, std::string_view bytes, int64_t baseId,
                         size_t storedSize, bool retained);
    // The same without the record's bytes, for a start-up that does not wait for them: the
    // stored form's header gives the logical size. finishRestore links and chains the record;
    // it is found as a source only once indexRestored has reported its bytes.
    Status restoreLink(std::string_view ns, int64_t id, size_t logicalSize, int64_t baseId, size_t storedSize,
                       bool retained);
    // Links bases, forms chains (records sharing a raw head, oldest first) and indexes the
    // features in id order, so the newest records win the per-feature candidate slots.
    void finishRestore(std::string_view ns);
    // Indexes the features of a record restored by restoreLink, after finishRestore, while
    // the engine serves. Skipped (OK) if the record is no longer tracked, is deleted, or is
    // indexed already (it was updated meanwhile). The sketch is computed outside the lock.
    Status indexRestored(std::string_view ns, int64_t id, std::string_view bytes);

    // --- The state saved at a clean shutdown (storage/dedup/dedup_state_snapshot.h): what
    // restoreLink reports plus the sketch of each indexed raw record, so the next start-up
    // neither reads every stored form nor sketches the raw ones again. ---
    struct SavedRecord {
        int64_t id = 0;
        uint32_t logicalSize = 0;
        int64_t baseId = 0;  // 0: stored raw
        uint32_t storedSize = 0;
        bool retained = false;
        Sketch sketch;  // empty unless the record is raw, live and indexed
    };
    // Every record of ns the engine tracks, in no particular order (under the engine's mutex:
    // f must not call into the engine). Returns how many.
    size_t saveNamespace(std::string_view ns, const std::function<void(const SavedRecord&)>& f) const;
    // One saved record, as restoreLink plus its sketch: finishRestore(ns) links, chains and
    // indexes it as if restoreRecord had sketched its bytes. A sketch longer than K is
    // BadValue (the saved state is from another configuration: rebuild from storage instead).
    Status restoreSaved(std::string_view ns, const SavedRecord& r);
    // Names the feature extractor and its parameters: saved sketches are used only by an
    // engine with the same signature.
    std::string featureSignature() const;

    // Garbage collection pass: removes retained records nothing decodes through any more
    // (RecordStore::removeRetained; the caller provides the unit of work) and re-queues the
    // rewrites for the others, visiting at most maxRecords retained records per call and
    // resuming where the last call stopped. It also queues (again, if the lossy cache lost
    // them) the rewrites that bring records found deeper than the decode bound back under it.
    // Returns the records removed.
    size_t collectGarbage(size_t maxRecords = SIZE_MAX);
    // The same for one record (a read decoded through it): removed if nothing needs it any
    // more, else its dependents' rewrites are queued. Returns the records removed.
    size_t collectRetained(std::string_view ns, int64_t id);

private:
    class Impl;
    std::unique_ptr<Impl> _impl;
};

}  // namespace dedup
}  // namespace mongo
