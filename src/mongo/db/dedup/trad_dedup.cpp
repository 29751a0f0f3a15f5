#include "mongo/db/dedup/trad_dedup.h"

#include <cstring>

namespace mongo {
namespace dedup {

TradDedup::TradDedup(uint32_t avgChunkSize) : _chunker(avgChunkSize) {}

TradDedup::Added TradDedup::add(const void* data, size_t n) {
    Added out;
    const uint8_t* p = static_cast<const uint8_t*>(data);
    _chunker.forEachChunk(p, n, [&](size_t off, size_t len) {
        Sha1Digest d = sha1(p + off, len);
        auto it = _index.find(d);
        if (it == _index.end()) {
            uint64_t id = _chunks.size();
            _chunks.emplace_back(reinterpret_cast<const char*>(p + off), len);
            _index.emplace(d, id);
            out.newChunkBytes.append(reinterpret_cast<const char*>(p + off), len);
            out.recipe.push_back(id);
        } else {
            out.recipe.push_back(it->second);
        }
    });
    out.storedBytes = out.recipe.size() * 8 + out.newChunkBytes.size();
    _stored += out.storedBytes;
    return out;
}

std::string TradDedup::materialize(const std::vector<uint64_t>& recipe) const {
    std::string s;
    for (uint64_t id : recipe)
        s += _chunks[id];
    return s;
}

uint64_t TradDedup::indexBytes() const {
    return uint64_t(double(_index.size()) * (20 + 8) / 0.75);
}

}  // namespace dedup
}  // namespace mongo
