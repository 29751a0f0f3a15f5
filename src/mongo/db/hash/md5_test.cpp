#include "mongo/db/hash/md5.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

std::string hexOf(std::string_view s) { return Md5::toHex(Md5::of(s.data(), s.size())); }

TEST(Md5Test, Rfc1321Vectors) {
    EXPECT_EQ(hexOf(""), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_EQ(hexOf("a"), "0cc175b9c0f1b6a831c399e269772661");
    EXPECT_EQ(hexOf("abc"), "900150983cd24fb0d6963f7d28e17f72");
    EXPECT_EQ(hexOf("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
    EXPECT_EQ(hexOf("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
              "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, IncrementalEqualsWhole) {
    Md5 m;
    m.append("message ");
    m.append("");
    m.append("digest");
    EXPECT_EQ(Md5::toHex(m.finish()), "f96b697d7cb7938d525a2f31aaf161d0");
}

}  // namespace
}  // namespace mongo
