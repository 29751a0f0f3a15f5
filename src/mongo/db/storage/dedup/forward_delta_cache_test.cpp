#include "mongo/db/storage/dedup/forward_delta_cache.h"

#include <gtest/gtest.h>

#include <thread>

namespace mongo {
namespace {

TEST(ForwardDeltaCache, KeepsDeltasAndNotEncodedMarksByNamespaceAndId) {
    ForwardDeltaCache c(1 << 20);
    c.put("db.a", 7, {3, "delta", "key"});
    c.putNotEncoded("db.a", 8);
    auto e = c.get("db.a", 7);
    ASSERT_TRUE(e.has_value());
    EXPECT_TRUE(e->encoded());
    EXPECT_EQ(e->sourceId, 3);
    EXPECT_EQ(e->delta, "delta");
    EXPECT_EQ(e->sourceKey, "key");
    ASSERT_TRUE(c.get("db.a", 8).has_value());
    EXPECT_FALSE(c.get("db.a", 8)->encoded());
    EXPECT_FALSE(c.get("db.b", 7).has_value());
    c.forgetNamespace("db.a");
    EXPECT_FALSE(c.get("db.a", 7).has_value());
    EXPECT_EQ(c.entries(), 0u);
    EXPECT_EQ(c.bytes(), 0u);
}

TEST(ForwardDeltaCache, EvictsTheOldestBeyondItsCapacity) {
    ForwardDeltaCache c(4096);
    for (int64_t id = 1; id <= 200; id++) c.put("db.a", id, {id - 1, std::string(100, 'x'), ""});
    EXPECT_LE(c.bytes(), 4096u);
    EXPECT_FALSE(c.get("db.a", 1).has_value());
    EXPECT_TRUE(c.get("db.a", 200).has_value());
    // Replacing an entry does not count it twice.
    const size_t before = c.bytes();
    c.put("db.a", 200, {5, std::string(100, 'y'), ""});
    EXPECT_EQ(c.bytes(), before);
    EXPECT_EQ(c.get("db.a", 200)->sourceId, 5);
}

TEST(ForwardDeltaCache, WaitForReturnsOnceTheEncoderExaminedTheRecordOrAtTheDeadline) {
    ForwardDeltaCache c(1 << 20);
    auto soon = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
    EXPECT_FALSE(c.waitFor("db.a", 1, soon).has_value());
    std::thread encoder([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        c.put("db.a", 1, {9, "d", ""});
    });
    auto e = c.waitFor("db.a", 1, std::chrono::steady_clock::now() + std::chrono::seconds(10));
    encoder.join();
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->sourceId, 9);
}

}  // namespace
}  // namespace mongo
