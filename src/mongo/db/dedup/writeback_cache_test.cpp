#include "mongo/db/dedup/writeback_cache.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

WriteBack wb(int64_t id, int64_t saved, size_t size = 100, int64_t base = -1, bool structural = false) {
    WriteBack w;
    w.key = {0, id};
    w.bytesSaved = saved;
    w.stored.assign(size, 'd');
    w.structural = structural;
    if (base >= 0) {
        w.hasBase = true;
        w.base = {0, base};
    }
    return w;
}

TEST(WriteBackCache, TakesMostValuableFirst) {
    WriteBackCache c(1 << 20);
    c.put(wb(1, 100));
    c.put(wb(2, 5000));
    c.put(wb(3, 700));
    c.put(wb(4, -50, 100, -1, true));  // structural outranks any saving
    auto out = c.take(10);
    ASSERT_EQ(out.size(), 4u);
    EXPECT_EQ(out[0].key.id, 4);
    EXPECT_EQ(out[1].key.id, 2);
    EXPECT_EQ(out[2].key.id, 3);
    EXPECT_EQ(out[3].key.id, 1);
    EXPECT_EQ(c.entries(), 0u);
    EXPECT_EQ(c.bytes(), 0u);
}

TEST(WriteBackCache, DropsTheLeastValuableWhenFull) {
    WriteBackCache c(3 * 228);  // room for three 100-byte entries
    std::vector<WriteBack> dropped;
    c.put(wb(1, 300), &dropped);
    c.put(wb(2, 100), &dropped);
    c.put(wb(3, 200), &dropped);
    c.put(wb(4, 400), &dropped);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0].key.id, 2);
    c.put(wb(5, 50), &dropped);  // the newcomer is the least valuable: it is dropped
    ASSERT_EQ(dropped.size(), 2u);
    EXPECT_EQ(dropped[1].key.id, 5);
    EXPECT_EQ(c.entries(), 3u);
    EXPECT_EQ(c.stats().dropped, 2u);
}

TEST(WriteBackCache, ReplacesPendingEntryForTheSameRecord) {
    WriteBackCache c(1 << 20);
    c.put(wb(1, 100, 10, 7));
    c.put(wb(1, 200, 20, 8));
    EXPECT_EQ(c.entries(), 1u);
    EXPECT_EQ(c.invalidateBase({0, 7}), 0u);  // the old base link went with the old entry
    auto out = c.take(5);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].stored.size(), 20u);
    EXPECT_EQ(c.stats().replaced, 1u);
}

TEST(WriteBackCache, ClientWritesInvalidateTheRecordAndItsDependents) {
    WriteBackCache c(1 << 20);
    c.put(wb(1, 100, 10, 9));
    c.put(wb(2, 100, 10, 9));
    c.put(wb(9, 100, 10, 10));
    EXPECT_EQ(c.invalidateBase({0, 9}), 2u);
    EXPECT_TRUE(c.pending({0, 9}));
    EXPECT_TRUE(c.invalidate({0, 9}));
    EXPECT_FALSE(c.invalidate({0, 9}));
    EXPECT_EQ(c.entries(), 0u);
    EXPECT_EQ(c.stats().invalidated, 3u);
}

TEST(WriteBackCache, TakeHonoursByteBudgetButAlwaysMakesProgress) {
    WriteBackCache c(1 << 20);
    c.put(wb(1, 3, 1000));
    c.put(wb(2, 2, 1000));
    c.put(wb(3, 1, 1000));
    EXPECT_EQ(c.take(10, 1500).size(), 1u);
    EXPECT_EQ(c.take(10, 10).size(), 1u);
    EXPECT_EQ(c.take(10).size(), 1u);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
