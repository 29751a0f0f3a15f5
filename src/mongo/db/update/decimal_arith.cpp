#include "mongo/db/update/decimal_arith.h"

#include <algorithm>
#include <string>
#include <vector>

#include "mongo/bson/decimal128.h"

namespace mongo {
namespace {

constexpr int kMaxDigits = Decimal128::kMaxDigits;
constexpr int kMaxExponent = Decimal128::kMaxExponent;  // exponent of the last coefficient digit
constexpr int kMinExponent = Decimal128::kMinExponent;

// A decimal number as sign, coefficient digits (no leading zeros; "0" for zero) and the
// exponent of the last digit.
struct BigDecimal {
    enum Kind { kFinite, kNaN, kInf } kind = kFinite;
    bool negative = false;
    std::string digits = "0";
    int exponent = 0;
};

void stripLeadingZeros(std::string& s) {
    size_t nz = s.find_first_not_of('0');
    if (nz == std::string::npos)
        s = "0";
    else if (nz > 0)
        s.erase(0, nz);
}

std::string toBsonString(const BigDecimal& d) {
    if (d.kind == BigDecimal::kNaN) return "NaN";
    if (d.kind == BigDecimal::kInf) return d.negative ? "-Infinity" : "Infinity";
    return (d.negative ? "-" : "") + d.digits + "E" + std::to_string(d.exponent);
}

BigDecimal fromBytes(const Decimal128Bytes& b) {
    Decimal128 v = Decimal128::fromBytes(b.data());
    BigDecimal d;
    d.negative = v.isNegative();
    if (v.isNaN()) {
        d.kind = BigDecimal::kNaN;
    } else if (v.isInfinite()) {
        d.kind = BigDecimal::kInf;
    } else {
        d.digits = uint128ToString(v.coefficient());
        d.exponent = v.exponent();
    }
    return d;
}

// REQUIRES: d went through normalize() (its coefficient and exponent fit a decimal128).
Decimal128Bytes toBytes(const BigDecimal& d) {
    if (d.kind == BigDecimal::kNaN) return Decimal128::nan().toBytes();
    if (d.kind == BigDecimal::kInf) return Decimal128::infinity(d.negative).toBytes();
    if (d.digits.size() > static_cast<size_t>(kMaxDigits) || d.exponent < kMinExponent || d.exponent > kMaxExponent) {
        Decimal128 parsed = Decimal128::nan();
        Decimal128::fromString(toBsonString(d), &parsed);
        return parsed.toBytes();
    }
    Decimal128::uint128 c = 0;
    for (char ch : d.digits) c = c * 10 + Decimal128::uint128(ch - '0');
    return Decimal128(d.negative, c, d.exponent).toBytes();
}

// Increments a digit string by one unit in the last place.
void incrementDigits(std::string& s) {
    int i = static_cast<int>(s.size()) - 1;
    while (i >= 0 && s[i] == '9') s[i--] = '0';
    if (i < 0)
        s.insert(s.begin(), '1');
    else
        s[i]++;
}

// Drops the last n digits, rounding half to even.
void dropDigitsRounding(BigDecimal& d, size_t n) {
    if (n == 0) return;
    if (n > d.digits.size()) {
        // Everything is below half a unit of the new last place.
        d.digits = "0";
        d.exponent += static_cast<int>(n);
        return;
    }
    std::string dropped = d.digits.substr(d.digits.size() - n);
    d.digits.erase(d.digits.size() - n);
    d.exponent += static_cast<int>(n);
    if (d.digits.empty()) d.digits = "0";
    char first = dropped[0];
    bool restNonZero = dropped.find_first_not_of('0', 1) != std::string::npos;
    bool roundUp = first > '5' || (first == '5' && (restNonZero || ((d.digits.back() - '0') % 2 == 1)));
    if (roundUp) incrementDigits(d.digits);
    stripLeadingZeros(d.digits);
}

// Brings a finite result into decimal128's coefficient and exponent ranges.
BigDecimal normalize(BigDecimal d) {
    if (d.kind != BigDecimal::kFinite) return d;
    stripLeadingZeros(d.digits);
    if (d.digits.size() > static_cast<size_t>(kMaxDigits)) {
        dropDigitsRounding(d, d.digits.size() - kMaxDigits);
        if (d.digits.size() > static_cast<size_t>(kMaxDigits)) dropDigitsRounding(d, 1);  // 999.. carried
    }
    if (d.exponent < kMinExponent) {
        dropDigitsRounding(d, static_cast<size_t>(kMinExponent - d.exponent));
        if (d.exponent < kMinExponent) d.exponent = kMinExponent;
    }
    if (d.exponent > kMaxExponent) {
        if (d.digits == "0") {
            d.exponent = kMaxExponent;
        } else {
            size_t pad = static_cast<size_t>(d.exponent - kMaxExponent);
            if (d.digits.size() + pad > static_cast<size_t>(kMaxDigits)) {
                d.kind = BigDecimal::kInf;
                return d;
            }
            d.digits.append(pad, '0');
            d.exponent = kMaxExponent;
        }
    }
    return d;
}

int compareMagnitude(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string addMagnitudes(const std::string& a, const std::string& b) {
    std::string out;
    int carry = 0;
    int i = static_cast<int>(a.size()) - 1, j = static_cast<int>(b.size()) - 1;
    while (i >= 0 || j >= 0 || carry) {
        int s = carry + (i >= 0 ? a[i--] - '0' : 0) + (j >= 0 ? b[j--] - '0' : 0);
        out.push_back(static_cast<char>('0' + s % 10));
        carry = s / 10;
    }
    std::reverse(out.begin(), out.end());
    stripLeadingZeros(out);
    return out;
}

// REQUIRES: a >= b.
std::string subtractMagnitudes(const std::string& a, const std::string& b) {
    std::string out;
    int borrow = 0;
    int i = static_cast<int>(a.size()) - 1, j = static_cast<int>(b.size()) - 1;
    while (i >= 0) {
        int s = (a[i--] - '0') - borrow - (j >= 0 ? b[j--] - '0' : 0);
        borrow = s < 0;
        if (s < 0) s += 10;
        out.push_back(static_cast<char>('0' + s));
    }
    std::reverse(out.begin(), out.end());
    stripLeadingZeros(out);
    return out;
}

std::string multiplyMagnitudes(const std::string& a, const std::string& b) {
    std::vector<int> acc(a.size() + b.size(), 0);
    for (int i = static_cast<int>(a.size()) - 1; i >= 0; --i)
        for (int j = static_cast<int>(b.size()) - 1; j >= 0; --j) acc[i + j + 1] += (a[i] - '0') * (b[j] - '0');
    for (int k = static_cast<int>(acc.size()) - 1; k > 0; --k) {
        acc[k - 1] += acc[k] / 10;
        acc[k] %= 10;
    }
    std::string out;
    for (int v : acc) out.push_back(static_cast<char>('0' + v));
    stripLeadingZeros(out);
    return out;
}

BigDecimal add(const BigDecimal& a, const BigDecimal& b) {
    BigDecimal r;
    if (a.kind == BigDecimal::kNaN || b.kind == BigDecimal::kNaN) {
        r.kind = BigDecimal::kNaN;
        return r;
    }
    if (a.kind == BigDecimal::kInf || b.kind == BigDecimal::kInf) {
        if (a.kind == BigDecimal::kInf && b.kind == BigDecimal::kInf && a.negative != b.negative) {
            r.kind = BigDecimal::kNaN;
            return r;
        }
        return a.kind == BigDecimal::kInf ? a : b;
    }
    int exp = std::min(a.exponent, b.exponent);
    std::string da = a.digits == "0" ? "0" : a.digits + std::string(a.exponent - exp, '0');
    std::string db = b.digits == "0" ? "0" : b.digits + std::string(b.exponent - exp, '0');
    r.exponent = exp;
    if (a.negative == b.negative) {
        r.digits = addMagnitudes(da, db);
        r.negative = a.negative;
    } else {
        int c = compareMagnitude(da, db);
        if (c == 0) {
            r.digits = "0";
            r.negative = false;
        } else if (c > 0) {
            r.digits = subtractMagnitudes(da, db);
            r.negative = a.negative;
        } else {
            r.digits = subtractMagnitudes(db, da);
            r.negative = b.negative;
        }
    }
    if (r.digits == "0") r.negative = a.negative && b.negative;
    return normalize(r);
}

BigDecimal multiply(const BigDecimal& a, const BigDecimal& b) {
    BigDecimal r;
    r.negative = a.negative != b.negative;
    if (a.kind == BigDecimal::kNaN || b.kind == BigDecimal::kNaN) {
        r.kind = BigDecimal::kNaN;
        return r;
    }
    if (a.kind == BigDecimal::kInf || b.kind == BigDecimal::kInf) {
        bool zero = (a.kind == BigDecimal::kFinite && a.digits == "0") ||
            (b.kind == BigDecimal::kFinite && b.digits == "0");
        r.kind = zero ? BigDecimal::kNaN : BigDecimal::kInf;
        return r;
    }
    r.digits = multiplyMagnitudes(a.digits, b.digits);
    r.exponent = a.exponent + b.exponent;
    return normalize(r);
}

}  // namespace

Decimal128Bytes decimalFromString(const std::string& s) {
    Decimal128 d = Decimal128::nan();
    Decimal128::fromString(s, &d);
    return d.toBytes();
}

std::string decimalToString(const Decimal128Bytes& d) { return Decimal128::fromBytes(d.data()).toString(); }

Decimal128Bytes decimalFromNumber(const BSONElement& e) {
    switch (e.type()) {
        case NumberDecimal: return Decimal128::fromBytes(e.decimal128Bytes()).toBytes();
        case NumberInt:
        case NumberLong: return Decimal128::fromInt64(e.numberLong()).toBytes();
        // mongod converts doubles to decimals with 15 significant digits.
        default: return Decimal128::fromDouble(e.numberDouble(), Decimal128::DoublePrecision::k15Digits).toBytes();
    }
}

Decimal128Bytes decimalAdd(const Decimal128Bytes& a, const Decimal128Bytes& b) {
    return toBytes(add(fromBytes(a), fromBytes(b)));
}

Decimal128Bytes decimalMultiply(const Decimal128Bytes& a, const Decimal128Bytes& b) {
    return toBytes(multiply(fromBytes(a), fromBytes(b)));
}

}  // namespace mongo
