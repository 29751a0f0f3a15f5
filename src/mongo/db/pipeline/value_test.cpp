#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "mongo/db/pipeline/pipeline_test_util.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {
namespace {

using test::J;

TEST(Value, CanonicalComparisonAcrossTypes) {
    EXPECT_LT(Value::compare(Value(), Value::null()), 0);  // missing sorts before null
    EXPECT_EQ(Value::compare(Value(1), Value(1.0)), 0);
    EXPECT_EQ(Value::compare(Value(1), Value(1LL)), 0);
    EXPECT_LT(Value::compare(Value(5), Value("a")), 0);
    EXPECT_LT(Value::compare(Value("a"), Value(Document())), 0);
    EXPECT_LT(Value::compare(Value(Document()), Value(std::vector<Value>())), 0);
    EXPECT_LT(Value::compare(Value(std::nan("")), Value(-1e308)), 0);
    EXPECT_EQ(Value::compare(Value::minKey(), Value::minKey()), 0);
    EXPECT_LT(Value::compare(Value::minKey(), Value()), 0);
    EXPECT_GT(Value::compare(Value::maxKey(), Value(Date_t{0})), 0);
}

TEST(Value, NumbersCompareByExactValueAcrossTypes) {
    Value dec01 = Value::decimalFromString("0.1"), dec1 = Value::decimalFromString("1.00");
    EXPECT_GT(Value::compare(Value(0.1), dec01), 0);  // 0.1000000000000000055... > 0.1
    EXPECT_EQ(Value::compare(Value(0.1), Value::decimalFromString("0.1000000000000000055511151231257827")), 0);
    EXPECT_EQ(Value::compare(Value(1), dec1), 0);
    EXPECT_EQ(Value::compare(Value(1.0), dec1), 0);
    EXPECT_EQ(Value::compare(Value(1LL), dec1), 0);
    EXPECT_LT(Value::compare(Value(9223372036854775807LL), Value(9223372036854775808.0)), 0);
    EXPECT_GT(Value::compare(Value(9007199254740993LL), Value(9007199254740992.0)), 0);
    EXPECT_EQ(Value::compare(Value(std::nan("")), Value::decimalFromString("NaN")), 0);
    EXPECT_LT(Value::compare(Value::decimalFromString("NaN"), Value(-INFINITY)), 0);
    EXPECT_EQ(Value::compare(Value::decimalFromString("-Infinity"), Value(-INFINITY)), 0);
    EXPECT_EQ(Value::compare(Value(-0.0), Value::decimalFromString("0E+5")), 0);
    // $group keys are ordered-map keys under this comparison: 1, 1.0, 1L and 1.00 are one
    // group, the double 0.1 and the decimal 0.1 are two.
    std::set<Value, ValueLess> groups = {Value(1), Value(1.0), Value(1LL), dec1, Value(0.1), dec01};
    EXPECT_EQ(groups.size(), 3u);
}

TEST(Value, DecimalConversionsAreExact) {
    Value big = Value::decimalFromString("9007199254740993");
    EXPECT_TRUE(big.integral64());
    EXPECT_EQ(big.coerceToLong(), 9007199254740993LL);
    EXPECT_FALSE(Value::decimalFromString("9223372036854775808").integral64());
    EXPECT_TRUE(Value::decimalFromString("1E-400").coerceToBool());  // not zero, although its double is
    EXPECT_TRUE(Value::decimalFromString("-NaN").isNaN());
    unsigned char out[16];
    Value(2.5).coerceToDecimal(out);
    EXPECT_EQ(Value::decimal(out).coerceToString(), "2.50000000000000");  // as MongoDB's $toDecimal
    Value(7LL).coerceToDecimal(out);
    EXPECT_EQ(Value::decimal(out).coerceToString(), "7");
}

TEST(Value, RoundTripsEveryBsonType) {
    BSONObj o = J("{d: 1.5, s: 'x', o: {a: [1, {b: 2}]}, arr: [], oid: {$oid: '5ab9cbfa31c2ab715d42129e'}, t: true,"
                  " date: {$date: {$numberLong: '5'}}, n: null, re: {$regex: 'a', $options: 'i'}, i: 1,"
                  " ts: {$timestamp: {t: 1, i: 2}}, l: {$numberLong: '9'}, dec: {$numberDecimal: '1.5'},"
                  " bin: {$binary: {base64: 'AQI=', subType: '00'}}, mn: {$minKey: 1}, mx: {$maxKey: 1}}");
    Document d = Document::fromBson(o);
    EXPECT_TRUE(d.toBson().binaryEqual(o));
    // A rebuilt copy (no cached BSON) serialises identically.
    Document rebuilt(std::vector<Document::Field>(d.fields()));
    EXPECT_TRUE(rebuilt.toBson().binaryEqual(o));
}

TEST(Document, LazySplitAndFieldAccess) {
    Document d = Document::fromBson(J("{a: 1, b: {c: 2}}"));
    EXPECT_EQ(d.getField("a").getInt(), 1);
    EXPECT_TRUE(d.getField("zz").missing());
    EXPECT_EQ(d.getNestedField(FieldPath("b.c")).getInt(), 2);
    EXPECT_EQ(d.size(), 2u);
}

TEST(MutableDoc, SetFieldKeepsPositionAndNestedCreatesDocuments) {
    MutableDoc m(Document::fromBson(J("{a: 1, b: 2}")));
    m.setField("a", Value(5));
    m.setNestedField(FieldPath("c.d"), Value(1));
    m.setNestedField(FieldPath("b.x"), Value(2));  // b was a scalar: replaced by a document
    m.setField("missing", Value());
    EXPECT_EQ(m.freeze().toBson().jsonString(true), J("{a: 5, b: {x: 2}, c: {d: 1}}").jsonString(true));
}

TEST(FieldPath, Validation) {
    EXPECT_EQ(FieldPath("a.b.c").size(), 3u);
    EXPECT_EQ(test::errorCode([] { FieldPath(""); }), 40352);
    EXPECT_EQ(test::errorCode([] { FieldPath("a."); }), 40353);
    EXPECT_EQ(test::errorCode([] { FieldPath("a..b"); }), 15998);
    EXPECT_EQ(test::errorCode([] { FieldPath("$a"); }), 16410);
    EXPECT_EQ(FieldPath("a.$id").size(), 2u);
}

TEST(Value, ToStringForMessages) {
    EXPECT_EQ(Value("x").toString(), "\"x\"");
    EXPECT_EQ(Value(2.0).toString(), "2");
    EXPECT_EQ(Value(Document::fromBson(J("{a: [1, 'b']}"))).toString(), "{a: [1, \"b\"]}");
}

}  // namespace
}  // namespace mongo
