#pragma once
// Similarity features of a record (step 1 of the dbDedup workflow): content-defined chunks,
// a MurmurHash3 (x64, 128-bit, low half) of each chunk, and consistent sampling: the K
// largest distinct chunk hashes form the record's sketch. Two records sharing a feature share
// the very chunk that produced it, which is what makes the sketch a similarity signal.
// Thread-safety: immutable after construction; sketch() may run concurrently.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mongo/db/dedup/gear_chunker.h"

namespace mongo {
namespace dedup {

using Feature = uint64_t;

// Features sorted from largest to smallest, at most K of them (fewer for short records).
using Sketch = std::vector<Feature>;

class FeatureExtractor {
public:
    // avgChunkSize: 64 B default, 16 B..64 KB; sketchSize K: 8 default, 1..64.
    FeatureExtractor(uint32_t avgChunkSize = 64, uint32_t sketchSize = 8);

    Sketch sketch(const void* data, size_t n) const;

    // Number of chunks the record has (for statistics and tests).
    size_t countChunks(const void* data, size_t n) const;

    uint32_t sketchSize() const { return _k; }
    const GearChunker& chunker() const { return _chunker; }

private:
    GearChunker _chunker;
    uint32_t _k;
};

// Number of features two sketches have in common (both sorted descending).
size_t sharedFeatures(const Sketch& a, const Sketch& b);

}  // namespace dedup
}  // namespace mongo
