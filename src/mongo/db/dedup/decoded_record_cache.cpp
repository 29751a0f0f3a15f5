#include "mongo/db/dedup/decoded_record_cache.h"

#include <algorithm>

namespace mongo {
namespace dedup {
namespace {
// What an entry costs besides its bytes: list node, hash node, string and control block.
constexpr size_t kEntryOverhead = 160;
size_t charge(const std::string& b) { return b.size() + kEntryOverhead; }
}  // namespace

DecodedRecordCache::DecodedRecordCache(size_t capacityBytes, std::atomic<uint64_t>* epoch, size_t maxTombstones)
    : _capacity(capacityBytes), _epoch(epoch), _maxTombstones(std::max<size_t>(1, maxTombstones)) {}

uint64_t DecodedRecordCache::lastChangeLocked(const RecordKey& k) const {
    auto t = _tombstones.find(k);
    uint64_t last = t == _tombstones.end() ? _floor : std::max(_floor, t->second);
    auto n = _nsLastChange.find(k.ns);
    if (n != _nsLastChange.end())
        last = std::max(last, n->second);
    return last;
}

bool DecodedRecordCache::inFlightLocked(const RecordKey& k) const {
    return _inFlight.count(k) != 0 || _nsInFlight.count(k.ns) != 0;
}

DecodedRecordCache::Bytes DecodedRecordCache::lookupLocked(const RecordKey& k, uint64_t snapshotEpoch, bool touch) {
    auto it = _map.find(k);
    if (it == _map.end() || snapshotEpoch < it->second->validFrom || inFlightLocked(k))
        return nullptr;
    if (touch)
        _lru.splice(_lru.begin(), _lru, it->second);
    return it->second->bytes;
}

DecodedRecordCache::Bytes DecodedRecordCache::get(const RecordKey& k, uint64_t snapshotEpoch) {
    if (!_capacity)
        return nullptr;
    std::lock_guard<std::mutex> lk(_mu);
    Bytes b = lookupLocked(k, snapshotEpoch, true);
    ++(b ? _hits : _misses);
    return b;
}

DecodedRecordCache::Bytes DecodedRecordCache::probe(const RecordKey& k, uint64_t snapshotEpoch) {
    if (!_capacity)
        return nullptr;
    std::lock_guard<std::mutex> lk(_mu);
    return lookupLocked(k, snapshotEpoch, false);
}

void DecodedRecordCache::offer(const RecordKey& k, Bytes bytes, uint64_t snapshotEpoch) {
    if (!_capacity || !bytes || charge(*bytes) > _capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    const uint64_t last = lastChangeLocked(k);
    if (snapshotEpoch == 0 || snapshotEpoch < last || inFlightLocked(k)) {
        ++_refused;
        return;
    }
    auto it = _map.find(k);
    if (it != _map.end())
        eraseLocked(it->second);
    _lru.push_front(Entry{k, std::move(bytes), last});
    _map.emplace(k, _lru.begin());
    _bytes += charge(*_lru.front().bytes);
    ++_fills;
    while (_bytes > _capacity && !_lru.empty()) {
        eraseLocked(std::prev(_lru.end()));
        ++_evictions;
    }
}

void DecodedRecordCache::eraseLocked(Lru::iterator it) {
    _bytes -= charge(*it->bytes);
    _map.erase(it->key);
    _lru.erase(it);
}

void DecodedRecordCache::beginChange(const RecordKey& k) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    ++_inFlight[k];
    auto it = _map.find(k);
    if (it != _map.end())
        eraseLocked(it->second);
}

void DecodedRecordCache::remember(const RecordKey& k, uint64_t epoch) {
    _tombstones[k] = epoch;
    _tombstoneOrder.emplace_back(k, epoch);
    while (_tombstoneOrder.size() > _maxTombstones) {
        auto [old, e] = _tombstoneOrder.front();
        _tombstoneOrder.pop_front();
        auto t = _tombstones.find(old);
        if (t != _tombstones.end() && t->second == e) {
            _tombstones.erase(t);
            _floor = std::max(_floor, e);
        }
    }
}

void DecodedRecordCache::endChange(const RecordKey& k) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    // Bumped under the lock so that the tombstone is in place before anyone can read the new
    // epoch and before the change stops being in flight.
    remember(k, _epoch->fetch_add(1) + 1);
    auto it = _inFlight.find(k);
    if (it != _inFlight.end() && --it->second == 0)
        _inFlight.erase(it);
}

void DecodedRecordCache::beginChangeAll(uint32_t ns) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    ++_nsInFlight[ns];
    eraseNamespaceLocked(ns);
}

void DecodedRecordCache::endChangeAll(uint32_t ns) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    _nsLastChange[ns] = _epoch->fetch_add(1) + 1;
    auto it = _nsInFlight.find(ns);
    if (it != _nsInFlight.end() && --it->second == 0)
        _nsInFlight.erase(it);
}

void DecodedRecordCache::erase(const RecordKey& k) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _map.find(k);
    if (it != _map.end())
        eraseLocked(it->second);
}

void DecodedRecordCache::eraseNamespace(uint32_t ns) {
    if (!_capacity)
        return;
    std::lock_guard<std::mutex> lk(_mu);
    eraseNamespaceLocked(ns);
    _nsLastChange.erase(ns);
}

void DecodedRecordCache::eraseNamespaceLocked(uint32_t ns) {
    for (auto it = _lru.begin(); it != _lru.end();) {
        auto cur = it++;
        if (cur->key.ns == ns)
            eraseLocked(cur);
    }
}

DecodedRecordCache::Stats DecodedRecordCache::stats() const {
    std::lock_guard<std::mutex> lk(_mu);
    Stats s;
    s.hits = _hits;
    s.misses = _misses;
    s.evictions = _evictions;
    s.fills = _fills;
    s.refusedFills = _refused;
    s.bytes = _bytes;
    s.entries = _map.size();
    s.capacityBytes = _capacity;
    return s;
}

}  // namespace dedup
}  // namespace mongo
