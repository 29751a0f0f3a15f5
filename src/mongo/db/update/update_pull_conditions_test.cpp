// $pull with query conditions: value conditions ({$gte: 6}, regexes) and document filters
// ({b: 1}), evaluated by the query matcher.
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdatePullCondition, ValueComparison) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {a: {$gte: 6}}}", "{_id: 1, a: [5, 6, 7, 'x', 2]}"),
                              "{_id: 1, a: [5, 'x', 2]}"));
}

TEST(UpdatePullCondition, InList) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {a: {$in: ['x', 3]}}}", "{_id: 1, a: [1, 'x', 3, 'y']}"),
                              "{_id: 1, a: [1, 'y']}"));
}

TEST(UpdatePullCondition, Regex) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {a: {$regex: '^b'}}}", "{_id: 1, a: ['apple', 'banana', 'berry', 5]}"),
                              "{_id: 1, a: ['apple', 5]}"));
}

TEST(UpdatePullCondition, DocumentFilterMatchesEmbeddedFields) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$pull: {a: {b: 1}}}", "{_id: 1, a: [{b: 1, c: 2}, {b: 2}, 1, {c: 1}]}"),
        "{_id: 1, a: [{b: 2}, 1, {c: 1}]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$pull: {results: {score: 8, item: 'B'}}}",
                                        "{_id: 1, results: [{item: 'A', score: 5}, {item: 'B', score: 8}]}"),
                              "{_id: 1, results: [{item: 'A', score: 5}]}"));
}

TEST(UpdatePullCondition, DocumentFilterWithOperators) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$pull: {a: {n: {$gt: 1}, $or: [{t: 'x'}, {t: 'y'}]}}}",
                  "{_id: 1, a: [{n: 2, t: 'x'}, {n: 2, t: 'z'}, {n: 1, t: 'y'}, {n: 3, t: 'y'}]}"),
        "{_id: 1, a: [{n: 2, t: 'z'}, {n: 1, t: 'y'}]}"));
}

TEST(UpdatePullCondition, ElemMatchOnNestedArrays) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$pull: {a: {$elemMatch: {$gt: 5}}}}", "{_id: 1, a: [[1, 2], [3, 9], 7]}"),
        "{_id: 1, a: [[1, 2], 7]}"));
}

TEST(UpdatePullCondition, NothingMatchedIsANoOp) {
    bool changed = true;
    applyJson("{$pull: {a: {$gt: 100}}}", "{_id: 1, a: [1, 2]}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdatePullCondition, BadConditionFailsAtParse) {
    EXPECT_TRUE(throwsCode([] { UpdateDriver(J("{$pull: {a: {$gt: 1, $foo: 2}}}")); }, 2));
}

}  // namespace
}  // namespace mongo
