#include "mongo/db/dedup/feature_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "mongo/db/dedup/record_table.h"

namespace mongo {
namespace dedup {
namespace {

Sketch randomSketch(std::mt19937_64& rng, size_t k) {
    Sketch s;
    for (size_t i = 0; i < k; ++i)
        s.push_back(rng());
    std::sort(s.rbegin(), s.rend());
    return s;
}

TEST(FeatureIndex, FindsEveryRecordHoldingAFeatureUpToTheCap) {
    RecordTable table(8);
    FeatureIndex index(&table, 4, 16);
    Feature shared = 0x1234567812345678ull;
    std::vector<uint32_t> cands;
    std::vector<uint32_t> ptrs;
    for (int i = 0; i < 3; ++i) {
        uint32_t p = table.add(0, i, Sketch{shared}, i + 1);
        cands.clear();
        index.lookupAndInsert(shared, p, &cands);
        EXPECT_EQ(cands, ptrs);  // every earlier holder, none twice
        std::sort(cands.begin(), cands.end());
        ptrs.push_back(p);
    }
    cands.clear();
    index.lookup(shared, &cands);
    std::sort(cands.begin(), cands.end());
    EXPECT_EQ(cands, ptrs);
}

TEST(FeatureIndex, CapEvictsTheLeastRecentlyUsedHolder) {
    RecordTable table(8);
    FeatureIndex index(&table, 2, 16);
    Feature f = 42;
    uint32_t a = table.add(0, 1, Sketch{f}, 1), b = table.add(0, 2, Sketch{f}, 2),
             c = table.add(0, 3, Sketch{f}, 3);
    std::vector<uint32_t> cands;
    index.lookupAndInsert(f, a, &cands);
    index.lookupAndInsert(f, b, &cands);
    table.at(a).lastUsed = 10;  // a was used recently; b is now the LRU holder
    cands.clear();
    EXPECT_TRUE(index.lookupAndInsert(f, c, &cands));
    EXPECT_EQ(cands.size(), 2u);
    cands.clear();
    index.lookup(f, &cands);
    std::sort(cands.begin(), cands.end());
    EXPECT_EQ(cands, (std::vector<uint32_t>{a, c}));
    EXPECT_EQ(index.evictions(), 1u);
    EXPECT_EQ(index.entries(), 2u);
}

TEST(FeatureIndex, ChecksumCollisionsAreFilteredBySketch) {
    RecordTable table(8);
    FeatureIndex index(&table, 8, 16);
    // Find two features with equal checksums.
    Feature f1 = 1, f2 = 2;
    while (FeatureIndex::checksumOf(f2) != FeatureIndex::checksumOf(f1))
        ++f2;
    uint32_t p = table.add(0, 1, Sketch{f1}, 1);
    std::vector<uint32_t> cands;
    index.lookupAndInsert(f1, p, &cands);
    cands.clear();
    index.lookup(f2, &cands);
    EXPECT_TRUE(cands.empty());
}

TEST(FeatureIndex, GrowsUnderLoadKeepsAllEntriesAndStaysCompact) {
    RecordTable table(8);
    FeatureIndex index(&table, 8, 64);
    std::mt19937_64 rng(5);
    std::vector<std::pair<uint32_t, Sketch>> recs;
    for (int i = 0; i < 20000; ++i) {
        Sketch s = randomSketch(rng, 8);
        uint32_t p = table.add(0, i, s, i + 1);
        std::vector<uint32_t> cands;
        for (Feature f : s)
            index.lookupAndInsert(f, p, &cands);
        EXPECT_TRUE(cands.empty());
        recs.push_back({p, s});
    }
    EXPECT_EQ(index.entries(), 160000u);
    EXPECT_GT(index.rehashes(), 0u);
    double bytesPerEntry = double(index.memoryBytes()) / index.entries();
    EXPECT_LE(bytesPerEntry, 8.2);
    for (size_t i = 0; i < recs.size(); i += 97) {
        for (Feature f : recs[i].second) {
            std::vector<uint32_t> cands;
            index.lookup(f, &cands);
            ASSERT_EQ(cands, std::vector<uint32_t>{recs[i].first});
        }
    }
}

TEST(FeatureIndex, RemoveLeavesOtherEntriesReachable) {
    RecordTable table(8);
    FeatureIndex index(&table, 8, 16);
    std::mt19937_64 rng(9);
    std::vector<std::pair<uint32_t, Sketch>> recs;
    for (int i = 0; i < 3000; ++i) {
        Sketch s = randomSketch(rng, 8);
        uint32_t p = table.add(0, i, s, i + 1);
        std::vector<uint32_t> cands;
        for (Feature f : s)
            index.lookupAndInsert(f, p, &cands);
        recs.push_back({p, s});
    }
    for (size_t i = 0; i < recs.size(); i += 2)
        for (Feature f : recs[i].second)
            EXPECT_TRUE(index.remove(f, recs[i].first));
    EXPECT_EQ(index.entries(), 1500u * 8);
    for (size_t i = 0; i < recs.size(); ++i) {
        std::vector<uint32_t> cands;
        index.lookup(recs[i].second[3], &cands);
        EXPECT_EQ(cands.size(), i % 2 ? 1u : 0u);
    }
    EXPECT_FALSE(index.remove(recs[0].second[0], recs[0].first));
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
