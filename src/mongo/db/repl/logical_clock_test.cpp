#include "mongo/db/repl/logical_clock.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace mongo {
namespace repl {
namespace {

TEST(LogicalClockTest, TicksFollowTheWallClockAndOnlyGrow) {
    uint64_t now = 1000;
    LogicalClock clock([&] { return now; });
    Timestamp a = clock.reserveTicks();
    EXPECT_EQ(a.secs, 1000u);
    EXPECT_EQ(a.inc, 1u);
    Timestamp b = clock.reserveTicks();
    EXPECT_EQ(b.secs, 1000u);
    EXPECT_EQ(b.inc, 2u);
    now = 900;  // the wall clock goes back: the clock does not
    Timestamp c = clock.reserveTicks();
    EXPECT_TRUE(b < c);
    now = 1001;
    Timestamp d = clock.reserveTicks();
    EXPECT_EQ(d.secs, 1001u);
    EXPECT_EQ(d.inc, 1u);
}

TEST(LogicalClockTest, ReservingSeveralTicksSkipsThem) {
    LogicalClock clock([] { return uint64_t(5); });
    Timestamp a = clock.reserveTicks(10);
    Timestamp b = clock.reserveTicks();
    EXPECT_EQ(b.asULL(), a.asULL() + 10);
    EXPECT_EQ(clock.getClusterTime(), b);
}

TEST(LogicalClockTest, AdvanceNeverGoesBack) {
    LogicalClock clock([] { return uint64_t(5); });
    clock.advanceClusterTime(Timestamp{100, 7});
    EXPECT_EQ(clock.getClusterTime(), (Timestamp{100, 7}));
    clock.advanceClusterTime(Timestamp{50, 1});
    EXPECT_EQ(clock.getClusterTime(), (Timestamp{100, 7}));
    EXPECT_EQ(clock.reserveTicks(), (Timestamp{100, 8}));
}

TEST(LogicalClockTest, IncrementOverflowCarriesIntoTheNextSecondWithoutIncrementZero) {
    LogicalClock clock([] { return uint64_t(5); });
    clock.advanceClusterTime(Timestamp{7, 0xffffffffu});
    Timestamp t = clock.reserveTicks();
    EXPECT_EQ(t.secs, 8u);
    EXPECT_EQ(t.inc, 1u);
}

TEST(LogicalClockTest, ConcurrentTicksAreUnique) {
    LogicalClock clock;
    std::vector<std::vector<uint64_t>> got(4);
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; ++i)
        ts.emplace_back([&, i] {
            for (int k = 0; k < 10000; ++k) got[i].push_back(clock.reserveTicks().asULL());
        });
    for (auto& t : ts) t.join();
    std::vector<uint64_t> all;
    for (auto& g : got) {
        for (size_t k = 1; k < g.size(); ++k) EXPECT_LT(g[k - 1], g[k]);
        all.insert(all.end(), g.begin(), g.end());
    }
    std::sort(all.begin(), all.end());
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

}  // namespace
}  // namespace repl
}  // namespace mongo
