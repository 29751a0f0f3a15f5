// KeyString: memcmp order must equal BSONObj::woCompare order, and decoding must give back
// exactly the key that was encoded.
#include "mongo/db/storage/key_string.h"

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"

namespace mongo {
namespace {

using key_string::Ordering;

int sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

int memcmpSign(const std::string& a, const std::string& b) {
    int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (c) return sign(c);
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

void appendDecimal(BSONObjBuilder& b, std::string_view name, const char* str) {
    bson_decimal128_t d;
    ASSERT_TRUE(bson_decimal128_from_string(str, &d));
    unsigned char bytes[16];
    std::memcpy(bytes, &d.low, 8);
    std::memcpy(bytes + 8, &d.high, 8);
    b.appendDecimal128(name, bytes);
}

void appendDBRef(BSONObjBuilder& b, std::string_view name, const std::string& ns, unsigned char fill) {
    std::string el;
    el.push_back(char(DBRef));
    el.push_back(0);
    int32_t len = int32_t(ns.size() + 1);
    el.append(reinterpret_cast<const char*>(&len), 4);
    el.append(ns);
    el.push_back(0);
    el.append(12, char(fill));
    b.appendAs(BSONElement(el.data()), name);
}

void appendCodeWScope(BSONObjBuilder& b, std::string_view name, const std::string& code, const BSONObj& scope) {
    std::string v(8, '\0');
    int32_t codeLen = int32_t(code.size() + 1);
    v.append(code);
    v.push_back(0);
    v.append(scope.objdata(), scope.objsize());
    int32_t total = int32_t(v.size());
    std::memcpy(&v[0], &total, 4);
    std::memcpy(&v[4], &codeLen, 4);
    std::string el;
    el.push_back(char(CodeWScope));
    el.push_back(0);
    el.append(v);
    b.appendAs(BSONElement(el.data()), name);
}

class RandomValues {
public:
    explicit RandomValues(uint32_t seed) : _rng(seed) {}

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(_rng); }

    std::string randomString() {
        static const char alphabet[] = {'a', 'b', 'z', '\0', '\x01', '\x7f', '\x80', '\xff'};
        std::string s;
        int n = pick(4);
        for (int i = 0; i < n; ++i) s.push_back(alphabet[pick(sizeof(alphabet))]);
        return s;
    }

    double randomDouble() {
        static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.0, 3.0, 1e300, -1e300,
                                          std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity(),
                                          std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::denorm_min(),
                                          -std::numeric_limits<double>::denorm_min(), 4.9e-320,
                                          9007199254740992.0, 9007199254740993.0, 9223372036854775808.0,
                                          -9223372036854775808.0, 2147483648.0, 0.1, 1e-300};
        if (pick(2)) return specials[pick(sizeof(specials) / sizeof(double))];
        if (pick(2)) return double(pick(7) - 3);
        return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(_rng), pick(200) - 100);
    }

    long long randomLong() {
        static const long long specials[] = {0, 1, -1, 2, 3, std::numeric_limits<long long>::max(),
                                             std::numeric_limits<long long>::min(),
                                             std::numeric_limits<long long>::max() - 1, 9007199254740993LL,
                                             2147483648LL, -2147483649LL};
        if (pick(2)) return specials[pick(sizeof(specials) / sizeof(long long))];
        return (long long)(_rng() % 2000000) - 1000000 + ((long long)pick(3) << 40);
    }

    void appendValue(BSONObjBuilder& b, std::string_view name, int depth) {
        int kind = pick(depth > 2 ? 20 : 23);
        switch (kind) {
            case 0: b.appendMinKey(name); break;
            case 1: b.appendMaxKey(name); break;
            case 2: b.appendNull(name); break;
            case 3: b.appendUndefined(name); break;
            case 4: b.appendInt(name, int(randomLong() & 0xFFFFFFFF) >> pick(32)); break;
            case 5: b.appendLong(name, randomLong()); break;
            case 6:
            case 7: b.append(name, randomDouble()); break;
            case 8: {
                static const char* decimals[] = {"1", "1.0", "-1", "0.1", "1E+400", "-0", "NaN", "Infinity",
                                                 "2.5", "-3", "12345678901234567890"};
                appendDecimal(b, name, decimals[pick(sizeof(decimals) / sizeof(char*))]);
                break;
            }
            case 9:
            case 10: b.append(name, std::string_view(randomString())); break;
            case 11: b.appendSymbol(name, randomString()); break;
            case 12: {
                std::string data = randomString();
                b.appendBinData(name, int(data.size()), pick(3), data.data());
                break;
            }
            case 13: {
                OID oid;
                for (auto& c : oid.bytes) c = (unsigned char)(pick(3) * 100);
                b.append(name, oid);
                break;
            }
            case 14: b.append(name, bool(pick(2))); break;
            case 15: b.append(name, Date_t::fromMillis(randomLong())); break;
            case 16: b.append(name, Timestamp{uint32_t(pick(3)), uint32_t(pick(3)) * 0x80000000u}); break;
            case 17: b.appendRegex(name, randomString().c_str(), pick(2) ? "i" : ""); break;
            case 18: b.appendCode(name, randomString()); break;
            case 19: appendDBRef(b, name, pick(2) ? "a.b" : "a", (unsigned char)(pick(2) * 255)); break;
            case 20: {
                BSONObjBuilder& sub = b.subobjStart(name);
                static const char* names[] = {"a", "b", "ab", ""};
                int n = pick(4);
                for (int i = 0; i < n; ++i) appendValue(sub, names[pick(4)], depth + 1);
                sub.doneFast();
                break;
            }
            case 21: {
                BSONArrayBuilder& sub = b.subarrayStart(name);
                int n = pick(4);
                for (int i = 0; i < n; ++i) appendValue(sub.bb(), std::to_string(i), depth + 1);
                sub.doneFast();
                break;
            }
            case 22: {
                BSONObjBuilder scope;
                if (pick(2)) appendValue(scope, "x", depth + 1);
                appendCodeWScope(b, name, randomString(), scope.obj());
                break;
            }
        }
    }

    BSONObj randomKey(int fields) {
        BSONObjBuilder b;
        for (int i = 0; i < fields; ++i) appendValue(b, "", 0);
        return b.obj();
    }

private:
    std::mt19937 _rng;
};

TEST(KeyStringTest, EqualNumbersOfDifferentTypesEncodeIdentically) {
    BSONObjBuilder a, b, c, d;
    a.appendInt("", 1);
    b.appendLong("", 1);
    c.append("", 1.0);
    appendDecimal(d, "", "1.0");
    std::string ka = key_string::encode(a.obj(), Ordering());
    EXPECT_EQ(ka, key_string::encode(b.obj(), Ordering()));
    EXPECT_EQ(ka, key_string::encode(c.obj(), Ordering()));
    EXPECT_EQ(ka, key_string::encode(d.obj(), Ordering()));
}

TEST(KeyStringTest, DecodeRestoresNumberTypes) {
    BSONObjBuilder b;
    b.appendInt("", 7);
    b.appendLong("", 7);
    b.append("", 7.0);
    b.append("", -0.0);
    b.appendLong("", 0);
    b.append("", 0.25);
    appendDecimal(b, "", "7.00");
    BSONObj key = b.obj();
    std::string tb;
    std::string ks = key_string::encode(key, Ordering(), &tb);
    BSONObj back = key_string::decode(ks, Ordering(), tb);
    EXPECT_TRUE(back.binaryEqual(key)) << back.toString() << " vs " << key.toString();
}

TEST(KeyStringTest, MissingFieldsOrderAsNullAndDecodeMarked) {
    // {"": null, "$missing": null, "": 3} for every direction: same bytes as with a plain null,
    // and decoding gives back which null stood for a missing field.
    BSONObjBuilder b, plain;
    b.appendNull("");
    b.appendNull(key_string::kMissingFieldName);
    b.appendInt("", 3);
    plain.appendNull("");
    plain.appendNull("");
    plain.appendInt("", 3);
    BSONObj key = b.obj(), plainKey = plain.obj();
    for (uint32_t bits : {0u, 1u, 2u, 7u}) {
        Ordering ord = Ordering::fromBits(bits);
        std::string tb, plainTb;
        std::string ks = key_string::encode(key, ord, &tb);
        EXPECT_EQ(ks, key_string::encode(plainKey, ord, &plainTb));
        EXPECT_TRUE(plainTb.empty());
        BSONObj back = key_string::decode(ks, ord, tb);
        EXPECT_TRUE(back.binaryEqual(key)) << back.toString();
        EXPECT_TRUE(key_string::isMissingKeyValue(BSONObjIterator(back).next()) == false);
    }
}

TEST(KeyStringTest, CommonKeysNeedNoTypeBits) {
    BSONObjBuilder b;
    b.appendInt("", 5);
    b.append("", "abc");
    OID oid = OID::gen();
    b.append("", oid);
    std::string tb = "x";
    key_string::encode(b.obj(), Ordering(), &tb);
    EXPECT_TRUE(tb.empty());
}

TEST(KeyStringTest, DescendingFieldReversesOrder) {
    BSONObj pattern = fromjson(R"({"a": 1, "b": -1})");
    Ordering ord = Ordering::make(pattern);
    BSONObjBuilder x, y;
    x.appendInt("", 1).appendInt("", 2);
    y.appendInt("", 1).appendInt("", 3);
    EXPECT_GT(memcmpSign(key_string::encode(x.obj(), ord), key_string::encode(y.obj(), ord)), 0);
}

TEST(KeyStringTest, RecordIdSuffixOrdersWithinEqualKeys) {
    BSONObjBuilder b;
    b.append("", "k");
    BSONObj key = b.obj();
    std::string prefix = key_string::encode(key, Ordering());
    std::string prev;
    for (long long id : {1LL, 2LL, 255LL, 256LL, 1LL << 40, std::numeric_limits<long long>::max()}) {
        std::string k = prefix;
        key_string::appendRecordId(&k, RecordId(id));
        EXPECT_EQ(key_string::decodeRecordId(std::string_view(k).substr(prefix.size())), RecordId(id));
        if (!prev.empty()) {
            EXPECT_LT(memcmpSign(prev, k), 0);
        }
        EXPECT_LT(memcmpSign(k, key_string::afterAllRecordIds(prefix)), 0);
        EXPECT_GT(memcmpSign(k, prefix), 0);
        prev = k;
    }
}

TEST(KeyStringTest, MemcmpOrderMatchesWoCompareOverRandomKeys) {
    RandomValues rv(12345);
    const BSONObj patterns[] = {fromjson(R"({"a": 1})"), fromjson(R"({"a": -1})"), fromjson(R"({"a": 1, "b": -1})"),
                                fromjson(R"({"a": -1, "b": 1, "c": -1})")};
    for (const BSONObj& pattern : patterns) {
        Ordering ord = Ordering::make(pattern);
        std::vector<BSONObj> keys;
        std::vector<std::string> encoded;
        for (int i = 0; i < 600; ++i) {
            keys.push_back(rv.randomKey(pattern.nFields()));
            std::string tb;
            encoded.push_back(key_string::encode(keys.back(), ord, &tb));
            BSONObj back = key_string::decode(encoded.back(), ord, tb);
            ASSERT_TRUE(back.binaryEqual(keys.back()))
                << "decoded " << back.toString() << " expected " << keys.back().toString();
        }
        for (size_t i = 0; i < keys.size(); ++i) {
            for (size_t j = 0; j < keys.size(); ++j) {
                int expected = sign(keys[i].woCompare(keys[j], pattern, false));
                int actual = memcmpSign(encoded[i], encoded[j]);
                ASSERT_EQ(expected, actual) << keys[i].toString() << " vs " << keys[j].toString() << " pattern "
                                            << pattern.toString() << ": " << key_string::toHex(encoded[i])
                                            << " / " << key_string::toHex(encoded[j]);
            }
        }
    }
}

// ---- numbers: one exact order across int, long, double and decimal ----

void appendDecimal128(BSONObjBuilder& b, const Decimal128& d) {
    auto bytes = d.toBytes();
    b.appendDecimal128("", bytes.data());
}

// Numbers of all four types whose values crowd each other: neighbours within an ulp, integers
// near 2^53 and 2^63, decimals that agree with a double to 33 digits or carry trailing zeros,
// NaN, infinities and zeros of every type. One element per value, in an array-like object.
BSONObj crowdedNumbers(uint32_t seed, int n) {
    std::mt19937_64 rng(seed);
    BSONObjBuilder b;
    int count = 0;
    const double inf = std::numeric_limits<double>::infinity();
    auto addDouble = [&](double x) {
        b.append("", x);
        ++count;
    };
    auto addDecimal = [&](const Decimal128& d) {
        appendDecimal128(b, d);
        ++count;
    };
    auto addNearDouble = [&](double x) {
        addDouble(x);
        addDouble(std::nextafter(x, inf));
        addDouble(std::nextafter(x, -inf));
        Decimal128 c = Decimal128::fromDouble(x, Decimal128::DoublePrecision::k34Digits);
        addDecimal(c);
        if (c.isFinite() && c.coefficient() > 1) {
            addDecimal(Decimal128(c.isNegative(), c.coefficient() + 1, c.exponent()));
            addDecimal(Decimal128(c.isNegative(), c.coefficient() - 1, c.exponent()));
        }
        addDecimal(Decimal128::fromDouble(x, Decimal128::DoublePrecision::k15Digits));  // trailing zeros
    };
    const double specials[] = {0.0, -0.0, 0.1, 0.3, 1.0, -1.0, 0.5, 2.5, 1e300, -1e-300, inf, -inf,
                               std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::max(), 9007199254740992.0, 9223372036854775808.0,
                               -9223372036854775808.0, 1e22, 1e23};
    for (double x : specials) addNearDouble(x);
    const int64_t longs[] = {0, 1, -1, 2147483647LL, 2147483648LL, -2147483649LL, 9007199254740991LL,
                             9007199254740992LL, 9007199254740993LL, std::numeric_limits<int64_t>::max(),
                             std::numeric_limits<int64_t>::max() - 1, std::numeric_limits<int64_t>::min(),
                             std::numeric_limits<int64_t>::min() + 1, 1000000000000000000LL};
    for (int64_t v : longs) {
        b.appendLong("", v);
        addDouble(double(v));
        Decimal128 d = Decimal128::fromInt64(v);
        addDecimal(d);
        if (d.coefficient() < Decimal128::powerOfTen(30)) addDecimal(Decimal128(d.isNegative(), d.coefficient() * 1000, -3));
        ++count;
        if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
            b.appendInt("", int(v));
            ++count;
        }
    }
    for (const char* s : {"NaN", "-NaN", "Infinity", "-Infinity", "-0", "0E+300", "0E-6176", "1E+6144",
                          "9.999999999999999999999999999999999E+6144", "-1E-6176", "1E-6176", "1.000", "100E-2",
                          "1E+2", "12345678901234567890123456789012.34"}) {
        Decimal128 d;
        EXPECT_TRUE(Decimal128::fromString(s, &d)) << s;
        addDecimal(d);
    }
    while (count < n) {
        switch (rng() % 5) {
            case 0: addNearDouble(std::ldexp(double(int64_t(rng() % 2000001) - 1000000), int(rng() % 140) - 70)); break;
            case 1: {
                int64_t v = int64_t(rng() >> (rng() % 64));
                b.appendLong("", rng() % 2 ? -v : v);
                ++count;
                addDouble(double(v));
                break;
            }
            case 2:
                b.appendInt("", int(rng() % 201) - 100);
                ++count;
                break;
            case 3: {
                Decimal128::uint128 c = ((Decimal128::uint128(rng()) << 64) | rng()) % Decimal128::powerOfTen(34);
                addDecimal(Decimal128(rng() % 2, c, int(rng() % 60) - 50));
                break;
            }
            default: {
                uint64_t bits = rng();
                double x;
                std::memcpy(&x, &bits, 8);
                if (std::isnan(x)) continue;  // payload NaNs decode as the quiet NaN
                addNearDouble(x);
                break;
            }
        }
    }
    return b.obj();
}

TEST(KeyStringTest, NumbersOfMixedTypesOrderExactlyAsWoCompare) {
    BSONObj pool = crowdedNumbers(2024, 700);
    for (bool descending : {false, true}) {
        Ordering ord = descending ? Ordering::make(fromjson(R"({"a": -1})")) : Ordering();
        std::vector<BSONElement> values;
        std::vector<std::string> encoded;
        for (BSONElement e : pool) {
            BSONObj key = e.wrap("");
            std::string tb;
            encoded.push_back(key_string::encode(key, ord, &tb));
            values.push_back(e);
            BSONObj back = key_string::decode(encoded.back(), ord, tb);
            ASSERT_TRUE(back.binaryEqual(key)) << "decoded " << back.toString() << " expected " << key.toString();
        }
        for (size_t i = 0; i < values.size(); ++i) {
            for (size_t j = 0; j < values.size(); ++j) {
                int expected = sign(values[i].woCompare(values[j])) * (descending ? -1 : 1);
                ASSERT_EQ(memcmpSign(encoded[i], encoded[j]), expected)
                    << values[i].toString() << " vs " << values[j].toString() << ": " << key_string::toHex(encoded[i])
                    << " / " << key_string::toHex(encoded[j]);
            }
        }
    }
}

TEST(KeyStringTest, EqualNumbersGiveIdenticalKeysAndCloseOnesDoNot) {
    auto keyOf = [](const char* json) { return key_string::encode(fromjson(json), Ordering()); };
    std::string one = keyOf(R"({"": 1})");
    for (const char* same : {R"({"": {"$numberLong": "1"}})", R"({"": 1.0})", R"({"": {"$numberDecimal": "1.0"}})",
                             R"({"": {"$numberDecimal": "1.00000"}})", R"({"": {"$numberDecimal": "0.1E+1"}})"})
        EXPECT_EQ(one, keyOf(same)) << same;
    std::string dbl = keyOf(R"({"": 0.1})"), dec = keyOf(R"({"": {"$numberDecimal": "0.1"}})");
    EXPECT_NE(dbl, dec);
    EXPECT_GT(memcmpSign(dbl, dec), 0);  // the double is 0.1000000000000000055...
    EXPECT_EQ(dbl, keyOf(R"({"": {"$numberDecimal": "0.1000000000000000055511151231257827"}})"));
    EXPECT_EQ(keyOf(R"({"": {"$numberDecimal": "0.10"}})"), dec);
    EXPECT_LT(memcmpSign(keyOf(R"({"": {"$numberLong": "9223372036854775807"}})"), keyOf(R"({"": 9223372036854775808.0})")), 0);
    EXPECT_EQ(keyOf(R"({"": {"$numberDecimal": "NaN"}})"), keyOf(R"({"": NaN})"));
    EXPECT_EQ(keyOf(R"({"": {"$numberDecimal": "-Infinity"}})"), keyOf(R"({"": -Infinity})"));
    EXPECT_EQ(keyOf(R"({"": {"$numberDecimal": "-0"}})"), keyOf(R"({"": 0})"));
}

TEST(KeyStringTest, DecodeKeepsDecimalFormsAndSpecialDoubles) {
    BSONObjBuilder b;
    for (const char* s : {"1.000", "-0", "0E+12", "NaN", "-Infinity", "1E+6144", "2.50000000000000"}) appendDecimal(b, "", s);
    b.append("", -0.0);
    b.append("", std::numeric_limits<double>::infinity());
    b.append("", std::numeric_limits<double>::quiet_NaN());
    b.append("", 1e23);
    b.append("", 9223372036854775808.0);
    b.appendLong("", std::numeric_limits<int64_t>::min());
    BSONObj key = b.obj();
    for (Ordering ord : {Ordering(), Ordering::fromBits(0xFFFFFFFF)}) {
        std::string tb;
        std::string ks = key_string::encode(key, ord, &tb);
        BSONObj back = key_string::decode(ks, ord, tb);
        EXPECT_TRUE(back.binaryEqual(key)) << back.toString() << " vs " << key.toString();
    }
}

TEST(KeyStringTest, DecodeOfGarbageThrows) {
    std::string bad = "\x1e\x04";  // a number cut short
    EXPECT_THROW(key_string::decode(bad, Ordering(), ""), DBException);
}

}  // namespace
}  // namespace mongo
