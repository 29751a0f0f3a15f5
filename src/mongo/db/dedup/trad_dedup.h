#pragma once
// Traditional chunk-based exact deduplication, the baseline dbDedup is compared with
// (section 2.2): content-defined chunks, a SHA-1 fingerprint per chunk, and an index of every
// unique chunk. A record is stored as its list of chunk references plus the bytes of the
// chunks never seen before.
// Index memory is modelled as the paper sizes it: a 20-byte SHA-1 key and an 8-byte chunk
// location per unique chunk, in a table kept at most 75% full (about 37 bytes per entry).
// Thread-safety: not thread-safe.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "mongo/db/dedup/gear_chunker.h"
#include "mongo/db/dedup/sha1.h"

namespace mongo {
namespace dedup {

class TradDedup {
public:
    explicit TradDedup(uint32_t avgChunkSize = 4096);

    struct Added {
        std::vector<uint64_t> recipe;  // chunk ids making up the record
        std::string newChunkBytes;     // bytes of the chunks stored for the first time
        size_t storedBytes = 0;        // recipe (8 bytes per reference) + new chunk bytes
    };
    Added add(const void* data, size_t n);

    // Rebuilds a record from its recipe (verification).
    std::string materialize(const std::vector<uint64_t>& recipe) const;

    uint64_t uniqueChunks() const { return _chunks.size(); }
    uint64_t indexBytes() const;
    uint64_t storedBytes() const { return _stored; }
    const GearChunker& chunker() const { return _chunker; }

private:
    struct DigestHash {
        size_t operator()(const Sha1Digest& d) const {
            size_t h;
            static_assert(sizeof(h) <= sizeof(Sha1Digest), "digest holds a size_t");
            std::memcpy(&h, d.data(), sizeof(h));
            return h;
        }
    };
    GearChunker _chunker;
    std::unordered_map<Sha1Digest, uint64_t, DigestHash> _index;
    std::vector<std::string> _chunks;
    uint64_t _stored = 0;
};

}  // namespace dedup
}  // namespace mongo
