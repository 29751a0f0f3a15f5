// $inc, $mul, $min, $max and $bit: numeric promotion, missing fields, no-ops and type errors;
// Decimal128 arithmetic.
#include "mongo/db/update/decimal_arith.h"
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdateInc, AddsKeepingInt32) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: 2}}", "{_id: 1, a: 5}"), "{_id: 1, a: 7}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: -10}}", "{_id: 1, a: 5}"), "{_id: 1, a: -5}"));
}

TEST(UpdateInc, Int32OverflowPromotesToInt64) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: 1}}", "{_id: 1, a: 2147483647}"),
                              "{_id: 1, a: {$numberLong: '2147483648'}}"));
}

TEST(UpdateInc, Int64OverflowPromotesToDouble) {
    auto out = applyJson("{$inc: {a: 1}}", "{_id: 1, a: {$numberLong: '9223372036854775807'}}");
    EXPECT_EQ(out["a"].type(), NumberDouble);
    EXPECT_DOUBLE_EQ(out["a"].numberDouble(), 9223372036854775808.0);
}

TEST(UpdateInc, ResultTakesTheWiderType) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: {$numberLong: '1'}}}", "{_id: 1, a: 1}"),
                              "{_id: 1, a: {$numberLong: '2'}}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: 1.5}}", "{_id: 1, a: 1}"), "{_id: 1, a: 2.5}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: 1}}", "{_id: 1, a: 1.5}"), "{_id: 1, a: 2.5}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: {$numberDecimal: '0.1'}}}", "{_id: 1, a: 1}"),
                              "{_id: 1, a: {$numberDecimal: '1.1'}}"));
}

TEST(UpdateInc, DecimalArithmeticIsExact) {
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$inc: {a: {$numberDecimal: '0.2'}}}", "{_id: 1, a: {$numberDecimal: '0.1'}}"),
        "{_id: 1, a: {$numberDecimal: '0.3'}}"));
}

TEST(UpdateInc, DoubleToDecimalUsesFifteenDigits) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {a: 0.1}}", "{_id: 1, a: {$numberDecimal: '1'}}"),
                              "{_id: 1, a: {$numberDecimal: '1.100000000000000'}}"));
}

TEST(UpdateInc, MissingFieldIsCreatedWithTheIncrement) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$inc: {'a.b': {$numberLong: '3'}}}", "{_id: 1}"),
                              "{_id: 1, a: {b: {$numberLong: '3'}}}"));
}

TEST(UpdateInc, IncrementByZeroIsANoOp) {
    bool changed = true;
    applyJson("{$inc: {a: 0}}", "{_id: 1, a: 5}", &changed);
    EXPECT_FALSE(changed);
    applyJson("{$inc: {a: 0.0}}", "{_id: 1, a: 5}", &changed);
    EXPECT_TRUE(changed);  // 5 becomes the double 5.0
}

TEST(UpdateInc, NonNumericTargetIsATypeMismatch) {
    EXPECT_TRUE(throwsExactly([] { applyJson("{$inc: {a: 1}}", "{_id: 1, a: 'x'}"); }, 14,
                              "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'a' of "
                              "non-numeric type string"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$mul: {'a.1': 2}}", "{a: [1, null]}"); }, 14,
                              "Cannot apply $mul to a value of non-numeric type. {no id} has the field '1' of "
                              "non-numeric type null"));
}

TEST(UpdateInc, NonNumericArgumentIsATypeMismatch) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$inc: {a: 'x'}}")); }, 14,
                              "Cannot increment with non-numeric argument: {a: \"x\"}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$mul: {a: null}}")); }, 14,
                              "Cannot multiply with non-numeric argument: {a: null}"));
}

TEST(UpdateMul, Multiplies) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: 3}}", "{_id: 1, a: 5}"), "{_id: 1, a: 15}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: 2.5}}", "{_id: 1, a: 2}"), "{_id: 1, a: 5.0}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: 65536}}", "{_id: 1, a: 65536}"),
                              "{_id: 1, a: {$numberLong: '4294967296'}}"));
    EXPECT_TRUE(bsonIdentical(
        applyJson("{$mul: {a: {$numberDecimal: '1.5'}}}", "{_id: 1, a: {$numberDecimal: '2.0'}}"),
        "{_id: 1, a: {$numberDecimal: '3.00'}}"));
}

TEST(UpdateMul, MissingFieldBecomesZeroOfTheMultipliersType) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: 5}}", "{_id: 1}"), "{_id: 1, a: 0}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: 2.5}}", "{_id: 1}"), "{_id: 1, a: 0.0}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$mul: {a: {$numberLong: '5'}}}", "{_id: 1}"),
                              "{_id: 1, a: {$numberLong: '0'}}"));
}

TEST(UpdateMul, MultiplyByOneIsANoOp) {
    bool changed = true;
    applyJson("{$mul: {a: 1}}", "{_id: 1, a: 5}", &changed);
    EXPECT_FALSE(changed);
}

TEST(UpdateMinMax, ReplaceOnlyWhenSmallerOrLarger) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$min: {a: 3}}", "{_id: 1, a: 5}"), "{_id: 1, a: 3}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$max: {a: 7}}", "{_id: 1, a: 5}"), "{_id: 1, a: 7}"));
    bool changed = true;
    applyJson("{$min: {a: 7}}", "{_id: 1, a: 5}", &changed);
    EXPECT_FALSE(changed);
    applyJson("{$max: {a: 5.0}}", "{_id: 1, a: 5}", &changed);
    EXPECT_FALSE(changed);  // equal values are left alone
}

TEST(UpdateMinMax, CompareAcrossTypes) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$min: {a: null}}", "{_id: 1, a: 5}"), "{_id: 1, a: null}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$max: {a: 'x'}}", "{_id: 1, a: 5}"), "{_id: 1, a: 'x'}"));
}

TEST(UpdateMinMax, MissingFieldIsSet) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$max: {'a.b': 1}}", "{_id: 1}"), "{_id: 1, a: {b: 1}}"));
}

TEST(UpdateBit, AndOrXor) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {and: 10}}}", "{_id: 1, a: 13}"), "{_id: 1, a: 8}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {or: 2}}}", "{_id: 1, a: 13}"), "{_id: 1, a: 15}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {xor: 5}}}", "{_id: 1, a: 13}"), "{_id: 1, a: 8}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {and: 12, or: 1}}}", "{_id: 1, a: 13}"), "{_id: 1, a: 13}"));
}

TEST(UpdateBit, LongOperandGivesLong) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {or: {$numberLong: '1'}}}}", "{_id: 1, a: 2}"),
                              "{_id: 1, a: {$numberLong: '3'}}"));
}

TEST(UpdateBit, MissingFieldStartsFromZero) {
    EXPECT_TRUE(bsonIdentical(applyJson("{$bit: {a: {or: 5}}}", "{_id: 1}"), "{_id: 1, a: 5}"));
}

TEST(UpdateBit, Errors) {
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$bit: {a: 1}}")); }, 2,
                              "The $bit modifier is not compatible with a int.  You must pass in an embedded "
                              "document: {$bit: {field: {and/or/xor: #}}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$bit: {a: {nand: 1}}}")); }, 2,
                              "The $bit modifier only supports 'and', 'or', and 'xor', not 'nand' which is an "
                              "unknown operator: {nand: 1}"));
    EXPECT_TRUE(throwsExactly([] { UpdateDriver(J("{$bit: {a: {and: 1.0}}}")); }, 2,
                              "The $bit modifier field must be an Integer(32/64 bit); a 'double' is not supported "
                              "here: {and: 1.0}"));
    EXPECT_TRUE(throwsCode([] { UpdateDriver(J("{$bit: {a: {}}}")); }, 2, "You must pass in at least one bitwise"));
    EXPECT_TRUE(throwsExactly([] { applyJson("{$bit: {a: {and: 1}}}", "{_id: 1, a: 1.5}"); }, 2,
                              "Cannot apply $bit to a value of non-integral type._id: 1 has the field a of "
                              "non-integer type double"));
}

TEST(DecimalArith, AddAndMultiply) {
    auto d = [](const char* s) { return decimalFromString(s); };
    EXPECT_EQ(decimalToString(decimalAdd(d("1.5"), d("2.25"))), "3.75");
    EXPECT_EQ(decimalToString(decimalAdd(d("-1.5"), d("1.5"))), "0.0");
    EXPECT_EQ(decimalToString(decimalAdd(d("1E+2"), d("1"))), "101");
    EXPECT_EQ(decimalToString(decimalMultiply(d("1.5"), d("-2"))), "-3.0");
    EXPECT_EQ(decimalToString(decimalAdd(d("NaN"), d("1"))), "NaN");
    EXPECT_EQ(decimalToString(decimalAdd(d("Infinity"), d("-Infinity"))), "NaN");
    EXPECT_EQ(decimalToString(decimalMultiply(d("Infinity"), d("-2"))), "-Infinity");
}

TEST(DecimalArith, RoundsToThirtyFourDigitsHalfEven) {
    auto d = [](const char* s) { return decimalFromString(s); };
    // 1 + 0.5E-33 is exactly halfway: rounds to the even 1.000...0 (34 digits).
    EXPECT_EQ(decimalToString(decimalAdd(d("1"), d("5E-34"))), "1.000000000000000000000000000000000");
    EXPECT_EQ(decimalToString(decimalAdd(d("1"), d("6E-34"))), "1.000000000000000000000000000000001");
    EXPECT_EQ(decimalToString(decimalMultiply(d("9999999999999999999999999999999999"), d("10"))),
              "9.999999999999999999999999999999999E+34");
}

}  // namespace
}  // namespace mongo
