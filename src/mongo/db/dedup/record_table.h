#pragma once
// The dedup-metadata container (thesis 5.2): one entry per record the engine tracks, addressed
// by the 4-byte pointers the feature index stores. An entry holds the record's identity
// (namespace index + record id), its sketch, its use time for the per-feature LRU, and the
// encoding bookkeeping: chain and position, the base it is stored against (as applied by the
// storage layer), its dependents (records stored as deltas against it), reference count,
// version (bumped by client updates) and sizes.
// The paper keeps this container on disk behind a page cache; here it lives in memory and
// its size is reported separately from the index (memoryBytes()).
// Thread-safety: not thread-safe; owned by one engine partition and used under its lock.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "mongo/db/dedup/feature_extractor.h"
#include "mongo/db/dedup/feature_index.h"

namespace mongo {
namespace dedup {

constexpr uint32_t kNoRecord = 0;  // null pointer: pointers are 1-based
constexpr uint32_t kNoChain = 0xffffffffu;

struct RecordMeta {
    int64_t id = 0;
    uint32_t ns = 0;           // namespace index (Engine-wide table of namespace strings)
    uint32_t version = 0;      // bumped on every client update
    uint64_t seq = 0;          // insertion order: larger is newer
    uint64_t lastUsed = 0;     // LRU clock for the per-feature candidate cap
    uint32_t logicalSize = 0;  // bytes of the record itself
    uint32_t storedSize = 0;   // bytes of its stored form as last applied
    uint32_t chain = kNoChain; // encoding chain (positions are per chain)
    uint32_t pos = 0;
    uint32_t base = kNoRecord;          // applied: stored as a delta against this record
    uint32_t firstDependent = kNoRecord;  // records stored against this one, linked through
    uint32_t nextSibling = kNoRecord;     // their nextSibling
    uint32_t refCount = 0;     // number of dependents
    uint32_t height = 0;       // upper bound on the longest dependent path below this record
    uint8_t sketchLen = 0;
    bool live = false;         // slot in use
    bool deleted = false;      // deleted by the client, retained as a base for dependents
    bool indexed = false;      // its features are in the feature index
};

class RecordTable : public FeatureIndex::Metadata {
public:
    explicit RecordTable(uint32_t sketchSize);

    // Allocates an entry for (ns, id); the id must not be tracked yet.
    uint32_t add(uint32_t ns, int64_t id, const Sketch& sketch, uint64_t seq);
    // Frees the entry (it must have no dependents and no base link left).
    void erase(uint32_t ptr);

    uint32_t find(uint32_t ns, int64_t id) const;
    RecordMeta& at(uint32_t ptr) { return _recs[ptr - 1]; }
    const RecordMeta& at(uint32_t ptr) const { return _recs[ptr - 1]; }
    bool valid(uint32_t ptr) const { return ptr != kNoRecord && ptr <= _recs.size() && _recs[ptr - 1].live; }

    Sketch sketchOf(uint32_t ptr) const;
    void setSketch(uint32_t ptr, const Sketch& sketch);
    // Drops all sketches (the feature index of the partition is gone; bookkeeping stays).
    void releaseSketches();

    // Applied-state links: makes `ptr` stored against `base` (kNoRecord: stored raw).
    void setBase(uint32_t ptr, uint32_t base);
    template <typename F>
    void forEachDependent(uint32_t ptr, F&& f) const {
        for (uint32_t d = at(ptr).firstDependent; d != kNoRecord; d = at(d).nextSibling)
            f(d);
    }

    size_t size() const { return _live; }
    // One more than the largest pointer ever handed out (for tables indexed by pointer).
    size_t slots() const { return _recs.size() + 1; }
    size_t memoryBytes() const;

    // FeatureIndex::Metadata
    bool hasFeature(uint32_t ptr, Feature f) const override;
    uint64_t lastUsed(uint32_t ptr) const override { return at(ptr).lastUsed; }
    void forEachFeature(uint32_t ptr, void (*fn)(void*, Feature), void* ctx) const override;

    template <typename F>
    void forEachLive(F&& f) const {
        for (uint32_t i = 0; i < _recs.size(); ++i)
            if (_recs[i].live)
                f(i + 1);
    }

private:
    struct Key {
        uint32_t ns;
        int64_t id;
        bool operator==(const Key& o) const { return ns == o.ns && id == o.id; }
    };
    struct KeyHash {
        size_t operator()(const Key& k) const {
            uint64_t h = uint64_t(k.id) * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.ns) << 32 | k.ns);
            return size_t(h ^ (h >> 31));
        }
    };

    uint32_t _k;
    std::vector<RecordMeta> _recs;
    std::vector<Feature> _features;  // _k per entry
    std::vector<uint32_t> _free;
    std::unordered_map<Key, uint32_t, KeyHash> _byId;
    size_t _live = 0;
    bool _sketchesReleased = false;
};

}  // namespace dedup
}  // namespace mongo
