// Cross-type number comparison: MongoDB's exact rules, through compareNumbers and
// BSONElement::woCompare, checked against the definition (every number as its comparable
// decimal) over random values that sit close together.
#include "mongo/bson/number_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

BSONNumber D(double v) { return BSONNumber::ofDouble(v); }
BSONNumber L(int64_t v) { return BSONNumber::ofLong(v); }
BSONNumber I(int v) { return BSONNumber::ofInt(v); }
BSONNumber Dec(const char* s) {
    Decimal128 d;
    EXPECT_TRUE(Decimal128::fromString(s, &d)) << s;
    return BSONNumber::ofDecimal(d);
}

int cmp(const BSONNumber& a, const BSONNumber& b) {
    int c = compareNumbers(a, b);
    EXPECT_EQ(c, -compareNumbers(b, a));
    return c;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(NumberCompare, DoubleAndDecimalCompareAsDecimalsOf34Digits) {
    EXPECT_GT(cmp(D(0.1), Dec("0.1")), 0);  // 0.1000000000000000055511151231257827...
    EXPECT_GT(cmp(D(0.1), Dec("0.10")), 0);
    EXPECT_EQ(cmp(D(0.1), Dec("0.1000000000000000055511151231257827")), 0);
    EXPECT_LT(cmp(D(0.1), Dec("0.1000000000000000055511151231257828")), 0);
    EXPECT_GT(cmp(D(0.1), Dec("0.1000000000000000055511151231257826")), 0);
    EXPECT_EQ(cmp(D(0.5), Dec("0.50")), 0);
    EXPECT_EQ(cmp(D(1.0), Dec("1.000")), 0);
    EXPECT_LT(cmp(D(0.3), Dec("0.3")), 0);  // 0.2999999999999999888977697537484346
    EXPECT_EQ(cmp(D(1e300), Dec("1.000000000000000052504760255204420E+300")), 0);
    EXPECT_LT(cmp(D(std::numeric_limits<double>::max()), Dec("1E+309")), 0);
    EXPECT_GT(cmp(D(std::numeric_limits<double>::denorm_min()), Dec("1E-400")), 0);
    EXPECT_LT(cmp(D(0.0), Dec("1E-6176")), 0);
    EXPECT_GT(cmp(D(-0.0), Dec("-1E-6176")), 0);
}

TEST(NumberCompare, IntegersAndDoublesCompareExactly) {
    const int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
    EXPECT_LT(cmp(L(kMax), D(9223372036854775808.0)), 0);
    EXPECT_GT(cmp(L(kMax), D(9223372036854774784.0)), 0);  // the double just below 2^63
    EXPECT_EQ(cmp(L(kMin), D(-9223372036854775808.0)), 0);
    EXPECT_GT(cmp(L(kMin + 1), D(-9223372036854775808.0)), 0);
    EXPECT_GT(cmp(L(9007199254740993LL), D(9007199254740992.0)), 0);
    EXPECT_LT(cmp(L(9007199254740993LL), D(9007199254740994.0)), 0);
    EXPECT_EQ(cmp(L(9007199254740992LL), D(9007199254740992.0)), 0);
    EXPECT_LT(cmp(I(1), D(1.0000000000000002)), 0);
    EXPECT_GT(cmp(I(1), D(0.99999999999999989)), 0);
    EXPECT_LT(cmp(I(-2), D(-1.5)), 0);
    EXPECT_GT(cmp(I(-1), D(-1.5)), 0);
    EXPECT_EQ(cmp(I(0), D(-0.0)), 0);
    EXPECT_LT(cmp(L(kMax), D(kInf)), 0);
    EXPECT_GT(cmp(L(kMin), D(-kInf)), 0);
    EXPECT_GT(cmp(L(kMin), D(NAN)), 0);
    EXPECT_EQ(cmp(L(kMax), Dec("9223372036854775807")), 0);
    EXPECT_LT(cmp(L(kMax), Dec("9223372036854775807.000000000000001")), 0);
    EXPECT_EQ(cmp(I(5), Dec("5.000")), 0);
    EXPECT_EQ(cmp(I(5), L(5)), 0);
}

TEST(NumberCompare, NaNZerosAndInfinities) {
    EXPECT_EQ(cmp(D(NAN), Dec("NaN")), 0);
    EXPECT_EQ(cmp(D(-NAN), Dec("-NaN")), 0);
    EXPECT_LT(cmp(D(NAN), D(-kInf)), 0);
    EXPECT_LT(cmp(Dec("NaN"), Dec("-Infinity")), 0);
    EXPECT_LT(cmp(Dec("NaN"), D(-kInf)), 0);
    EXPECT_LT(cmp(D(NAN), Dec("-Infinity")), 0);
    EXPECT_LT(cmp(Dec("NaN"), L(std::numeric_limits<int64_t>::min())), 0);
    EXPECT_EQ(cmp(D(-0.0), Dec("0")), 0);
    EXPECT_EQ(cmp(D(0.0), Dec("-0E+20")), 0);
    EXPECT_EQ(cmp(Dec("Infinity"), D(kInf)), 0);
    EXPECT_EQ(cmp(Dec("-Infinity"), D(-kInf)), 0);
    EXPECT_LT(cmp(Dec("-Infinity"), D(kInf)), 0);
    EXPECT_LT(cmp(Dec("9.999999999999999999999999999999999E+6144"), D(kInf)), 0);
    EXPECT_GT(cmp(Dec("-1E+400"), D(-kInf)), 0);
    EXPECT_LT(cmp(Dec("-1E+400"), D(-std::numeric_limits<double>::max())), 0);
}

TEST(NumberCompare, BSONElementWoCompareUsesTheExactRules) {
    BSONObjBuilder b;
    b.append("d", 0.1);
    Decimal128 d;
    ASSERT_TRUE(Decimal128::fromString("0.1", &d));
    auto bytes = d.toBytes();
    b.appendDecimal128("dec", bytes.data());
    b.appendLong("l", std::numeric_limits<int64_t>::max());
    b.append("p63", 9223372036854775808.0);
    BSONObj o = b.obj();
    EXPECT_GT(o["d"].woCompare(o["dec"]), 0);
    EXPECT_LT(o["dec"].woCompare(o["d"]), 0);
    EXPECT_LT(o["l"].woCompare(o["p63"]), 0);
    EXPECT_FALSE(o["d"].valuesEqual(o["dec"]));
}

TEST(NumberCompare, BSONElementAccessorsOfDecimalsAreExact) {
    BSONObjBuilder b;
    for (const char* s : {"9007199254740993", "1E-400", "2.5", "NaN", "-0"}) {
        Decimal128 d;
        ASSERT_TRUE(Decimal128::fromString(s, &d));
        auto bytes = d.toBytes();
        b.appendDecimal128("", bytes.data());
    }
    BSONObj o = b.obj();
    std::vector<BSONElement> e;
    for (BSONElement x : o) e.push_back(x);
    long long v = 0;
    EXPECT_EQ(e[0].numberLong(), 9007199254740993LL);
    EXPECT_TRUE(e[0].isIntegral64(&v));
    EXPECT_EQ(v, 9007199254740993LL);
    EXPECT_EQ(e[0].numberDouble(), 9007199254740992.0);
    EXPECT_TRUE(e[1].trueValue());  // not zero, though its nearest double is
    EXPECT_FALSE(e[2].isIntegral64(&v));
    EXPECT_EQ(e[2].numberDouble(), 2.5);
    EXPECT_TRUE(std::isnan(e[3].numberDouble()));
    EXPECT_TRUE(e[3].trueValue());
    EXPECT_FALSE(e[4].trueValue());
}

// A pool of numbers of all four types whose values crowd each other: neighbours within an ulp,
// integers around 2^53 and 2^63, decimals that agree with a double to 33 digits, specials.
std::vector<BSONNumber> crowdedNumbers(uint32_t seed, int n) {
    std::mt19937_64 rng(seed);
    std::vector<BSONNumber> out;
    auto addDecimalNear = [&](double x) {
        Decimal128 c = Decimal128::fromDouble(x, Decimal128::DoublePrecision::k34Digits);
        out.push_back(BSONNumber::ofDecimal(c));
        if (c.isFinite() && c.coefficient() > 1) {
            out.push_back(BSONNumber::ofDecimal(Decimal128(c.isNegative(), c.coefficient() + 1, c.exponent())));
            out.push_back(BSONNumber::ofDecimal(Decimal128(c.isNegative(), c.coefficient() - 1, c.exponent())));
        }
        Decimal128 c15 = Decimal128::fromDouble(x, Decimal128::DoublePrecision::k15Digits);
        out.push_back(BSONNumber::ofDecimal(c15));
    };
    const double specials[] = {0.0, -0.0, 0.1, 0.3, 1.0, -1.0, 0.5, 1e300, -1e-300, kInf, -kInf, NAN,
                               std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                               9007199254740992.0, 9223372036854775808.0, -9223372036854775808.0};
    for (double s : specials) {
        out.push_back(D(s));
        out.push_back(D(std::nextafter(s, kInf)));
        out.push_back(D(std::nextafter(s, -kInf)));
        addDecimalNear(s);
    }
    const int64_t ints[] = {0, 1, -1, 9007199254740992LL, 9007199254740993LL, 9007199254740991LL,
                            std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max() - 1,
                            std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min() + 1};
    for (int64_t v : ints) {
        out.push_back(L(v));
        out.push_back(D(double(v)));
        out.push_back(BSONNumber::ofDecimal(Decimal128::fromInt64(v)));
    }
    out.push_back(Dec("NaN"));
    out.push_back(Dec("-Infinity"));
    out.push_back(Dec("1E+6144"));
    out.push_back(Dec("-1E-6176"));
    out.push_back(Dec("0E+300"));
    out.push_back(Dec("1.000000000000000000000000000000000"));
    while (int(out.size()) < n) {
        switch (rng() % 5) {
            case 0: {
                double x = std::ldexp(double(int64_t(rng() % 2000001) - 1000000), int(rng() % 120) - 60);
                out.push_back(D(x));
                out.push_back(D(std::nextafter(x, kInf)));
                addDecimalNear(x);
                break;
            }
            case 1: {
                int64_t v = int64_t(rng() >> (rng() % 64));
                if (rng() % 2) v = -v;
                out.push_back(L(v));
                out.push_back(D(double(v)));
                break;
            }
            case 2: out.push_back(I(int(rng() % 201) - 100)); break;
            case 3: {
                Decimal128::uint128 c = ((Decimal128::uint128(rng()) << 64) | rng()) % Decimal128::powerOfTen(34);
                out.push_back(BSONNumber::ofDecimal(Decimal128(rng() % 2, c, int(rng() % 60) - 50)));
                break;
            }
            default: {
                uint64_t bits = rng();
                double x;
                std::memcpy(&x, &bits, 8);
                out.push_back(D(x));
                addDecimalNear(x);
                break;
            }
        }
    }
    return out;
}

TEST(NumberCompare, AgreesWithTheComparableDecimalOnCrowdedRandomValues) {
    auto pool = crowdedNumbers(11, 500);
    std::vector<Decimal128> reference;
    for (const auto& n : pool) reference.push_back(n.toComparableDecimal());
    for (size_t i = 0; i < pool.size(); ++i) {
        for (size_t j = 0; j < pool.size(); ++j) {
            int expected = Decimal128::compare(reference[i], reference[j]);
            ASSERT_EQ(compareNumbers(pool[i], pool[j]), expected)
                << reference[i].toString() << " (type " << pool[i].type << ") vs " << reference[j].toString()
                << " (type " << pool[j].type << ")";
        }
    }
}

}  // namespace
}  // namespace mongo
