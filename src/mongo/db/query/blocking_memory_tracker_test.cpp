#include <gtest/gtest.h>
#include <limits>

#include "mongo/db/query/blocking_memory_tracker.h"

#include "mongo/base/status.h"

namespace mongo {
namespace {

int codeOf(BlockingMemoryTracker& t, long long bytes) {
    try {
        t.add(bytes);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(BlockingMemoryTracker, WithoutAllowDiskUseFailsPastTheLimitWithMongoDBsMessage) {
    BlockingMemoryTracker t(100, false, "Sort exceeded memory limit of 100 bytes, but did not opt in to external sorting.",
                            "$sort");
    EXPECT_EQ(codeOf(t, 100), 0);
    EXPECT_EQ(t.current(), 100);
    try {
        t.add(1);
        FAIL() << "no error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 292 /* QueryExceededMemoryLimitNoDiskUseAllowed */);
        EXPECT_EQ(e.reason(), "Sort exceeded memory limit of 100 bytes, but did not opt in to external sorting.");
    }
}

TEST(BlockingMemoryTracker, ReleasedMemoryMakesRoomAgain) {
    BlockingMemoryTracker t(100, false, "over", "$group");
    EXPECT_EQ(codeOf(t, 90), 0);
    EXPECT_EQ(codeOf(t, -50), 0);
    EXPECT_EQ(codeOf(t, 60), 0);
    EXPECT_EQ(t.current(), 100);
    EXPECT_EQ(codeOf(t, -1000), 0);
    EXPECT_EQ(t.current(), 0);  // never negative
}

TEST(BlockingMemoryTracker, AllowDiskUseKeepsGoingUpToTheHardCap) {
    BlockingMemoryTracker t(100, true, "over", "$sort");
    EXPECT_EQ(codeOf(t, 100 * BlockingMemoryTracker::kNoSpillHardCapFactor), 0);
    EXPECT_EQ(codeOf(t, 1), 146 /* ExceededMemoryLimit */);
}

TEST(BlockingMemoryTracker, HugeLimitsDoNotOverflowTheCap) {
    BlockingMemoryTracker t(std::numeric_limits<long long>::max() / 2, true, "over", "$sort");
    EXPECT_EQ(codeOf(t, std::numeric_limits<long long>::max() / 2 + 1), 0);
}

}  // namespace
}  // namespace mongo
