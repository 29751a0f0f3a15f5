#include "mongo/base/status.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

TEST(StatusTest, ValidUtf8ReasonIsKeptAsIs) {
    const std::string reason = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 plain";
    EXPECT_EQ(Status(ErrorCodes::BadValue, reason).reason(), reason);
    EXPECT_EQ(toValidUtf8(""), "");
}

TEST(StatusTest, ReasonWithInvalidUtf8GetsReplacementCharacters) {
    // A multi-byte character cut after its first byte, as when a message quotes one byte.
    EXPECT_EQ(Status(ErrorCodes::BadValue, "flag: \xC3").reason(), "flag: \xEF\xBF\xBD");
    EXPECT_EQ(Status(2, "a\xC3" "b").reason(), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(toValidUtf8("\xFF\xFE"), "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_EQ(toValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");          // overlong '/'
    EXPECT_EQ(toValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
    EXPECT_EQ(toValidUtf8("\xF4\x90\x80\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // > U+10FFFF
    EXPECT_EQ(toValidUtf8("ok \xE2\x82"), "ok \xEF\xBF\xBD\xEF\xBF\xBD");   // truncated at the end
}

TEST(StatusTest, DBExceptionCarriesTheCleanedReason) {
    try {
        uasserted(ErrorCodes::BadValue, std::string("x\x80y"));
    } catch (const DBException& e) {
        EXPECT_EQ(e.reason(), "x\xEF\xBF\xBDy");
    }
}

}  // namespace
}  // namespace mongo
