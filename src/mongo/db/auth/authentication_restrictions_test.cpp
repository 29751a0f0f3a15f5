#include "mongo/db/auth/authentication_restrictions.h"

#include <gtest/gtest.h>

#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo::auth {
namespace {

bool contains(const std::string& range, const std::string& address) {
    auto r = CidrRange::parse(range);
    EXPECT_TRUE(r.isOK()) << range;
    auto a = CidrRange::parseAddress(address);
    EXPECT_TRUE(a.has_value()) << address;
    return r.isOK() && a && r.getValue().contains(*a);
}

TEST(CidrRangeTest, ContainsAsPrefixesSay) {
    EXPECT_TRUE(contains("10.0.0.0/8", "10.255.1.2"));
    EXPECT_FALSE(contains("10.0.0.0/8", "11.0.0.1"));
    EXPECT_TRUE(contains("192.168.1.7", "192.168.1.7"));
    EXPECT_FALSE(contains("192.168.1.7", "192.168.1.8"));
    EXPECT_TRUE(contains("192.168.1.0/25", "192.168.1.127"));
    EXPECT_FALSE(contains("192.168.1.0/25", "192.168.1.128"));
    EXPECT_TRUE(contains("0.0.0.0/0", "8.8.8.8"));
    EXPECT_TRUE(contains("::1", "::1"));
    EXPECT_TRUE(contains("fe80::/10", "febf::1"));
    EXPECT_FALSE(contains("fe80::/10", "fec0::1"));
    EXPECT_FALSE(contains("::1", "127.0.0.1"));  // families never mix...
    EXPECT_TRUE(contains("127.0.0.0/8", "::ffff:127.0.0.1"));  // ...except IPv4 seen through IPv6
}

TEST(CidrRangeTest, MalformedRangesAreRefused) {
    for (const char* bad : {"", "10.0.0", "10.0.0.0/", "10.0.0.0/33", "::1/129", "10.0.0.0/8x", "host.example", "1.2.3.4/-1"})
        EXPECT_FALSE(CidrRange::parse(bad).isOK()) << bad;
}

TEST(AuthenticationRestrictionsTest, ParseChecksShapeAndRanges) {
    std::vector<BSONObj> keep;  // the elements below point into these
    auto arg = [&](const char* json) {
        keep.push_back(fromjson(std::string("{\"a\": ") + json + "}"));
        return keep.back()["a"];
    };
    keep.reserve(16);
    BSONObj ok = fromjson("{\"a\": [{\"clientSource\": [\"10.0.0.0/8\"], \"serverAddress\": [\"127.0.0.1\"]}]}");
    auto parsed = parseRestrictions(ok["a"], "createUser.authenticationRestrictions");
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus().toString();
    EXPECT_TRUE(parsed.getValue().binaryEqual(ok["a"].Obj()));
    EXPECT_EQ(parseRestrictions(arg("{}"), "f").getStatus().code(), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(parseRestrictions(arg("[1]"), "f").getStatus().code(), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(parseRestrictions(arg("[{\"clientIp\": [\"1.2.3.4\"]}]"), "f").getStatus().code(),
              int(ErrorCodes::BadValue));
    EXPECT_EQ(parseRestrictions(arg("[{\"clientSource\": \"1.2.3.4\"}]"), "f").getStatus().code(),
              int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(parseRestrictions(arg("[{\"clientSource\": [\"1.2.3\"]}]"), "f").getStatus().code(),
              int(ErrorCodes::BadValue));
    EXPECT_TRUE(parseRestrictions(arg("[]"), "f").isOK());
}

TEST(AuthenticationRestrictionsTest, OneDocumentOfAListMustMatchWhole) {
    BSONObj list = fromjson(
        "{\"0\": {\"clientSource\": [\"10.0.0.0/8\"], \"serverAddress\": [\"192.168.0.1\"]}, "
        "\"1\": {\"clientSource\": [\"127.0.0.1\"]}}");
    EXPECT_TRUE(restrictionsAllow(list, "10.1.1.1", "192.168.0.1"));  // first document, both fields
    EXPECT_FALSE(restrictionsAllow(list, "10.1.1.1", "192.168.0.2"));  // first fails its serverAddress
    EXPECT_TRUE(restrictionsAllow(list, "127.0.0.1", "anything"));    // second: clientSource only
    EXPECT_FALSE(restrictionsAllow(list, "", ""));                    // unknown addresses match no range
    EXPECT_TRUE(restrictionsAllow(BSONObj(), "", ""));                // no restriction
}

TEST(AuthenticationRestrictionsTest, AddressOfRemoteDropsThePort) {
    EXPECT_EQ(addressOfRemote("10.1.2.3:5000"), "10.1.2.3");
    EXPECT_EQ(addressOfRemote("[::1]:27017"), "::1");
    EXPECT_EQ(addressOfRemote("anonymous unix socket:27017"), "");
}

}  // namespace
}  // namespace mongo::auth
