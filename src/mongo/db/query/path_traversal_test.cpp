// walkPath in its three modes (matching, distinct, keys): the values each yields for the same
// documents, which is where MongoDB's commands differ.
#include "mongo/db/query/path_traversal.h"

#include <gtest/gtest.h>

#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;

// The values walkPath yields, as an extended JSON array; missing (EOO) shows as "MISSING", and
// each value is followed by "@<offset>" when it came through an implicit array traversal.
std::string walk(const std::string& doc, const std::string& path, const PathWalkOptions& o, bool offsets = false) {
    BSONObj d = q(doc);
    std::string out = "[";
    walkPath(d, DottedPath(path), o, [&](const BSONElement& v, const char* offset) {
        if (out.size() > 1) out += ", ";
        out += v.eoo() ? "MISSING" : v.toString(false);
        if (offsets && offset) out += std::string("@") + offset;
        return false;
    });
    return out + "]";
}

std::string distinct(const std::string& doc, const std::string& path) {
    return walk(doc, path, PathWalkOptions::forDistinct());
}
std::string keys(const std::string& doc, const std::string& path) {
    return walk(doc, path, PathWalkOptions::forKeys());
}
std::string match(const std::string& doc, const std::string& path, bool expand = true) {
    return walk(doc, path, PathWalkOptions::forMatching(expand));
}

TEST(DottedPath, SplitsAndKnowsTheRest) {
    DottedPath p("a.12.b");
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(p.part(1), "12");
    EXPECT_TRUE(p.isNumeric(1));
    EXPECT_FALSE(p.isNumeric(2));
    EXPECT_EQ(p.rest(0), "a.12.b");
    EXPECT_EQ(p.rest(1), "12.b");
    EXPECT_EQ(p.rest(2), "b");
    EXPECT_FALSE(isAllDigits(""));
    EXPECT_FALSE(isAllDigits("1a"));
}

TEST(WalkPathDistinct, PositionalComponentsIndexArrays) {
    // The reported bug: MongoDB returns "d".
    EXPECT_EQ(distinct("{a: [{b: 'a'}, {b: 'd'}]}", "a.1.b"), "[\"d\"]");
    EXPECT_EQ(distinct("{a: [{b: 'a'}, {b: 'd'}]}", "a.0.b"), "[\"a\"]");
    EXPECT_EQ(distinct("{a: [{b: 'a'}, {b: 'd'}]}", "a.2.b"), "[]");
    EXPECT_EQ(distinct("{a: [7, 8]}", "a.1"), "[8]");
    // An index only indexes: it is not a field name of the subdocuments.
    EXPECT_EQ(distinct("{a: [{'1': {b: 5}}]}", "a.1.b"), "[]");
    // The indexed element is walked further like any value: an array at the end is expanded.
    EXPECT_EQ(distinct("{a: [[1, 2], [3]]}", "a.0"), "[1, 2]");
    EXPECT_EQ(distinct("{a: [[1, 2], [3]]}", "a.1.0"), "[3]");
    EXPECT_EQ(distinct("{a: [{b: [{c: 1}, {c: 2}]}]}", "a.0.b.c"), "[1, 2]");
    EXPECT_EQ(distinct("{a: {'1': {b: 4}}}", "a.1.b"), "[4]");  // a document: a plain field name
}

TEST(WalkPathDistinct, ArraysAndMissingValues) {
    EXPECT_EQ(distinct("{a: [{b: 1}, {b: [2, 3]}, {c: 4}, 5, [{b: 6}]]}", "a.b"), "[1, 2, 3]");
    EXPECT_EQ(distinct("{a: [1, [2, 3]]}", "a"), "[1, [ 2, 3 ]]");
    EXPECT_EQ(distinct("{a: []}", "a"), "[]");
    EXPECT_EQ(distinct("{a: 5}", "a.b"), "[]");
    EXPECT_EQ(distinct("{b: 1}", "a"), "[]");
    EXPECT_EQ(distinct("{a: null}", "a"), "[null]");
    // MongoDB's distinct first looks the remaining path up as one (dotted) field name.
    EXPECT_EQ(distinct("{'a.b': 1, a: {b: 2}}", "a.b"), "[1]");
    EXPECT_EQ(distinct("{x: {'a.b': [1, 2]}}", "x.a.b"), "[1, 2]");
}

TEST(WalkPathKeys, NullAndUndefinedWhereThePathFindsNothing) {
    EXPECT_EQ(keys("{a: {b: 5}}", "a.b"), "[5]");
    EXPECT_EQ(keys("{a: [{b: 5}, {c: 1}, 3]}", "a.b"), "[5, null, null]");
    EXPECT_EQ(keys("{a: 5}", "a.b"), "[null]");
    EXPECT_EQ(keys("{x: 1}", "a"), "[null]");
    EXPECT_EQ(keys("{a: []}", "a.b"), "[null]");
    EXPECT_EQ(keys("{a: []}", "a"), "[{ \"$undefined\" : true }]");
    EXPECT_EQ(keys("{a: [[]]}", "a"), "[[  ]]");  // an empty array element is a value, not "empty"
    EXPECT_EQ(keys("{a: [7, 8]}", "a.1"), "[8]");
    EXPECT_EQ(keys("{a: [7, 8]}", "a.5"), "[null]");
    EXPECT_EQ(keys("{a: [{b: 4}, {b: 1}]}", "a.0.b"), "[4]");
    EXPECT_EQ(keys("{a: [[1, 2]]}", "a.0"), "[1, 2]");
    EXPECT_EQ(keys("{'a.b': 1}", "a.b"), "[null]");  // no literal dotted names for keys
}

TEST(WalkPathMatching, NumericComponentsIndexAndNameFields) {
    EXPECT_EQ(match("{a: [{b: 1}, {b: 2}]}", "a.b"), "[1, 2]");
    EXPECT_EQ(match("{a: [{b: 'a'}, {b: 'd'}]}", "a.1.b"), "[MISSING, MISSING, \"d\"]");
    EXPECT_EQ(match("{a: [{'1': {b: 5}}, {b: 6}]}", "a.1.b"), "[5, MISSING, 6]");
    EXPECT_EQ(match("{a: [[1, 2], [3]]}", "a.1"), "[[ 3 ]]");  // the indexed element, not expanded
    EXPECT_EQ(match("{a: [5]}", "a.0.b"), "[]");
    EXPECT_EQ(match("{a: [1, {c: 1}]}", "a.b"), "[MISSING]");
    EXPECT_EQ(match("{a: []}", "a.b"), "[]");
    EXPECT_EQ(match("{a: 5}", "a.b"), "[MISSING]");
}

TEST(WalkPathMatching, TrailingArraysAndOffsets) {
    EXPECT_EQ(match("{a: [1, 2]}", "a"), "[1, 2, [ 1, 2 ]]");
    EXPECT_EQ(match("{a: [1, 2]}", "a", false), "[[ 1, 2 ]]");
    EXPECT_EQ(walk("{a: [{b: [5, 6]}, {b: 7}]}", "a.b", PathWalkOptions::forMatching(true), true),
              "[5@0, 6@0, [ 5, 6 ]@0, 7@1]");
    // An explicit index records no offset of its own.
    EXPECT_EQ(walk("{a: [[1, 2]]}", "a.0", PathWalkOptions::forMatching(true), true), "[[ 1, 2 ]]");
}

TEST(WalkPath, VisitorCanStopTheWalk) {
    BSONObj d = q("{a: [1, 2, 3]}");
    int seen = 0;
    bool stopped = walkPath(d, DottedPath("a"), PathWalkOptions::forDistinct(), [&](const BSONElement&, const char*) {
        return ++seen == 2;
    });
    EXPECT_TRUE(stopped);
    EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace mongo
