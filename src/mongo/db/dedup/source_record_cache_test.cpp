#include "mongo/db/dedup/source_record_cache.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

SourceRecordCache::Bytes bytes(size_t n, char c = 'x') {
    return std::make_shared<const std::string>(n, c);
}

TEST(SourceRecordCache, HitsMissesAndLruEvictionByBytes) {
    SourceRecordCache c(3 * (1000 + 96));
    c.put({0, 1}, bytes(1000));
    c.put({0, 2}, bytes(1000));
    c.put({0, 3}, bytes(1000));
    EXPECT_TRUE(c.get({0, 1}) != nullptr);  // 1 becomes most recent
    c.put({0, 4}, bytes(1000));             // evicts 2, the least recent
    EXPECT_FALSE(c.contains({0, 2}));
    EXPECT_TRUE(c.contains({0, 1}));
    EXPECT_TRUE(c.get({0, 2}) == nullptr);
    auto s = c.stats();
    EXPECT_EQ(s.hits, 1u);
    EXPECT_EQ(s.misses, 1u);
    EXPECT_EQ(s.evictions, 1u);
    EXPECT_EQ(s.entries, 3u);
    EXPECT_LE(s.bytes, s.capacityBytes);
}

TEST(SourceRecordCache, ReplaceSwapsSourceForTarget) {
    SourceRecordCache c(1 << 20);
    c.put({0, 1}, bytes(10, 'a'));
    c.replace({0, 1}, {0, 2}, bytes(10, 'b'));
    EXPECT_FALSE(c.contains({0, 1}));
    ASSERT_TRUE(c.contains({0, 2}));
    EXPECT_EQ(*c.get({0, 2}), std::string(10, 'b'));
}

TEST(SourceRecordCache, OversizedRecordsAndOverwrites) {
    SourceRecordCache c(500);
    c.put({0, 1}, bytes(1000));
    EXPECT_FALSE(c.contains({0, 1}));
    c.put({0, 2}, bytes(100));
    c.put({0, 2}, bytes(200));
    EXPECT_EQ(c.get({0, 2})->size(), 200u);
    EXPECT_EQ(c.stats().entries, 1u);
    c.erase({0, 2});
    EXPECT_EQ(c.stats().bytes, 0u);
    // Namespaces are part of the key.
    c.put({1, 5}, bytes(10));
    EXPECT_FALSE(c.contains({2, 5}));
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
