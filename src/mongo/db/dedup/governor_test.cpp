#include "mongo/db/dedup/governor.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

TEST(DbGovernor, DisablesAfterAWindowBelowTheThreshold) {
    GovernorOptions o;
    o.window = 100;
    DbGovernor g(o);
    for (int i = 0; i < 99; ++i) {
        g.onInsert(1000);
        g.onSavings(50);  // 1.05x
        EXPECT_FALSE(g.evaluate());
    }
    EXPECT_TRUE(g.active());
    g.onInsert(1000);
    EXPECT_TRUE(g.evaluate());
    EXPECT_FALSE(g.active());
    EXPECT_FALSE(g.evaluate());  // reported once
}

TEST(DbGovernor, StaysActiveWhenDedupPays) {
    GovernorOptions o;
    o.window = 10;
    DbGovernor g(o);
    for (int i = 0; i < 100; ++i) {
        g.onInsert(1000);
        g.onSavings(500);  // 2x
        EXPECT_FALSE(g.evaluate());
    }
    EXPECT_TRUE(g.active());
    EXPECT_NEAR(g.totalRatio(), 2.0, 1e-9);
}

TEST(DbGovernor, CanBeTurnedOff) {
    GovernorOptions o;
    o.window = 1;
    o.governorEnabled = false;
    DbGovernor g(o);
    g.onInsert(100);
    EXPECT_FALSE(g.evaluate());
    EXPECT_TRUE(g.active());
}

TEST(DbGovernor, SizeFilterTracksTheFortiethPercentileEveryThousandInserts) {
    DbGovernor g;
    EXPECT_TRUE(g.passesSizeFilter(1));  // threshold starts at 0
    for (int i = 0; i < 999; ++i)
        g.onInsert(1 + i % 100);  // sizes 1..100, uniform
    EXPECT_EQ(g.sizeThreshold(), 0u);
    g.onInsert(50);
    EXPECT_NEAR(double(g.sizeThreshold()), 41.0, 2.0);
    EXPECT_FALSE(g.passesSizeFilter(30));
    EXPECT_TRUE(g.passesSizeFilter(60));
    // Later inserts shift the estimate (reservoir sample of all sizes seen).
    for (int i = 0; i < 20000; ++i)
        g.onInsert(1000 + i % 1000);
    EXPECT_GT(g.sizeThreshold(), 1000u);
}

TEST(DbGovernor, SizeFilterCanBeTurnedOff) {
    GovernorOptions o;
    o.sizeFilterEnabled = false;
    DbGovernor g(o);
    for (int i = 0; i < 2000; ++i)
        g.onInsert(1000);
    EXPECT_TRUE(g.passesSizeFilter(1));
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
