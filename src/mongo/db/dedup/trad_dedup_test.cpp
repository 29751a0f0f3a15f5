#include "mongo/db/dedup/trad_dedup.h"

#include <gtest/gtest.h>

#include <random>

namespace mongo {
namespace dedup {
namespace {

std::string noise(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::string s(n, 0);
    for (auto& c : s)
        c = char('a' + rng() % 26);
    return s;
}

TEST(TradDedup, DuplicateRecordsCostOnlyTheirRecipe) {
    TradDedup t(256);
    std::string a = noise(20000, 1);
    auto first = t.add(a.data(), a.size());
    EXPECT_EQ(first.newChunkBytes.size(), a.size());
    auto again = t.add(a.data(), a.size());
    EXPECT_TRUE(again.newChunkBytes.empty());
    EXPECT_EQ(again.storedBytes, again.recipe.size() * 8);
    EXPECT_EQ(t.materialize(again.recipe), a);
}

TEST(TradDedup, SmallEditStoresOnlyTheChangedChunks) {
    TradDedup t(256);
    std::string a = noise(50000, 2);
    t.add(a.data(), a.size());
    std::string b = a;
    b.replace(25000, 10, "0123456789");
    auto r = t.add(b.data(), b.size());
    EXPECT_LT(r.newChunkBytes.size(), 4000u);  // the chunk(s) around the edit
    EXPECT_EQ(t.materialize(r.recipe), b);
    EXPECT_GT(t.uniqueChunks(), 0u);
    EXPECT_NEAR(double(t.indexBytes()) / t.uniqueChunks(), 37.3, 0.5);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
