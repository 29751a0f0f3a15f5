#pragma once
// Numeric helpers for expressions and accumulators, with MongoDB's result-type rules:
// int op int -> int (long when it overflows), long -> long (double when it overflows),
// any double -> double, any decimal -> decimal.
// Decimal128 arithmetic is carried out in long double (about 19 significant digits) and the
// result rounded back to a Decimal128; exact decimal arithmetic is not implemented.
#include "mongo/db/pipeline/value.h"

namespace mongo {

// Order of numeric types for widening: int < long < double < decimal.
int numericRank(BSONType t);
BSONType widerNumericType(BSONType a, BSONType b);

// The value of a numeric Value as long double (decimals parsed from their string form).
long double toLongDouble(const Value& v);
// A decimal Value holding x (rounded to 18 significant digits).
Value decimalFromLongDouble(long double x);
// A Value of the given numeric type for x (int/long only when x fits; otherwise double).
Value numericValue(BSONType type, long double x);

// Sum of numbers, exact for ints/longs while they fit (used by $add, $sum, $avg).
class NumericSum {
public:
    void add(const Value& v);  // v must be numeric
    Value result() const;      // int 0 when nothing was added
    long double asLongDouble() const { return _ldSum; }
    BSONType type() const { return _type; }
    long long count() const { return _n; }

private:
    BSONType _type = NumberInt;
    long long _intSum = 0;
    bool _intOverflow = false;
    long double _ldSum = 0;
    long double _comp = 0;  // Kahan compensation for the long double sum
    long long _n = 0;
};

// Floating point results as MongoDB returns them (NaN/Inf kept).
Value doubleOrDecimal(bool decimal, long double x);

}  // namespace mongo
