#include <gtest/gtest.h>

#include <set>

#include "mongo/bson/uuid.h"

namespace mongo {
namespace {

TEST(Uuid, HexRoundTrip) {
    unsigned char b[kUuidLength];
    ASSERT_TRUE(uuidHexToBytes("00112233445566778899AaBbCcDdEeFf", b));
    EXPECT_EQ(b[0], 0x00);
    EXPECT_EQ(b[15], 0xff);
    EXPECT_EQ(uuidBytesToHex(b), "00112233445566778899aabbccddeeff");
}

TEST(Uuid, RejectsBadHex) {
    unsigned char b[kUuidLength];
    EXPECT_FALSE(uuidHexToBytes("", b));
    EXPECT_FALSE(uuidHexToBytes("00112233445566778899aabbccddeef", b));    // 31 digits
    EXPECT_FALSE(uuidHexToBytes("00112233445566778899aabbccddeeff0", b));  // 33 digits
    EXPECT_FALSE(uuidHexToBytes("00112233445566778899aabbccddeefg", b));
}

TEST(Uuid, BinDataElementRoundTrip) {
    BSONObjBuilder b;
    ASSERT_TRUE(appendUuidHex(b, "u", "0123456789abcdef0123456789abcdef"));
    EXPECT_FALSE(appendUuidHex(b, "bad", "xyz"));
    BSONObj o = b.obj();
    EXPECT_FALSE(o.hasField("bad"));
    int len = 0, subtype = 0;
    o["u"].binData(&len, &subtype);
    EXPECT_EQ(len, 16);
    EXPECT_EQ(subtype, 4);
    EXPECT_EQ(uuidHexFromElement(o["u"]).value_or(""), "0123456789abcdef0123456789abcdef");

    BSONObjBuilder other;
    other.append("s", "0123456789abcdef0123456789abcdef");
    unsigned char bytes[16] = {};
    other.appendBinData("generic", 16, 0, bytes);
    other.appendBinData("short", 15, 4, bytes);
    BSONObj x = other.obj();
    EXPECT_FALSE(uuidHexFromElement(x["s"]).has_value());
    EXPECT_FALSE(uuidHexFromElement(x["generic"]).has_value());
    EXPECT_FALSE(uuidHexFromElement(x["short"]).has_value());
}

TEST(Uuid, GeneratedAreVersion4AndDistinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; i++) {
        std::string h = generateUuidHex();
        ASSERT_EQ(h.size(), 32u);
        EXPECT_EQ(h[12], '4');
        EXPECT_NE(std::string("89ab").find(h[16]), std::string::npos);
        seen.insert(h);
    }
    EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace mongo
