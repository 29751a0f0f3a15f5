#include "mongo/db/dedup/record_table.h"

#include <algorithm>

namespace mongo {
namespace dedup {

RecordTable::RecordTable(uint32_t sketchSize) : _k(sketchSize == 0 ? 1 : sketchSize) {}

uint32_t RecordTable::add(uint32_t ns, int64_t id, const Sketch& sketch, uint64_t seq) {
    uint32_t ptr;
    if (!_free.empty()) {
        ptr = _free.back();
        _free.pop_back();
        _recs[ptr - 1] = RecordMeta{};
    } else {
        _recs.emplace_back();
        ptr = static_cast<uint32_t>(_recs.size());
        if (!_sketchesReleased)
            _features.resize(_recs.size() * _k);
    }
    RecordMeta& m = _recs[ptr - 1];
    m.id = id;
    m.ns = ns;
    m.seq = seq;
    m.lastUsed = seq;
    m.live = true;
    setSketch(ptr, sketch);
    _byId[Key{ns, id}] = ptr;
    ++_live;
    return ptr;
}

void RecordTable::erase(uint32_t ptr) {
    RecordMeta& m = at(ptr);
    _byId.erase(Key{m.ns, m.id});
    m = RecordMeta{};
    _free.push_back(ptr);
    --_live;
}

uint32_t RecordTable::find(uint32_t ns, int64_t id) const {
    auto it = _byId.find(Key{ns, id});
    return it == _byId.end() ? kNoRecord : it->second;
}

Sketch RecordTable::sketchOf(uint32_t ptr) const {
    if (_sketchesReleased)
        return {};
    const Feature* f = &_features[size_t(ptr - 1) * _k];
    return Sketch(f, f + at(ptr).sketchLen);
}

void RecordTable::setSketch(uint32_t ptr, const Sketch& sketch) {
    RecordMeta& m = at(ptr);
    if (_sketchesReleased) {
        m.sketchLen = 0;
        return;
    }
    size_t n = std::min<size_t>(sketch.size(), _k);
    std::copy(sketch.begin(), sketch.begin() + n, _features.begin() + size_t(ptr - 1) * _k);
    m.sketchLen = static_cast<uint8_t>(n);
}

void RecordTable::releaseSketches() {
    _sketchesReleased = true;
    std::vector<Feature>().swap(_features);
    for (auto& m : _recs)
        m.sketchLen = 0;
}

void RecordTable::setBase(uint32_t ptr, uint32_t base) {
    RecordMeta& m = at(ptr);
    if (m.base == base)
        return;
    if (m.base != kNoRecord) {
        RecordMeta& old = at(m.base);
        uint32_t* link = &old.firstDependent;
        while (*link != ptr)
            link = &at(*link).nextSibling;
        *link = m.nextSibling;
        m.nextSibling = kNoRecord;
        --old.refCount;
    }
    m.base = base;
    if (base != kNoRecord) {
        RecordMeta& b = at(base);
        m.nextSibling = b.firstDependent;
        b.firstDependent = ptr;
        ++b.refCount;
    }
}

bool RecordTable::hasFeature(uint32_t ptr, Feature f) const {
    if (_sketchesReleased)
        return false;
    const Feature* p = &_features[size_t(ptr - 1) * _k];
    uint8_t n = at(ptr).sketchLen;
    for (uint8_t i = 0; i < n; ++i)
        if (p[i] == f)
            return true;
    return false;
}

void RecordTable::forEachFeature(uint32_t ptr, void (*fn)(void*, Feature), void* ctx) const {
    if (_sketchesReleased)
        return;
    const Feature* p = &_features[size_t(ptr - 1) * _k];
    for (uint8_t i = 0; i < at(ptr).sketchLen; ++i)
        fn(ctx, p[i]);
}

size_t RecordTable::memoryBytes() const {
    // Entries, sketches, free list, and the id map (node + bucket per element).
    return _recs.capacity() * sizeof(RecordMeta) + _features.capacity() * sizeof(Feature) +
        _free.capacity() * sizeof(uint32_t) +
        _byId.size() * (sizeof(Key) + sizeof(uint32_t) + 2 * sizeof(void*)) +
        _byId.bucket_count() * sizeof(void*);
}

}  // namespace dedup
}  // namespace mongo
