#include "mongo/db/query/matcher.h"

#include <gtest/gtest.h>

#include <set>

#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;
using query_test::statusOf;

bool m(const std::string& filter, const std::string& doc) {
    return Matcher(q(filter)).matches(q(doc));
}

Status parseError(const std::string& filter) {
    return statusOf([&] { Matcher matcher(q(filter)); });
}

// The index "a.$" would use, or "none".
std::string key(const std::string& filter, const std::string& doc) {
    MatchDetails d;
    d.requestElemMatchKey = true;
    if (!Matcher(q(filter)).matches(q(doc), &d)) return "nomatch";
    return d.hasElemMatchKey ? d.elemMatchKey : "none";
}

TEST(MatcherEquality, EmptyFilterMatchesEverything) {
    Matcher matcher(q("{}"));
    EXPECT_TRUE(matcher.matchesEverything());
    EXPECT_TRUE(matcher.matches(q("{a: 1}")));
    EXPECT_TRUE(Matcher(q(R"({"%comment": "hi"})")).matchesEverything());
    EXPECT_FALSE(Matcher(q("{a: 1}")).matchesEverything());
}

TEST(MatcherEquality, ImplicitAndExplicitEq) {
    EXPECT_TRUE(m("{a: 1}", "{a: 1}"));
    EXPECT_TRUE(m("{a: 1}", "{a: 1.0}"));
    EXPECT_TRUE(m(R"({"a": {"$numberLong": "1"}})", "{a: 1}"));
    EXPECT_FALSE(m("{a: 1}", "{a: 2}"));
    EXPECT_FALSE(m("{a: 1}", "{a: '1'}"));
    EXPECT_TRUE(m("{a: {$eq: 'x'}}", "{a: 'x'}"));
    EXPECT_TRUE(m("{a: 1, b: 2}", "{b: 2, a: 1}"));
    EXPECT_FALSE(m("{a: 1, b: 2}", "{a: 1, b: 3}"));
}

TEST(MatcherEquality, EmbeddedDocumentComparesWholeAndOrdered) {
    EXPECT_TRUE(m("{a: {b: 1, c: 2}}", "{a: {b: 1, c: 2}}"));
    EXPECT_FALSE(m("{a: {b: 1, c: 2}}", "{a: {c: 2, b: 1}}"));
    EXPECT_FALSE(m("{a: {b: 1}}", "{a: {b: 1, c: 2}}"));
    // $eq compares an operator-looking document literally.
    EXPECT_TRUE(Matcher(q(R"({"a": {"$eq": {"%gt": 1}}})")).matches(q(R"({"a": {"%gt": 1}})")));
    EXPECT_FALSE(Matcher(q(R"({"a": {"$eq": {"%gt": 1}}})")).matches(q("{a: 5}")));
}

TEST(MatcherEquality, ArraysMatchElementsAndWhole) {
    EXPECT_TRUE(m("{a: 2}", "{a: [1, 2, 3]}"));
    EXPECT_TRUE(m("{a: [1, 2]}", "{a: [1, 2]}"));
    EXPECT_FALSE(m("{a: [1, 2]}", "{a: [2, 1]}"));
    EXPECT_TRUE(m("{a: [1, 2]}", "{a: [[1, 2], 3]}"));
    EXPECT_FALSE(m("{a: 1}", "{a: [[1, 2]]}"));  // no double traversal at the leaf
    EXPECT_TRUE(m("{a: []}", "{a: []}"));
    EXPECT_TRUE(m("{a: []}", "{a: [[]]}"));
}

TEST(MatcherEquality, NullMatchesMissingNullAndUndefined) {
    EXPECT_TRUE(m("{a: null}", "{}"));
    EXPECT_TRUE(m("{a: null}", "{a: null}"));
    EXPECT_TRUE(m("{a: null}", R"({"a": {"$undefined": true}})"));
    EXPECT_FALSE(m("{a: null}", "{a: 0}"));
    EXPECT_TRUE(m("{a: null}", "{a: [1, null]}"));
    EXPECT_TRUE(m("{'a.b': null}", "{a: {}}"));
    EXPECT_TRUE(m("{'a.b': null}", "{a: 5}"));
    EXPECT_TRUE(m("{'a.b': null}", "{a: [{b: 1}, {c: 1}]}"));
    EXPECT_FALSE(m("{'a.b': null}", "{a: [{b: 1}, {b: 2}]}"));
    // No candidate at all: an array of scalars yields nothing for "a.b".
    EXPECT_FALSE(m("{'a.b': null}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{a: {$ne: null}}", "{a: 1}"));
    EXPECT_FALSE(m("{a: {$ne: null}}", "{}"));
}

// MongoDB's null semantics over a spread of shapes (after jstests/core/null_query_semantics.js).
std::vector<std::string> nullShapes() {
    return {"{_id: 'a_empty_subobject', a: {}}",
            "{_id: 'a_null', a: null}",
            "{_id: 'a_number', a: 4}",
            "{_id: 'a_subobject_b_not_null', a: {b: 'hi'}}",
            "{_id: 'a_subobject_b_null', a: {b: null}}",
            "{_id: 'a_subobject_b_undefined', a: {b: {$undefined: true}}}",
            "{_id: 'a_undefined', a: {$undefined: true}}",
            "{_id: 'no_a'}",
            "{_id: 'a_double_array', a: [[]]}",
            "{_id: 'a_empty_array', a: []}",
            "{_id: 'a_object_array_all_b_nulls', a: [{b: null}, {b: {$undefined: true}}, {b: null}, {}]}",
            "{_id: 'a_object_array_no_b_nulls', a: [{b: 1}, {b: 3}, {b: 'string'}]}",
            "{_id: 'a_object_array_some_b_nulls', a: [{b: null}, {b: 3}, {b: null}]}",
            "{_id: 'a_object_array_some_b_undefined', a: [{b: {$undefined: true}}, {b: 3}]}",
            "{_id: 'a_object_array_some_b_missing', a: [{b: 3}, {}]}",
            "{_id: 'a_value_array_all_nulls', a: [null, null]}",
            "{_id: 'a_value_array_no_nulls', a: [1, 'string', 4]}",
            "{_id: 'a_value_array_with_null', a: [1, 'string', null, 4]}",
            "{_id: 'a_value_array_with_undefined', a: [1, 'string', {$undefined: true}, 4]}"};
}

std::set<std::string> matchingIds(const std::string& filter) {
    Matcher matcher(q(filter));
    std::set<std::string> ids;
    for (const auto& d : nullShapes()) {
        BSONObj doc = q(d);
        if (matcher.matches(doc)) ids.insert(doc["_id"].str());
    }
    return ids;
}

TEST(MatcherNullSemantics, TopLevel) {
    EXPECT_EQ(matchingIds("{a: {$eq: null}}"),
              (std::set<std::string>{"a_null", "a_undefined", "no_a", "a_value_array_all_nulls",
                                     "a_value_array_with_null", "a_value_array_with_undefined"}));
    EXPECT_EQ(matchingIds("{a: {$ne: null}}").size(), 13u);
    EXPECT_EQ(matchingIds("{a: {$not: {$gte: null}}}"), matchingIds("{a: {$ne: null}}"));
    EXPECT_EQ(matchingIds("{a: {$in: [null, 75]}}"), matchingIds("{a: {$eq: null}}"));
    EXPECT_EQ(matchingIds("{a: {$elemMatch: {$eq: null}}}"),
              (std::set<std::string>{"a_value_array_all_nulls", "a_value_array_with_null",
                                     "a_value_array_with_undefined"}));
    EXPECT_EQ(matchingIds("{a: {$exists: false}}"), (std::set<std::string>{"no_a"}));
}

TEST(MatcherNullSemantics, Dotted) {
    EXPECT_EQ(matchingIds("{'a.b': {$eq: null}}"),
              (std::set<std::string>{"a_empty_subobject", "a_null", "a_number", "a_subobject_b_null",
                                     "a_subobject_b_undefined", "a_undefined", "no_a", "a_object_array_all_b_nulls",
                                     "a_object_array_some_b_nulls", "a_object_array_some_b_undefined",
                                     "a_object_array_some_b_missing"}));
    EXPECT_EQ(matchingIds("{'a.b': {$ne: null}}"),
              (std::set<std::string>{"a_subobject_b_not_null", "a_double_array", "a_empty_array",
                                     "a_object_array_no_b_nulls", "a_value_array_all_nulls", "a_value_array_no_nulls",
                                     "a_value_array_with_null", "a_value_array_with_undefined"}));
    EXPECT_EQ(matchingIds("{'a.b': {$in: [null, 75]}}"), matchingIds("{'a.b': {$eq: null}}"));
    EXPECT_EQ(matchingIds("{'a.b': {$exists: false}}"),
              (std::set<std::string>{"no_a", "a_empty_subobject", "a_null", "a_number", "a_undefined",
                                     "a_double_array", "a_empty_array", "a_value_array_all_nulls",
                                     "a_value_array_no_nulls", "a_value_array_with_null",
                                     "a_value_array_with_undefined"}));
    EXPECT_TRUE(matchingIds("{'a.b': {$elemMatch: {$eq: null}}}").empty());
    EXPECT_EQ(matchingIds("{a: {$elemMatch: {b: {$eq: null}}}}"),
              (std::set<std::string>{"a_double_array", "a_object_array_all_b_nulls", "a_object_array_some_b_nulls",
                                     "a_object_array_some_b_undefined", "a_object_array_some_b_missing"}));
    EXPECT_EQ(matchingIds("{a: {$elemMatch: {b: {$ne: null}}}}"),
              (std::set<std::string>{"a_object_array_no_b_nulls", "a_object_array_some_b_nulls",
                                     "a_object_array_some_b_undefined", "a_object_array_some_b_missing"}));
}

TEST(MatcherComparison, TypeBracketing) {
    EXPECT_TRUE(m("{a: {$gt: 5}}", "{a: 6}"));
    EXPECT_TRUE(m("{a: {$gt: 5}}", "{a: 5.5}"));
    EXPECT_FALSE(m("{a: {$gt: 5}}", "{a: 'x'}"));
    EXPECT_FALSE(m("{a: {$gt: 5}}", "{a: {b: 1}}"));
    EXPECT_FALSE(m("{a: {$lt: 'b'}}", "{a: 1}"));
    EXPECT_TRUE(m("{a: {$lt: 'b'}}", "{a: 'a'}"));
    EXPECT_TRUE(m("{a: {$gte: 5, $lte: 5}}", "{a: 5}"));
    EXPECT_FALSE(m("{a: {$lt: 5}}", "{}"));
    EXPECT_FALSE(m("{a: {$gt: null}}", "{a: 1}"));
    EXPECT_TRUE(m("{a: {$gte: null}}", "{}"));
    EXPECT_TRUE(m("{a: {$lte: null}}", "{a: null}"));
    EXPECT_FALSE(m("{a: {$lt: null}}", "{a: null}"));
}

TEST(MatcherComparison, ArraysAnyElementSatisfies) {
    EXPECT_TRUE(m("{a: {$gt: 5}}", "{a: [1, 10]}"));
    EXPECT_FALSE(m("{a: {$gt: 50}}", "{a: [1, 10]}"));
    EXPECT_TRUE(m("{a: {$gt: 5, $lt: 3}}", "{a: [1, 10]}"));  // different elements may satisfy each
    EXPECT_TRUE(m("{a: {$gt: [1]}}", "{a: [2]}"));            // whole array against array
}

TEST(MatcherComparison, MinKeyMaxKey) {
    EXPECT_TRUE(m(R"({"a": {"$lt": {"$maxKey": 1}}})", "{a: 'x'}"));
    EXPECT_TRUE(m(R"({"a": {"$lt": {"$maxKey": 1}}})", "{a: null}"));
    EXPECT_FALSE(m(R"({"a": {"$lt": {"$maxKey": 1}}})", R"({"a": {"$maxKey": 1}})"));
    EXPECT_TRUE(m(R"({"a": {"$lte": {"$maxKey": 1}}})", R"({"a": {"$maxKey": 1}})"));
    EXPECT_TRUE(m(R"({"a": {"$gt": {"$minKey": 1}}})", "{a: 5}"));
    EXPECT_FALSE(m(R"({"a": {"$eq": {"$minKey": 1}}})", "{a: 5}"));
    EXPECT_TRUE(m(R"({"a": {"$minKey": 1}})", R"({"a": {"$minKey": 1}})"));
}

TEST(MatcherComparison, NaN) {
    EXPECT_TRUE(m(R"({"a": {"$numberDouble": "NaN"}})", R"({"a": {"$numberDouble": "NaN"}})"));
    EXPECT_FALSE(m(R"({"a": {"$lt": {"$numberDouble": "NaN"}}})", "{a: 1}"));
    EXPECT_FALSE(m(R"({"a": {"$gt": 0}})", R"({"a": {"$numberDouble": "NaN"}})"));
    EXPECT_TRUE(m(R"({"a": {"$gte": {"$numberDouble": "NaN"}}})", R"({"a": {"$numberDouble": "NaN"}})"));
}

TEST(MatcherComparison, DatesAndObjectIds) {
    EXPECT_TRUE(m(R"({"d": {"$gt": {"$date": "2020-01-01T00:00:00Z"}}})", R"({"d": {"$date": "2021-01-01T00:00:00Z"}})"));
    EXPECT_FALSE(m(R"({"d": {"$gt": {"$date": "2020-01-01T00:00:00Z"}}})", "{d: 5}"));
    EXPECT_TRUE(m(R"({"_id": {"$oid": "5f0000000000000000000001"}})", R"({"_id": {"$oid": "5f0000000000000000000001"}})"));
}

TEST(MatcherComparison, RejectsUndefinedAndRegexOperands) {
    EXPECT_EQ(parseError(R"({"a": {"$lt": {"$undefined": true}}})").code(), int(ErrorCodes::BadValue));
    Status s = parseError(R"({"a": {"$gt": {"$regularExpression": {"pattern": "x", "options": ""}}}})");
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason(), "Can't have RegEx as arg to predicate over field 'a'.");
    EXPECT_EQ(parseError(R"({"a": {"$ne": {"$regularExpression": {"pattern": "x", "options": ""}}}})").reason(),
              "Can't have regex as arg to $ne.");
}

TEST(MatcherPaths, DottedPathsThroughDocumentsAndArrays) {
    EXPECT_TRUE(m("{'a.b': 1}", "{a: {b: 1}}"));
    EXPECT_TRUE(m("{'a.b': 1}", "{a: [{b: 2}, {b: 1}]}"));
    EXPECT_TRUE(m("{'a.b.c': 1}", "{a: [{b: [{c: 1}]}]}"));
    EXPECT_TRUE(m("{'a.b': 1}", "{a: [{b: [0, 1]}]}"));
    EXPECT_FALSE(m("{'a.b': 1}", "{a: [[{b: 1}]]}"));  // nested arrays are not traversed implicitly
    EXPECT_FALSE(m("{'a.b': 1}", "{a: 1}"));
}

TEST(MatcherPaths, NumericComponentsIndexArrays) {
    EXPECT_TRUE(m("{'a.0': 1}", "{a: [1, 2]}"));
    EXPECT_FALSE(m("{'a.1': 1}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{'a.0.b': 1}", "{a: [{b: 1}, {b: 2}]}"));
    EXPECT_FALSE(m("{'a.1.b': 1}", "{a: [{b: 1}, {b: 2}]}"));
    EXPECT_TRUE(m("{'a.0': 1}", "{a: {'0': 1}}"));
    EXPECT_TRUE(m("{'a.0.0': 3}", "{a: [[3, 4]]}"));
    // The numeric component is also a field name of the documents in the array.
    EXPECT_TRUE(m("{'a.0': 5}", "{a: [{'0': 5}]}"));
    EXPECT_TRUE(m("{'a.0': {$exists: true}}", "{a: [7]}"));
    EXPECT_FALSE(m("{'a.5': {$exists: true}}", "{a: [7]}"));
}

TEST(MatcherLogical, AndOrNor) {
    EXPECT_TRUE(m("{$and: [{a: 1}, {b: 2}]}", "{a: 1, b: 2}"));
    EXPECT_FALSE(m("{$and: [{a: 1}, {b: 2}]}", "{a: 1, b: 3}"));
    EXPECT_TRUE(m("{$or: [{a: 1}, {b: 2}]}", "{a: 0, b: 2}"));
    EXPECT_FALSE(m("{$or: [{a: 1}, {b: 2}]}", "{a: 0, b: 0}"));
    EXPECT_TRUE(m("{$nor: [{a: 1}, {b: 2}]}", "{a: 0, b: 0}"));
    EXPECT_FALSE(m("{$nor: [{a: 1}, {b: 2}]}", "{a: 1}"));
    EXPECT_TRUE(m("{$or: [{$and: [{a: 1}, {b: 1}]}, {c: 1}]}", "{c: 1}"));
}

TEST(MatcherLogical, TreeErrors) {
    EXPECT_EQ(parseError("{$and: {}}").reason(), "$and must be an array");
    EXPECT_EQ(parseError("{$or: 1}").reason(), "$or must be an array");
    EXPECT_EQ(parseError("{$and: []}").reason(), "$and/$or/$nor must be a nonempty array");
    Status s = parseError("{$or: [1]}");
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason(), "$or/$and/$nor entries need to be full objects");
}

TEST(MatcherLogical, Not) {
    EXPECT_TRUE(m("{a: {$not: {$gt: 5}}}", "{a: 3}"));
    EXPECT_FALSE(m("{a: {$not: {$gt: 5}}}", "{a: 6}"));
    EXPECT_TRUE(m("{a: {$not: {$gt: 5}}}", "{}"));
    EXPECT_TRUE(m("{a: {$not: {$gt: 5}}}", "{a: 'x'}"));
    EXPECT_FALSE(m("{a: {$not: {$gt: 5}}}", "{a: [1, 7]}"));
    EXPECT_TRUE(m("{a: {$not: /^x/}}", "{a: 'yx'}"));
    EXPECT_FALSE(m("{a: {$not: /^x/}}", "{a: 'xy'}"));
    EXPECT_TRUE(m(R"({"a": {"$not": {"%regex": "^x"}}})", "{a: 'yx'}"));
    EXPECT_EQ(parseError("{a: {$not: 5}}").reason(), "$not needs a regex or a document");
    EXPECT_EQ(parseError("{a: {$not: {}}}").reason(), "$not cannot be empty");
    EXPECT_EQ(parseError("{a: {$not: {b: 1}}}").reason(), "unknown operator: b");
    EXPECT_EQ(parseError("{$not: {a: 1}}").reason(),
              "unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.");
}

TEST(MatcherLogical, NeAndNinNegateTheWholePath) {
    EXPECT_FALSE(m("{a: {$ne: 1}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{a: {$ne: 1}}", "{a: [2, 3]}"));
    EXPECT_TRUE(m("{a: {$ne: 1}}", "{}"));
    EXPECT_TRUE(m("{a: {$nin: [1, 2]}}", "{a: 3}"));
    EXPECT_FALSE(m("{a: {$nin: [1, 2]}}", "{a: [3, 2]}"));
    EXPECT_TRUE(m("{a: {$nin: [1, 2]}}", "{}"));
    EXPECT_FALSE(m("{a: {$nin: [null]}}", "{}"));
    EXPECT_EQ(parseError("{a: {$nin: 1}}").reason(), "$nin needs an array");
}

TEST(MatcherIn, ValuesRegexesAndNull) {
    EXPECT_TRUE(m("{a: {$in: [1, 2]}}", "{a: 2}"));
    EXPECT_TRUE(m("{a: {$in: [1, 2]}}", "{a: 2.0}"));
    EXPECT_FALSE(m("{a: {$in: [1, 2]}}", "{a: 3}"));
    EXPECT_TRUE(m("{a: {$in: [1, 2]}}", "{a: [5, 1]}"));
    EXPECT_FALSE(m("{a: {$in: []}}", "{a: 1}"));
    EXPECT_TRUE(m("{a: {$in: [null]}}", "{}"));
    EXPECT_TRUE(m("{a: {$in: [/^ab/, 5]}}", "{a: 'abc'}"));
    EXPECT_FALSE(m("{a: {$in: [/^ab/, 5]}}", "{a: 'xabc'}"));
    EXPECT_TRUE(m("{a: {$in: [[1, 2]]}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{a: {$in: [{b: 1}]}}", "{a: {b: 1}}"));
    EXPECT_TRUE(m("{a: {$in: ['x', 1, {c: 1}, null, true]}}", "{a: true}"));
    EXPECT_EQ(parseError("{a: {$in: 1}}").reason(), "$in needs an array");
    EXPECT_EQ(parseError("{a: {$in: [{$gt: 1}]}}").reason(), "cannot nest $ under $in");
}

TEST(MatcherExists, TrueAndFalse) {
    EXPECT_TRUE(m("{a: {$exists: true}}", "{a: null}"));
    EXPECT_FALSE(m("{a: {$exists: true}}", "{b: 1}"));
    EXPECT_TRUE(m("{a: {$exists: false}}", "{b: 1}"));
    EXPECT_TRUE(m("{a: {$exists: 1}}", "{a: 0}"));
    EXPECT_TRUE(m("{a: {$exists: 0}}", "{}"));
    EXPECT_TRUE(m("{'a.b': {$exists: true}}", "{a: [{c: 1}, {b: 2}]}"));
    EXPECT_FALSE(m("{'a.b': {$exists: true}}", "{a: [{c: 1}]}"));
    EXPECT_TRUE(m("{'a.b': {$exists: false}}", "{a: [1, 2]}"));
}

TEST(MatcherType, CodesAliasesNumberAndArrays) {
    EXPECT_TRUE(m(R"({"a": {"%type": 2}})", "{a: 'x'}"));
    EXPECT_TRUE(m(R"({"a": {"%type": "string"}})", "{a: 'x'}"));
    EXPECT_FALSE(m(R"({"a": {"%type": "string"}})", "{a: 1}"));
    EXPECT_TRUE(m(R"({"a": {"%type": "number"}})", R"({"a": {"$numberLong": "5"}})"));
    EXPECT_TRUE(m(R"({"a": {"%type": "double"}})", "{a: 1.5}"));
    EXPECT_FALSE(m(R"({"a": {"%type": "int"}})", "{a: 1.5}"));
    EXPECT_TRUE(m(R"({"a": {"%type": ["bool", "null"]}})", "{a: null}"));
    EXPECT_TRUE(m(R"({"a": {"%type": "array"}})", "{a: []}"));
    EXPECT_TRUE(m(R"({"a": {"%type": "string"}})", "{a: [1, 'x']}"));
    EXPECT_TRUE(m(R"({"a": {"%type": "object"}})", "{a: {}}"));
    EXPECT_FALSE(m(R"({"a": {"%type": "null"}})", "{}"));
    EXPECT_TRUE(m(R"({"a": {"%type": -1}})", R"({"a": {"$minKey": 1}})"));
    EXPECT_TRUE(m(R"({"a": {"%type": 127}})", R"({"a": {"$maxKey": 1}})"));
    EXPECT_TRUE(m(R"({"a": {"%type": 2.0}})", "{a: 'x'}"));
}

TEST(MatcherType, Errors) {
    EXPECT_EQ(parseError(R"({"a": {"%type": "foo"}})").reason(), "Unknown type name alias: foo");
    EXPECT_EQ(parseError(R"({"a": {"%type": 100}})").reason(), "Invalid numerical type code: 100");
    EXPECT_EQ(parseError(R"({"a": {"%type": 0}})").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError(R"({"a": {"%type": 1.5}})").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError(R"({"a": {"%type": {}}})").code(), int(ErrorCodes::TypeMismatch));
    Status s = parseError(R"({"a": {"%type": []}})");
    EXPECT_EQ(s.code(), int(ErrorCodes::FailedToParse));
    EXPECT_EQ(s.reason(), "a must match at least one type");
}

TEST(MatcherRegex, PatternsAndOptions) {
    EXPECT_TRUE(m("{a: /b/}", "{a: 'abc'}"));
    EXPECT_FALSE(m("{a: /^b/}", "{a: 'abc'}"));
    EXPECT_TRUE(m("{a: /^A/i}", "{a: 'abc'}"));
    EXPECT_TRUE(m(R"({"a": {"%regex": "^A", "%options": "i"}})", "{a: 'abc'}"));
    EXPECT_TRUE(m(R"({"a": {"%options": "i", "%regex": "^A"}})", "{a: 'abc'}"));
    EXPECT_TRUE(m(R"({"a": {"%regex": {"$regularExpression": {"pattern": "^A", "options": "i"}}}})", "{a: 'abc'}"));
    EXPECT_TRUE(m(R"({"a": {"%regex": "^b", "%options": "m"}})", "{a: 'a\nb'}"));
    EXPECT_FALSE(m(R"({"a": {"%regex": "^b"}})", "{a: 'a\nb'}"));
    EXPECT_TRUE(m(R"({"a": {"%regex": "a.b", "%options": "s"}})", "{a: 'a\nb'}"));
    EXPECT_TRUE(m(R"({"a": {"%regex": "a b # comment", "%options": "x"}})", "{a: 'ab'}"));
    EXPECT_TRUE(m("{a: /é/}", "{a: 'café'}"));
    EXPECT_FALSE(m("{a: /b/}", "{a: 1}"));
    EXPECT_TRUE(m("{a: /b/}", "{a: ['x', 'abc']}"));
    EXPECT_TRUE(m("{'a.b': /^x/}", "{a: [{b: 'xy'}]}"));
}

TEST(MatcherRegex, StoredRegexValues) {
    // A regex stored in the document matches a regex query only if identical, and $eq compares.
    EXPECT_TRUE(m("{a: /x/i}", "{a: /x/i}"));
    EXPECT_FALSE(m("{a: /x/i}", "{a: /x/}"));
    EXPECT_TRUE(m("{a: {$eq: /x/}}", "{a: /x/}"));
    EXPECT_FALSE(m("{a: {$eq: /x/}}", "{a: 'x'}"));
}

TEST(MatcherRegex, Errors) {
    EXPECT_EQ(parseError(R"({"a": {"%regex": "x", "%options": "z"}})").code(), 51108);
    EXPECT_EQ(parseError(R"({"a": {"%regex": "x", "%options": "z"}})").reason(), " invalid flag in regex options: z");
    BSONObjBuilder badIn;
    BSONObjBuilder& a = badIn.subobjStart("a");
    BSONArrayBuilder& in = a.subarrayStart("$in");
    in.bb().appendRegex("0", "x", "q");
    in.doneFast();
    a.doneFast();
    BSONObj badInFilter = badIn.obj();
    EXPECT_EQ(statusOf([&] { Matcher matcher(badInFilter); }).code(), 51108);
    EXPECT_EQ(parseError(R"({"a": {"%regex": "("}})").code(), 51091);
    EXPECT_EQ(parseError(R"({"a": {"%regex": 5}})").reason(), "$regex has to be a string");
    EXPECT_EQ(parseError(R"({"a": {"%options": "i"}})").reason(), "$options needs a $regex");
    EXPECT_EQ(parseError(R"({"a": {"%options": 5, "%regex": "x"}})").reason(), "$options has to be a string");
    EXPECT_EQ(parseError(R"({"a": {"%regex": {"$regularExpression": {"pattern": "x", "options": "i"}}, "%options": "m"}})")
                  .code(),
              51075);
    EXPECT_EQ(parseError(R"({"a": {"%options": "m", "%regex": {"$regularExpression": {"pattern": "x", "options": "i"}}}})")
                  .code(),
              51074);
}

TEST(MatcherElemMatch, ObjectForm) {
    EXPECT_TRUE(m("{a: {$elemMatch: {b: 1, c: 2}}}", "{a: [{b: 1, c: 1}, {b: 1, c: 2}]}"));
    EXPECT_FALSE(m("{a: {$elemMatch: {b: 1, c: 2}}}", "{a: [{b: 1, c: 1}, {b: 2, c: 2}]}"));
    EXPECT_TRUE(m("{'a.b': 1, 'a.c': 2}", "{a: [{b: 1, c: 1}, {b: 2, c: 2}]}"));  // contrast
    EXPECT_FALSE(m("{a: {$elemMatch: {b: 1}}}", "{a: {b: 1}}"));                  // not an array
    EXPECT_TRUE(m("{a: {$elemMatch: {$or: [{b: 1}, {c: 1}]}}}", "{a: [{c: 1}]}"));
    EXPECT_TRUE(m("{a: {$elemMatch: {'0': 1}}}", "{a: [[1, 2]]}"));  // arrays are documents here
    EXPECT_FALSE(m("{a: {$elemMatch: {b: 1}}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{'x.a': {$elemMatch: {b: 1}}}", "{x: [{a: [{b: 1}]}]}"));
}

TEST(MatcherElemMatch, ValueForm) {
    EXPECT_TRUE(m("{a: {$elemMatch: {$gt: 1, $lt: 3}}}", "{a: [0, 2, 4]}"));
    EXPECT_FALSE(m("{a: {$elemMatch: {$gt: 1, $lt: 3}}}", "{a: [0, 4]}"));
    EXPECT_TRUE(m("{a: {$gt: 1, $lt: 3}}", "{a: [0, 4]}"));  // contrast: elements satisfy separately
    EXPECT_FALSE(m("{a: {$elemMatch: {$gt: 1}}}", "{a: [[5]]}"));
    EXPECT_TRUE(m("{a: {$elemMatch: {$elemMatch: {$gt: 1}}}}", "{a: [[5]]}"));
    EXPECT_TRUE(m("{a: {$elemMatch: {$not: {$gt: 5}}}}", "{a: [9, 1]}"));
    EXPECT_TRUE(m("{a: {$elemMatch: {$in: [3]}}}", "{a: [1, 3]}"));
    EXPECT_TRUE(m(R"({"a": {"$elemMatch": {"%regex": "^x"}}})", "{a: ['y', 'xy']}"));
    EXPECT_TRUE(m(R"({"a": {"$elemMatch": {"%type": "string"}}})", "{a: [1, 'x']}"));
    EXPECT_FALSE(m("{a: {$elemMatch: {$exists: true}}}", "{a: []}"));
    EXPECT_EQ(parseError("{a: {$elemMatch: 1}}").reason(), "$elemMatch needs an Object");
    EXPECT_EQ(parseError("{a: {$elemMatch: {$gt: 1, b: 1}}}").reason(), "unknown operator: b");
}

TEST(MatcherAll, ValuesRegexesAndElemMatch) {
    EXPECT_TRUE(m("{a: {$all: [1, 2]}}", "{a: [2, 3, 1]}"));
    EXPECT_FALSE(m("{a: {$all: [1, 2]}}", "{a: [2, 3]}"));
    EXPECT_TRUE(m("{a: {$all: [1]}}", "{a: 1}"));
    EXPECT_FALSE(m("{a: {$all: []}}", "{a: [1]}"));
    EXPECT_TRUE(m("{a: {$all: [[1, 2]]}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{a: {$all: [/^x/, /y$/]}}", "{a: ['xa', 'by']}"));
    EXPECT_TRUE(m("{a: {$all: [{$elemMatch: {b: 1}}, {$elemMatch: {c: 2}}]}}", "{a: [{b: 1}, {c: 2}]}"));
    EXPECT_FALSE(m("{a: {$all: [{$elemMatch: {b: 1}}, {$elemMatch: {c: 2}}]}}", "{a: [{b: 1}]}"));
    EXPECT_EQ(parseError("{a: {$all: 1}}").reason(), "$all needs an array");
    EXPECT_EQ(parseError("{a: {$all: [{$elemMatch: {b: 1}}, 5]}}").reason(), "$all/$elemMatch has to be consistent");
    EXPECT_EQ(parseError("{a: {$all: [{$gt: 1}]}}").reason(), "no $ expressions in $all");
}

TEST(MatcherSize, ArraysOnly) {
    EXPECT_TRUE(m("{a: {$size: 2}}", "{a: [1, 2]}"));
    EXPECT_FALSE(m("{a: {$size: 1}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{a: {$size: 0}}", "{a: []}"));
    EXPECT_FALSE(m("{a: {$size: 1}}", "{a: 1}"));
    EXPECT_TRUE(m("{a: {$size: 1}}", "{a: [[1, 2]]}"));
    EXPECT_FALSE(m("{a: {$size: 2}}", "{a: [[1, 2]]}"));  // no leaf expansion
    EXPECT_TRUE(m("{'a.b': {$size: 2}}", "{a: [{b: [1, 2]}]}"));
    EXPECT_TRUE(m("{a: {$size: 2.0}}", "{a: [1, 2]}"));
    Status s = parseError("{a: {$size: -1}}");
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason().rfind("Failed to parse $size. Expected a positive number in: ", 0), 0u);
    EXPECT_EQ(parseError("{a: {$size: 'x'}}").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError("{a: {$size: 1.5}}").code(), int(ErrorCodes::BadValue));
}

TEST(MatcherMod, SemanticsAndErrors) {
    EXPECT_TRUE(m("{a: {$mod: [4, 1]}}", "{a: 5}"));
    EXPECT_FALSE(m("{a: {$mod: [4, 1]}}", "{a: 6}"));
    EXPECT_TRUE(m("{a: {$mod: [4, 1]}}", "{a: 5.9}"));  // truncated
    EXPECT_TRUE(m("{a: {$mod: [4, -1]}}", "{a: -5}"));
    EXPECT_TRUE(m("{a: {$mod: [4.5, 1]}}", "{a: 5}"));
    EXPECT_FALSE(m("{a: {$mod: [4, 1]}}", "{a: '5'}"));
    EXPECT_TRUE(m("{a: {$mod: [-1, 0]}}", R"({"a": {"$numberLong": "-9223372036854775808"}})"));
    EXPECT_EQ(parseError("{a: {$mod: 4}}").reason(), "malformed mod, needs to be an array");
    EXPECT_EQ(parseError("{a: {$mod: []}}").reason(), "malformed mod, not enough elements");
    EXPECT_EQ(parseError("{a: {$mod: [4]}}").reason(), "malformed mod, not enough elements");
    EXPECT_EQ(parseError("{a: {$mod: [4, 1, 2]}}").reason(), "malformed mod, too many elements");
    EXPECT_EQ(parseError("{a: {$mod: ['4', 1]}}").reason(), "malformed mod, divisor not a number");
    EXPECT_EQ(parseError("{a: {$mod: [4, '1']}}").reason(), "malformed mod, remainder not a number");
    EXPECT_EQ(parseError("{a: {$mod: [0, 1]}}").reason(), "divisor cannot be 0");
    EXPECT_EQ(parseError(R"({"a": {"$mod": [{"$numberDouble": "NaN"}, 1]}})").reason(),
              "malformed mod, divisor value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type");
}

TEST(MatcherBits, AllAnySetClear) {
    EXPECT_TRUE(m("{a: {$bitsAllSet: 5}}", "{a: 7}"));
    EXPECT_FALSE(m("{a: {$bitsAllSet: 5}}", "{a: 6}"));
    EXPECT_TRUE(m("{a: {$bitsAllSet: [0, 2]}}", "{a: 5}"));
    EXPECT_TRUE(m("{a: {$bitsAnySet: [1, 5]}}", "{a: 2}"));
    EXPECT_TRUE(m("{a: {$bitsAllClear: [1]}}", "{a: 5}"));
    EXPECT_TRUE(m("{a: {$bitsAnyClear: [0, 1]}}", "{a: 1}"));
    EXPECT_TRUE(m("{a: {$bitsAllSet: [100]}}", "{a: -1}"));  // sign extension
    EXPECT_FALSE(m("{a: {$bitsAllSet: 1}}", "{a: 1.5}"));
    EXPECT_FALSE(m("{a: {$bitsAllSet: 1}}", "{a: 'x'}"));
    EXPECT_TRUE(m(R"({"a": {"$bitsAllSet": [0]}})", R"({"a": {"$binary": {"base64": "AQ==", "subType": "00"}}})"));
    EXPECT_EQ(parseError("{a: {$bitsAllSet: -1}}").code(), int(ErrorCodes::FailedToParse));
    EXPECT_EQ(parseError("{a: {$bitsAllSet: [-1]}}").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError("{a: {$bitsAllSet: 'x'}}").code(), int(ErrorCodes::BadValue));
}

TEST(MatcherMisc, AlwaysTrueFalseAndComment) {
    EXPECT_TRUE(m("{$alwaysTrue: 1}", "{}"));
    EXPECT_FALSE(m("{$alwaysFalse: 1}", "{}"));
    EXPECT_EQ(parseError("{$alwaysTrue: 2}").code(), int(ErrorCodes::FailedToParse));
    EXPECT_TRUE(m("{a: 1, $comment: 'why'}", "{a: 1}"));
}

TEST(MatcherMisc, UnknownOperators) {
    Status s = parseError("{a: {$foo: 1}}");
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason(), "unknown operator: $foo");
    s = parseError("{$foo: 1}");
    EXPECT_EQ(s.code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(s.reason(),
              "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider "
              "using $getField or $setField.");
    EXPECT_EQ(parseError("{a: {$where: 'x'}}").reason(), "$where cannot be applied to a field");
    EXPECT_EQ(parseError("{$where: 'this.a == 1'}").code(), int(ErrorCodes::BadValue));
    EXPECT_EQ(parseError("{a: {$elemMatch: {$expr: {}}}}").reason(),
              "$expr can only be applied to the top-level document");
    EXPECT_EQ(parseError("{a: {$near: [0, 0]}}").code(), int(ErrorCodes::BadValue));
}

TEST(MatcherExpr, AggregationExpressionsOnTheDocument) {
    EXPECT_TRUE(m("{$expr: {$eq: ['$a', 1]}}", "{a: 1}"));
    EXPECT_FALSE(m("{$expr: {$eq: ['$a', 1]}}", "{a: 2}"));
    EXPECT_TRUE(m("{$expr: {$gt: ['$a', '$b']}}", "{a: 3, b: 2}"));
    EXPECT_FALSE(m("{$expr: {$gt: ['$a', '$b']}}", "{a: 1, b: 2}"));
    EXPECT_TRUE(m("{$expr: {$lt: [{$add: ['$a', '$b']}, 10]}, c: 1}", "{a: 3, b: 2, c: 1}"));
    EXPECT_TRUE(m("{$or: [{$expr: '$flag'}, {x: 1}]}", "{flag: true}"));
    EXPECT_FALSE(m("{$expr: '$missing'}", "{}"));
    EXPECT_EQ(parseError("{$expr: {$nosuchop: 1}}").code(), int(ErrorCodes::InvalidPipelineOperator));
}

TEST(MatcherMisc, OperatorLookingDocumentsThatAreValues) {
    // A document whose first field is not an operator is a value, even if later fields are.
    EXPECT_TRUE(m("{a: {b: 1, $c: 2}}", "{a: {b: 1, $c: 2}}"));
    // DBRefs are values.
    EXPECT_TRUE(m(R"({"a": {"$ref": "c", "$id": 1}})", R"({"a": {"$ref": "c", "$id": 1}})"));
    EXPECT_TRUE(m(R"({"a": {"$elemMatch": {"$ref": "c", "$id": 1}}})", R"({"a": [{"$ref": "c", "$id": 1}]})"));
}

TEST(MatcherMisc, DeepNestingFailsCleanly) {
    auto nest = [](int levels) {
        BSONObj f = q("{a: 1}");
        for (int i = 0; i < levels; i++) {
            BSONObjBuilder b;
            BSONArrayBuilder& arr = b.subarrayStart("$and");
            arr.append(f);
            arr.doneFast();
            f = b.obj();
        }
        return f;
    };
    EXPECT_TRUE(Matcher(nest(50)).matches(q("{a: 1}")));
    EXPECT_EQ(statusOf([&] { Matcher matcher(nest(150)); }).code(), int(ErrorCodes::BadValue));
}

TEST(MatcherElemMatchKey, RecordsTheOutermostArrayIndex) {
    EXPECT_EQ(key("{a: 2}", "{a: [1, 2, 3]}"), "1");
    EXPECT_EQ(key("{a: 2}", "{a: 2}"), "none");
    EXPECT_EQ(key("{a: [1, 2]}", "{a: [1, 2]}"), "none");
    EXPECT_EQ(key("{'a.b': 5}", "{a: [{b: 1}, {b: 5}]}"), "1");
    EXPECT_EQ(key("{'a.b': 2}", "{a: [{b: [1, 2]}]}"), "0");
    EXPECT_EQ(key("{a: {$elemMatch: {b: 1}}}", "{a: [{b: 0}, {b: 1}]}"), "1");
    EXPECT_EQ(key("{'a.b': {$elemMatch: {$gt: 1}}}", "{a: [{b: [0]}, {b: [0, 2]}]}"), "1");
    EXPECT_EQ(key("{a: {$gt: 1}, b: 1}", "{a: [0, 5], b: 1}"), "1");
    EXPECT_EQ(key("{a: {$in: [7]}}", "{a: [1, 7]}"), "1");
    EXPECT_EQ(key("{'a.1': 7}", "{a: [1, 7]}"), "none");  // explicit index, not a traversal
    EXPECT_EQ(key("{$or: [{a: 7}]}", "{a: [1, 7]}"), "none");
    EXPECT_EQ(key("{a: 7}", "{a: [1, 2]}"), "nomatch");
}

TEST(MatcherMatchesElement, ValueAndFieldPredicates) {
    Matcher gt(q(R"({"": {"$gt": 5}})"));
    EXPECT_TRUE(gt.matchesElement(q("{x: 6}").firstElement()));
    EXPECT_FALSE(gt.matchesElement(q("{x: 4}").firstElement()));
    EXPECT_FALSE(gt.matchesElement(q("{x: [6]}").firstElement()));  // no traversal
    Matcher field(q("{b: 1}"));
    EXPECT_TRUE(field.matchesElement(q("{x: {b: 1}}").firstElement()));
    EXPECT_FALSE(field.matchesElement(q("{x: {b: 2}}").firstElement()));
    EXPECT_FALSE(field.matchesElement(q("{x: 1}").firstElement()));
    Matcher both(q(R"({"$or": [{"": 1}, {"b": 1}]})"));
    EXPECT_TRUE(both.matchesElement(q("{x: 1}").firstElement()));
    EXPECT_TRUE(both.matchesElement(q("{x: {b: 1}}").firstElement()));
}

TEST(MatcherLifetime, FilterIsOwnedAndMatcherMovable) {
    std::unique_ptr<Matcher> matcher;
    {
        BSONObj f = q("{a: {$in: ['x', 'y']}, b: /z/}");
        matcher = std::make_unique<Matcher>(BSONObj(f.objdata()));  // unowned view
    }
    EXPECT_TRUE(matcher->matches(q("{a: 'y', b: 'zz'}")));
    Matcher moved = std::move(*matcher);
    EXPECT_TRUE(moved.matches(q("{a: 'x', b: 'z'}")));
}

}  // namespace
}  // namespace mongo
