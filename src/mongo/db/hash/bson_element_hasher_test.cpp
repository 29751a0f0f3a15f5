#include "mongo/db/hash/bson_element_hasher.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"

namespace mongo {
namespace {

BSONObj one(double d) {
    BSONObjBuilder b;
    b.append("", d);
    return b.obj();
}

TEST(BSONElementHasherTest, MongoDBsOwnCheckValue) {
    // The value MongoDB's hasher checks itself against at start-up: {check: 42}.
    BSONObj o = fromjson(R"({"check": 42})");
    EXPECT_EQ(hashBSONElement(o.firstElement()), -944302157085130861LL);
}

TEST(BSONElementHasherTest, EqualNumbersHashAlike) {
    BSONObj o = fromjson(R"({"i": 42, "l": {"$numberLong": "42"}, "d": 42.0, "f": 42.9, "m": {"$numberDecimal": "42.00"}})");
    long long h = hashBSONElement(o["i"]);
    for (const char* f : {"l", "d", "f", "m"}) EXPECT_EQ(hashBSONElement(o[f]), h) << f;
    EXPECT_NE(hashBSONElement(fromjson(R"({"s": "42"})").firstElement()), h);
}

TEST(BSONElementHasherTest, SafeNumberLongForHashEdges) {
    const double two63 = std::ldexp(1.0, 63);
    EXPECT_EQ(safeNumberLongForHash(one(two63).firstElement()), std::numeric_limits<long long>::min());
    EXPECT_EQ(safeNumberLongForHash(one(std::nextafter(two63, 0.0)).firstElement()), 0x7ffffffffffffc00LL);
    EXPECT_EQ(safeNumberLongForHash(one(std::nextafter(two63, 1e300)).firstElement()),
              std::numeric_limits<long long>::max());
    EXPECT_EQ(safeNumberLongForHash(one(INFINITY).firstElement()), std::numeric_limits<long long>::max());
    EXPECT_EQ(safeNumberLongForHash(one(-INFINITY).firstElement()), std::numeric_limits<long long>::min());
    EXPECT_EQ(safeNumberLongForHash(one(NAN).firstElement()), 0);
    EXPECT_EQ(safeNumberLongForHash(one(-5.9).firstElement()), -5);
    BSONObj d = fromjson(R"({"a": {"$numberDecimal": "-7.99"}, "b": {"$numberDecimal": "1E+30"}})");
    EXPECT_EQ(safeNumberLongForHash(d["a"]), -7);
    EXPECT_EQ(safeNumberLongForHash(d["b"]), std::numeric_limits<long long>::max());
}

TEST(BSONElementHasherTest, FieldOrderAndNamesMatterInDocuments) {
    BSONObj o = fromjson(R"({"x": {"a": 1, "b": 2}, "y": {"b": 2, "a": 1}, "z": {"a": 1, "c": 2}})");
    EXPECT_NE(hashBSONElement(o["x"]), hashBSONElement(o["y"]));
    EXPECT_NE(hashBSONElement(o["x"]), hashBSONElement(o["z"]));
}

TEST(BSONElementHasherTest, EqualityKeysCoverEveryEqualValue) {
    BSONObj o = fromjson(R"({"f": 2.5, "m": {"$numberDecimal": "2.5"}, "n": null})");
    // One point: every value equal to 2.5 hashes as 2 does.
    auto keys = hashedKeysForEquality(o["f"]);
    EXPECT_EQ(keys, std::vector<long long>{hashBSONElement(fromjson(R"({"i": 2})").firstElement())});
    EXPECT_EQ(hashedKeysForEquality(o["m"]), keys);
    BSONObj same = fromjson(R"({"i": 7, "l": {"$numberLong": "7"}, "d": 7.0, "m": {"$numberDecimal": "7.00"}})");
    for (const char* f : {"l", "d", "m"}) EXPECT_EQ(hashBSONElement(same[f]), hashBSONElement(same["i"])) << f;
    EXPECT_EQ(hashedKeysForEquality(fromjson(R"({"i": 7})").firstElement()).size(), 1u);
    EXPECT_EQ(hashedKeysForEquality(o["n"]).size(), 2u);  // null and undefined
}

}  // namespace
}  // namespace mongo
