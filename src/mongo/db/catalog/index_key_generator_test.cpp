// Index key generation: MongoDB's rules for missing fields, arrays, parallel arrays, sparse.
#include "mongo/db/catalog/index_key_generator.h"

#include "mongo/bson/bsonobjbuilder.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

// Keys as JSON strings, e.g. {"": 1} -> "1", compound -> "1,2".
std::vector<std::string> keysOf(const char* pattern, const char* doc, bool sparse = false, bool* multikey = nullptr) {
    IndexKeyGenerator gen(fromjson(pattern), sparse);
    KeyStringSet keys;
    bool mk = false;
    gen.getKeys(fromjson(doc), &keys, &mk);
    if (multikey) *multikey = mk;
    std::vector<std::string> out;
    for (const BSONObj& k : keys) {
        std::string s;
        for (auto e : k) s += (s.empty() ? "" : ",") + e.toString(false);
        out.push_back(s);
    }
    return out;
}

using V = std::vector<std::string>;

TEST(IndexKeyGeneratorTest, SimpleAndMissingFields) {
    EXPECT_EQ(keysOf(R"({"a": 1})", R"({"a": 5})"), V({"5"}));
    EXPECT_EQ(keysOf(R"({"a": 1})", R"({"b": 5})"), V({"null"}));
    EXPECT_EQ(keysOf(R"({"a": 1, "b": -1})", R"({"a": 1, "b": "x"})"), V({"1,\"x\""}));
}

TEST(IndexKeyGeneratorTest, DottedPaths) {
    EXPECT_EQ(keysOf(R"({"a.b": 1})", R"({"a": {"b": 7}})"), V({"7"}));
    EXPECT_EQ(keysOf(R"({"a.b": 1})", R"({"a": 3})"), V({"null"}));
}

TEST(IndexKeyGeneratorTest, ArraysGiveOneKeyPerElementAndSetMultikey) {
    bool mk = false;
    EXPECT_EQ(keysOf(R"({"a": 1})", R"({"a": [3, 1, 3]})", false, &mk), V({"1", "3"}));
    EXPECT_TRUE(mk);
    keysOf(R"({"a": 1})", R"({"a": 3})", false, &mk);
    EXPECT_FALSE(mk);
    EXPECT_EQ(keysOf(R"({"a.b": 1})", R"({"a": [{"b": 1}, {"b": 2}, {"c": 3}]})"), V({"null", "1", "2"}));
}

TEST(IndexKeyGeneratorTest, EmptyArrayIsUndefinedAndNestedArrayIsWhole) {
    EXPECT_EQ(keysOf(R"({"a": 1})", R"({"a": []})"), V({"{ \"$undefined\" : true }"}));
    EXPECT_EQ(keysOf(R"({"a.b": 1})", R"({"a": []})"), V({"null"}));
    auto nested = keysOf(R"({"a": 1})", R"({"a": [[1, 2]]})");
    ASSERT_EQ(nested.size(), 1u);
    EXPECT_NE(nested[0].find('['), std::string::npos);
}

TEST(IndexKeyGeneratorTest, CompoundWithOneArray) {
    EXPECT_EQ(keysOf(R"({"a": 1, "b": 1})", R"({"a": [1, 2], "b": 9})"), V({"1,9", "2,9"}));
}

TEST(IndexKeyGeneratorTest, SharedArrayPrefixExpandsTogether) {
    EXPECT_EQ(keysOf(R"({"a.b": 1, "a.c": 1})", R"({"a": [{"b": 1, "c": 2}, {"b": 3, "c": 4}]})"),
              V({"1,2", "3,4"}));
}

TEST(IndexKeyGeneratorTest, ParallelArraysAreRejected) {
    try {
        keysOf(R"({"a": 1, "b": 1})", R"({"a": [1], "b": [2]})");
        FAIL();
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::CannotIndexParallelArrays));
        EXPECT_EQ(e.reason(), "cannot index parallel arrays [b] [a]");
    }
}

TEST(IndexKeyGeneratorTest, SparseSkipsDocumentsWithoutAnyField) {
    EXPECT_TRUE(keysOf(R"({"a": 1})", R"({"b": 1})", true).empty());
    EXPECT_EQ(keysOf(R"({"a": 1, "b": 1})", R"({"b": 1})", true), V({"null,1"}));
    EXPECT_EQ(keysOf(R"({"a": 1})", R"({"a": null})", true), V({"null"}));
}

TEST(IndexKeyGeneratorTest, PositionalComponent) {
    EXPECT_EQ(keysOf(R"({"a.1": 1})", R"({"a": [5, 6]})"), V({"6"}));
    EXPECT_EQ(keysOf(R"({"a.0.b": 1})", R"({"a": [{"b": 1}, {"b": 2}]})"), V({"1"}));
}

// Which path components held arrays, per key field (explain's multiKeyPaths).
MultikeyPaths pathsOf(const char* pattern, const char* doc) {
    IndexKeyGenerator gen(fromjson(pattern), false);
    KeyStringSet keys;
    MultikeyPaths paths;
    gen.getKeys(fromjson(doc), &keys, &paths);
    return paths;
}

TEST(IndexKeyGeneratorTest, MultikeyPathsNameTheArrayComponents) {
    EXPECT_EQ(pathsOf(R"({"a": 1})", R"({"a": 5})"), MultikeyPaths({{}}));
    EXPECT_EQ(pathsOf(R"({"a": 1})", R"({"a": [1, 2]})"), MultikeyPaths({{0}}));
    EXPECT_EQ(pathsOf(R"({"a": 1})", R"({"a": []})"), MultikeyPaths({{0}}));
    EXPECT_EQ(pathsOf(R"({"a.b": 1, "c": 1})", R"({"a": [{"b": 1}, {"b": 2}], "c": 3})"), MultikeyPaths({{0}, {}}));
    EXPECT_EQ(pathsOf(R"({"a.b": 1})", R"({"a": {"b": [1, 2]}})"), MultikeyPaths({{1}}));
    EXPECT_EQ(pathsOf(R"({"a.b": 1})", R"({"a": [{"b": [1, 2]}]})"), MultikeyPaths({{0, 1}}));
    EXPECT_EQ(pathsOf(R"({"a.b": 1, "a.c": 1})", R"({"a": [{"b": 1, "c": 2}]})"), MultikeyPaths({{0}, {0}}));
}

TEST(MultikeyPaths, PersistedFormRoundTripsAndUnknownIsConservative) {
    BSONObj kp = fromjson(R"({"a.b": 1, "c": 1})");
    MultikeyPaths p{{0, 1}, {}};
    BSONObjBuilder b;
    b.appendArray("p", multikeyPathsToBSON(p));
    BSONObj o = b.obj();
    EXPECT_EQ(multikeyPathsFromBSON(o["p"], kp, true), p);
    // Written before path-level tracking: every component of a multikey index may be an array.
    EXPECT_EQ(multikeyPathsFromBSON(BSONElement(), kp, true), MultikeyPaths({{0, 1}, {0}}));
    EXPECT_EQ(multikeyPathsFromBSON(BSONElement(), kp, false), MultikeyPaths({{}, {}}));
    EXPECT_EQ(multikeyPathsForExplain(kp, p).toString(), fromjson(R"({"a.b": ["a", "a.b"], "c": []})").toString());
}

}  // namespace
}  // namespace mongo
