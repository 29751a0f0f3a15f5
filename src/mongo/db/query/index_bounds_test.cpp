#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/index_bounds.h"

namespace mongo {
namespace {

std::vector<std::string> show(const std::optional<std::vector<Interval>>& b) {
    std::vector<std::string> out;
    if (b)
        for (auto& i : *b) out.push_back(i.toString());
    return out;
}

TEST(IndexBounds, EqualityIsAPoint) {
    auto b = boundsForPath(fromjson(R"({"a": 5, "b": 1})"), "a", false);
    ASSERT_TRUE(b);
    EXPECT_EQ(show(b), std::vector<std::string>{"[5, 5]"});
    EXPECT_TRUE((*b)[0].isPoint());
}

TEST(IndexBounds, RangesAreTypeBracketedAndIntersected) {
    EXPECT_EQ(show(boundsForPath(fromjson(R"({"a": {"$gt": 5}})"), "a", false)),
              std::vector<std::string>{"(5, inf.0]"});
    EXPECT_EQ(show(boundsForPath(fromjson(R"({"a": {"$gte": 1, "$lt": 9}})"), "a", false)),
              std::vector<std::string>{"[1, 9)"});
    EXPECT_EQ(show(boundsForPath(fromjson(R"({"$and": [{"a": {"$gt": 1}}, {"a": {"$lte": 3}}]})"), "a", false)),
              std::vector<std::string>{"(1, 3]"});
}

TEST(IndexBounds, MultikeyDoesNotIntersect) {
    // Each predicate may be satisfied by a different array element.
    auto b = boundsForPath(fromjson(R"({"a": {"$gt": 5, "$lt": 3}})"), "a", true);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->size(), 1u);
    EXPECT_EQ((*b)[0].toString(), "(5, inf.0]");
}

TEST(IndexBounds, ContradictionGivesNoIntervals) {
    auto b = boundsForPath(fromjson(R"({"a": {"$gt": 5, "$lt": 3}})"), "a", false);
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->empty());
}

TEST(IndexBounds, InGivesSortedDistinctPoints) {
    EXPECT_EQ(show(boundsForPath(fromjson(R"({"a": {"$in": [3, 1, 3]}})"), "a", false)),
              (std::vector<std::string>{"[1, 1]", "[3, 3]"}));
}

TEST(IndexBounds, UnusablePredicatesGiveNoBounds) {
    EXPECT_FALSE(boundsForPath(fromjson(R"({"a": null})"), "a", false));
    EXPECT_FALSE(boundsForPath(fromjson(R"({"a": {"$ne": 1}})"), "a", false));
    EXPECT_FALSE(boundsForPath(fromjson(R"({"a": {"$in": [1, null]}})"), "a", false));
    EXPECT_FALSE(boundsForPath(fromjson(R"({"$or": [{"a": 1}, {"a": 2}]})"), "a", false));
    EXPECT_FALSE(boundsForPath(fromjson(R"({"b": 1})"), "a", false));
}

TEST(IndexBounds, StringRangesStopBeforeObjects) {
    auto b = boundsForPath(fromjson(R"({"s": {"$gte": "m"}})"), "s", false);
    ASSERT_TRUE(b);
    EXPECT_TRUE((*b)[0].contains(fromjson(R"({"x": "zzz"})").firstElement()));
    EXPECT_FALSE((*b)[0].contains(fromjson(R"({"x": {}})").firstElement()));
    EXPECT_FALSE((*b)[0].contains(fromjson(R"({"x": 5})").firstElement()));
}

}  // namespace
}  // namespace mongo
