#include "mongo/db/dedup/chain_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace mongo {
namespace dedup {
namespace {

TEST(ChainPolicy, BackwardChainsToTheSuccessor) {
    EXPECT_EQ(chainTarget(ChainScheme::kBackward, 16, 0, 5), 1);
    EXPECT_EQ(chainTarget(ChainScheme::kBackward, 16, 5, 5), kRawTarget);
    EXPECT_EQ(worstDecodeSteps(ChainScheme::kBackward, 16, 99), 99u);
    auto r = retargetsOnAppend(ChainScheme::kBackward, 16, 7);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].pos, 6u);
    EXPECT_EQ(r[0].target, 7);
}

TEST(ChainPolicy, VersionJumpingKeepsReferenceVersionsRaw) {
    // H = 4: positions 3, 7, 11 ... are reference versions.
    EXPECT_EQ(chainTarget(ChainScheme::kVersionJumping, 4, 3, 20), kRawTarget);
    EXPECT_EQ(chainTarget(ChainScheme::kVersionJumping, 4, 4, 20), 5);
    EXPECT_EQ(worstDecodeSteps(ChainScheme::kVersionJumping, 4, 200), 3u);
    // Appending after a reference version rewrites nothing.
    EXPECT_TRUE(retargetsOnAppend(ChainScheme::kVersionJumping, 4, 4).empty());
    EXPECT_EQ(retargetsOnAppend(ChainScheme::kVersionJumping, 4, 5).size(), 1u);
}

TEST(ChainPolicy, HopMatchesThePaperFigure) {
    // Figure 6: 17 records, H = 4. R0 -> R16 (level 2), R4 -> R8 -> R12 -> R16.
    const uint64_t head = 16;
    EXPECT_EQ(chainTarget(ChainScheme::kHop, 4, 0, head), 16);
    EXPECT_EQ(chainTarget(ChainScheme::kHop, 4, 4, head), 8);
    EXPECT_EQ(chainTarget(ChainScheme::kHop, 4, 12, head), 16);
    EXPECT_EQ(chainTarget(ChainScheme::kHop, 4, 5, head), 6);
    EXPECT_EQ(decodeSteps(ChainScheme::kHop, 4, 1, head), 6u);  // 1 2 3 4 8 12 16
    // Inserting R16 rewrites R15 (its source) and the adjacent bases on each level.
    auto r = retargetsOnAppend(ChainScheme::kHop, 4, 16);
    std::vector<uint64_t> pos;
    for (auto& x : r) {
        pos.push_back(x.pos);
        EXPECT_EQ(x.target, 16);
    }
    EXPECT_EQ(pos, (std::vector<uint64_t>{0, 12, 15}));
}

TEST(ChainPolicy, HopWriteBacksAreNPlusNOverHMinusOne) {
    // A base of exact level L is rewritten once per level: N/(H-1) extra write-backs in all.
    // (Table 2 of the paper gives N*H/(H-1)^2, which counts a level-L base in every level
    // below it as well; the scheme it describes does N/(H-1).)
    for (uint32_t H : {4u, 8u, 16u}) {
        const uint64_t n = 4096;
        uint64_t writes = 0;
        for (uint64_t h = 1; h < n; ++h)
            writes += retargetsOnAppend(ChainScheme::kHop, H, h).size();
        double formula = n + double(n) / double(H - 1);
        EXPECT_NEAR(double(writes), formula, formula * 0.03) << H;
    }
}

TEST(ChainPolicy, BoundedHopNeverExceedsItsGuaranteedBound) {
    for (uint32_t H : {2u, 3u, 4u, 5u, 8u, 16u, 32u}) {
        for (uint64_t n = 1; n <= 1200; ++n) {
            uint64_t worst = worstDecodeSteps(ChainScheme::kBoundedHop, H, n - 1);
            ASSERT_LE(worst, guaranteedDecodeBound(ChainScheme::kBoundedHop, H, n))
                << "H=" << H << " n=" << n;
        }
    }
    EXPECT_LE(worstDecodeSteps(ChainScheme::kBoundedHop, 16, 65536),
              guaranteedDecodeBound(ChainScheme::kBoundedHop, 16, 65537));
}

// The engine's default cap: fixed, and never below what the scheme's own layout needs for any
// chain length.
TEST(ChainPolicy, SchemeDecodeCapIsFixedAndCoversEveryChainLength) {
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kBoundedHop, 16), 29u);  // 16 + floor(log_16(2^32 - 1)) + 8 - 2
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kBoundedHop, 2), 33u);
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kBoundedHop, 4), 19u);  // clusters of 2: nothing added
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kVersionJumping, 16), 15u);
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kHop, 16), 0u);
    EXPECT_EQ(schemeDecodeCap(ChainScheme::kBackward, 16), 0u);
    for (uint32_t H : {2u, 3u, 4u, 8u, 16u, 32u}) {
        for (uint64_t n : {1ull, 2ull, 100ull, 1000ull, 5000ull})
            EXPECT_LE(worstDecodeSteps(ChainScheme::kBoundedHop, H, n - 1),
                      schemeDecodeCap(ChainScheme::kBoundedHop, H))
                << "H=" << H << " n=" << n;
        EXPECT_LE(guaranteedDecodeBound(ChainScheme::kBoundedHop, H, 1u << 20),
                  schemeDecodeCap(ChainScheme::kBoundedHop, H));
    }
}

TEST(ChainPolicy, RetargetsAreExactlyTheChangedTargets) {
    for (ChainScheme s : {ChainScheme::kBackward, ChainScheme::kVersionJumping, ChainScheme::kHop,
                          ChainScheme::kBoundedHop}) {
        for (uint32_t H : {2u, 4u, 16u}) {
            for (uint64_t head = 1; head < 300; ++head) {
                auto r = retargetsOnAppend(s, H, head);
                size_t k = 0;
                for (uint64_t p = 0; p < head; ++p) {
                    int64_t before = chainTarget(s, H, p, head - 1);
                    int64_t after = chainTarget(s, H, p, head);
                    if (before != after) {
                        ASSERT_LT(k, r.size()) << chainSchemeName(s) << " H=" << H << " head=" << head;
                        EXPECT_EQ(r[k].pos, p);
                        EXPECT_EQ(r[k].target, after);
                        ++k;
                    }
                }
                EXPECT_EQ(k, r.size());
            }
        }
    }
}

TEST(ChainPolicy, TargetsAlwaysPointForward) {
    for (ChainScheme s : {ChainScheme::kHop, ChainScheme::kBoundedHop}) {
        for (uint64_t head = 0; head < 500; ++head) {
            for (uint64_t p = 0; p <= head; ++p) {
                int64_t t = chainTarget(s, 4, p, head);
                if (t != kRawTarget) {
                    EXPECT_GT(uint64_t(t), p);
                    EXPECT_LE(uint64_t(t), head);
                }
            }
        }
    }
}

// The write cost of an append: inside a cluster only the source (the previous head) moves, and
// its backward delta comes free with the forward one; only a new base re-encodes older bases,
// so at the default H = 16 the extra delta computations per append stay below one even on
// long chains (they were about one more per append when the newest base pointed to the head).
TEST(ChainPolicy, BoundedHopAppendsInsideAClusterMoveOnlyTheSource) {
    for (uint32_t H : {4u, 8u, 16u, 32u}) {
        const uint64_t c = std::max<uint32_t>(2, H / 2);
        uint64_t extra = 0, appends = 0;
        for (uint64_t head = 1; head <= 5000; ++head) {
            auto r = retargetsOnAppend(ChainScheme::kBoundedHop, H, head);
            ++appends;
            if (head % c != 0) {
                ASSERT_EQ(r.size(), 1u) << "H=" << H << " head=" << head;
                EXPECT_EQ(r[0].pos, head - 1);
                EXPECT_EQ(r[0].target, int64_t(head));
            }
            for (const Retarget& t : r)
                extra += t.pos != head - 1;
        }
        // Small H means small clusters and a wide frontier of bases to move at each new one.
        if (H >= 16)
            EXPECT_LT(double(extra) / double(appends), 1.0) << "H=" << H;
    }
}

TEST(ChainPolicy, NamesRoundTrip) {
    ChainScheme s;
    EXPECT_TRUE(parseChainScheme("bounded-hop", &s));
    EXPECT_EQ(s, ChainScheme::kBoundedHop);
    EXPECT_FALSE(parseChainScheme("nope", &s));
    EXPECT_EQ(floorLog(16, 1), 0u);
    EXPECT_EQ(floorLog(16, 16), 1u);
    EXPECT_EQ(floorLog(16, 255), 1u);
    EXPECT_EQ(floorLog(16, 256), 2u);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
