// Positional "$", all-elements "$[]" and filtered "$[<id>]" updates with arrayFilters.
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdatePositional, UsesTheMatchedIndex) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.$': 9}}", "{_id: 1, a: [1, 2, 3]}", nullptr, "1"),
                              "{_id: 1, a: [1, 9, 3]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {'a.$.n': 1}}", "{_id: 1, a: [{n: 1}, {n: 5}]}", nullptr, "0"),
                              "{_id: 1, a: [{n: 2}, {n: 5}]}"));
}

TEST(UpdatePositional, WithoutAMatchIsAnError) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.$': 9}}", "{_id: 1, a: [1]}"); }, 2,
                              "The positional operator did not find the match needed from the query."));
    // Upserts have no array match either.
    EXPECT_TRUE(throwsCode([] { applyJson("{$set: {'a.$': 9}}", "{}", nullptr, "", true); }, 2));
}

TEST(UpdatePositional, MergesWithTheSameConcretePath) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$set: {'a.$.x': 1, 'a.0.y': 2}}", "{_id: 1, a: [{}, {}]}", nullptr, "0"),
        "{_id: 1, a: [{x: 1, y: 2}, {}]}"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.$': 1, 'a.0': 2}}", "{_id: 1, a: [0]}", nullptr, "0"); },
                              40, "Update created a conflict at 'a.0'"));
}

TEST(UpdatePositional, ParseErrors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'$': 1}}")); }, 2,
                              "Cannot have positional (i.e. '$') element in the first position in path '$'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a.$.b.$': 1}}")); }, 2,
                              "Too many positional (i.e. '$') elements found in path 'a.$.b.$'"));
}

TEST(UpdateAllPositional, UpdatesEveryElement) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {'a.$[]': 10}}", "{_id: 1, a: [1, 2, 3]}"),
                              "{_id: 1, a: [11, 12, 13]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.$[].b': 0}}", "{_id: 1, a: [{b: 1}, {c: 2}]}"),
                              "{_id: 1, a: [{b: 0}, {c: 2, b: 0}]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$unset: {'a.$[]': 1}}", "{_id: 1, a: [1, 2]}"), "{_id: 1, a: [null, null]}"));
}

TEST(UpdateAllPositional, NestedArrays) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {'a.$[].$[]': 1}}", "{_id: 1, a: [[1, 2], [3]]}"),
                              "{_id: 1, a: [[2, 3], [4]]}"));
}

TEST(UpdateAllPositional, EmptyArrayIsANoOp) {
    bool changed = true;
    applyJson("{$set: {'a.$[]': 1}}", "{_id: 1, a: []}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateAllPositional, Errors) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.$[]': 1}}", "{_id: 1}"); }, 2,
                              "The path 'a' must exist in the document in order to apply array updates."));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.$[]': 1}}", "{_id: 1, a: 5}"); }, 2,
                              "Cannot apply array updates to non-array element a: 5"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.$[].b': 1}}", "{_id: 1, a: [0]}"); }, 28,
                              "Cannot create field 'b' in element {0: 0}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'$[]': 1}}")); }, 2,
                              "Cannot have array filter identifier (i.e. '$[<id>]') element in the first position "
                              "in path '$[]'"));
}

TEST(UpdateArrayFilters, UpdatesMatchingElements) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'grades.$[x]': 100}}", "{_id: 1, grades: [95, 92, 90]}", nullptr,
                                        "", false, {"{x: {$gte: 92}}"}),
                              "{_id: 1, grades: [100, 100, 90]}"));
}

TEST(UpdateArrayFilters, FilterOnEmbeddedField) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$set: {'g.$[e].mean': 100}}", "{_id: 1, g: [{grade: 80, mean: 75}, {grade: 85, mean: 90}]}", nullptr,
                  "", false, {"{'e.grade': {$gte: 85}}"}),
        "{_id: 1, g: [{grade: 80, mean: 75}, {grade: 85, mean: 100}]}"));
}

TEST(UpdateArrayFilters, SeveralIdentifiersAtDifferentLevels) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$inc: {'a.$[i].b.$[j]': 1}}", "{_id: 1, a: [{k: 1, b: [1, 5]}, {k: 2, b: [5]}]}", nullptr, "",
                  false, {"{'i.k': 1}", "{j: {$gt: 2}}"}),
        "{_id: 1, a: [{k: 1, b: [1, 6]}, {k: 2, b: [5]}]}"));
}

TEST(UpdateArrayFilters, FiltersSeeValuesBeforeTheUpdate) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {'a.$[x]': 5}}", "{_id: 1, a: [1, 2, 3]}", nullptr, "", false,
                                        {"{x: {$lt: 3}}"}),
                              "{_id: 1, a: [6, 7, 3]}"));
}

TEST(UpdateArrayFilters, OverlappingFiltersMergeOrConflict) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.$[x].p': 1, 'a.$[y].q': 2}}", "{_id: 1, a: [{v: 1}, {v: 2}]}",
                                        nullptr, "", false, {"{'x.v': 1}", "{'y.v': {$lte: 2}}"}),
                              "{_id: 1, a: [{v: 1, p: 1, q: 2}, {v: 2, q: 2}]}"));
    EXPECT_TRUE(throwsExactly(
        [] {
            applyJson("{$set: {'a.$[x]': 1, 'a.$[y]': 2}}", "{_id: 1, a: [1]}", nullptr, "", false,
                      {"{x: 1}", "{y: 1}"});
        },
        40, "Update created a conflict at 'a.0'"));
}

TEST(UpdateArrayFilters, LogicalOperatorsInFilters) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.$[x].hit': true}}", "{_id: 1, a: [{n: 1}, {n: 2}, {n: 3}]}",
                                        nullptr, "", false, {"{$or: [{'x.n': 1}, {'x.n': 3}]}"}),
                              "{_id: 1, a: [{n: 1, hit: true}, {n: 2}, {n: 3, hit: true}]}"));
}

TEST(UpdateArrayFilters, ParseErrors) {
    auto parse = [](const std::string& update, std::vector<std::string> filters) {
        std::vector<BSONObj> f;
        for (auto& s : filters) f.push_back(J(s));
        UpdateDriver d(J(update), f);
    };
    EXPECT_TRUE(throwsExactly([&] { parse("{$set: {'a.$[x]': 1}}", {}); }, 2,
                              "No array filter found for identifier 'x' in path 'a.$[x]'"));
    EXPECT_TRUE(throwsExactly([&] { parse("{$set: {a: 1}}", {"{x: 1}"}); }, 9,
                              "The array filter for identifier 'x' was not used in the update { $set: { a: 1 } }"));
    EXPECT_TRUE(throwsExactly([&] { parse("{$set: {'a.$[x]': 1}}", {"{x: 1}", "{x: 2}"}); }, 9,
                              "Found multiple array filters with the same top-level field name x"));
    EXPECT_TRUE(throwsCode([&] { parse("{$set: {'a.$[x]': 1}}", {"{x: 1, y: 2}"}); }, 9,
                           "Expected a single top-level field name, found 'x' and 'y'"));
    EXPECT_TRUE(throwsCode([&] { parse("{$set: {'a.$[X]': 1}}", {"{X: 1}"}); }, 2,
                           "The top-level field name must be an alphanumeric string beginning with a lowercase "
                           "letter, found 'X'"));
    EXPECT_TRUE(throwsExactly([&] { parse("{$set: {'a.$[x]': 1}}", {"{}"}); }, 9,
                              "Cannot use an expression without a top-level field name in arrayFilters"));
    EXPECT_TRUE(throwsExactly([&] { parse("{a: 1}", {"{x: 1}"}); }, 9,
                              "arrayFilters may not be specified for replacement-style updates"));
}

TEST(UpdateArrayFilters, ConflictsWithOtherPaths) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a.$[]': 1, 'a.0': 2}}")); }, 40,
                              "Updating the path 'a.0' would create a conflict at 'a'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a.$[]': 1}, $push: {a: 2}}")); }, 40,
                              "Updating the path 'a' would create a conflict at 'a'"));
}

}  // namespace
}  // namespace mongo
