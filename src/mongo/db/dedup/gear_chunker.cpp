#include "mongo/db/dedup/gear_chunker.h"

namespace mongo {
namespace dedup {
namespace {

uint64_t splitmix64(uint64_t* state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct GearTable {
    uint64_t v[256];
    GearTable() {
        uint64_t s = 0x6765617264656475ull;  // fixed: features must be stable across processes
        for (auto& x : v)
            x = splitmix64(&s);
    }
};

}  // namespace

const uint64_t* gearTable() {
    static const GearTable t;
    return t.v;
}

GearChunker::GearChunker(uint32_t avgChunkSize) {
    uint32_t avg = 16;
    while (avg * 2 <= avgChunkSize && avg < 65536)
        avg *= 2;
    _avg = avg;
    _min = avg / 4;
    _max = avg * 8;
    // Positions before _min are never cut points, so a cut probability of 1/(avg - min) per
    // position gives a mean chunk length of avg.
    _threshold = ~0ull / (avg - _min);
}

std::vector<uint32_t> GearChunker::chunkLengths(const uint8_t* data, size_t n) const {
    std::vector<uint32_t> out;
    forEachChunk(data, n, [&](size_t, size_t len) { out.push_back(static_cast<uint32_t>(len)); });
    return out;
}

}  // namespace dedup
}  // namespace mongo
