#include "mongo/db/dedup/varint.h"

#include <gtest/gtest.h>

#include <string>

namespace mongo {
namespace dedup {
namespace {

TEST(Varint, RoundTripsAndRejectsTruncatedOrOverlong) {
    for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 1ull << 35, ~0ull}) {
        std::string s;
        putVarint(&s, v);
        EXPECT_EQ(s.size(), varintLength(v));
        const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
        uint64_t back = 0;
        ASSERT_TRUE(getVarint(&p, p + s.size(), &back));
        EXPECT_EQ(back, v);
        const uint8_t* q = reinterpret_cast<const uint8_t*>(s.data());
        if (s.size() > 1) {
            EXPECT_FALSE(getVarint(&q, q + s.size() - 1, &back));
        }
    }
    std::string overlong(11, '\x80');
    const uint8_t* p = reinterpret_cast<const uint8_t*>(overlong.data());
    uint64_t v;
    EXPECT_FALSE(getVarint(&p, p + overlong.size(), &v));
    std::string overflow = std::string(9, '\xff') + '\x02';  // 2^64 and more
    p = reinterpret_cast<const uint8_t*>(overflow.data());
    EXPECT_FALSE(getVarint(&p, p + overflow.size(), &v));
    for (int64_t x : {0LL, -1LL, 1LL, -64LL, 1LL << 40, -(1LL << 40)})
        EXPECT_EQ(zigzagDecode(zigzagEncode(x)), x);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
