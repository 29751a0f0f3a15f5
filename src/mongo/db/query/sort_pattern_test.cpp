#include "mongo/db/query/sort_pattern.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;
using query_test::statusOf;

// Sorts the documents (JSON) by spec and returns their _id values in order.
std::vector<int> sortedIds(const std::string& spec, const std::vector<std::string>& docs) {
    SortPattern pattern(q(spec));
    std::vector<BSONObj> objs;
    for (const auto& d : docs) objs.push_back(q(d));
    std::stable_sort(objs.begin(), objs.end(), pattern);
    std::vector<int> ids;
    for (const auto& o : objs) ids.push_back(o["_id"].numberInt());
    return ids;
}

std::string keyOf(const std::string& spec, const std::string& doc) {
    return SortPattern(q(spec)).extractKey(q(doc)).jsonString(true);
}

std::string expectedKey(const std::string& json) { return q(json).jsonString(true); }

Status parseError(const std::string& spec) {
    return statusOf([&] { SortPattern p(q(spec)); });
}

const std::vector<std::string> kDocs = {"{_id: 1, a: 3, b: 'x'}", "{_id: 2, a: 1, b: 'y'}",  "{_id: 3, a: 2, b: 'x'}",
                                        "{_id: 4, a: 1, b: 'z'}", "{_id: 5, b: 'w'}",        "{_id: 6, a: 5.5, b: 'x'}",
                                        "{_id: 7, a: {$numberLong: '4'}, b: 'v'}"};

TEST(SortPatternParse, PartsAndDirections) {
    SortPattern p(q("{a: 1, 'b.c': -1, d: 1.0, e: {$numberLong: '-1'}}"));
    ASSERT_EQ(p.parts().size(), 4u);
    EXPECT_EQ(p.parts()[0].path, "a");
    EXPECT_TRUE(p.parts()[0].ascending);
    EXPECT_EQ(p.parts()[1].path, "b.c");
    EXPECT_FALSE(p.parts()[1].ascending);
    EXPECT_TRUE(p.parts()[2].ascending);
    EXPECT_FALSE(p.parts()[3].ascending);
    EXPECT_EQ(p.spec().jsonString(true), q("{a: 1, 'b.c': -1, d: 1.0, e: {$numberLong: '-1'}}").jsonString(true));
}

TEST(SortPatternParse, Errors) {
    Status s = parseError("{a: 'x'}");
    EXPECT_EQ(s.code(), 15974);
    EXPECT_EQ(s.reason(), "Illegal key in $sort specification: a: \"x\"");
    s = parseError("{a: 2}");
    EXPECT_EQ(s.code(), 15975);
    EXPECT_EQ(s.reason(), "$sort key ordering must be 1 (for ascending) or -1 (for descending)");
    EXPECT_EQ(parseError("{a: 0}").code(), 15975);
    EXPECT_EQ(parseError("{a: 1.5}").code(), 15975);
    EXPECT_EQ(parseError("{a: null}").code(), 15974);
    EXPECT_EQ(parseError("{a: {$meta: 'textScore'}}").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError("{a: {$meta: 'nope'}}").code(), 31138);
    EXPECT_EQ(parseError("{a: {b: 1}}").code(), 17312);
    EXPECT_EQ(parseError("{a: {$meta: 'textScore', x: 1}}").code(), int(ErrorCodes::FailedToParse));
    EXPECT_EQ(parseError("{'$a': 1}").code(), 16410);
    EXPECT_EQ(parseError("{'': 1}").code(), 40352);
    EXPECT_EQ(parseError("{'a.': 1}").code(), 40353);
    EXPECT_EQ(parseError("{'a..b': 1}").code(), 15998);
}

TEST(SortPatternCompare, MissingSortsAsNullAndNumbersByValue) {
    EXPECT_EQ(sortedIds("{a: 1, _id: 1}", kDocs), (std::vector<int>{5, 2, 4, 3, 1, 7, 6}));
    EXPECT_EQ(sortedIds("{a: -1, _id: 1}", kDocs), (std::vector<int>{6, 7, 1, 3, 2, 4, 5}));
    EXPECT_EQ(sortedIds("{a: -1, _id: -1}", kDocs), (std::vector<int>{6, 7, 1, 3, 4, 2, 5}));
    EXPECT_EQ(sortedIds("{b: 1, a: -1}", kDocs), (std::vector<int>{7, 5, 6, 1, 3, 2, 4}));
    EXPECT_EQ(sortedIds("{_id: -1}", kDocs), (std::vector<int>{7, 6, 5, 4, 3, 2, 1}));
    SortPattern p(q("{a: 1}"));
    EXPECT_EQ(p.compare(q("{}"), q("{a: null}")), 0);
    EXPECT_LT(p.compare(q("{a: null}"), q("{a: 0}")), 0);
}

TEST(SortPatternCompare, NumbersOfAllTypesByExactValue) {
    // The double 0.1 is 0.1000000000000000055..., above NumberDecimal("0.10"); 2^63 - 1 as a
    // long is below the double 2^63; equal values keep their input order (stable sort).
    std::vector<std::string> d = {"{_id: 1, a: 0.1}", "{_id: 2, a: {$numberDecimal: '0.10'}}",
                                  "{_id: 3, a: {$numberLong: '9223372036854775807'}}", "{_id: 4, a: 9223372036854775808.0}",
                                  "{_id: 5, a: {$numberDecimal: '0.1000000000000000055511151231257827'}}",
                                  "{_id: 6, a: {$numberDecimal: 'NaN'}}", "{_id: 7, a: 1}", "{_id: 8, a: {$numberDecimal: '1.0'}}"};
    EXPECT_EQ(sortedIds("{a: 1}", d), (std::vector<int>{6, 2, 1, 5, 7, 8, 3, 4}));
}

TEST(SortPatternCompare, CrossTypeCanonicalOrder) {
    std::vector<std::string> docs = {
        "{_id: 1, v: 'str'}", "{_id: 2, v: {x: 1}}",     "{_id: 3, v: true}",     "{_id: 4, v: 5}",
        "{_id: 5, v: null}",  "{_id: 6, v: {$minKey: 1}}", "{_id: 7, v: {$maxKey: 1}}",
        "{_id: 8, v: {$oid: '5f0000000000000000000001'}}", "{_id: 9, v: {$date: '2020-01-01T00:00:00Z'}}"};
    EXPECT_EQ(sortedIds("{v: 1}", docs), (std::vector<int>{6, 5, 4, 1, 2, 8, 3, 9, 7}));
}

TEST(SortPatternCompare, ArraysUseMinAscendingAndMaxDescending) {
    std::vector<std::string> docs = {"{_id: 1, v: [1, 10]}", "{_id: 2, v: 5}", "{_id: 3, v: [3, 4]}",
                                     "{_id: 4, v: []}", "{_id: 5, v: null}"};
    EXPECT_EQ(sortedIds("{v: 1, _id: 1}", docs), (std::vector<int>{4, 5, 1, 3, 2}));
    EXPECT_EQ(sortedIds("{v: -1, _id: 1}", docs), (std::vector<int>{1, 2, 3, 5, 4}));
}

TEST(SortPatternCompare, StringsBinaryAndDocumentsFieldByField) {
    std::vector<std::string> s = {"{_id: 1, s: 'b'}", "{_id: 2, s: 'B'}", "{_id: 3, s: 'a'}",
                                  "{_id: 4, s: 'é'}", "{_id: 5, s: 'ab'}", "{_id: 6, s: ''}"};
    EXPECT_EQ(sortedIds("{s: 1}", s), (std::vector<int>{6, 2, 3, 5, 1, 4}));
    std::vector<std::string> d = {"{_id: 1, d: {x: 2}}", "{_id: 2, d: {x: 1, y: 5}}", "{_id: 3, d: {x: 1}}",
                                  "{_id: 4, d: {w: 9}}"};
    EXPECT_EQ(sortedIds("{d: 1}", d), (std::vector<int>{4, 3, 2, 1}));
}

TEST(SortPatternKeys, DottedPathsThroughArrays) {
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: {b: 5}}"), expectedKey("{'': 5}"));
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: [{b: 5}, {b: 2}]}"), expectedKey("{'': 2}"));
    EXPECT_EQ(keyOf("{'a.b': -1}", "{a: [{b: 5}, {b: [2, 9]}]}"), expectedKey("{'': 9}"));
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: [{b: 5}, {c: 1}]}"), expectedKey("{'': null}"));
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: [1, {b: 3}]}"), expectedKey("{'': null}"));
    EXPECT_EQ(keyOf("{'a.b': -1}", "{a: [1, {b: 3}]}"), expectedKey("{'': 3}"));
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: 5}"), expectedKey("{'': null}"));
    EXPECT_EQ(keyOf("{'a.b': 1}", "{a: []}"), expectedKey("{'': null}"));
    EXPECT_EQ(keyOf("{a: 1}", "{a: []}"), expectedKey("{'': {$undefined: true}}"));
    EXPECT_EQ(keyOf("{a: -1}", "{a: [[1, 2], 3]}"), expectedKey("{'': [1, 2]}"));
    EXPECT_EQ(keyOf("{'a.1': 1}", "{a: [7, 8]}"), expectedKey("{'': 8}"));
    EXPECT_EQ(keyOf("{'a.0.b': 1}", "{a: [{b: 4}, {b: 1}]}"), expectedKey("{'': 4}"));
    EXPECT_EQ(keyOf("{'a.1.b': 1}", "{a: [{b: 'a'}, {b: 'd'}]}"), expectedKey("{'': 'd'}"));
    EXPECT_EQ(keyOf("{'a.1.b': 1, c: 1}", "{a: [{b: 'a'}, {b: 'd'}], c: 2}"), expectedKey("{'': 'd', '': 2}"));
    EXPECT_EQ(keyOf("{x: 1}", "{a: 1}"), expectedKey("{'': null}"));
}

TEST(SortPatternKeys, CompoundKeysCorrelateThroughTheSameArray) {
    // Index-key semantics: the key is the smallest (b, c) pair taken from one element.
    EXPECT_EQ(keyOf("{'a.b': 1, 'a.c': 1}", "{a: [{b: 1, c: 3}, {b: 2, c: 0}]}"), expectedKey("{'': 1, '': 3}"));
    EXPECT_EQ(keyOf("{'a.b': 1, 'a.c': -1}", "{a: [{b: 1, c: 0}, {b: 0, c: 3}, {b: 0, c: 1}]}"),
              expectedKey("{'': 0, '': 3}"));
    EXPECT_EQ(keyOf("{a: 1, b: -1}", "{a: [3, 1], b: 7}"), expectedKey("{'': 1, '': 7}"));
    Status s = statusOf([] { SortPattern(q("{a: 1, b: 1}")).extractKey(q("{a: [1, 2], b: [3, 4]}")); });
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason(), "cannot sort with keys that are parallel arrays");
}

TEST(SortPatternKeys, CompareKeysMatchesCompare) {
    SortPattern p(q("{a: 1, b: -1}"));
    BSONObj x = q("{a: [2, 1], b: 'x'}"), y = q("{a: 1, b: 'y'}");
    EXPECT_GT(p.compare(x, y), 0);
    EXPECT_EQ(p.compareKeys(p.extractKey(x), p.extractKey(y)), p.compare(x, y));
    EXPECT_EQ(p.compareKeys(p.extractKey(y), p.extractKey(y)), 0);
    EXPECT_TRUE(p(y, x));
    EXPECT_FALSE(p(x, y));
}

TEST(SortPatternEmpty, EverythingEqual) {
    SortPattern p(q("{}"));
    EXPECT_TRUE(p.parts().empty());
    EXPECT_EQ(p.compare(q("{a: 1}"), q("{a: 2}")), 0);
    EXPECT_TRUE(p.extractKey(q("{a: 1}")).isEmpty());
}

}  // namespace
}  // namespace mongo
