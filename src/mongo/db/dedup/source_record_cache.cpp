#include "mongo/db/dedup/source_record_cache.h"

namespace mongo {
namespace dedup {
namespace {
// Accounting per entry beyond the bytes themselves (list node, map node, string header).
constexpr size_t kEntryOverhead = 96;
}

SourceRecordCache::SourceRecordCache(size_t capacityBytes) : _capacity(capacityBytes) {}

SourceRecordCache::Bytes SourceRecordCache::get(const RecordKey& k) {
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _map.find(k);
    if (it == _map.end()) {
        ++_misses;
        return nullptr;
    }
    ++_hits;
    _lru.splice(_lru.begin(), _lru, it->second);
    return it->second->bytes;
}

bool SourceRecordCache::contains(const RecordKey& k) const {
    std::lock_guard<std::mutex> lk(_mu);
    return _map.count(k) != 0;
}

SourceRecordCache::Bytes SourceRecordCache::peek(const RecordKey& k) const {
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _map.find(k);
    return it == _map.end() ? nullptr : it->second->bytes;
}

void SourceRecordCache::put(const RecordKey& k, Bytes bytes) {
    std::lock_guard<std::mutex> lk(_mu);
    putLocked(k, std::move(bytes));
}

void SourceRecordCache::putLocked(const RecordKey& k, Bytes bytes) {
    eraseLocked(k);
    if (!bytes)
        return;
    size_t cost = bytes->size() + kEntryOverhead;
    if (cost > _capacity)
        return;
    _lru.push_front(Entry{k, std::move(bytes)});
    _map[k] = _lru.begin();
    _bytes += cost;
    while (_bytes > _capacity && !_lru.empty()) {
        const Entry& victim = _lru.back();
        _bytes -= victim.bytes->size() + kEntryOverhead;
        _map.erase(victim.key);
        _lru.pop_back();
        ++_evictions;
    }
}

void SourceRecordCache::erase(const RecordKey& k) {
    std::lock_guard<std::mutex> lk(_mu);
    eraseLocked(k);
}

void SourceRecordCache::eraseLocked(const RecordKey& k) {
    auto it = _map.find(k);
    if (it == _map.end())
        return;
    _bytes -= it->second->bytes->size() + kEntryOverhead;
    _lru.erase(it->second);
    _map.erase(it);
}

void SourceRecordCache::replace(const RecordKey& source, const RecordKey& target, Bytes targetBytes) {
    std::lock_guard<std::mutex> lk(_mu);
    eraseLocked(source);
    putLocked(target, std::move(targetBytes));
}

void SourceRecordCache::clear() {
    std::lock_guard<std::mutex> lk(_mu);
    _lru.clear();
    _map.clear();
    _bytes = 0;
}

SourceRecordCache::Stats SourceRecordCache::stats() const {
    std::lock_guard<std::mutex> lk(_mu);
    Stats s;
    s.hits = _hits;
    s.misses = _misses;
    s.evictions = _evictions;
    s.bytes = _bytes;
    s.entries = _map.size();
    s.capacityBytes = _capacity;
    return s;
}

}  // namespace dedup
}  // namespace mongo
