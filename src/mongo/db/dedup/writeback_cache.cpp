#include "mongo/db/dedup/writeback_cache.h"

namespace mongo {
namespace dedup {

WriteBackCache::WriteBackCache(size_t capacityBytes) : _capacity(capacityBytes) {}

WriteBack WriteBackCache::extractLocked(
    std::unordered_map<RecordKey, Slot, RecordKeyHash>::iterator it) {
    Slot& slot = it->second;
    if (slot.wb.hasBase) {
        auto range = _byBase.equal_range(slot.wb.base);
        for (auto b = range.first; b != range.second; ++b) {
            if (b->second == slot.wb.key) {
                _byBase.erase(b);
                break;
            }
        }
    }
    _order.erase(slot.rank);
    _bytes -= costOf(slot.wb);
    WriteBack wb = std::move(slot.wb);
    _map.erase(it);
    return wb;
}

void WriteBackCache::put(WriteBack wb, std::vector<WriteBack>* dropped) {
    std::lock_guard<std::mutex> lk(_mu);
    auto old = _map.find(wb.key);
    if (old != _map.end()) {
        extractLocked(old);
        ++_stats.replaced;
    }
    ++_stats.queued;
    size_t cost = costOf(wb);
    if (cost > _capacity) {
        ++_stats.dropped;
        if (dropped)
            dropped->push_back(std::move(wb));
        return;
    }
    Rank rank{wb.structural, wb.bytesSaved, ++_seq, wb.key};
    // Make room by dropping less valuable entries; if the newcomer is the least valuable,
    // it is the one dropped.
    while (_bytes + cost > _capacity && !_order.empty()) {
        const Rank& least = *_order.begin();
        if (rank < least) {
            ++_stats.dropped;
            if (dropped)
                dropped->push_back(std::move(wb));
            return;
        }
        WriteBack victim = extractLocked(_map.find(least.key));
        ++_stats.dropped;
        if (dropped)
            dropped->push_back(std::move(victim));
    }
    if (wb.hasBase)
        _byBase.emplace(wb.base, wb.key);
    _order.insert(rank);
    _bytes += cost;
    RecordKey key = wb.key;
    _map.emplace(key, Slot{std::move(wb), rank});
}

bool WriteBackCache::invalidate(const RecordKey& k) {
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _map.find(k);
    if (it == _map.end())
        return false;
    extractLocked(it);
    ++_stats.invalidated;
    return true;
}

size_t WriteBackCache::invalidateBase(const RecordKey& base) {
    std::lock_guard<std::mutex> lk(_mu);
    std::vector<RecordKey> victims;
    auto range = _byBase.equal_range(base);
    for (auto b = range.first; b != range.second; ++b)
        victims.push_back(b->second);
    for (const RecordKey& k : victims) {
        auto it = _map.find(k);
        if (it != _map.end()) {
            extractLocked(it);
            ++_stats.invalidated;
        }
    }
    return victims.size();
}

std::vector<WriteBack> WriteBackCache::take(size_t maxEntries, size_t maxBytes) {
    std::lock_guard<std::mutex> lk(_mu);
    std::vector<WriteBack> out;
    size_t bytes = 0;
    while (!_order.empty() && out.size() < maxEntries) {
        auto best = std::prev(_order.end());
        auto it = _map.find(best->key);
        if (!out.empty() && bytes + it->second.wb.stored.size() > maxBytes)
            break;
        bytes += it->second.wb.stored.size();
        out.push_back(extractLocked(it));
        ++_stats.taken;
    }
    return out;
}

bool WriteBackCache::pending(const RecordKey& k) const {
    std::lock_guard<std::mutex> lk(_mu);
    return _map.count(k) != 0;
}

size_t WriteBackCache::entries() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _map.size();
}

size_t WriteBackCache::bytes() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _bytes;
}

WriteBackCache::Stats WriteBackCache::stats() const {
    std::lock_guard<std::mutex> lk(_mu);
    Stats s = _stats;
    s.bytes = _bytes;
    s.entries = _map.size();
    s.capacityBytes = _capacity;
    return s;
}

}  // namespace dedup
}  // namespace mongo
