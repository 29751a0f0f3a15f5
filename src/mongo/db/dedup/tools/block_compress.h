#pragma once
// Block compression of stored forms for dedup_bench, to mimic what the storage engine's block
// compressor adds on top of dedup: per record (each stored form compressed alone, kept raw if
// that is smaller) and per page (stored forms concatenated in key order into pages of a fixed
// size, like WiredTiger's 32 KB leaf pages).
// Thread-safety: stateless functions (each call makes its own compression context).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mongo {
namespace dedup {

enum class BlockCodec { kSnappy, kZstd };

// Size of `data` after compression, or data.size() if compressing does not help.
size_t blockSize(BlockCodec codec, std::string_view data, int zstdLevel = 3);

struct BlockTotals {
    uint64_t perRecord = 0;
    uint64_t paged = 0;
};

// Compresses every item alone and in pages of pageBytes (items are never split).
BlockTotals compressItems(BlockCodec codec, const std::vector<std::string_view>& items,
                          size_t pageBytes, int zstdLevel = 3);

}  // namespace dedup
}  // namespace mongo
