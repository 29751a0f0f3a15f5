#pragma once
// What client reads of deduplicated collections cost: serverStatus().dedup.reads (process-wide,
// DedupReadStats) and explain's executionStats.dedupReads (one operation, OperationReadStats).
// Thread-safety: DedupReadStats is thread-safe (relaxed atomics); OperationReadStats belongs to
// one OperationContext.
#include <atomic>
#include <cstdint>

namespace mongo {

class BSONObjBuilder;

// One operation's reads through the dedup layer (OperationContext::dedupReads).
struct OperationReadStats {
    long long records = 0;        // records read (raw or decoded)
    long long decoded = 0;        // of which stored as deltas
    long long deltasApplied = 0;
    long long cacheHits = 0;      // decoded records served whole by the decoded record cache
    long long decodeMicros = 0;
    void appendTo(BSONObjBuilder& b) const;
    // explain: executionStats.dedupReads, if any record of a deduplicated collection was read.
    void appendExplain(BSONObjBuilder& executionStats) const;
};

class DedupReadStats {
public:
    void recordRaw() { _raw.fetch_add(1, std::memory_order_relaxed); }
    // A record stored as a delta was read: `deltas` applied (0 when the cache had it whole).
    void recordDecoded(uint32_t deltas, bool cacheHit, long long micros);
    // {records, rawRecords, decodedRecords, cacheServed, deltasApplied, maxDeltasPerRead,
    //  deltasPerRead: {"0", "1", "2", "3-4", "5-8", "9-16", "17+"}, decodeMicros}
    void appendTo(BSONObjBuilder& b) const;

private:
    static constexpr int kBuckets = 7;
    static int bucketOf(uint32_t deltas);
    std::atomic<long long> _raw{0}, _decoded{0}, _cacheServed{0}, _deltas{0}, _micros{0};
    std::atomic<uint32_t> _maxDeltas{0};
    std::atomic<long long> _buckets[kBuckets] = {};
};

}  // namespace mongo
