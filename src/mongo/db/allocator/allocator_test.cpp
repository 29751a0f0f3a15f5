#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/allocator/allocator.h"
#include "mongo/db/allocator/memory_releaser.h"
#include "mongo/db/commands/command_test_fixture.h"
#include "mongo/db/server_parameters.h"

namespace mongo::allocator {
namespace {

constexpr size_t MB = 1 << 20;

TEST(FreeMemoryReleasePolicy, WindowFollowsTheReleaseRate) {
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(0), 0);
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(-1), 0);
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(1), 10);
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(10), 1);
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(3), 4);
    EXPECT_EQ(FreeMemoryReleasePolicy::windowSeconds(0.001), 600);
}

TEST(FreeMemoryReleasePolicy, ReleasesWhatStayedFreeForTheWholeWindow) {
    FreeMemoryReleasePolicy p;
    // Rate 2: a 5 s window. Free memory swings between 40 and 100 MB: 40 MB were never needed.
    size_t samples[] = {100 * MB, 40 * MB, 90 * MB, 60 * MB};
    for (size_t s : samples) EXPECT_EQ(p.onSample(s, 2), 0u);
    EXPECT_EQ(p.onSample(70 * MB, 2), 40 * MB);
    // A new window starts after a release.
    for (int i = 0; i < 4; i++) EXPECT_EQ(p.onSample(30 * MB, 2), 0u);
    EXPECT_EQ(p.onSample(30 * MB, 2), 30 * MB);
}

TEST(FreeMemoryReleasePolicy, SlidesPastWindowsWithNothingWorthReleasing) {
    FreeMemoryReleasePolicy p;
    for (int i = 0; i < 10; i++) EXPECT_EQ(p.onSample(i == 3 ? 0 : 50 * MB, 1), 0u);  // one sample at 0
    // The zero leaves the window after 10 samples; from then on 50 MB stayed free.
    for (int i = 0; i < 3; i++) EXPECT_EQ(p.onSample(50 * MB, 1), 0u);
    EXPECT_EQ(p.onSample(50 * MB, 1), 50 * MB);
    // Less than kMinReleaseBytes is left alone.
    for (int i = 0; i < 20; i++) EXPECT_EQ(p.onSample(FreeMemoryReleasePolicy::kMinReleaseBytes - 1, 1), 0u);
}

TEST(FreeMemoryReleasePolicy, RateZeroNeverReleases) {
    FreeMemoryReleasePolicy p;
    for (int i = 0; i < 30; i++) EXPECT_EQ(p.onSample(500 * MB, 0), 0u);
    // Turning it back on starts a fresh window.
    for (int i = 0; i < 9; i++) EXPECT_EQ(p.onSample(500 * MB, 1), 0u);
    EXPECT_EQ(p.onSample(500 * MB, 1), 500 * MB);
}

class TcmallocTest : public CommandTest {
protected:
    void SetUp() override {
        if (!isTcmalloc()) GTEST_SKIP() << "built with allocator=system";
    }
};

TEST_F(TcmallocTest, CountsAllocationsAndReleasesFreedMemory) {
    EXPECT_STREQ(name(), "tcmalloc");
    size_t before = numericProperty("generic.current_allocated_bytes").value();
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 32; i++) {
        blocks.emplace_back(new char[2 * MB]);
        std::memset(blocks.back().get(), 1, 2 * MB);  // resident, not just reserved
    }
    EXPECT_GE(numericProperty("generic.current_allocated_bytes").value(), before + 60 * MB);
    blocks.clear();
    size_t freeBytes = numericProperty("tcmalloc.pageheap_free_bytes").value();
    EXPECT_GE(freeBytes, 60 * MB);
    size_t unmapped = numericProperty("tcmalloc.pageheap_unmapped_bytes").value();
    releaseToSystem(freeBytes);
    EXPECT_GE(numericProperty("tcmalloc.pageheap_unmapped_bytes").value(), unmapped + 60 * MB);
    EXPECT_LT(numericProperty("tcmalloc.pageheap_free_bytes").value(), 4 * MB);
    EXPECT_FALSE(numericProperty("no.such.property"));
}

TEST_F(TcmallocTest, ServerStatusSection) {
    BSONObj r = run(fromjson(R"({"serverStatus": 1})"));
    ASSERT_TRUE(r["tcmalloc"].isABSONObj());
    BSONObj generic = r["tcmalloc"].Obj()["generic"].Obj();
    EXPECT_EQ(generic["current_allocated_bytes"].type(), NumberLong);
    EXPECT_GT(generic["heap_size"].numberLong(), generic["current_allocated_bytes"].numberLong() / 2);
    BSONObj t = r["tcmalloc"].Obj()["tcmalloc"].Obj();
    for (const char* f : {"pageheap_free_bytes", "pageheap_unmapped_bytes", "max_total_thread_cache_bytes",
                          "current_total_thread_cache_bytes", "total_free_bytes", "central_cache_free_bytes",
                          "transfer_cache_free_bytes", "thread_cache_free_bytes", "aggressive_memory_decommit",
                          "pageheap_committed_bytes", "pageheap_scavenge_count", "pageheap_commit_count",
                          "pageheap_total_commit_bytes", "pageheap_decommit_count",
                          "pageheap_total_decommit_bytes", "pageheap_reserve_count",
                          "pageheap_total_reserve_bytes"})
        EXPECT_EQ(t[f].type(), NumberLong) << f;
    EXPECT_EQ(t["total_free_bytes"].numberLong(), t["central_cache_free_bytes"].numberLong() +
                  t["transfer_cache_free_bytes"].numberLong() + t["thread_cache_free_bytes"].numberLong());
    EXPECT_EQ(t["release_rate"].type(), NumberDouble);
    EXPECT_NE(t["formattedString"].str().find("Bytes in use by application"), std::string::npos);
    EXPECT_FALSE(run(fromjson(R"({"serverStatus": 1, "tcmalloc": 0})")).hasField("tcmalloc"));
    EXPECT_EQ(run(fromjson(R"({"buildInfo": 1})"))["allocator"].str(), "tcmalloc");
}

TEST_F(TcmallocTest, Parameters) {
    auto* rate = ServerParameterSet::global().find("tcmallocReleaseRate");
    ASSERT_TRUE(rate);
    ASSERT_TRUE(rate->setFromString("2.5").isOK());
    EXPECT_EQ(releaseRate(), 2.5);
    EXPECT_EQ(run(fromjson(R"({"getParameter": 1, "tcmallocReleaseRate": 1})"))["tcmallocReleaseRate"].numberDouble(), 2.5);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocReleaseRate": 11})")), 2);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocReleaseRate": -1})")), 2);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocReleaseRate": 1})")), 0);
    EXPECT_EQ(releaseRate(), 1.0);

    BSONObj before = run(fromjson(R"({"getParameter": 1, "tcmallocMaxTotalThreadCacheBytes": 1})"));
    long long cache = before["tcmallocMaxTotalThreadCacheBytes"].numberLong();
    EXPECT_EQ(cache, static_cast<long long>(numericProperty("tcmalloc.max_total_thread_cache_bytes").value()));
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocMaxTotalThreadCacheBytes": 67108864})")), 0);
    EXPECT_EQ(numericProperty("tcmalloc.max_total_thread_cache_bytes").value(), 64 * MB);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocMaxTotalThreadCacheBytes": -5})")), 2);
    ASSERT_TRUE(ServerParameterSet::global().find("tcmallocMaxTotalThreadCacheBytes")
                    ->setFromString(std::to_string(cache)).isOK());

    auto* decommit = ServerParameterSet::global().find("tcmallocAggressiveMemoryDecommit");
    ASSERT_TRUE(decommit);
    EXPECT_EQ(decommit->setFromString("2").code(), static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "tcmallocAggressiveMemoryDecommit": "x"})")), 14);
}

}  // namespace
}  // namespace mongo::allocator
