#pragma once
// Private to the dedup engine: the state behind Engine (dedup_engine.h) and the helpers its
// source files share (dedup_engine.cpp: inserts; engine_maintenance.cpp: updates, deletes,
// write-backs, reads, statistics; engine_restore.cpp: rebuilding from storage, garbage
// collection; engine_depth.cpp: the decode bound).
// Thread-safety: every member below is guarded by _mu unless noted.
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/feature_extractor.h"
#include "mongo/db/dedup/feature_index.h"
#include "mongo/db/dedup/governor.h"
#include "mongo/db/dedup/record_table.h"
#include "mongo/db/dedup/source_record_cache.h"
#include "mongo/db/dedup/writeback_cache.h"

namespace mongo {
namespace dedup {

class Engine::Impl {
public:
    Impl(const Options& options, RecordStore* store);

    const Options& options() const { return _o; }
    uint32_t decodeBound() const { return _cap; }
    StatusWith<InsertDecision> onInsert(std::string_view ns, int64_t id, std::string_view bytes);
    Status onReplicatedInsert(std::string_view ns, int64_t id, int64_t sourceId,
                              std::string_view forwardDelta, std::string* bytes);
    StatusWith<UpdatePlan> onUpdate(std::string_view ns, int64_t id, std::string_view newBytes,
                                    int64_t keepOldAs);
    Status onUpdateSettled(std::string_view ns, int64_t id, std::string_view bytes);
    StatusWith<DeletePlan> onDelete(std::string_view ns, int64_t id);
    Status read(std::string_view ns, int64_t id, std::string* out, DecodeInfo* info);
    DrainResult drainWriteBacks(size_t maxEntries, size_t maxBytes);
    Stats stats(bool computeChains) const;
    WriteBackBacklog writeBackBacklog() const;
    RecordInfo describe(std::string_view ns, int64_t id, std::vector<int64_t>* dependents) const;
    void forgetNamespace(std::string_view ns);
    Status restoreRecord(std::string_view ns, int64_t id, std::string_view bytes, int64_t baseId,
                         size_t storedSize, bool retained);
    Status restoreLink(std::string_view ns, int64_t id, size_t logicalSize, int64_t baseId, size_t storedSize,
                       bool retained);
    void finishRestore(std::string_view ns);
    Status indexRestored(std::string_view ns, int64_t id, std::string_view bytes);
    size_t saveNamespace(std::string_view ns, const std::function<void(const Engine::SavedRecord&)>& f);
    Status restoreSaved(std::string_view ns, const Engine::SavedRecord& r);
    size_t collectGarbage(size_t maxRecords);
    size_t collectRetained(std::string_view ns, int64_t id);

private:
    using Bytes = SourceRecordCache::Bytes;

    struct Chain {
        std::vector<uint32_t> members;  // record pointer by position; kNoRecord once removed
    };

    // One database: its feature index, metadata container, governor and chains.
    struct Partition {
        Partition(std::string n, const Options& o, const GovernorOptions& g);
        std::string name;
        RecordTable table;
        std::unique_ptr<FeatureIndex> index;  // null once the governor disabled the database
        DbGovernor gov;
        std::vector<Chain> chains;
        uint64_t logicalBytes = 0;  // live (not deleted) records
        uint64_t storedBytes = 0;   // all stored forms, retained ones included
        // Some records may be deeper than the decode bound (their links were restored from
        // storage, written under another scheme or bound): the garbage collection pass
        // repairs them (repairDepths) until none is.
        bool depthCheck = false;
    };

    // --- namespaces and partitions ---
    uint32_t internNs(std::string_view ns);  // takes _nsMu
    bool findNs(std::string_view ns, uint32_t* idx) const;  // takes _nsMu
    const std::string& nsName(uint32_t idx) const;  // takes _nsMu
    Partition& partitionOfNs(uint32_t nsIdx);
    RecordKey keyOf(const RecordMeta& m) const { return RecordKey{m.ns, m.id}; }

    // --- insert path (dedup_engine.cpp) ---
    uint32_t trackRecord(Partition& p, uint32_t nsIdx, int64_t id, size_t size,
                         const Sketch& sketch, bool index);
    void startChain(Partition& p, uint32_t ptr);
    // Chooses a source for ptr among records sharing its features (kNoRecord if none).
    uint32_t selectFor(Partition& p, uint32_t ptr, const Sketch& sketch);
    // Chain bookkeeping and write-backs once ptr has been encoded against source.
    uint32_t encodeAgainst(Partition& p, uint32_t ptr, const Bytes& newBytes, uint32_t source,
                           const Bytes& srcBytes, const std::vector<DeltaInst>& forward);
    void afterInsert(Partition& p);

    // --- shared helpers (engine_maintenance.cpp) ---
    // The record's bytes: from the source record cache, else decoded from the RecordStore.
    Bytes fetchLogical(Partition& p, uint32_t ptr);
    // Queues a new stored form for rec (against base, or raw if base == kNoRecord). One that
    // saves nothing is not queued unless structural (chains rely on it) or required (it frees
    // a retained record: the bytes of a deleted or replaced document must go in the end).
    bool queueWriteBack(Partition& p, uint32_t rec, uint32_t base, std::string stored,
                        bool structural, int64_t extraValue = 0, bool required = false);
    // Changes the applied base of rec, keeping dependents and heights right.
    void relink(Partition& p, uint32_t rec, uint32_t base);
    // restoreRecord / restoreLink: one record into _restoring (sketch may be empty).
    Status addRestored(uint32_t nsIdx, int64_t id, size_t logicalSize, const Sketch& sketch, int64_t baseId,
                       size_t storedSize, bool retained);
    // finishRestore: where the chain headed by the last record of `group` (the records that
    // decode to the same root, in id order) began: the oldest index from which the stored
    // links of the newest records fit the chain scheme's positions (0 when none does).
    size_t restoredChainStart(const Partition& p, const std::vector<uint32_t>& group) const;
    // --- the decode bound (engine_depth.cpp) ---
    // Heights are kept (relink) whenever there is a bound to enforce.
    bool tracksHeights() const { return _cap != 0; }
    // Deltas applied to decode ptr, counting at most limit + 1.
    uint32_t depthOf(const Partition& p, uint32_t ptr, uint32_t limit) const;
    // Finds the records of p deeper than the bound and queues, for up to maxRepairs of them,
    // the rewrite that brings them back under it; clears p.depthCheck once none is left.
    // Returns the rewrites queued.
    size_t repairDepths(Partition& p, size_t maxRepairs);
    // Queues the rewrite of c, a record at depth _cap + 1, against an ancestor that brings it
    // and (as far as one can) its dependents within the bound: the one at depth
    // _cap - 1 - height(c), or the root if that is negative (the nearest live one); raw if no
    // ancestor is live or no delta pays. Returns whether a rewrite was queued.
    bool repairOne(Partition& p, uint32_t c);
    // rec `id`'s stored form as a delta against baseBytes (record baseId), or empty when it is
    // not smaller than maxFraction of the raw form.
    std::string deltaStoredIfSmaller(int64_t id, std::string_view bytes, int64_t baseId,
                                     const std::string& baseBytes, double maxFraction);
    // Whether c may become rec's base: live, same namespace, no cycle through rec, and not
    // decoding through `avoid` (a record about to go; kNoRecord: none).
    bool usableBase(const Partition& p, uint32_t c, uint32_t rec, uint32_t avoid) const;
    // The most similar usableBase for rec among the records sharing its features (the
    // insert path's source selection), or kNoRecord.
    uint32_t similarLiveRecord(Partition& p, uint32_t rec, uint32_t avoid);
    // Whether following bases from `from` (itself included) reaches `target`.
    bool reaches(const Partition& p, uint32_t from, uint32_t target) const;
    // Forgets a record for good; retained bases left without dependents go too (their ids
    // are appended to *removed).
    void removeRecord(Partition& p, uint32_t ptr, std::vector<int64_t>* removed);
    void unindex(Partition& p, uint32_t ptr);
    void disablePartition(Partition& p);
    // Queues the rewrites that move x's dependents off x, onto its nearest live ancestor, else
    // onto `fallback` (whose bytes are fallbackBytes), else raw. Returns how many were queued.
    // One retained record: removed (refCount 0) or its dependents' rewrites queued.
    size_t collectOne(Partition& p, uint32_t x);
    uint32_t queueDependentRewrites(Partition& p, uint32_t x, uint32_t fallback = kNoRecord,
                                    Bytes fallbackBytes = nullptr);
    // onUpdate with keepOldAs: the old version of x becomes retained record keepOldAs, x's
    // dependents are re-pointed at it (*plan), and x starts a chain of its own.
    StatusWith<uint32_t> preserveOldVersion(Partition& p, uint32_t nsIdx, uint32_t x, int64_t keepOldAs,
                                            UpdatePlan* plan);

    const Options _o;
    const uint32_t _cap;  // the decode bound (Options::maxDecodeSteps or the scheme's); 0: none
    RecordStore* const _store;
    const FeatureExtractor _fx;  // immutable: used without _mu

    mutable std::mutex _nsMu;  // guards the namespace table only
    std::deque<std::string> _namespaces;
    std::unordered_map<std::string, uint32_t> _nsIndex;

    mutable std::mutex _mu;
    DeltaEncoder _enc;
    std::vector<std::unique_ptr<Partition>> _partitions;
    std::unordered_map<std::string, size_t> _partitionByDb;
    std::vector<size_t> _partitionOfNs;  // by namespace index
    uint64_t _seq = 0;
    Stats _counters;  // the event counters of Stats (the rest is computed on demand)
    // Records reported by restoreRecord, per namespace, until finishRestore.
    struct Restored {
        uint32_t ptr;
        int64_t baseId;
    };
    std::unordered_map<uint32_t, std::vector<Restored>> _restoring;
    size_t _gcPartition = 0;  // where the next garbage collection pass starts
    uint32_t _gcPtr = 0;

    SourceRecordCache _srcCache;  // internally locked
    WriteBackCache _wbCache;      // internally locked
};

// The database part of a namespace ("db.coll" -> "db").
std::string_view dbOfNamespace(std::string_view ns);

}  // namespace dedup
}  // namespace mongo
