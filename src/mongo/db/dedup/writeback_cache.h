#pragma once
// The lossy write-back delta cache (section 3.3.2). Backward encoding turns an older record
// into a delta against a newer one; writing that delta back can wait until I/O is idle, and
// losing it costs only compression, never correctness, because the record's current stored
// form stays valid. Entries are ordered by value: structural entries first (re-encodings the
// decode-step bound of hop encoding relies on), then by bytes saved. When I/O is idle the
// caller takes the most valuable entries; when full, the least valuable is dropped. A client
// write to a record invalidates its pending entry, and any entry encoded against it.
// Thread-safety: thread-safe (one internal mutex).
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "mongo/db/dedup/record_key.h"

namespace mongo {
namespace dedup {

struct WriteBack {
    RecordKey key;                 // the record to rewrite
    uint64_t recordSeq = 0;        // its insertion sequence (tells a re-inserted id apart)
    uint32_t recordVersion = 0;    // its version when the entry was made
    bool hasBase = false;          // false: the new stored form is raw
    RecordKey base;                // the record the delta is against
    uint64_t baseSeq = 0;
    uint32_t baseVersion = 0;
    std::string stored;            // the record's new stored form (stored_form.h)
    int64_t bytesSaved = 0;        // current stored size minus the new one (may be negative)
    bool structural = false;       // needed by the chain scheme's decode bound
};

class WriteBackCache {
public:
    explicit WriteBackCache(size_t capacityBytes);

    // Adds wb, replacing a pending entry for the same record. Entries dropped to make room
    // are appended to *dropped (if given). An entry larger than the cache is dropped at once.
    void put(WriteBack wb, std::vector<WriteBack>* dropped = nullptr);

    // Removes the pending entry for k (a client write to k). Returns whether there was one.
    bool invalidate(const RecordKey& k);
    // Removes every pending entry encoded against `base` (its bytes are changing).
    size_t invalidateBase(const RecordKey& base);

    // Removes and returns up to maxEntries entries (and at most maxBytes of stored forms,
    // always at least one), most valuable first.
    std::vector<WriteBack> take(size_t maxEntries, size_t maxBytes = SIZE_MAX);

    bool pending(const RecordKey& k) const;
    size_t entries() const;
    size_t bytes() const;

    struct Stats {
        uint64_t queued = 0, replaced = 0, dropped = 0, invalidated = 0, taken = 0;
        size_t bytes = 0, entries = 0, capacityBytes = 0;
    };
    Stats stats() const;

private:
    struct Rank {
        bool structural;
        int64_t saved;
        uint64_t seq;
        RecordKey key;
        bool operator<(const Rank& o) const {  // ascending: least valuable first
            if (structural != o.structural)
                return !structural;
            if (saved != o.saved)
                return saved < o.saved;
            return seq < o.seq;
        }
    };
    struct Slot {
        WriteBack wb;
        Rank rank;
    };
    static size_t costOf(const WriteBack& wb) { return wb.stored.size() + 128; }
    WriteBack extractLocked(std::unordered_map<RecordKey, Slot, RecordKeyHash>::iterator it);

    mutable std::mutex _mu;
    const size_t _capacity;
    size_t _bytes = 0;
    uint64_t _seq = 0;
    std::unordered_map<RecordKey, Slot, RecordKeyHash> _map;
    std::set<Rank> _order;
    std::multimap<RecordKey, RecordKey> _byBase;  // base -> record
    Stats _stats;
};

}  // namespace dedup
}  // namespace mongo
