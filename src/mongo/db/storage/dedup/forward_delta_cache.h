#pragma once
// ForwardDeltaCache: the forward deltas the encoder computed for the newest inserts (older
// source -> new record), kept for the oplog's readers that replicate (repl/dedup): a member
// fetching the oplog with dedup gets an insert as this delta against a record it already holds
// instead of the whole document (paper section 4.1: "forward encoding in the oplog").
//
// The encoder also notes the inserts it examined without encoding them (sourceId 0), so that a
// reader can tell "not encoded" from "not examined yet" and wait only for the latter.
// Bounded by bytes; the oldest entries go first, as a fetcher that keeps up reads the newest
// entries (a member far behind gets whole documents, which is only less compact). The storage
// layer fills it as the encoder decides (DedupStorage); an entry is a hint, never trusted:
// the reader checks that the delta rebuilds the oplog entry's document before using it.
// Thread safety: every method may be called from any thread (one internal mutex, a leaf).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace mongo {

class ForwardDeltaCache {
public:
    struct Entry {
        int64_t sourceId = 0;  // the record (same namespace) the delta rebuilds the new one from; 0: not encoded
        std::string delta;     // delta_format.h
        std::string sourceKey;  // the source document's _id, as the BSON document {"": <_id>}
        bool encoded() const { return sourceId != 0; }
    };

    explicit ForwardDeltaCache(size_t capacityBytes) : _capacity(capacityBytes) {}

    // Record (ns, id) was encoded as delta against sourceId. Replaces what was kept for it.
    void put(const std::string& ns, int64_t id, Entry e);
    // The encoder examined (ns, id) and did not encode it.
    void putNotEncoded(const std::string& ns, int64_t id) { put(ns, id, Entry{}); }
    std::optional<Entry> get(const std::string& ns, int64_t id) const;
    // get(), waiting until the encoder has examined (ns, id) or the deadline passed.
    std::optional<Entry> waitFor(const std::string& ns, int64_t id, std::chrono::steady_clock::time_point deadline) const;
    void forgetNamespace(const std::string& ns);

    size_t bytes() const;
    size_t entries() const;
    size_t capacityBytes() const { return _capacity; }

private:
    using Key = std::pair<std::string, int64_t>;
    // The key is held twice (map and order).
    static size_t costOf(const Key& k, const Entry& e) {
        return 2 * k.first.size() + e.delta.size() + e.sourceKey.size() + 96;
    }
    void evictLocked();

    const size_t _capacity;
    mutable std::mutex _mu;
    mutable std::condition_variable _added;  // notified on every put
    std::map<Key, Entry> _entries;
    std::deque<Key> _order;  // insertion order; may name keys erased or replaced since (skipped)
    size_t _bytes = 0;
};

}  // namespace mongo
