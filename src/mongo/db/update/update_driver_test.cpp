// UpdateDriver: update document kinds and operator parsing errors, replacement documents, and
// the base document of upserts.
#include <atomic>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdateDriverParse, ReplacementOrOperators) {
    EXPECT_TRUE(UpdateDriver(J("{a: 1}")).isReplacement());
    EXPECT_TRUE(UpdateDriver(J("{}")).isReplacement());
    EXPECT_FALSE(UpdateDriver(J("{$set: {a: 1}}")).isReplacement());
}

TEST(UpdateDriverParse, UnknownModifier) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$foo: {a: 1}}")); }, 9,
                              "Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update "
                              "specified as an array"));
    // A plain field after an operator is not an operator either.
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {a: 1}, b: 2}")); }, 9,
                              "Unknown modifier: b. Expected a valid update modifier or pipeline-style update "
                              "specified as an array"));
}

TEST(UpdateDriverParse, OperatorArgumentMustBeADocument) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: 1}")); }, 9,
                              "Modifiers operate on fields but we found type int instead. For example: {$mod: "
                              "{<field>: ...}} not {$set: 1}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$unset: []}")); }, 9,
                              "Modifiers operate on fields but we found type array instead. For example: {$mod: "
                              "{<field>: ...}} not {$unset: []}"));
}

TEST(UpdateDriverParse, EmptyOperatorsAreAllowed) {
    bool changed = true;
    UpdateDriver d(J("{$set: {}, $unset: {}}"));
    auto out = d.apply(J("{_id: 1, a: 1}"), "", false, &changed);
    EXPECT_FALSE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: 1}"));
}

TEST(UpdateDriverParse, EmptyPaths) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'': 1}}")); }, 56, "An empty update path is not valid."));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a..b': 1}}")); }, 56,
                              "The update path 'a..b' contains an empty field name, which is not allowed."));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$inc: {'a.': 1}}")); }, 56,
                              "The update path 'a.' contains an empty field name, which is not allowed."));
}

TEST(UpdateDriverParse, ConflictingPaths) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {a: 1}, $inc: {a: 1}}")); }, 40,
                              "Updating the path 'a' would create a conflict at 'a'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {a: 1, 'a.b': 1}}")); }, 40,
                              "Updating the path 'a.b' would create a conflict at 'a'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a.b': 1, a: 1}}")); }, 40,
                              "Updating the path 'a' would create a conflict at 'a'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$set: {'a.b.c': 1}, $unset: {'a.b': 1}}")); }, 40,
                              "Updating the path 'a.b' would create a conflict at 'a.b'"));
    EXPECT_NO_THROW(UpdateDriver(J("{$set: {'a.b': 1, 'a.c': 1}, $inc: {'a.d': 1}}")));
}

TEST(UpdateDriverParse, SetOnInsertConflictsWithSet) {
    EXPECT_TRUE(throwsCode([] { UpdateDriver(J("{$set: {a: 1}, $setOnInsert: {a: 2}}")); }, 40));
}

TEST(UpdateDriverApply, SeveralOperatorsTogether) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {b: 1}, $inc: {n: 2}, $push: {l: 'x'}, $unset: {gone: 1}}",
                                        "{_id: 1, n: 1, gone: true, l: []}"),
                              "{_id: 1, n: 3, l: ['x'], b: 1}"));
}

TEST(UpdateDriverApply, UnchangedDocumentIsReportedUnchanged) {
    bool changed = true;
    auto out = applyJson("{$set: {a: 1}, $max: {b: 0}, $pull: {c: 9}}", "{_id: 1, a: 1, b: 5, c: [1]}", &changed);
    EXPECT_FALSE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: 1, b: 5, c: [1]}"));
}

TEST(UpdateDriverApply, IdMovesFirstOnInsert) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {_id: 3}}", "{a: 1}", nullptr, "", true), "{_id: 3, a: 1}"));
}

TEST(UpdateDriverApply, ResultOver16MBIsRefused) {
    std::string big(9 * 1024 * 1024, 'x');
    BSONObjBuilder doc;
    doc.append("_id", 1);
    doc.append("a", big);
    BSONObjBuilder set;
    set.append("b", big);
    BSONObjBuilder update;
    update.append("$set", set.obj());
    bool changed;
    EXPECT_TRUE(throwsExactly([&] { UpdateDriver(update.obj()).apply(doc.obj(), "", false, &changed); }, 17419,
                              "Resulting document after update is larger than 16777216"));
}

TEST(UpdateDriverApply, ConcurrentApplicationsShareOneDriver) {
    UpdateDriver d(J("{$inc: {n: 1}, $push: {l: {$each: [1, 2], $sort: -1}}}"));
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 4; t++)
        threads.emplace_back([&] {
            for (int i = 0; i < 200; i++) {
                bool changed;
                BSONObj out = d.apply(J("{_id: 1, n: 1, l: [3]}"), "", false, &changed);
                if (out.binaryEqual(J("{_id: 1, n: 2, l: [3, 2, 1]}"))) ok++;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok.load(), 800);
}

TEST(UpdateReplacement, ReplacesAndKeepsId) {
    bool changed = false;
    auto out = applyJson("{b: 2, c: 3}", "{_id: 1, a: 1}", &changed);
    EXPECT_TRUE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, b: 2, c: 3}"));
}

TEST(UpdateReplacement, IdGoesFirst) {
    EXPECT_TRUE(bsonIdentical(applyJson("{b: 2, _id: 1}", "{_id: 1, a: 1}"), "{_id: 1, b: 2}"));
}

TEST(UpdateReplacement, SameDocumentIsUnchanged) {
    bool changed = true;
    applyJson("{a: 1}", "{_id: 1, a: 1}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateReplacement, EmptyReplacementKeepsOnlyId) {
    EXPECT_TRUE(bsonIdentical(applyJson("{}", "{_id: 1, a: 1}"), "{_id: 1}"));
}

TEST(UpdateReplacement, DifferentIdIsRefused) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{_id: 2, a: 1}", "{_id: 1}"); }, 66,
                              "After applying the update, the (immutable) field '_id' was found to have been "
                              "altered to _id: 2"));
    // Equal values of another numeric type are the same _id.
    EXPECT_TRUE(bsonIdentical(applyJson("{_id: 1.0, a: 1}", "{_id: 1}"), "{_id: 1.0, a: 1}"));
}

TEST(UpdateReplacement, ZeroTimestampsAreFilled) {
    auto out = applyJson("{t: {$timestamp: {t: 0, i: 0}}, u: {$timestamp: {t: 5, i: 1}}}", "{_id: 1}");
    EXPECT_FALSE(out["t"].timestamp().isNull());
    EXPECT_EQ(out["u"].timestamp().secs, 5u);
}

TEST(UpdateReplacement, IdMayBeSetOnInsert) {
    EXPECT_TRUE(bsonIdentical(applyJson("{a: 1, _id: 5}", "{_id: 1}", nullptr, "", true), "{_id: 5, a: 1}"));
}

TEST(UpdateReplacement, DollarPrefixedTopLevelFieldIsRefused) {
    EXPECT_TRUE(throwsExactly(
        [] { applyJson("{a: 1, $set: {b: 1}}", "{_id: 1}"); }, 52,
        "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement "
        "document. Consider using an aggregation pipeline with $replaceWith."));
    // Nested ones are fine, and so are DBRefs.
    EXPECT_NO_THROW(applyJson("{a: {$b: 1}}", "{_id: 1}"));
    EXPECT_NO_THROW(applyJson("{a: {$ref: 'c', $id: 1}}", "{_id: 1}"));
}

TEST(UpdateReplacement, InvalidIdIsRefused) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{_id: [1], a: 1}", "{}", nullptr, "", true); }, 53,
                              "The '_id' value cannot be of type array"));
}

TEST(UpsertSeed, TopLevelEqualities) {
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{a: 1, b: 'x'}")), "{a: 1, b: 'x'}"));
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{_id: 5}")), "{_id: 5}"));
}

TEST(UpsertSeed, IdFirstAndPathsSorted) {
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{z: 1, a: 2, _id: 3}")), "{_id: 3, a: 2, z: 1}"));
}

TEST(UpsertSeed, DottedPathsBecomeEmbeddedDocuments) {
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{'a.b': 1, 'a.c': 2, 'd.0': 3}")),
                              "{a: {b: 1, c: 2}, d: {'0': 3}}"));
}

TEST(UpsertSeed, OnlyEqualities) {
    EXPECT_TRUE(bsonIdentical(
        UpdateDriver::seedUpsertDocument(J("{a: 1, b: {$gt: 1}, c: {$eq: 2}, d: {$in: [4]}, e: {$in: [1, 2]}, "
                                           "f: {$regex: 'x'}, g: {$exists: true}, h: {x: 1}, i: [1, 2], j: null}")),
        "{a: 1, c: 2, d: 4, h: {x: 1}, i: [1, 2], j: null}"));
}

TEST(UpsertSeed, AndAndSingleClauseOr) {
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{$and: [{a: 1}, {b: 2}], $or: [{c: 3}]}")),
                              "{a: 1, b: 2, c: 3}"));
    EXPECT_TRUE(bsonIdentical(UpdateDriver::seedUpsertDocument(J("{$or: [{a: 1}, {b: 2}], $nor: [{c: 1}]}")), "{}"));
}

TEST(UpsertSeed, ConflictingPaths) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver::seedUpsertDocument(J("{a: 1, 'a.b': 2}")); }, 54,
                              "cannot infer query fields to set, both paths 'a.b' and 'a' are matched"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver::seedUpsertDocument(J("{$and: [{a: 1}, {a: 2}]}")); }, 54,
                              "cannot infer query fields to set, path 'a' is matched twice"));
}

TEST(UpsertSeed, UpdateAppliedAsInsert) {
    UpdateDriver d(J("{$set: {b: 2}, $setOnInsert: {c: 3}, $inc: {n: 1}}"));
    bool changed;
    auto out = d.apply(UpdateDriver::seedUpsertDocument(J("{_id: 7, a: 1}")), "", true, &changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 7, a: 1, b: 2, c: 3, n: 1}"));
}

}  // namespace
}  // namespace mongo
