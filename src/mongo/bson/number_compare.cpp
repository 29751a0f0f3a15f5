// Exact cross-type number comparison; see number_compare.h.
#include "mongo/bson/number_compare.h"

#include <cmath>
#include <cstring>

namespace mongo {
namespace {

template <typename T>
int cmp3(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

constexpr double kTwoTo63 = 9223372036854775808.0;

bool isIntegerType(BSONType t) { return t == NumberInt || t == NumberLong; }

}  // namespace

BSONNumber BSONNumber::fromElement(const BSONElement& e) {
    switch (e.type()) {
        case NumberInt: return ofInt(e.numberInt());
        case NumberLong: return ofLong(e.numberLong());
        case NumberDouble: {
            double d;
            std::memcpy(&d, e.value(), 8);
            return ofDouble(d);
        }
        default: return ofDecimal(Decimal128::fromBytes(e.decimal128Bytes()));
    }
}

Decimal128 BSONNumber::toComparableDecimal() const {
    switch (type) {
        case NumberInt:
        case NumberLong: return Decimal128::fromInt64(i);
        case NumberDouble: return Decimal128::fromDouble(d, Decimal128::DoublePrecision::k34Digits);
        default: return dec;
    }
}

int compareDoubles(double a, double b) {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a == b) return 0;  // includes -0 == 0
    bool an = std::isnan(a), bn = std::isnan(b);
    return an && bn ? 0 : (an ? -1 : 1);
}

int compareInt64WithDouble(int64_t a, double b) {
    if (std::isnan(b)) return 1;
    if (b >= kTwoTo63) return -1;  // also +inf
    if (b < -kTwoTo63) return 1;   // also -inf
    // b is in [-2^63, 2^63): its integer part is an exact int64 and its fraction exact.
    double whole = std::trunc(b);
    int64_t wi = static_cast<int64_t>(whole);
    if (a != wi) return a < wi ? -1 : 1;
    double fraction = b - whole;
    return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0);
}

int compareDecimalWithDouble(const Decimal128& a, double b) {
    bool bn = std::isnan(b);
    if (a.isNaN() || bn) return a.isNaN() && bn ? 0 : (a.isNaN() ? -1 : 1);
    if (a.isInfinite() || std::isinf(b)) {
        int sa = a.isInfinite() ? (a.isNegative() ? -2 : 2) : 0;  // +-2: beyond every finite value
        int sb = std::isinf(b) ? (b < 0 ? -2 : 2) : 0;
        if (sa && sb) return cmp3(sa, sb);
        if (sa) return sa < 0 ? -1 : 1;
        return sb < 0 ? 1 : -1;
    }
    int sa = a.isZero() ? 0 : (a.isNegative() ? -1 : 1);
    int sb = b == 0 ? 0 : (b < 0 ? -1 : 1);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;

    // Fast paths decide most pairs without the exact (to_chars based) conversion of b. Both are
    // safe by a wide margin: b's 34-digit rounding moves it by less than 1e-33 relative.
    double mag = std::fabs(b);
    int ea = a.adjustedExponent();
    int eb = static_cast<int>(std::floor(std::log10(mag)));  // may be off by one
    if (ea > eb + 1) return sa;   // |a| >= 10^ea > 10 * |b|
    if (ea < eb - 1) return -sa;  // |a| < 10^(ea+1) <= |b| / 10
    // Both magnitudes are within about 10^+-330 here, inside long double's range; the
    // approximation of |a| is good to a few parts in 10^19.
    long double approx = static_cast<long double>(a.coefficient()) * std::pow(10.0L, a.exponent());
    long double diff = approx - static_cast<long double>(mag);
    if (std::fabs(diff) > 1e-15L * static_cast<long double>(mag)) return diff > 0 ? sa : -sa;

    return Decimal128::compare(a, Decimal128::fromDouble(b, Decimal128::DoublePrecision::k34Digits));
}

int compareNumbers(const BSONNumber& a, const BSONNumber& b) {
    bool ai = isIntegerType(a.type), bi = isIntegerType(b.type);
    if (ai && bi) return cmp3(a.i, b.i);
    if (a.type == NumberDouble && b.type == NumberDouble) return compareDoubles(a.d, b.d);
    if (ai && b.type == NumberDouble) return compareInt64WithDouble(a.i, b.d);
    if (a.type == NumberDouble && bi) return -compareInt64WithDouble(b.i, a.d);
    // At least one decimal.
    if (a.type == NumberDecimal && b.type == NumberDecimal) return Decimal128::compare(a.dec, b.dec);
    if (a.type == NumberDecimal) {
        if (b.type == NumberDouble) return compareDecimalWithDouble(a.dec, b.d);
        return Decimal128::compare(a.dec, Decimal128::fromInt64(b.i));
    }
    if (a.type == NumberDouble) return -compareDecimalWithDouble(b.dec, a.d);
    return Decimal128::compare(Decimal128::fromInt64(a.i), b.dec);
}

}  // namespace mongo
