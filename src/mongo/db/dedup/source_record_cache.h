#pragma once
// The source record cache (section 3.3.1): the latest record of each encoding chain and the
// hop bases the next encodings will need, so that selecting and delta-compressing a source
// rarely reads the database. Bounded in bytes, least-recently-used eviction. Values are the
// records' logical bytes, shared immutably with callers.
// Thread-safety: thread-safe (one internal mutex); values are immutable.
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "mongo/db/dedup/record_key.h"

namespace mongo {
namespace dedup {

class SourceRecordCache {
public:
    using Bytes = std::shared_ptr<const std::string>;

    explicit SourceRecordCache(size_t capacityBytes);

    // A hit refreshes the entry and counts as a hit; a miss counts as a miss.
    Bytes get(const RecordKey& k);
    // Membership without touching recency or statistics (source selection's reward).
    bool contains(const RecordKey& k) const;
    // A lookup that touches neither recency nor statistics (decode walks).
    Bytes peek(const RecordKey& k) const;
    // Inserts or replaces; evicts least recently used entries beyond capacity. Records larger
    // than the whole cache are not cached.
    void put(const RecordKey& k, Bytes bytes);
    void erase(const RecordKey& k);
    // Algorithm 3: the new record replaces its source in the cache.
    void replace(const RecordKey& source, const RecordKey& target, Bytes targetBytes);
    void clear();

    struct Stats {
        uint64_t hits = 0, misses = 0, evictions = 0;
        size_t bytes = 0, entries = 0, capacityBytes = 0;
    };
    Stats stats() const;

private:
    struct Entry {
        RecordKey key;
        Bytes bytes;
    };
    void eraseLocked(const RecordKey& k);
    void putLocked(const RecordKey& k, Bytes bytes);

    mutable std::mutex _mu;
    const size_t _capacity;
    size_t _bytes = 0;
    std::list<Entry> _lru;  // front = most recent
    std::unordered_map<RecordKey, std::list<Entry>::iterator, RecordKeyHash> _map;
    uint64_t _hits = 0, _misses = 0, _evictions = 0;
};

}  // namespace dedup
}  // namespace mongo
