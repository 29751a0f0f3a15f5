#include "mongo/db/dedup/feature_extractor.h"

#include <murmurhash.h>

#include <algorithm>

namespace mongo {
namespace dedup {
namespace {
constexpr uint32_t kChunkHashSeed = 0x64626464;  // fixed: features are compared across time
}

FeatureExtractor::FeatureExtractor(uint32_t avgChunkSize, uint32_t sketchSize)
    : _chunker(avgChunkSize), _k(std::clamp<uint32_t>(sketchSize, 1, 64)) {}

Sketch FeatureExtractor::sketch(const void* data, size_t n) const {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    // The best K so far, kept sorted descending; most chunk hashes are smaller than the
    // current K-th and cost one comparison.
    Feature best[64];
    uint32_t have = 0;
    _chunker.forEachChunk(p, n, [&](size_t off, size_t len) {
        uint64_t h[2];
        lmmh_x64_128(p + off, static_cast<unsigned>(len), kChunkHashSeed, h);
        Feature f = h[0];
        if (have == _k && f <= best[have - 1])
            return;
        uint32_t pos = 0;
        while (pos < have && best[pos] > f)
            ++pos;
        if (pos < have && best[pos] == f)
            return;  // duplicate chunk: features are distinct hashes
        uint32_t last = have < _k ? have : _k - 1;
        for (uint32_t i = last; i > pos; --i)
            best[i] = best[i - 1];
        best[pos] = f;
        if (have < _k)
            ++have;
    });
    return Sketch(best, best + have);
}

size_t FeatureExtractor::countChunks(const void* data, size_t n) const {
    size_t count = 0;
    _chunker.forEachChunk(static_cast<const uint8_t*>(data), n, [&](size_t, size_t) { ++count; });
    return count;
}

size_t sharedFeatures(const Sketch& a, const Sketch& b) {
    size_t i = 0, j = 0, shared = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i] == b[j]) {
            ++shared;
            ++i;
            ++j;
        } else if (a[i] > b[j]) {
            ++i;
        } else {
            ++j;
        }
    }
    return shared;
}

}  // namespace dedup
}  // namespace mongo
