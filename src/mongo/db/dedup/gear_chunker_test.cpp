#include "mongo/db/dedup/gear_chunker.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>


namespace mongo {
namespace dedup {
namespace {

std::string randomText(size_t n, uint64_t seed) {
    static const char* words[] = {"the ", "python ", "language ", "is ", "a ", "record ", "of ",
                                  "revision ", "and ", "with ", "\n", "data, ", "base. "};
    std::mt19937_64 rng(seed);
    std::string s;
    while (s.size() < n)
        s += words[rng() % 13];
    s.resize(n);
    return s;
}

TEST(GearChunker, CoversInputWithinBoundsAndMeanNearTarget) {
    for (uint32_t avg : {64u, 256u, 1024u, 4096u}) {
        GearChunker c(avg);
        EXPECT_EQ(c.avgChunkSize(), avg);
        std::string s = randomText(400000, avg);
        auto lens = c.chunkLengths(reinterpret_cast<const uint8_t*>(s.data()), s.size());
        uint64_t total = std::accumulate(lens.begin(), lens.end(), uint64_t(0));
        EXPECT_EQ(total, s.size());
        for (size_t i = 0; i + 1 < lens.size(); ++i) {
            EXPECT_GE(lens[i], c.minChunkSize());
            EXPECT_LE(lens[i], c.maxChunkSize());
        }
        double mean = double(total) / lens.size();
        EXPECT_GT(mean, avg * 0.7) << avg;
        EXPECT_LT(mean, avg * 1.3) << avg;
    }
}

TEST(GearChunker, RoundsAndClampsAverage) {
    EXPECT_EQ(GearChunker(100).avgChunkSize(), 64u);
    EXPECT_EQ(GearChunker(1).avgChunkSize(), 16u);
    EXPECT_EQ(GearChunker(1u << 30).avgChunkSize(), 65536u);
}

TEST(GearChunker, BoundariesResynchroniseAfterAnEdit) {
    GearChunker c(64);
    std::string a = randomText(20000, 1);
    std::string b = a;
    b.insert(5000, "INSERTED TEXT");
    auto cuts = [&](const std::string& s) {
        std::vector<size_t> out;
        c.forEachChunk(reinterpret_cast<const uint8_t*>(s.data()), s.size(),
                       [&](size_t off, size_t len) { out.push_back(off + len); });
        return out;
    };
    auto ca = cuts(a), cb = cuts(b);
    // Every cut of `a` after the edit (+ a few chunks) appears shifted by 13 in `b`.
    size_t matched = 0, after = 0;
    for (size_t x : ca) {
        if (x < 6000)
            continue;
        ++after;
        if (std::binary_search(cb.begin(), cb.end(), x + 13))
            ++matched;
    }
    EXPECT_EQ(matched, after);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
