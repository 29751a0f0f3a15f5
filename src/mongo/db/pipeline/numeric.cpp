#include "mongo/db/pipeline/numeric.h"

#include <bson/bson.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace mongo {

int numericRank(BSONType t) {
    switch (t) {
        case NumberInt: return 0;
        case NumberLong: return 1;
        case NumberDouble: return 2;
        case NumberDecimal: return 3;
        default: return -1;
    }
}

BSONType widerNumericType(BSONType a, BSONType b) { return numericRank(a) >= numericRank(b) ? a : b; }

long double toLongDouble(const Value& v) {
    switch (v.getType()) {
        case NumberInt:
        case NumberLong: return static_cast<long double>(v.coerceToLong());
        case NumberDouble: return v.getDouble();
        case NumberDecimal: {
            std::string s = v.coerceToString();
            if (s == "NaN" || s == "-NaN") return std::numeric_limits<long double>::quiet_NaN();
            if (s == "Infinity") return std::numeric_limits<long double>::infinity();
            if (s == "-Infinity") return -std::numeric_limits<long double>::infinity();
            return std::strtold(s.c_str(), nullptr);
        }
        default: return 0;
    }
}

Value decimalFromLongDouble(long double x) {
    if (std::isnan(x)) return Value::decimalFromString("NaN");
    if (std::isinf(x)) return Value::decimalFromString(x > 0 ? "Infinity" : "-Infinity");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.18Lg", x);
    return Value::decimalFromString(buf);
}

Value numericValue(BSONType type, long double x) {
    switch (type) {
        case NumberInt:
            if (x == std::trunc(x) && x >= std::numeric_limits<int>::min() && x <= std::numeric_limits<int>::max())
                return Value(static_cast<int>(x));
            [[fallthrough]];
        case NumberLong:
            if (x == std::trunc(x) && x >= -9.2233720368547758e18L && x < 9.2233720368547758e18L)
                return Value(static_cast<long long>(x));
            return Value(static_cast<double>(x));
        case NumberDecimal: return decimalFromLongDouble(x);
        default: return Value(static_cast<double>(x));
    }
}

Value doubleOrDecimal(bool decimal, long double x) {
    return decimal ? decimalFromLongDouble(x) : Value(static_cast<double>(x));
}

void NumericSum::add(const Value& v) {
    _n++;
    _type = widerNumericType(_type, v.getType());
    if (v.getType() == NumberInt || v.getType() == NumberLong) {
        long long r;
        if (__builtin_add_overflow(_intSum, v.coerceToLong(), &r))
            _intOverflow = true;
        else
            _intSum = r;
    }
    // Kahan summation keeps doubles accurate over long runs.
    long double y = toLongDouble(v) - _comp;
    long double t = _ldSum + y;
    _comp = (t - _ldSum) - y;
    _ldSum = t;
    if (std::isnan(_comp) || std::isinf(_comp)) _comp = 0;
}

Value NumericSum::result() const {
    switch (_type) {
        case NumberInt:
            if (!_intOverflow) {
                if (_intSum >= std::numeric_limits<int>::min() && _intSum <= std::numeric_limits<int>::max())
                    return Value(static_cast<int>(_intSum));
                return Value(_intSum);
            }
            return Value(static_cast<double>(_ldSum));
        case NumberLong:
            if (!_intOverflow) return Value(_intSum);
            return Value(static_cast<double>(_ldSum));
        case NumberDecimal: return decimalFromLongDouble(_ldSum);
        default: return Value(static_cast<double>(_ldSum));
    }
}

}  // namespace mongo
