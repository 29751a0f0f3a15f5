#include "mongo/db/dedup/tools/block_compress.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace mongo {
namespace dedup {
namespace {

TEST(BlockCompress, CompressibleShrinksIncompressibleStaysRaw) {
    std::string text;
    for (int i = 0; i < 200; ++i)
        text += "the same sentence again and again, ";
    std::mt19937_64 rng(1);
    std::string noise(5000, '\0');
    for (auto& c : noise)
        c = char(rng());
    for (BlockCodec c : {BlockCodec::kSnappy, BlockCodec::kZstd}) {
        EXPECT_LT(blockSize(c, text), text.size() / 5);
        EXPECT_EQ(blockSize(c, noise), noise.size());
        EXPECT_EQ(blockSize(c, ""), 0u);
    }
}

TEST(BlockCompress, PagesCompressSmallSimilarItemsTogether) {
    std::vector<std::string> items;
    for (int i = 0; i < 500; ++i)
        items.push_back("{\"_id\": " + std::to_string(i) + ", \"field\": \"value\"}");
    std::vector<std::string_view> views(items.begin(), items.end());
    BlockTotals t = compressItems(BlockCodec::kZstd, views, 32768);
    uint64_t raw = 0;
    for (auto& s : items)
        raw += s.size();
    EXPECT_LE(t.perRecord, raw);
    EXPECT_LT(t.paged * 3, t.perRecord);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
