#include "mongo/db/dedup/sha1.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

TEST(Sha1, KnownVectors) {
    EXPECT_EQ(toHex(sha1("", 0)), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    EXPECT_EQ(toHex(sha1("abc", 3)), "a9993e364706816aba3e25717850c26c9cd0d89d");
    std::string s = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    EXPECT_EQ(toHex(sha1(s.data(), s.size())), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    std::string million(1000000, 'a');
    EXPECT_EQ(toHex(sha1(million.data(), million.size())),
              "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, IncrementalEqualsOneShot) {
    std::string s(1000, 'x');
    for (size_t i = 0; i < s.size(); ++i)
        s[i] = char(i * 7);
    for (size_t cut : {0, 1, 55, 56, 63, 64, 65, 999}) {
        Sha1 h;
        h.update(s.data(), cut);
        h.update(s.data() + cut, s.size() - cut);
        EXPECT_EQ(h.finish(), sha1(s.data(), s.size())) << cut;
    }
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
