// $push (with $each, $position, $sort, $slice), $addToSet, $pop, $pull and $pullAll.
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdatePush, AppendsValue) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: 3}}", "{_id: 1, a: [1, 2]}"), "{_id: 1, a: [1, 2, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: [3]}}", "{_id: 1, a: [1]}"), "{_id: 1, a: [1, [3]]}"));
}

TEST(UpdatePush, MissingFieldCreatesArray) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {'a.b': 1}}", "{_id: 1}"), "{_id: 1, a: {b: [1]}}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: []}}}", "{_id: 1}"), "{_id: 1, a: []}"));
}

TEST(UpdatePush, ObjectWithoutEachIsPushedAsIs) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {b: 1, $slice: 2}}}", "{_id: 1, a: []}"),
                              "{_id: 1, a: [{b: 1, $slice: 2}]}"));
}

TEST(UpdatePush, EachAppendsAll) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [3, 4]}}}", "{_id: 1, a: [1]}"),
                              "{_id: 1, a: [1, 3, 4]}"));
}

TEST(UpdatePush, EmptyEachIsANoOp) {
    bool changed = true;
    applyJson("{$push: {a: {$each: []}}}", "{_id: 1, a: [1]}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdatePush, Position) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [9, 8], $position: 1}}}", "{_id: 1, a: [1, 2, 3]}"),
                              "{_id: 1, a: [1, 9, 8, 2, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [9], $position: 0}}}", "{_id: 1, a: [1, 2]}"),
                              "{_id: 1, a: [9, 1, 2]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [9], $position: -1}}}", "{_id: 1, a: [1, 2, 3]}"),
                              "{_id: 1, a: [1, 2, 9, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [9], $position: -5}}}", "{_id: 1, a: [1, 2]}"),
                              "{_id: 1, a: [9, 1, 2]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [9], $position: 10}}}", "{_id: 1, a: [1, 2]}"),
                              "{_id: 1, a: [1, 2, 9]}"));
}

TEST(UpdatePush, Slice) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [4, 5], $slice: 3}}}", "{_id: 1, a: [1, 2, 3]}"),
                              "{_id: 1, a: [1, 2, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [4, 5], $slice: -3}}}", "{_id: 1, a: [1, 2, 3]}"),
                              "{_id: 1, a: [3, 4, 5]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [4], $slice: 0}}}", "{_id: 1, a: [1]}"),
                              "{_id: 1, a: []}"));
    // $slice alone (empty $each) trims the existing array.
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [], $slice: 1}}}", "{_id: 1, a: [1, 2]}"),
                              "{_id: 1, a: [1]}"));
}

TEST(UpdatePush, SortWholeValues) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [3, 1], $sort: 1}}}", "{_id: 1, a: [2, 'x', null]}"),
                              "{_id: 1, a: [null, 1, 2, 3, 'x']}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [3, 1], $sort: -1}}}", "{_id: 1, a: [2]}"),
                              "{_id: 1, a: [3, 2, 1]}"));
}

TEST(UpdatePush, SortByFieldsThenSlice) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$push: {q: {$each: [{s: 7, n: 'c'}, {s: 9, n: 'd'}], $sort: {s: -1}, $slice: 3}}}",
                  "{_id: 1, q: [{s: 8, n: 'a'}, {s: 6, n: 'b'}]}"),
        "{_id: 1, q: [{s: 9, n: 'd'}, {s: 8, n: 'a'}, {s: 7, n: 'c'}]}"));
    // Missing sort fields compare as null; non-documents have no fields.
    EXPECT_TRUE(bsonIdentical(applyJson("{$push: {a: {$each: [], $sort: {'b.c': 1}}}}",
                                        "{_id: 1, a: [{b: {c: 2}}, 5, {b: {c: 1}}]}"),
                              "{_id: 1, a: [5, {b: {c: 1}}, {b: {c: 2}}]}"));
}

TEST(UpdatePush, NonArrayTarget) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$push: {'a.b': 1}}", "{_id: 1, a: {b: 5}}"); }, 2,
                              "The field 'a.b' must be an array but is of type int in document {_id: 1}"));
}

TEST(UpdatePush, ParseErrors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: 1}}}")); }, 2,
                              "The argument to $each in $push must be an array but it was of type: int"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $foo: 1}}}")); }, 2,
                              "Unrecognized clause in $push: $foo"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $slice: 'x'}}}")); }, 2,
                              "The value for $slice must be an integer value but was given type: string"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $slice: 1.5}}}")); }, 2,
                              "The value for $slice must be an integer value but was given type: double"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $position: 'x'}}}")); }, 2,
                              "The value for $position must be an integer value, not of type: string"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $sort: 2}}}")); }, 2,
                              "The $sort element value must be either 1 or -1"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $sort: {}}}}")); }, 2,
                              "The $sort pattern is empty when it should be a set of fields."));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$push: {a: {$each: [], $sort: {'b..c': 1}}}}")); }, 2,
                              "The $sort field is a dotted field but has an empty part: b..c"));
    EXPECT_TRUE(throwsCode([] { UpdateDriver(J("{$push: {a: {$each: [], $sort: 'x'}}}")); }, 2,
                           "The $sort is invalid: use 1/-1 to sort the whole element"));
}

TEST(UpdateAddToSet, AddsMissingValuesOnly) {
    bool changed = false;
    auto out = applyJson("{$addToSet: {a: 3}}", "{_id: 1, a: [1, 2]}", &changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: [1, 2, 3]}"));
    EXPECT_TRUE(changed);
    applyJson("{$addToSet: {a: 2.0}}", "{_id: 1, a: [1, 2]}", &changed);
    EXPECT_FALSE(changed);  // 2.0 equals 2
}

TEST(UpdateAddToSet, DocumentsCompareWithFieldOrder) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$addToSet: {a: {y: 1, x: 1}}}", "{_id: 1, a: [{x: 1, y: 1}]}"),
                              "{_id: 1, a: [{x: 1, y: 1}, {y: 1, x: 1}]}"));
}

TEST(UpdateAddToSet, EachDeduplicates) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$addToSet: {a: {$each: [2, 3, 3, 4, 2]}}}", "{_id: 1, a: [1, 2]}"),
                              "{_id: 1, a: [1, 2, 3, 4]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$addToSet: {a: {$each: [1, 1, 2]}}}", "{_id: 1}"), "{_id: 1, a: [1, 2]}"));
}

TEST(UpdateAddToSet, Errors) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$addToSet: {a: 1}}", "{_id: 1, a: 1}"); }, 2,
                              "Cannot apply $addToSet to non-array field. Field named 'a' has non-array type int"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$addToSet: {a: {$each: 1}}}")); }, 14,
                              "The argument to $each in $addToSet must be an array but it was of type int"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$addToSet: {a: {$each: [1], b: 1}}}")); }, 2,
                              "Found unexpected fields after $each in $addToSet: { $each: [ 1 ], b: 1 }"));
}

TEST(UpdatePop, RemovesLastOrFirst) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pop: {a: 1}}", "{_id: 1, a: [1, 2, 3]}"), "{_id: 1, a: [1, 2]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$pop: {a: -1}}", "{_id: 1, a: [1, 2, 3]}"), "{_id: 1, a: [2, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$pop: {a: 1.0}}", "{_id: 1, a: [1]}"), "{_id: 1, a: []}"));
}

TEST(UpdatePop, EmptyOrMissingIsANoOp) {
    bool changed = true;
    applyJson("{$pop: {a: 1, b: 1}}", "{_id: 1, a: []}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdatePop, Errors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$pop: {a: 2}}")); }, 9, "$pop expects 1 or -1, found: 2"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$pop: {a: 'x'}}")); }, 9, "Expected a number in: a: \"x\""));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$pop: {a: 1.5}}")); }, 9, "Expected an integer: a: 1.5"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$pop: {'a.b': 1}}", "{_id: 1, a: {b: 1}}"); }, 14,
                              "Path 'a.b' contains an element of non-array type 'int'"));
}

TEST(UpdatePullAll, RemovesAllEqualValues) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pullAll: {a: [1, 3.0]}}", "{_id: 1, a: [1, 2, 3, 1, [1]]}"),
                              "{_id: 1, a: [2, [1]]}"));
}

TEST(UpdatePullAll, NothingToRemoveIsANoOp) {
    bool changed = true;
    applyJson("{$pullAll: {a: [9], b: [1]}}", "{_id: 1, a: [1]}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdatePullAll, Errors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$pullAll: {a: 1}}")); }, 2,
                              "$pullAll requires an array argument but was given a int"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$pullAll: {a: [1]}}", "{_id: 1, a: 1}"); }, 2,
                              "Cannot apply $pull to a non-array value"));
}

TEST(UpdatePull, ScalarEquality) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {a: 2}}", "{_id: 1, a: [1, 2, 3, 2]}"), "{_id: 1, a: [1, 3]}"));
}

TEST(UpdatePull, ArrayValueEquality) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {a: [1, 2]}}", "{_id: 1, a: [[1, 2], [2, 1], 1]}"),
                              "{_id: 1, a: [[2, 1], 1]}"));
}

TEST(UpdatePull, MissingOrUnmatchedIsANoOp) {
    bool changed = true;
    applyJson("{$pull: {a: 5, b: 1}}", "{_id: 1, a: [1]}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdatePull, NonArrayTarget) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$pull: {a: 1}}", "{_id: 1, a: {b: 1}}"); }, 2,
                              "Cannot apply $pull to a non-array value"));
}

}  // namespace
}  // namespace mongo
