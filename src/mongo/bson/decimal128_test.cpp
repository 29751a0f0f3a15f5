// Decimal128: BID decoding/encoding against libbson's codec, exact comparison, conversions.
#include "mongo/bson/decimal128.h"

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace mongo {
namespace {

Decimal128 dec(const char* s) {
    Decimal128 d;
    EXPECT_TRUE(Decimal128::fromString(s, &d)) << s;
    return d;
}

// libbson's bytes for a string, independent of Decimal128's encoder.
std::array<unsigned char, 16> libbsonBytes(const char* s) {
    bson_decimal128_t d;
    EXPECT_TRUE(bson_decimal128_from_string(s, &d)) << s;
    std::array<unsigned char, 16> out;
    std::memcpy(out.data(), &d.low, 8);
    std::memcpy(out.data() + 8, &d.high, 8);
    return out;
}

int cmp(const char* a, const char* b) { return Decimal128::compare(dec(a), dec(b)); }

TEST(Decimal128, DecodesAndReencodesLibbsonBytes) {
    const char* values[] = {"0", "-0", "1", "-1", "1.0", "1.00", "0.1", "123456789012345678901234567890.1234",
                            "9999999999999999999999999999999999", "1E+6111", "-1E-6176", "1.5E+3", "0E+10",
                            "0E-6176", "NaN", "Infinity", "-Infinity", "9.999999999999999999999999999999999E+6144",
                            "1E-6176", "-12.3400"};
    for (const char* s : values) {
        auto bytes = libbsonBytes(s);
        Decimal128 d = Decimal128::fromBytes(bytes.data());
        EXPECT_EQ(d.toBytes(), bytes) << s;
        char buf[BSON_DECIMAL128_STRING];
        bson_decimal128_t raw;
        std::memcpy(&raw.low, bytes.data(), 8);
        std::memcpy(&raw.high, bytes.data() + 8, 8);
        bson_decimal128_to_string(&raw, buf);
        EXPECT_EQ(d.toString(), std::string(buf));
    }
    Decimal128 d = dec("-12.3400");
    EXPECT_TRUE(d.isNegative());
    EXPECT_EQ(d.coefficient(), Decimal128::uint128(123400));
    EXPECT_EQ(d.exponent(), -4);
    EXPECT_EQ(d.digits(), 6);
    EXPECT_EQ(d.adjustedExponent(), 1);
}

TEST(Decimal128, NonCanonicalCoefficientsAreZero) {
    // Coefficient 10^34 exactly (one past the largest), exponent 0: non-canonical.
    Decimal128::uint128 c = Decimal128::powerOfTen(34);
    uint64_t hi = (uint64_t(Decimal128::kExponentBias) << 49) | uint64_t(c >> 64);
    uint64_t lo = uint64_t(c);
    unsigned char b[16];
    std::memcpy(b, &lo, 8);
    std::memcpy(b + 8, &hi, 8);
    Decimal128 d = Decimal128::fromBytes(b);
    EXPECT_TRUE(d.isZero());
    // The "11" combination form also implies a coefficient >= 2^113.
    hi = (uint64_t(3) << 61) | (uint64_t(Decimal128::kExponentBias) << 47) | 5;
    std::memcpy(b + 8, &hi, 8);
    EXPECT_TRUE(Decimal128::fromBytes(b).isZero());
    EXPECT_EQ(Decimal128::compare(Decimal128::fromBytes(b), dec("0")), 0);
}

TEST(Decimal128, ComparesByExactValue) {
    EXPECT_EQ(cmp("1.0", "1.00"), 0);
    EXPECT_EQ(cmp("1", "1E+0"), 0);
    EXPECT_EQ(cmp("100", "1E+2"), 0);
    EXPECT_EQ(cmp("-0", "0"), 0);
    EXPECT_EQ(cmp("0E+100", "-0E-100"), 0);
    EXPECT_LT(cmp("0.1", "0.1000000000000000000000000000000001"), 0);
    EXPECT_GT(cmp("0.1000000000000000055511151231257827", "0.1"), 0);
    EXPECT_LT(cmp("-2", "-1.999999999999999999999999999999999"), 0);
    EXPECT_LT(cmp("9.999999999999999999999999999999999E+6144", "Infinity"), 0);
    EXPECT_GT(cmp("-9.999999999999999999999999999999999E+6144", "-Infinity"), 0);
    EXPECT_EQ(cmp("Infinity", "Infinity"), 0);
    EXPECT_LT(cmp("-Infinity", "Infinity"), 0);
    EXPECT_LT(cmp("1E-6176", "2E-6176"), 0);
    EXPECT_GT(cmp("1E-6176", "0"), 0);
    EXPECT_LT(cmp("-1E-6176", "-0"), 0);
    EXPECT_LT(cmp("1E+6111", "1.000000000000000000000000000000001E+6144"), 0);
    EXPECT_EQ(cmp("1000000000000000000000000000000000E+6111", "1E+6144"), 0);
    // NaN: equal to every NaN (sign and signalling bit ignored), below everything else.
    EXPECT_EQ(cmp("NaN", "-NaN"), 0);
    EXPECT_LT(cmp("NaN", "-Infinity"), 0);
    EXPECT_GT(cmp("-Infinity", "NaN"), 0);
    unsigned char snan[16] = {0};
    snan[15] = 0x7E;  // signalling NaN
    EXPECT_TRUE(Decimal128::fromBytes(snan).isNaN());
    EXPECT_EQ(Decimal128::compare(Decimal128::fromBytes(snan), dec("NaN")), 0);
}

TEST(Decimal128, ComparisonIsAntisymmetricAndTransitiveOnRandomValues) {
    std::mt19937_64 rng(7);
    std::vector<Decimal128> v;
    for (int i = 0; i < 300; ++i) {
        Decimal128::uint128 c = (Decimal128::uint128(rng()) << 64 | rng()) % Decimal128::powerOfTen(int(rng() % 35));
        int e = int(rng() % 40) - 20;
        if (rng() % 4 == 0) e = int(rng() % 12288) - 6176;
        v.emplace_back(rng() % 2, c, e);
    }
    v.push_back(Decimal128::nan());
    v.push_back(Decimal128::infinity(true));
    v.push_back(Decimal128::infinity(false));
    for (size_t i = 0; i < v.size(); ++i) {
        for (size_t j = 0; j < v.size(); ++j) {
            int c = Decimal128::compare(v[i], v[j]);
            ASSERT_EQ(c, -Decimal128::compare(v[j], v[i]));
            // The canonical form compares equal to the value and is identical for equal values.
            ASSERT_EQ(Decimal128::compare(v[i].normalized(), v[i]), 0);
            if (c == 0) {
                ASSERT_EQ(v[i].normalized().toBytes(), v[j].normalized().toBytes());
            }
        }
    }
    std::sort(v.begin(), v.end(), [](const Decimal128& a, const Decimal128& b) { return Decimal128::compare(a, b) < 0; });
    // A comparison that is not a total order leaves some pair out of order after sorting.
    for (size_t i = 0; i < v.size(); ++i)
        for (size_t j = i + 1; j < v.size(); ++j) ASSERT_LE(Decimal128::compare(v[i], v[j]), 0);
}

TEST(Decimal128, FromInt64IsExact) {
    EXPECT_EQ(Decimal128::fromInt64(0).toString(), "0");
    EXPECT_EQ(Decimal128::fromInt64(-42).toString(), "-42");
    EXPECT_EQ(Decimal128::fromInt64(std::numeric_limits<int64_t>::max()).toString(), "9223372036854775807");
    EXPECT_EQ(Decimal128::fromInt64(std::numeric_limits<int64_t>::min()).toString(), "-9223372036854775808");
}

TEST(Decimal128, FromDoubleWith34DigitsIsTheCorrectlyRoundedValue) {
    using P = Decimal128::DoublePrecision;
    EXPECT_EQ(Decimal128::fromDouble(0.1, P::k34Digits).toString(), "0.1000000000000000055511151231257827");
    EXPECT_EQ(Decimal128::fromDouble(1.0, P::k34Digits).toString(), "1");
    EXPECT_EQ(Decimal128::fromDouble(0.5, P::k34Digits).toString(), "0.5");
    EXPECT_EQ(Decimal128::fromDouble(-2.75, P::k34Digits).toString(), "-2.75");
    EXPECT_EQ(Decimal128::fromDouble(9223372036854775808.0, P::k34Digits).toString(), "9223372036854775808");
    EXPECT_EQ(Decimal128::fromDouble(std::numeric_limits<double>::max(), P::k34Digits).toString(),
              "1.797693134862315708145274237317044E+308");
    EXPECT_EQ(Decimal128::fromDouble(std::numeric_limits<double>::denorm_min(), P::k34Digits).toString(),
              "4.940656458412465441765687928682214E-324");
    EXPECT_EQ(Decimal128::fromDouble(-0.0, P::k34Digits).toString(), "-0");
    EXPECT_TRUE(Decimal128::fromDouble(std::nan(""), P::k34Digits).isNaN());
    EXPECT_EQ(Decimal128::fromDouble(-INFINITY, P::k34Digits).toString(), "-Infinity");
    // Exact ties at the 35th digit round half to even (found with exact rational arithmetic):
    // 124751901.77407081 is 124751901.77407081425189971923828125 exactly (34th digit 2: down),
    // 102528276.15896486 is 102528276.15896485745906829833984375 exactly (34th digit 7: up).
    EXPECT_EQ(Decimal128::fromDouble(124751901.77407081, P::k34Digits).toString(),
              "124751901.7740708142518997192382812");
    EXPECT_EQ(Decimal128::fromDouble(102528276.15896486, P::k34Digits).toString(),
              "102528276.1589648574590682983398438");
}

TEST(Decimal128, FromDoubleWith15DigitsKeepsTrailingZeros) {
    using P = Decimal128::DoublePrecision;
    EXPECT_EQ(Decimal128::fromDouble(2.5, P::k15Digits).toString(), "2.50000000000000");
    EXPECT_EQ(Decimal128::fromDouble(0.1, P::k15Digits).toString(), "0.100000000000000");
    EXPECT_EQ(Decimal128::fromDouble(-1e300, P::k15Digits).toString(), "-1.00000000000000E+300");
    EXPECT_EQ(Decimal128::fromDouble(9.9999999999999995, P::k15Digits).toString(), "10.0000000000000");
}

TEST(Decimal128, ToInt64ExactOnlyForIntegersInRange) {
    int64_t v = -1;
    EXPECT_TRUE(dec("1E+2").toInt64Exact(&v));
    EXPECT_EQ(v, 100);
    EXPECT_TRUE(dec("7.000").toInt64Exact(&v));
    EXPECT_EQ(v, 7);
    EXPECT_TRUE(dec("0E+300").toInt64Exact(&v));
    EXPECT_EQ(v, 0);
    EXPECT_TRUE(dec("9223372036854775807").toInt64Exact(&v));
    EXPECT_EQ(v, std::numeric_limits<int64_t>::max());
    EXPECT_TRUE(dec("-9223372036854775808").toInt64Exact(&v));
    EXPECT_EQ(v, std::numeric_limits<int64_t>::min());
    EXPECT_TRUE(dec("9007199254740993").toInt64Exact(&v));
    EXPECT_EQ(v, 9007199254740993LL);
    EXPECT_FALSE(dec("9223372036854775808").toInt64Exact(&v));
    EXPECT_FALSE(dec("1E+19").toInt64Exact(&v));
    EXPECT_FALSE(dec("1.5").toInt64Exact(&v));
    EXPECT_FALSE(dec("1E-40").toInt64Exact(&v));
    EXPECT_FALSE(dec("NaN").toInt64Exact(&v));
    EXPECT_FALSE(dec("Infinity").toInt64Exact(&v));
}

TEST(Decimal128, ToDoubleIsCorrectlyRounded) {
    EXPECT_EQ(dec("0.1").toDouble(), 0.1);
    EXPECT_EQ(dec("-2.5E+3").toDouble(), -2500.0);
    EXPECT_EQ(dec("9007199254740993").toDouble(), 9007199254740992.0);  // tie to even
    EXPECT_EQ(dec("1E+400").toDouble(), INFINITY);
    EXPECT_EQ(dec("-1E-400").toDouble(), 0.0);
    EXPECT_TRUE(std::signbit(dec("-1E-400").toDouble()));
    EXPECT_TRUE(std::isnan(dec("NaN").toDouble()));
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) {
        double x;
        uint64_t bits = rng();
        std::memcpy(&x, &bits, 8);
        if (!std::isfinite(x)) continue;
        Decimal128 d = Decimal128::fromDouble(x, Decimal128::DoublePrecision::k34Digits);
        ASSERT_EQ(d.toDouble(), x) << d.toString();  // 34 digits identify every double
    }
}

TEST(Decimal128, NormalizedFormStripsTrailingZerosAndStillEncodes) {
    EXPECT_EQ(dec("1.00").normalized().toString(), "1");
    EXPECT_EQ(dec("-0E+7").normalized().toString(), "0");
    EXPECT_EQ(dec("-NaN").normalized().toString(), "NaN");
    // 1000E+6111 normalizes to 1E+6114, whose exponent is past the maximum: encoding puts the
    // zeros back.
    Decimal128 n = dec("1000E+6111").normalized();
    EXPECT_EQ(n.coefficient(), Decimal128::uint128(1));
    EXPECT_EQ(n.exponent(), 6114);
    EXPECT_EQ(Decimal128::compare(Decimal128::fromBytes(n.toBytes().data()), dec("1000E+6111")), 0);
}

TEST(Decimal128, Uint128ToString) {
    EXPECT_EQ(uint128ToString(0), "0");
    EXPECT_EQ(uint128ToString(10000000000000000000ULL), "10000000000000000000");
    EXPECT_EQ(uint128ToString(Decimal128::powerOfTen(38)), "1" + std::string(38, '0'));
    EXPECT_EQ(uint128ToString(Decimal128::powerOfTen(34) - 1), std::string(34, '9'));
}

}  // namespace
}  // namespace mongo
