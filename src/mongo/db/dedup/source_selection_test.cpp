#include "mongo/db/dedup/source_selection.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

TEST(SourceSelection, TallyCountsSharedFeaturesPerRecord) {
    auto c = tallyCandidates({7, 3, 7, 7, 3, 9});
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0].ptr, 3u);
    EXPECT_EQ(c[0].shared, 2u);
    EXPECT_EQ(c[1].ptr, 7u);
    EXPECT_EQ(c[1].shared, 3u);
    EXPECT_EQ(c[2].shared, 1u);
    EXPECT_TRUE(tallyCandidates({}).empty());
}

TEST(SourceSelection, MostSharedFeaturesWins) {
    std::vector<SelectionCandidate> c = {{1, 2, 10, false}, {2, 5, 5, false}, {3, 4, 20, false}};
    EXPECT_EQ(selectSource(c, 2), 1);
}

TEST(SourceSelection, CacheRewardBreaksNearTies) {
    std::vector<SelectionCandidate> c = {{1, 5, 10, false}, {2, 4, 5, true}};
    EXPECT_EQ(selectSource(c, 2), 1);  // 4 + 2 > 5
    EXPECT_EQ(selectSource(c, 0), 0);  // no reward: similarity alone
    std::vector<SelectionCandidate> far = {{1, 8, 10, false}, {2, 3, 5, true}};
    EXPECT_EQ(selectSource(far, 2), 0);  // the reward does not beat a much better match
}

TEST(SourceSelection, TiesGoToTheNewest) {
    std::vector<SelectionCandidate> c = {{1, 3, 10, true}, {2, 3, 30, true}, {3, 3, 20, true}};
    EXPECT_EQ(selectSource(c, 2), 1);
    EXPECT_EQ(selectSource({}, 2), -1);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
