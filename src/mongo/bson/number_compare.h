#pragma once
// Exact comparison of numbers of the four BSON numeric types, by MongoDB's rules:
//  - int, long, double and decimal compare by exact value: the long 2^63-1 is less than the
//    double 9223372036854775808.0, and 2^53+1 differs from every double;
//  - a double compared with a decimal is first converted to a decimal rounded to 34 significant
//    digits (half to even), then the two decimals compare exactly: the double 0.1
//    (0.1000000000000000055511151231257827...) is greater than NumberDecimal("0.1");
//  - NaN (double or decimal) equals NaN and sorts below every other number; -0 equals 0;
//    infinities of either type are equal to each other and bound every finite number.
// This is a total order consistent with equality across types (equal values are equal whatever
// their types, and equality is transitive), which BSONElement::woCompare, Value::compare and
// the index key encoding (db/storage/key_string.h) all rely on.
//
// Thread safety: values and pure functions.
#include <cstdint>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/decimal128.h"

namespace mongo {

// A number of one of the four numeric types, unpacked for comparison.
struct BSONNumber {
    BSONType type = NumberInt;  // NumberInt, NumberLong, NumberDouble or NumberDecimal
    int64_t i = 0;              // NumberInt and NumberLong
    double d = 0;               // NumberDouble
    Decimal128 dec;             // NumberDecimal

    static BSONNumber ofInt(int v) { return BSONNumber{NumberInt, v, 0, {}}; }
    static BSONNumber ofLong(int64_t v) { return BSONNumber{NumberLong, v, 0, {}}; }
    static BSONNumber ofDouble(double v) { return BSONNumber{NumberDouble, 0, v, {}}; }
    static BSONNumber ofDecimal(const Decimal128& v) { return BSONNumber{NumberDecimal, 0, 0, v}; }
    // REQUIRES: e.isNumber().
    static BSONNumber fromElement(const BSONElement& e);

    // The value as a decimal that compares with every other number exactly as this number
    // does: exact for int, long and decimal, a double rounded to 34 digits. Its normalized()
    // form is the number's canonical value (equal numbers give identical canonical values).
    Decimal128 toComparableDecimal() const;
};

// <0, 0, >0 by the rules above.
int compareNumbers(const BSONNumber& a, const BSONNumber& b);

// The pairwise comparisons compareNumbers is made of.
int compareDoubles(double a, double b);
int compareInt64WithDouble(int64_t a, double b);
int compareDecimalWithDouble(const Decimal128& a, double b);

}  // namespace mongo
