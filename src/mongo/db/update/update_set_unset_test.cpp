// $set, $setOnInsert, $unset, $currentDate and $rename: values, paths, field order, no-ops and
// the errors mongod reports for them.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdateSet, ReplacesExistingValueInPlace) {
    bool changed = false;
    auto out = applyJson("{$set: {a: 5}}", "{_id: 1, a: 1, b: 2}", &changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: 5, b: 2}"));
    EXPECT_TRUE(changed);
}

TEST(UpdateSet, NewFieldIsAppendedAtTheEnd) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {c: 3}}", "{_id: 1, b: 2}"), "{_id: 1, b: 2, c: 3}"));
}

TEST(UpdateSet, NewFieldsAreAddedInLexicographicOrder) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {z: 1, b: 2, a: 3}}", "{_id: 1}"), "{_id: 1, a: 3, b: 2, z: 1}"));
}

TEST(UpdateSet, NumericFieldsAreProcessedInNumericOrder) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.10': 1, 'a.2': 2}}", "{_id: 1, a: {}}"),
                              "{_id: 1, a: {'2': 2, '10': 1}}"));
}

TEST(UpdateSet, SameValueIsANoOp) {
    bool changed = true;
    auto out = applyJson("{$set: {a: 1}}", "{_id: 1, a: 1}", &changed);
    EXPECT_FALSE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: 1}"));
}

TEST(UpdateSet, SameNumberOfAnotherTypeIsAChange) {
    bool changed = false;
    auto out = applyJson("{$set: {a: 1.0}}", "{_id: 1, a: 1}", &changed);
    EXPECT_TRUE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, a: 1.0}"));
}

TEST(UpdateSet, EmptyOperatorIsANoOp) {
    bool changed = true;
    applyJson("{$set: {}}", "{_id: 1, a: 1}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateSet, DottedPathCreatesEmbeddedDocuments) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.b.c': 1}}", "{_id: 1}"), "{_id: 1, a: {b: {c: 1}}}"));
}

TEST(UpdateSet, DottedPathIntoExistingDocument) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.c': 2}}", "{_id: 1, a: {b: 1}, z: 0}"),
                              "{_id: 1, a: {b: 1, c: 2}, z: 0}"));
}

TEST(UpdateSet, SiblingPathsShareCreatedParents) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.b.c': 1, 'a.b.d': 2, 'a.e': 3}}", "{_id: 1}"),
                              "{_id: 1, a: {b: {c: 1, d: 2}, e: 3}}"));
}

TEST(UpdateSet, ArrayIndexReplacesElement) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.1': 9}}", "{_id: 1, a: [1, 2, 3]}"), "{_id: 1, a: [1, 9, 3]}"));
}

TEST(UpdateSet, ArrayIndexPastTheEndPadsWithNulls) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.4': 9}}", "{_id: 1, a: [1]}"),
                              "{_id: 1, a: [1, null, null, null, 9]}"));
}

TEST(UpdateSet, ArrayIndexWithSubfieldCreatesDocument) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.1.b': 9}}", "{_id: 1, a: [1]}"), "{_id: 1, a: [1, {b: 9}]}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.0.b': 9}}", "{_id: 1, a: [{c: 1}]}"),
                              "{_id: 1, a: [{c: 1, b: 9}]}"));
}

TEST(UpdateSet, NumericComponentOnMissingPathCreatesObjectField) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.0': 1}}", "{_id: 1}"), "{_id: 1, a: {'0': 1}}"));
}

TEST(UpdateSet, CannotCreateFieldInScalar) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.b': 1}}", "{_id: 1, a: 1}"); }, 28,
                              "Cannot create field 'b' in element {a: 1}"));
}

TEST(UpdateSet, CannotCreateNamedFieldInArray) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.b': 1}}", "{_id: 1, a: [{b: 1}, 2.0]}"); }, 28,
                              "Cannot create field 'b' in element {a: [ { b: 1 }, 2.0 ]}"));
}

TEST(UpdateSet, CannotCreateFieldInNull) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.b.c': 1}}", "{_id: 1, a: {b: null}}"); }, 28,
                              "Cannot create field 'c' in element {b: null}"));
}

TEST(UpdateSet, CannotCreateFieldInArrayElementScalar) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'a.0.b': 1}}", "{_id: 1, a: [5]}"); }, 28,
                              "Cannot create field 'b' in element {0: 5}"));
}

TEST(UpdateSet, RefusesHugeArrayPadding) {
    EXPECT_TRUE(throwsCode([] { applyJson("{$set: {'a.2000000': 1}}", "{_id: 1, a: []}"); }, 34,
                           "can't backfill more than 1500000 elements"));
}

TEST(UpdateSet, SetsObjectAndArrayValues) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {a: {b: [1, {c: 2}]}}}", "{_id: 1, a: 1}"),
                              "{_id: 1, a: {b: [1, {c: 2}]}}"));
}

TEST(UpdateSet, ChangingIdIsRefused) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {_id: 2}}", "{_id: 1, a: 1}"); }, 66,
                              "Performing an update on the path '_id' would modify the immutable field '_id'"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {'_id.x': 2}}", "{_id: {x: 1}}"); }, 66,
                              "Performing an update on the path '_id.x' would modify the immutable field '_id'"));
    EXPECT_TRUE(throwsCode([] { applyJson("{$set: {'_id.y': 2}}", "{_id: {x: 1}}"); }, 66));
}

TEST(UpdateSet, SettingIdToItsValueIsAllowed) {
    bool changed = true;
    applyJson("{$set: {_id: 1, a: 2}}", "{_id: 1, a: 2}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateSet, IdCanBeSetOnInsert) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {a: 1, _id: 7}}", "{}", nullptr, "", true), "{_id: 7, a: 1}"));
}

TEST(UpdateSet, InvalidIdOnInsertIsRefused) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$set: {_id: [1]}}", "{}", nullptr, "", true); }, 53,
                              "The '_id' value cannot be of type array"));
}

TEST(UpdateSet, DollarPrefixedTopLevelFieldIsRefusedOnUpdate) {
    EXPECT_TRUE(throwsExactly(
        [] { applyJson("{$set: {$a: 1}}", "{_id: 1}"); }, 52,
        "The dollar ($) prefixed field '$a' in '$a' is not allowed in the context of an update's replacement "
        "document. Consider using an aggregation pipeline with $replaceWith."));
    EXPECT_TRUE(throwsCode([] { applyJson("{$set: {'$a.b': 1}}", "{_id: 1}"); }, 52));
}

TEST(UpdateSet, DollarPrefixedTopLevelFieldIsAllowedOnUpsertInsert) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {$a: 1}}", "{_id: 1}", nullptr, "", true), "{_id: 1, $a: 1}"));
}

TEST(UpdateSet, DollarPrefixedNestedFieldsAreAllowed) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$set: {'a.$b': 1, c: {$d: 2}}}", "{_id: 1, a: {}}"),
                              "{_id: 1, a: {$b: 1}, c: {$d: 2}}"));
}

TEST(UpdateSet, ModifyingExistingDollarPrefixedTopLevelFieldIsRefused) {
    EXPECT_TRUE(throwsCode([] { applyJson("{$set: {$price: 2}}", "{_id: 1, $price: 1}"); }, 52));
}

// {a: {a: ... {a: 1}}} with 'levels' nested documents (built directly: the JSON parser used by
// the tests limits nesting).
BSONObj nested(int levels) {
    BSONObjBuilder b;
    if (levels == 0)
        b.append("a", 1);
    else
        b.append("a", nested(levels - 1));
    return b.obj();
}

BSONObj setX(const BSONObj& value) {
    BSONObjBuilder inner;
    inner.append("x", value);
    BSONObjBuilder b;
    b.append("$set", inner.obj());
    return b.obj();
}

TEST(UpdateSet, TooDeepValueIsRefused) {
    bool changed;
    // x is at level 1 and nested(n) puts its innermost field n + 1 levels below it.
    EXPECT_TRUE(throwsExactly([&] { UpdateDriver(setX(nested(99))).apply(J("{_id: 1}"), "", false, &changed); },
                              15, "Document exceeds maximum nesting depth of 100"));
    EXPECT_NO_THROW(UpdateDriver(setX(nested(98))).apply(J("{_id: 1}"), "", false, &changed));
}

TEST(UpdateSetOnInsert, AppliesOnlyOnInsert) {
    bool changed = true;
    auto out = applyJson("{$setOnInsert: {a: 1}}", "{_id: 1}", &changed);
    EXPECT_FALSE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$setOnInsert: {a: 1}, $set: {b: 2}}", "{_id: 1}", nullptr, "", true),
                              "{_id: 1, a: 1, b: 2}"));
}

TEST(UpdateUnset, RemovesField) {
    bool changed = false;
    auto out = applyJson("{$unset: {a: ''}}", "{_id: 1, a: 1, b: 2}", &changed);
    EXPECT_TRUE(changed);
    EXPECT_TRUE(bsonIdentical(out, "{_id: 1, b: 2}"));
}

TEST(UpdateUnset, MissingFieldIsANoOp) {
    bool changed = true;
    applyJson("{$unset: {x: 1, 'a.b.c': 1, 'a.0': 1}}", "{_id: 1, a: 5}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateUnset, RemovesNestedField) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$unset: {'a.b': 1}}", "{_id: 1, a: {b: 1, c: 2}}"), "{_id: 1, a: {c: 2}}"));
}

TEST(UpdateUnset, ArrayElementBecomesNull) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$unset: {'a.1': 1}}", "{_id: 1, a: [1, 2, 3]}"), "{_id: 1, a: [1, null, 3]}"));
}

TEST(UpdateUnset, IdCannotBeUnset) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$unset: {_id: 1}}", "{_id: 1}"); }, 66,
                              "Performing an update on the path '_id' would modify the immutable field '_id'"));
}

TEST(UpdateUnset, DollarPrefixedFieldCanBeRemoved) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$unset: {$a: 1}}", "{_id: 1, $a: 1}"), "{_id: 1}"));
}

TEST(UpdateCurrentDate, SetsDateOrTimestamp) {
    // Built directly: the JSON parser mistakes {$type: 'date'} for legacy binary syntax.
    BSONObjBuilder spec;
    spec.append("a", true);
    {
        BSONObjBuilder t;
        t.append("$type", "timestamp");
        spec.append("b", t.obj());
    }
    {
        BSONObjBuilder t;
        t.append("$type", "date");
        spec.append("c", t.obj());
    }
    spec.append("d", false);
    BSONObjBuilder update;
    update.append("$currentDate", spec.obj());
    bool changed;
    auto out = UpdateDriver(update.obj()).apply(J("{_id: 1, a: 1}"), "", false, &changed);
    EXPECT_EQ(out["a"].type(), Date);
    EXPECT_EQ(out["b"].type(), bsonTimestamp);
    EXPECT_EQ(out["c"].type(), Date);
    EXPECT_EQ(out["d"].type(), Date);
    EXPECT_GT(out["a"].date().millis, 1600000000000LL);
    EXPECT_GT(out["b"].timestamp().secs, 1600000000u);
    EXPECT_EQ(out.firstElementFieldName(), "_id");
    EXPECT_TRUE(changed);
}

TEST(UpdateCurrentDate, TimestampsIncrease) {
    auto a = applyJson("{$currentDate: {t: {$type: 'timestamp'}}}", "{_id: 1}");
    auto b = applyJson("{$currentDate: {t: {$type: 'timestamp'}}}", "{_id: 1}");
    EXPECT_LT(a["t"].timestamp().asULL(), b["t"].timestamp().asULL());
}

TEST(UpdateCurrentDate, BadArguments) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$currentDate: {a: 1}}")); }, 2,
                              "int is not valid type for $currentDate. Please use a boolean ('true') or a $type "
                              "expression ({$type: 'timestamp/date'})."));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$currentDate: {a: {$type: 'x'}}}")); }, 2,
                              "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: "
                              "{field : {$type: 'date'}}}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$currentDate: {a: {foo: 1}}}")); }, 2,
                              "Unrecognized $currentDate option: foo"));
}

TEST(UpdateRename, MovesFieldToTheEnd) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$rename: {a: 'z'}}", "{_id: 1, a: 1, b: 2}"), "{_id: 1, b: 2, z: 1}"));
}

TEST(UpdateRename, OverwritesExistingDestinationInPlace) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$rename: {a: 'b'}}", "{_id: 1, a: 1, b: 2, c: 3}"), "{_id: 1, b: 1, c: 3}"));
}

TEST(UpdateRename, NestedPaths) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$rename: {'a.b': 'c.d'}}", "{_id: 1, a: {b: 1, x: 2}}"),
                              "{_id: 1, a: {x: 2}, c: {d: 1}}"));
}

TEST(UpdateRename, MissingSourceIsANoOp) {
    bool changed = true;
    applyJson("{$rename: {x: 'y'}}", "{_id: 1, a: 1}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateRename, ArraysAlongThePathAreRefused) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$rename: {'a.0.b': 'c'}}", "{_id: 1, a: [{b: 1}]}"); }, 2,
                              "The source field cannot be an array element, 'a.0.b' in doc with _id: 1 has an array "
                              "field called 'a'"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$rename: {c: 'a.0.b'}}", "{_id: 1, a: [{b: 1}], c: 1}"); }, 2,
                              "The destination field cannot be an array element, 'a.0.b' in doc with _id: 1 has an "
                              "array field called 'a'"));
}

TEST(UpdateRename, NonViableSourcePath) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$rename: {'a.b': 'c'}}", "{_id: 1, a: 1}"); }, 28,
                              "cannot use the part (b of a.b) to traverse the element ({a: 1})"));
}

TEST(UpdateRename, IdIsImmutable) {
    EXPECT_TRUE(throwsCode([] { applyJson("{$rename: {_id: 'x'}}", "{_id: 1}"); }, 66));
    EXPECT_TRUE(throwsCode([] { applyJson("{$rename: {x: '_id'}}", "{_id: 1, x: 2}"); }, 66));
}

TEST(UpdateRename, ParseErrors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 1}}")); }, 2,
                              "The 'to' field for $rename must be a string: a: 1"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 'a'}}")); }, 2,
                              "The source and target field for $rename must differ: a: \"a\""));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 'a.b'}}")); }, 2,
                              "The source and target field for $rename must not be on the same path: a: \"a.b\""));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {'a.$': 'b'}}")); }, 2,
                              "The source field for $rename may not be dynamic: a.$"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 'b.$[]'}}")); }, 2,
                              "The destination field for $rename may not be dynamic: b.$[]"));
}

TEST(UpdateRename, ConflictsWithOtherOperatorsOnEitherPath) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 'b'}, $set: {a: 1}}")); }, 40,
                              "Updating the path 'a' would create a conflict at 'a'"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$rename: {a: 'b'}, $set: {'b.c': 1}}")); }, 40,
                              "Updating the path 'b.c' would create a conflict at 'b'"));
}

}  // namespace
}  // namespace mongo
