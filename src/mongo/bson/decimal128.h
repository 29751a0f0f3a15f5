#pragma once
// Decimal128: an IEEE 754-2008 decimal128 value in the binary integer decimal (BID) encoding
// BSON stores, decoded into sign, coefficient and exponent so that it can be compared exactly
// and converted without going through a string.
//
// What it offers (and what it does not): decoding and encoding of the 16 bytes, exact
// comparison, exact conversion from int64, conversion from double rounded to 34 or 15
// significant digits (round half to even, the two precisions MongoDB uses: 34 to compare a
// double with a decimal, 15 to convert a double for arithmetic and $toDecimal), exact
// conversion to int64, nearest conversion to double, and the canonical form of a value.
// Arithmetic lives elsewhere (db/update/decimal_arith.h); strings go through libbson.
//
// Value rules (MongoDB's): NaN equals NaN (the sign and signalling bit of a NaN are ignored)
// and sorts below every other number; +0 and -0 and zeros of any exponent are equal; 1.0 and
// 1.00 are equal. A non-canonical encoding (a coefficient of 10^34 or more) is zero, as the
// standard says.
//
// Thread safety: a value type; immutable functions, safe to share between threads.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mongo {

class Decimal128 {
public:
    using uint128 = unsigned __int128;
    enum class Kind : uint8_t { kFinite, kInfinity, kNaN };

    static constexpr int kMaxDigits = 34;
    static constexpr int kMinExponent = -6176;  // exponent of the coefficient's last digit
    static constexpr int kMaxExponent = 6111;
    static constexpr int kExponentBias = 6176;

    // The precision of a double -> decimal conversion.
    enum class DoublePrecision { k15Digits, k34Digits };

    Decimal128() = default;  // +0E+0
    // A finite value: (-1)^negative * coefficient * 10^exponent.
    // REQUIRES: coefficient < 10^34, kMinExponent <= exponent <= kMaxExponent.
    Decimal128(bool negative, uint128 coefficient, int exponent)
        : _negative(negative), _coefficient(coefficient), _exponent(exponent) {}
    static Decimal128 nan() { return special(Kind::kNaN, false); }
    static Decimal128 infinity(bool negative) { return special(Kind::kInfinity, negative); }

    // From the 16 bytes BSON stores (the low 64 bits little-endian, then the high 64 bits).
    static Decimal128 fromBytes(const unsigned char bytes[16]);
    std::array<unsigned char, 16> toBytes() const;
    static Decimal128 fromInt64(int64_t v);  // exact, exponent 0
    // Rounded to the given number of significant digits, half to even. 15 digits keeps its
    // trailing zeros (2.5 -> 2.50000000000000, as MongoDB's $toDecimal); 34 digits is the exact
    // value when that has 34 digits or fewer and no trailing zeros are added (0.5 -> 0.5).
    // NaN and infinities convert to their decimal counterparts, -0.0 to -0.
    static Decimal128 fromDouble(double d, DoublePrecision precision);
    // Parses a decimal string as libbson does ("1.5", "-1E+3", "NaN", "Infinity").
    static bool fromString(std::string_view s, Decimal128* out);
    // The canonical string form ("1.50", "1.0E+3", "NaN", "-Infinity"), as MongoDB prints it.
    std::string toString() const;

    Kind kind() const { return _kind; }
    bool isNaN() const { return _kind == Kind::kNaN; }
    bool isInfinite() const { return _kind == Kind::kInfinity; }
    bool isFinite() const { return _kind == Kind::kFinite; }
    bool isZero() const { return _kind == Kind::kFinite && _coefficient == 0; }
    bool isNegative() const { return _negative; }  // the sign bit (also set for -0)
    uint128 coefficient() const { return _coefficient; }
    int exponent() const { return _exponent; }
    // Number of digits of the coefficient (1 for zero).
    int digits() const;
    // The exponent of the most significant digit: 1.5E+3 has 3. Finite values only.
    int adjustedExponent() const { return _exponent + digits() - 1; }

    // The same value in canonical form: no trailing zeros in the coefficient, zero as +0E+0,
    // NaN positive. Two values compare equal iff their canonical forms are identical.
    Decimal128 normalized() const;
    // True when the value is an integer that fits in int64 (sets *out).
    bool toInt64Exact(int64_t* out) const;
    // The nearest double (ties to even), as strtod of the decimal string would give; values
    // beyond the double range become +-infinity or +-0.
    double toDouble() const;

    // Exact comparison by value (see the rules above): <0, 0, >0.
    static int compare(const Decimal128& a, const Decimal128& b);

    // 10^n for 0 <= n <= 38.
    static uint128 powerOfTen(int n);

private:
    static Decimal128 special(Kind k, bool negative) {
        Decimal128 d;
        d._kind = k;
        d._negative = negative;
        return d;
    }

    Kind _kind = Kind::kFinite;
    bool _negative = false;
    uint128 _coefficient = 0;
    int _exponent = 0;
};

// Decimal digits of a 128-bit unsigned integer ("0" for zero).
std::string uint128ToString(Decimal128::uint128 v);

}  // namespace mongo
