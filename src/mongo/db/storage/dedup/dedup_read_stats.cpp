#include "mongo/db/storage/dedup/dedup_read_stats.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {
const char* const kBucketNames[] = {"0", "1", "2", "3-4", "5-8", "9-16", "17+"};
}  // namespace

void OperationReadStats::appendTo(BSONObjBuilder& b) const {
    b.appendNumber("records", records);
    b.appendNumber("decodedRecords", decoded);
    b.appendNumber("deltasApplied", deltasApplied);
    b.appendNumber("cacheHits", cacheHits);
    b.appendNumber("decodeMicros", decodeMicros);
}

void OperationReadStats::appendExplain(BSONObjBuilder& es) const {
    if (records == 0) return;
    BSONObjBuilder& b = es.subobjStart("dedupReads");
    appendTo(b);
    b.doneFast();
}

int DedupReadStats::bucketOf(uint32_t deltas) {
    if (deltas <= 2) return static_cast<int>(deltas);
    if (deltas <= 4) return 3;
    if (deltas <= 8) return 4;
    if (deltas <= 16) return 5;
    return 6;
}

void DedupReadStats::recordDecoded(uint32_t deltas, bool cacheHit, long long micros) {
    _decoded.fetch_add(1, std::memory_order_relaxed);
    if (cacheHit) _cacheServed.fetch_add(1, std::memory_order_relaxed);
    _deltas.fetch_add(deltas, std::memory_order_relaxed);
    _micros.fetch_add(micros, std::memory_order_relaxed);
    _buckets[bucketOf(deltas)].fetch_add(1, std::memory_order_relaxed);
    uint32_t seen = _maxDeltas.load(std::memory_order_relaxed);
    while (deltas > seen && !_maxDeltas.compare_exchange_weak(seen, deltas, std::memory_order_relaxed)) {
    }
}

void DedupReadStats::appendTo(BSONObjBuilder& b) const {
    const long long raw = _raw.load(std::memory_order_relaxed);
    const long long decoded = _decoded.load(std::memory_order_relaxed);
    b.appendNumber("records", raw + decoded);
    b.appendNumber("rawRecords", raw);
    b.appendNumber("decodedRecords", decoded);
    b.appendNumber("cacheServed", _cacheServed.load(std::memory_order_relaxed));
    b.appendNumber("deltasApplied", _deltas.load(std::memory_order_relaxed));
    b.appendNumber("maxDeltasPerRead", static_cast<long long>(_maxDeltas.load(std::memory_order_relaxed)));
    BSONObjBuilder& h = b.subobjStart("deltasPerRead");
    h.appendNumber(kBucketNames[0], raw + _buckets[0].load(std::memory_order_relaxed));
    for (int i = 1; i < kBuckets; ++i) h.appendNumber(kBucketNames[i], _buckets[i].load(std::memory_order_relaxed));
    h.doneFast();
    b.appendNumber("decodeMicros", _micros.load(std::memory_order_relaxed));
}

}  // namespace mongo
