// Command 'let': evaluation, MongoDB's errors, and binding into filters and projections.
#include <gtest/gtest.h>

#include "mongo/db/pipeline/command_let.h"
#include "mongo/db/query/matcher.h"

namespace mongo {
namespace {

int codeOf(const BSONObj& let) {
    try {
        CommandLetVariables::parse(let);
        return 0;
    } catch (const DBException& e) {
        return e.code();
    }
}

TEST(CommandLetTest, ValuesAreComputedOnceAndInOrder) {
    auto let = CommandLetVariables::parse(fromjson(R"({"a": {"$add": [1, 2]}, "b": {"$multiply": ["$$a", 2]}})"));
    BSONObj e = let.asExpressions();
    EXPECT_EQ(e["a"].Obj()["$literal"].numberInt(), 3);
    EXPECT_EQ(e["b"].Obj()["$literal"].numberDouble(), 6);
}

TEST(CommandLetTest, NamesAndDocumentAccessAreRefused) {
    EXPECT_EQ(codeOf(fromjson(R"({"": 1})")), 16866);
    EXPECT_EQ(codeOf(fromjson(R"({"Upper": 1})")), 16867);
    EXPECT_EQ(codeOf(fromjson(R"({"a-b": 1})")), 16868);
    EXPECT_EQ(codeOf(fromjson(R"({"NOW": 1})")), 4738901);
    EXPECT_EQ(codeOf(fromjson(R"({"x": "$a"})")), 4890500);
    EXPECT_EQ(codeOf(fromjson(R"({"x": {"$concat": ["$$ROOT.a", "b"]}})")), 4890500);
    EXPECT_EQ(codeOf(fromjson(R"({"x": {"$literal": "$a"}})")), 0);
    EXPECT_EQ(codeOf(fromjson(R"({"x": "$$undefinedVar"})")), 17276);
    EXPECT_EQ(codeOf(fromjson(R"({"x": "$$CLUSTER_TIME"})")), 51144);
    EXPECT_EQ(codeOf(fromjson(R"({"x": "$$NOW"})")), 0);
}

TEST(CommandLetTest, FilterExprSeesTheVariablesAtAnyDepth) {
    auto let = CommandLetVariables::parse(fromjson(R"({"v": 5})"));
    BSONObj f = let.bindInFilter(fromjson(R"({"$or": [{"$expr": {"$eq": ["$a", "$$v"]}}, {"b": 1}]})"));
    Matcher m(f);
    EXPECT_TRUE(m.matches(fromjson(R"({"a": 5})")));
    EXPECT_FALSE(m.matches(fromjson(R"({"a": 4})")));
    EXPECT_TRUE(m.matches(fromjson(R"({"a": 4, "b": 1})")));
    // An inner binding of the same name shadows the command's variable.
    Matcher shadow(let.bindInFilter(
        fromjson(R"({"$expr": {"$let": {"vars": {"v": 7}, "in": {"$eq": ["$a", "$$v"]}}}})")));
    EXPECT_TRUE(shadow.matches(fromjson(R"({"a": 7})")));
    // Without variables the filter is left alone.
    BSONObj plain = fromjson(R"({"$expr": {"$eq": ["$a", 1]}})");
    EXPECT_TRUE(CommandLetVariables().bindInFilter(plain).binaryEqual(plain));
}

TEST(CommandLetTest, ProjectionBindsComputedFieldsOnly) {
    auto let = CommandLetVariables::parse(fromjson(R"({"v": 5})"));
    BSONObj p = let.bindInProjection(fromjson(R"({"a": 1, "b": "$$v", "c": {"$slice": 2}, "d": {"e": "$$v"}})"));
    EXPECT_EQ(p["a"].numberInt(), 1);
    EXPECT_TRUE(p["b"].Obj().hasField("$let"));
    EXPECT_TRUE(p["c"].Obj().hasField("$slice"));
    EXPECT_TRUE(p["d"].Obj()["e"].Obj().hasField("$let"));
}

TEST(CommandLetTest, ConstantsShadowLetVariables) {
    auto let = CommandLetVariables::parse(fromjson(R"({"v": 5, "w": 1})"));
    BSONObj e = let.withConstants(fromjson(R"({"v": "c"})")).asExpressions();
    EXPECT_EQ(e["v"].Obj()["$literal"].str(), "c");
    EXPECT_EQ(e["w"].Obj()["$literal"].numberInt(), 1);
}

}  // namespace
}  // namespace mongo
