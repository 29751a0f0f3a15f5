#include "mongo/db/dedup/record_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace mongo {
namespace dedup {
namespace {

TEST(RecordTable, TracksIdsSketchesAndDependents) {
    RecordTable t(4);
    uint32_t a = t.add(1, 100, Sketch{9, 5, 1}, 1);
    uint32_t b = t.add(1, 101, Sketch{8, 7, 6, 5, 4}, 2);  // truncated to K=4
    EXPECT_EQ(t.find(1, 100), a);
    EXPECT_EQ(t.find(2, 100), kNoRecord);
    EXPECT_EQ(t.sketchOf(b).size(), 4u);
    EXPECT_TRUE(t.hasFeature(a, 5));
    EXPECT_FALSE(t.hasFeature(b, 4));
    uint32_t c = t.add(1, 102, Sketch{}, 3);
    t.setBase(a, b);
    t.setBase(c, b);
    EXPECT_EQ(t.at(b).refCount, 2u);
    std::vector<uint32_t> deps;
    t.forEachDependent(b, [&](uint32_t d) { deps.push_back(d); });
    std::sort(deps.begin(), deps.end());
    EXPECT_EQ(deps, (std::vector<uint32_t>{a, c}));
    t.setBase(a, c);
    EXPECT_EQ(t.at(b).refCount, 1u);
    EXPECT_EQ(t.at(c).refCount, 1u);
    t.setBase(a, kNoRecord);
    t.setBase(c, kNoRecord);
    EXPECT_EQ(t.at(b).refCount, 0u);
    t.erase(a);
    EXPECT_EQ(t.find(1, 100), kNoRecord);
    EXPECT_EQ(t.size(), 2u);
    uint32_t d = t.add(1, 200, Sketch{3}, 4);
    EXPECT_EQ(d, a);  // slot reused
    EXPECT_GT(t.memoryBytes(), 0u);
    t.releaseSketches();
    EXPECT_FALSE(t.hasFeature(b, 8));
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
