#pragma once
// The decoded record cache: logical bytes of records that reads rebuilt from deltas, so that the
// next read through the same base (a neighbour in the chain, a scan's next record, a re-read)
// applies one delta instead of walking the chain again (issue 16; the paper's source cache does
// the same for the encoder). Bounded in bytes (each entry is charged its bytes plus its
// bookkeeping), least-recently-used eviction; values are shared immutably with callers.
//
// Snapshot safety. Readers run on storage snapshots, and a record's bytes change when it is
// updated, so an entry is only right for snapshots that see the update that produced it and no
// later one. The cache tells them apart with a process-wide change epoch (`epoch`, shared with
// the recovery units): a recovery unit records the epoch just before its snapshot begins
// (RecoveryUnit::snapshotEpoch), and a change to record k runs
//     beginChange(k)   inside the writer's unit of work, before its commit: drops k and refuses
//                      it (no lookups, no fills) while the change is in flight;
//     endChange(k)     after the storage transaction committed or rolled back: bumps the epoch
//                      and remembers it as k's last change (a tombstone).
// A snapshot with epoch e sees every change whose endChange epoch is <= e. So bytes decoded in a
// snapshot with epoch e may be kept only if e >= k's last change and no change of k is in
// flight; an entry is valid from k's last change at fill time, and a reader with epoch e may use
// it only if e >= that. Tombstones are bounded: the oldest are forgotten by raising a floor that
// stands for the last change of every key without a tombstone (conservative: fewer fills).
// Records are never re-numbered while the process runs (record ids only grow), so inserts and
// deletes need no epoch, only the memory back (erase).
// Thread-safety: thread-safe (one internal mutex).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "mongo/db/dedup/record_key.h"

namespace mongo {
namespace dedup {

class DecodedRecordCache {
public:
    using Bytes = std::shared_ptr<const std::string>;

    // epoch: the process-wide change epoch (starts >= 1; a snapshot epoch of 0 means "unknown"
    // and never hits nor fills). capacityBytes 0 disables the cache.
    DecodedRecordCache(size_t capacityBytes, std::atomic<uint64_t>* epoch, size_t maxTombstones = 1u << 16);

    // k's bytes if cached and valid for a snapshot with this epoch; counts a hit or a miss.
    Bytes get(const RecordKey& k, uint64_t snapshotEpoch);
    // The same without statistics or recency (a decode walk probing for a base).
    Bytes probe(const RecordKey& k, uint64_t snapshotEpoch);
    // Bytes of k decoded in a snapshot with this epoch; kept only if they are current.
    void offer(const RecordKey& k, Bytes bytes, uint64_t snapshotEpoch);

    void beginChange(const RecordKey& k);
    void endChange(const RecordKey& k);
    // Every record of namespace ns changes at once (truncate): begin / end as above.
    void beginChangeAll(uint32_t ns);
    void endChangeAll(uint32_t ns);

    // Frees memory only (the record is gone and its id is never reused while running).
    void erase(const RecordKey& k);
    void eraseNamespace(uint32_t ns);

    struct Stats {
        uint64_t hits = 0, misses = 0, evictions = 0, fills = 0, refusedFills = 0;
        size_t bytes = 0, entries = 0, capacityBytes = 0;
    };
    Stats stats() const;
    bool enabled() const { return _capacity != 0; }

private:
    struct Entry {
        RecordKey key;
        Bytes bytes;
        uint64_t validFrom;
    };
    using Lru = std::list<Entry>;

    uint64_t lastChangeLocked(const RecordKey& k) const;
    bool inFlightLocked(const RecordKey& k) const;
    Bytes lookupLocked(const RecordKey& k, uint64_t snapshotEpoch, bool touch);
    void eraseLocked(Lru::iterator it);
    void eraseNamespaceLocked(uint32_t ns);
    void remember(const RecordKey& k, uint64_t epoch);

    const size_t _capacity;
    std::atomic<uint64_t>* const _epoch;
    const size_t _maxTombstones;

    mutable std::mutex _mu;
    size_t _bytes = 0;
    Lru _lru;  // front = most recent
    std::unordered_map<RecordKey, Lru::iterator, RecordKeyHash> _map;
    std::unordered_map<RecordKey, uint32_t, RecordKeyHash> _inFlight;
    std::unordered_map<uint32_t, uint32_t> _nsInFlight;
    std::unordered_map<RecordKey, uint64_t, RecordKeyHash> _tombstones;
    std::deque<std::pair<RecordKey, uint64_t>> _tombstoneOrder;
    std::unordered_map<uint32_t, uint64_t> _nsLastChange;  // truncates (few)
    uint64_t _floor = 1;
    uint64_t _hits = 0, _misses = 0, _evictions = 0, _fills = 0, _refused = 0;
};

}  // namespace dedup
}  // namespace mongo
