#pragma once
// Content-defined chunking with a Gear rolling hash (one shift and one add per byte).
// A boundary is declared after byte i when the hash falls below 2^64/(avg - min) (a test on its
// top bits, the classic "n zero bits" pattern generalised to any mean); the hash depends on
// the last 64 bytes only, so an edit moves at most the boundaries near it and
// the chunks of two similar records line up again right after the edit.
// Chunks are never shorter than avg/4 (except the last) nor longer than avg*8.
// Thread-safety: immutable after construction; share freely.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mongo {
namespace dedup {

// The 256-entry Gear table, filled from a fixed seed so features are stable across runs
// and processes (they are compared between records inserted at different times).
const uint64_t* gearTable();

class GearChunker {
public:
    // avgChunkSize is rounded down to a power of two and clamped to [16, 65536].
    explicit GearChunker(uint32_t avgChunkSize = 64);

    uint32_t avgChunkSize() const { return _avg; }
    uint32_t minChunkSize() const { return _min; }
    uint32_t maxChunkSize() const { return _max; }

    // Calls f(offset, length) for each chunk, in order, covering [0, n) exactly.
    template <typename F>
    void forEachChunk(const uint8_t* data, size_t n, F&& f) const {
        const uint64_t* g = gearTable();
        size_t start = 0;
        while (start < n) {
            size_t remaining = n - start;
            if (remaining <= _min) {
                f(start, remaining);
                return;
            }
            size_t limit = remaining < _max ? remaining : _max;
            uint64_t h = 0;
            size_t i = 0;
            // Warm the hash over the bytes before the minimum size (so the first testable
            // position already sees a full window) without testing for boundaries there.
            size_t warm = _min > 64 ? _min - 64 : 0;
            for (i = warm; i < _min; ++i)
                h = (h << 1) + g[data[start + i]];
            size_t cut = limit;
            for (; i < limit; ++i) {
                h = (h << 1) + g[data[start + i]];
                if (h < _threshold) {
                    cut = i + 1;
                    break;
                }
            }
            f(start, cut);
            start += cut;
        }
    }

    // Chunk lengths, for tests and tools.
    std::vector<uint32_t> chunkLengths(const uint8_t* data, size_t n) const;

private:
    uint32_t _avg;
    uint32_t _min;
    uint32_t _max;
    uint64_t _threshold;
};

}  // namespace dedup
}  // namespace mongo
