#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

TEST(BSONObjBuilder, BuildsAndReadsEveryCommonType) {
    BSONObjBuilder b;
    b.append("i", 1).append("l", 5000000000LL).append("d", 2.5).append("s", "str").append("t", true);
    b.appendNull("n");
    {
        BSONObjBuilder& sub = b.subobjStart("o");
        sub.append("x", 1);
        BSONArrayBuilder& arr = sub.subarrayStart("arr");
        arr.append(1).append("two");
        sub.done();
    }
    b.append("after", 3);
    BSONObj o = b.obj();
    EXPECT_EQ(o["i"].type(), NumberInt);
    EXPECT_EQ(o["l"].type(), NumberLong);
    EXPECT_EQ(o["l"].numberLong(), 5000000000LL);
    EXPECT_EQ(o["d"].numberDouble(), 2.5);
    EXPECT_EQ(o["s"].str(), "str");
    EXPECT_TRUE(o["t"].boolean());
    EXPECT_TRUE(o["n"].isNull());
    EXPECT_EQ(o.getFieldDotted("o.x").numberInt(), 1);
    EXPECT_EQ(o.getFieldDotted("o.arr.1").str(), "two");
    EXPECT_EQ(o["after"].numberInt(), 3);
    EXPECT_EQ(o.nFields(), 8);
    auto back = BSONObj::fromUntrusted(o.objdata(), o.objsize());
    ASSERT_TRUE(back.isOK());
    EXPECT_TRUE(back.getValue().binaryEqual(o));
}

TEST(BSONCompare, CanonicalCrossTypeOrder) {
    BSONObj o = fromjson(R"({"a": null, "b": 1, "c": "x", "d": {}, "e": [], "f": true, "g": {"$minKey": 1}})");
    EXPECT_LT(o["a"].woCompare(o["b"]), 0);
    EXPECT_LT(o["b"].woCompare(o["c"]), 0);
    EXPECT_LT(o["c"].woCompare(o["d"]), 0);
    EXPECT_LT(o["d"].woCompare(o["e"]), 0);
    EXPECT_LT(o["e"].woCompare(o["f"]), 0);
    EXPECT_LT(o["g"].woCompare(o["a"]), 0);
}

TEST(BSONCompare, NumbersCompareByValueAcrossTypes) {
    BSONObjBuilder b;
    b.append("i", 3).append("l", 3LL).append("d", 3.0).append("d2", 3.5);
    b.append("nan", std::numeric_limits<double>::quiet_NaN()).append("neg", -1e300);
    BSONObj o = b.obj();
    EXPECT_EQ(o["i"].woCompare(o["l"]), 0);
    EXPECT_EQ(o["i"].woCompare(o["d"]), 0);
    EXPECT_LT(o["l"].woCompare(o["d2"]), 0);
    EXPECT_LT(o["nan"].woCompare(o["neg"]), 0);
}

TEST(BSONValidate, RejectsTruncatedAndOverrunningDocuments) {
    BSONObjBuilder b;
    b.append("s", "hello");
    BSONObj o = b.obj();
    std::string bytes(o.objdata(), o.objsize());
    EXPECT_FALSE(BSONObj::fromUntrusted(bytes.data(), bytes.size() - 1).isOK());
    std::string bad = bytes;
    bad[7] = 100;  // string length far past the end
    EXPECT_EQ(BSONObj::fromUntrusted(bad.data(), bad.size()).getStatus().code(), int(ErrorCodes::InvalidBSON));
    std::string badType = bytes;
    badType[4] = 0x55;
    EXPECT_FALSE(BSONObj::fromUntrusted(badType.data(), badType.size()).isOK());
}

TEST(BSONJson, RoundTripsThroughRelaxedExtendedJson) {
    BSONObj o = fromjson(R"({"a": 1, "b": [1, 2, {"c": "d"}]})");
    EXPECT_EQ(o.jsonString(), R"({ "a" : 1, "b" : [ 1, 2, { "c" : "d" } ] })");
    EXPECT_TRUE(fromjson(o.jsonString()).binaryEqual(o));
}

}  // namespace
}  // namespace mongo
