#include "mongo/db/storage/dedup/forward_delta_cache.h"

namespace mongo {

void ForwardDeltaCache::put(const std::string& ns, int64_t id, Entry e) {
    if (_capacity == 0) return;
    std::unique_lock<std::mutex> lk(_mu);
    Key k{ns, id};
    auto it = _entries.find(k);
    if (it != _entries.end()) {
        _bytes -= costOf(it->first, it->second);
        _entries.erase(it);
    }
    _bytes += costOf(k, e);
    _entries.emplace(k, std::move(e));
    _order.push_back(std::move(k));
    evictLocked();
    lk.unlock();
    _added.notify_all();
}

void ForwardDeltaCache::evictLocked() {
    // _order may hold keys that were erased or re-put (a re-put key appears twice; evicting at
    // its older position drops the newer entry early, which only costs a whole document).
    while (_bytes > _capacity && !_order.empty()) {
        auto it = _entries.find(_order.front());
        _order.pop_front();
        if (it == _entries.end()) continue;
        _bytes -= costOf(it->first, it->second);
        _entries.erase(it);
    }
    // Keys erased without eviction pile up in _order only as long as entries are put behind
    // them; bound it all the same.
    while (_order.size() > 2 * _entries.size() + 1024) {
        auto it = _entries.find(_order.front());
        if (it != _entries.end()) break;
        _order.pop_front();
    }
}

std::optional<ForwardDeltaCache::Entry> ForwardDeltaCache::get(const std::string& ns, int64_t id) const {
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _entries.find(Key{ns, id});
    if (it == _entries.end()) return std::nullopt;
    return it->second;
}

std::optional<ForwardDeltaCache::Entry> ForwardDeltaCache::waitFor(const std::string& ns, int64_t id,
                                                                 std::chrono::steady_clock::time_point deadline) const {
    std::unique_lock<std::mutex> lk(_mu);
    const Key k{ns, id};
    std::map<Key, Entry>::const_iterator it;
    _added.wait_until(lk, deadline, [&] { return (it = _entries.find(k)) != _entries.end(); });
    if (it == _entries.end()) return std::nullopt;
    return it->second;
}

void ForwardDeltaCache::forgetNamespace(const std::string& ns) {
    std::lock_guard<std::mutex> lk(_mu);
    for (auto it = _entries.lower_bound(Key{ns, INT64_MIN}); it != _entries.end() && it->first.first == ns;) {
        _bytes -= costOf(it->first, it->second);
        it = _entries.erase(it);
    }
}

size_t ForwardDeltaCache::bytes() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _bytes;
}

size_t ForwardDeltaCache::entries() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _entries.size();
}

}  // namespace mongo
