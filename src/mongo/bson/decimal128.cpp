// Decimal128 decoding, encoding, comparison and conversions; see decimal128.h.
#include "mongo/bson/decimal128.h"

#include <bson/bson.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace mongo {
namespace {

using uint128 = Decimal128::uint128;

constexpr int kMaxPower = 38;  // 10^38 < 2^128 < 10^39

struct PowersOfTen {
    uint128 p[kMaxPower + 1];
    constexpr PowersOfTen() : p() {
        uint128 v = 1;
        for (int i = 0; i <= kMaxPower; ++i) {
            p[i] = v;
            v *= 10;
        }
    }
};
constexpr PowersOfTen kPowers;

// 10^34: coefficients at or above it are non-canonical encodings (read as zero).
const uint128 kCoefficientLimit = kPowers.p[Decimal128::kMaxDigits];

uint64_t readLittleEndian64(const unsigned char* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

void writeLittleEndian64(uint64_t v, unsigned char* p) {
    for (int i = 0; i < 8; ++i) {
        p[i] = static_cast<unsigned char>(v & 0xFF);
        v >>= 8;
    }
}

// Combination-field patterns in the 5 bits below the sign (bits 62..58 of the high word).
constexpr uint64_t kCombinationInfinity = 0x1E;
constexpr uint64_t kCombinationNaN = 0x1F;

int cmp3(uint128 a, uint128 b) { return a < b ? -1 : (a > b ? 1 : 0); }

}  // namespace

uint128 Decimal128::powerOfTen(int n) { return kPowers.p[n]; }

std::string uint128ToString(uint128 v) {
    if (v == 0) return "0";
    char buf[40];
    int pos = sizeof(buf);
    while (v != 0) {
        // Peel 19 digits at a time: one 128-bit division per chunk instead of per digit.
        uint64_t chunk = static_cast<uint64_t>(v % kPowers.p[19]);
        v /= kPowers.p[19];
        for (int i = 0; i < 19 && (chunk != 0 || v != 0); ++i) {
            buf[--pos] = static_cast<char>('0' + chunk % 10);
            chunk /= 10;
        }
    }
    return std::string(buf + pos, sizeof(buf) - pos);
}

Decimal128 Decimal128::fromBytes(const unsigned char bytes[16]) {
    uint64_t lo = readLittleEndian64(bytes);
    uint64_t hi = readLittleEndian64(bytes + 8);
    bool negative = (hi >> 63) != 0;
    uint64_t combination = (hi >> 58) & 0x1F;
    if (combination == kCombinationNaN) return nan();
    if (combination == kCombinationInfinity) return infinity(negative);
    Decimal128 d;
    d._negative = negative;
    if (((hi >> 61) & 3) == 3) {
        // The "11" form implies a coefficient of 2^113 or more: beyond 10^34, so zero.
        d._exponent = static_cast<int>((hi >> 47) & 0x3FFF) - kExponentBias;
        d._coefficient = 0;
    } else {
        d._exponent = static_cast<int>((hi >> 49) & 0x3FFF) - kExponentBias;
        uint128 c = (static_cast<uint128>(hi & ((uint64_t(1) << 49) - 1)) << 64) | lo;
        d._coefficient = c < kCoefficientLimit ? c : 0;
    }
    return d;
}

std::array<unsigned char, 16> Decimal128::toBytes() const {
    uint64_t hi, lo = 0;
    if (_kind == Kind::kNaN) {
        hi = kCombinationNaN << 58;
    } else if (_kind == Kind::kInfinity) {
        hi = (uint64_t(_negative) << 63) | (kCombinationInfinity << 58);
    } else {
        uint128 c = _coefficient;
        int e = _exponent;
        // A normalized() value may carry its trailing zeros in an exponent past the maximum.
        while (e > kMaxExponent && c != 0 && c < kPowers.p[kMaxDigits - 1]) {
            c *= 10;
            --e;
        }
        if (e > kMaxExponent) e = kMaxExponent;  // only zero gets here
        hi = (uint64_t(_negative) << 63) | (uint64_t(e + kExponentBias) << 49) | static_cast<uint64_t>(c >> 64);
        lo = static_cast<uint64_t>(c);
    }
    std::array<unsigned char, 16> out;
    writeLittleEndian64(lo, out.data());
    writeLittleEndian64(hi, out.data() + 8);
    return out;
}

Decimal128 Decimal128::fromInt64(int64_t v) {
    bool neg = v < 0;
    uint64_t mag = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return Decimal128(neg, mag, 0);
}

Decimal128 Decimal128::fromDouble(double d, DoublePrecision precision) {
    if (std::isnan(d)) return nan();
    if (std::isinf(d)) return infinity(d < 0);
    if (d == 0) return Decimal128(std::signbit(d), 0, 0);
    const int digits = precision == DoublePrecision::k34Digits ? 34 : 15;
    // std::to_chars with a precision prints the exact binary value correctly rounded, half to
    // even (as glibc's printf does, several times faster).
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf - 1, d, std::chars_format::scientific, digits - 1);
    *res.ptr = '\0';
    const char* p = buf;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        ++p;
    }
    // "d.ddd...e+XX": collect the digits; for 34 digits drop the trailing zeros, as characters
    // (cheaper than 128-bit divisions).
    char digitChars[40];
    int n = 0;
    for (; *p && *p != 'e'; ++p)
        if (*p >= '0' && *p <= '9' && n < 40) digitChars[n++] = *p;
    int exponent = (*p == 'e' ? std::atoi(p + 1) : 0) - (n - 1);
    if (precision == DoublePrecision::k34Digits) {
        while (n > 1 && digitChars[n - 1] == '0') {
            --n;
            ++exponent;
        }
    }
    uint64_t high = 0, low = 0;  // the first up to 19 digits, then the rest, in 64-bit arithmetic
    int lowDigits = 0;
    for (int i = 0; i < n; ++i) {
        if (i < 19) {
            high = high * 10 + uint64_t(digitChars[i] - '0');
        } else {
            low = low * 10 + uint64_t(digitChars[i] - '0');
            ++lowDigits;
        }
    }
    uint128 coefficient = uint128(high) * kPowers.p[lowDigits] + low;
    return Decimal128(neg, coefficient, exponent);
}

bool Decimal128::fromString(std::string_view s, Decimal128* out) {
    std::string str(s);
    bson_decimal128_t d;
    if (!bson_decimal128_from_string(str.c_str(), &d)) return false;
    unsigned char bytes[16];
    writeLittleEndian64(d.low, bytes);
    writeLittleEndian64(d.high, bytes + 8);
    *out = fromBytes(bytes);
    return true;
}

std::string Decimal128::toString() const {
    auto bytes = toBytes();
    bson_decimal128_t d;
    d.low = readLittleEndian64(bytes.data());
    d.high = readLittleEndian64(bytes.data() + 8);
    char buf[BSON_DECIMAL128_STRING];
    bson_decimal128_to_string(&d, buf);
    return buf;
}

int Decimal128::digits() const {
    int n = 1;
    while (n <= kMaxPower && _coefficient >= kPowers.p[n]) ++n;
    return n;
}

Decimal128 Decimal128::normalized() const {
    if (_kind == Kind::kNaN) return nan();
    if (_kind == Kind::kInfinity) return *this;
    if (_coefficient == 0) return Decimal128();
    Decimal128 d = *this;
    while (d._coefficient % 10 == 0) {
        d._coefficient /= 10;
        ++d._exponent;
    }
    return d;
}

bool Decimal128::toInt64Exact(int64_t* out) const {
    if (_kind != Kind::kFinite) return false;
    if (_coefficient == 0) {
        *out = 0;
        return true;
    }
    uint128 mag = _coefficient;
    if (_exponent < 0) {
        if (-_exponent > kMaxPower) return false;  // a non-zero coefficient < 10^34 has a fraction
        uint128 p = kPowers.p[-_exponent];
        if (mag % p != 0) return false;
        mag /= p;
    } else if (_exponent > 0) {
        if (adjustedExponent() > 18) return false;  // 10^19 > 2^63
        mag *= kPowers.p[_exponent];
    }
    const uint128 limit = uint128(1) << 63;  // |INT64_MIN|
    if (_negative ? mag > limit : mag >= limit) return false;
    *out = _negative ? static_cast<int64_t>(uint64_t(0) - static_cast<uint64_t>(mag)) : static_cast<int64_t>(mag);
    return true;
}

double Decimal128::toDouble() const {
    if (_kind == Kind::kNaN) return std::numeric_limits<double>::quiet_NaN();
    if (_kind == Kind::kInfinity)
        return _negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    double r;
    if (_coefficient < (uint128(1) << 53) && _exponent >= -22 && _exponent <= 22) {
        // Both operands are exact doubles, so one IEEE operation rounds correctly.
        static const double kExact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        double c = static_cast<double>(static_cast<uint64_t>(_coefficient));
        r = _exponent >= 0 ? c * kExact[_exponent] : c / kExact[-_exponent];
    } else {
        std::string s = uint128ToString(_coefficient) + "e" + std::to_string(_exponent);
        r = std::strtod(s.c_str(), nullptr);  // correctly rounded (glibc)
    }
    return _negative ? -r : r;
}

int Decimal128::compare(const Decimal128& a, const Decimal128& b) {
    if (a.isNaN() || b.isNaN()) return a.isNaN() && b.isNaN() ? 0 : (a.isNaN() ? -1 : 1);
    auto signOf = [](const Decimal128& d) { return d.isZero() ? 0 : (d._negative ? -1 : 1); };
    int sa = signOf(a), sb = signOf(b);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;
    int mag;
    if (a.isInfinite() || b.isInfinite()) {
        mag = a.isInfinite() && b.isInfinite() ? 0 : (a.isInfinite() ? 1 : -1);
    } else {
        int da = a.digits(), db = b.digits();
        int ea = a._exponent + da - 1, eb = b._exponent + db - 1;
        if (ea != eb) {
            mag = ea < eb ? -1 : 1;
        } else {
            // Same leading digit position: line the coefficients up (34 digits fit in 128 bits).
            uint128 ca = a._coefficient, cb = b._coefficient;
            if (da < db) ca *= kPowers.p[db - da];
            else if (db < da) cb *= kPowers.p[da - db];
            mag = cmp3(ca, cb);
        }
    }
    return sa > 0 ? mag : -mag;
}

}  // namespace mongo
