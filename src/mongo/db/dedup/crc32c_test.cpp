#include "mongo/db/dedup/crc32c.h"

#include <gtest/gtest.h>

#include <random>
#include <string>


namespace mongo {
namespace dedup {
namespace {

TEST(DedupCrc32c, KnownVectors) {
    // RFC 3720 appendix B.4 test vectors.
    std::string zeros(32, '\0');
    EXPECT_EQ(crc32c(0, zeros.data(), zeros.size()), 0x8A9136AAu);
    std::string ones(32, '\xff');
    EXPECT_EQ(crc32c(0, ones.data(), ones.size()), 0x62A8AB43u);
    EXPECT_EQ(crc32c(0, "123456789", 9), 0xE3069283u);
}

TEST(DedupCrc32c, HardwareAndPortableAgreeAndExtendIncrementally) {
    std::mt19937_64 rng(7);
    std::string s(1000, '\0');
    for (auto& c : s)
        c = static_cast<char>(rng());
    for (size_t len : {0, 1, 7, 8, 9, 63, 64, 65, 999, 1000}) {
        uint32_t whole = crc32c(0, s.data(), len);
        EXPECT_EQ(whole, crc32cPortable(0, s.data(), len)) << len;
        for (size_t cut : {size_t(0), len / 3, len}) {
            uint32_t part = crc32c(crc32c(0, s.data(), cut), s.data() + cut, len - cut);
            EXPECT_EQ(part, whole) << len << "/" << cut;
        }
    }
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
