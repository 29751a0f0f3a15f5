#include "mongo/db/dedup/tools/block_compress.h"

#include <snappy-c.h>
#include <zstd.h>

namespace mongo {
namespace dedup {

size_t blockSize(BlockCodec codec, std::string_view data, int zstdLevel) {
    if (data.empty())
        return 0;
    if (codec == BlockCodec::kSnappy) {
        size_t cap = snappy_max_compressed_length(data.size());
        std::string out(cap, '\0');
        size_t len = cap;
        if (snappy_compress(data.data(), data.size(), &out[0], &len) != SNAPPY_OK)
            return data.size();
        return std::min(len, data.size());
    }
    size_t cap = ZSTD_compressBound(data.size());
    std::string out(cap, '\0');
    size_t len = ZSTD_compress(&out[0], cap, data.data(), data.size(), zstdLevel);
    if (ZSTD_isError(len))
        return data.size();
    return std::min(len, data.size());
}

BlockTotals compressItems(BlockCodec codec, const std::vector<std::string_view>& items,
                          size_t pageBytes, int zstdLevel) {
    BlockTotals t;
    std::string page;
    for (std::string_view item : items) {
        t.perRecord += blockSize(codec, item, zstdLevel);
        if (!page.empty() && page.size() + item.size() > pageBytes) {
            t.paged += blockSize(codec, page, zstdLevel);
            page.clear();
        }
        page.append(item.data(), item.size());
    }
    if (!page.empty())
        t.paged += blockSize(codec, page, zstdLevel);
    return t;
}

}  // namespace dedup
}  // namespace mongo
