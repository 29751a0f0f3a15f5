#include "mongo/db/namespace_string.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

using namespace std::string_literals;

void expectInvalid(const Status& s, const std::string& reasonPart) {
    EXPECT_EQ(int(ErrorCodes::InvalidNamespace), s.code()) << s.toString();
    EXPECT_NE(std::string::npos, s.reason().find(reasonPart)) << s.reason();
}

TEST(NamespaceStringTest, DbNames) {
    EXPECT_TRUE(NamespaceString::validateDbName("test").isOK());
    EXPECT_TRUE(NamespaceString::validateDbName("t\xc3\xa9st").isOK());  // UTF-8 is fine
    EXPECT_TRUE(NamespaceString::validateDbName(std::string(63, 'a')).isOK());
    expectInvalid(NamespaceString::validateDbName(""), "cannot be empty");
    expectInvalid(NamespaceString::validateDbName(std::string(64, 'a')), "at most 63 characters, found: 64");
    expectInvalid(NamespaceString::validateDbName("a.b"), "'.' is an invalid character in a db name");
    for (const char* bad : {"a/b", "a\\b", "a b", "a\"b", "a$b"})
        expectInvalid(NamespaceString::validateDbName(bad), "Invalid database name: '"s + bad + "'");
    expectInvalid(NamespaceString::validateDbName("a\0b"s), "embedded null characters");
    expectInvalid(NamespaceString::validateDbName("a\xff\xfe"), "not valid UTF-8");
    // Overlong encodings and surrogates are not UTF-8 either.
    expectInvalid(NamespaceString::validateDbName("\xc0\xaf"), "not valid UTF-8");
    expectInvalid(NamespaceString::validateDbName("\xed\xa0\x80"), "not valid UTF-8");
}

TEST(NamespaceStringTest, CollectionNames) {
    EXPECT_TRUE(NamespaceString::validateCollectionName("c").isOK());
    EXPECT_TRUE(NamespaceString::validateCollectionName("a.b.c").isOK());
    EXPECT_TRUE(NamespaceString::validateCollectionName("oplog.$main").isOK());
    EXPECT_TRUE(NamespaceString::validateCollectionName("\xe2\x82\xac").isOK());
    expectInvalid(NamespaceString::validateCollectionName(""), "collection name is empty");
    expectInvalid(NamespaceString::validateCollectionName("a$b"), "Invalid collection name: a$b");
    expectInvalid(NamespaceString::validateCollectionName("$cmd"), "Invalid collection name: $cmd");
    expectInvalid(NamespaceString::validateCollectionName(".a"), "Invalid collection name: .a");
    expectInvalid(NamespaceString::validateCollectionName("a\0b"s), "embedded null characters");
    Status s = NamespaceString::validateCollectionName("x\xff\xfe");
    expectInvalid(s, "not valid UTF-8");
    // The message itself stays decodable: the bad bytes are replaced.
    EXPECT_EQ(std::string::npos, s.reason().find('\xff'));
}

TEST(NamespaceStringTest, FullNamespace) {
    std::string db = "test";
    EXPECT_TRUE(NamespaceString::validateNamespace(db, std::string(255 - 5, 'c')).isOK());
    expectInvalid(NamespaceString::validateNamespace(db, std::string(256 - 5, 'c')),
                  "Fully qualified namespace is too long. Namespace: test.ccc");
    expectInvalid(NamespaceString::validateNamespace(db, ""), "Invalid namespace specified 'test.'");
    expectInvalid(NamespaceString::validateNamespace("a.b", "c"), "invalid character");
    expectInvalid(NamespaceString::validateNamespace(db, "c\xff"), "not valid UTF-8");
}

TEST(NamespaceStringTest, CursorNamespaces) {
    EXPECT_TRUE(NamespaceString::validateCursorNamespace("test", "$cmd.listCollections").isOK());
    EXPECT_TRUE(NamespaceString::validateCursorNamespace("test", "$cmd.listIndexes.c").isOK());
    EXPECT_TRUE(NamespaceString::validateCursorNamespace("test", "c").isOK());
    expectInvalid(NamespaceString::validateCursorNamespace("test", "$cmd.\xff"), "not valid UTF-8");
    expectInvalid(NamespaceString::validateCursorNamespace("test", "a$b"), "Invalid collection name");
    expectInvalid(NamespaceString::validateCursorNamespace("test", ""), "Invalid namespace specified");
    expectInvalid(NamespaceString::validateCursorNamespace("a\xff", "c"), "not valid UTF-8");
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(NamespaceStringTest, UserCreatable) {
    EXPECT_TRUE(NamespaceString::validateUserCreatable("test", "c").isOK());
    EXPECT_TRUE(NamespaceString::validateUserCreatable("test", "system.js").isOK());
    EXPECT_TRUE(NamespaceString::validateUserCreatable("test", "system.profile").isOK());
    EXPECT_TRUE(NamespaceString::validateUserCreatable("test", "system.views").isOK());  // view definitions
    EXPECT_TRUE(NamespaceString::validateUserCreatable("admin", "system.users").isOK());
    EXPECT_TRUE(NamespaceString::validateUserCreatable("test", "systemx").isOK());
    Status s = NamespaceString::validateUserCreatable("test", "system.foo");
    EXPECT_EQ(int(ErrorCodes::InvalidNamespace), s.code());
    EXPECT_EQ("Invalid system namespace: test.system.foo", s.reason());
    EXPECT_FALSE(NamespaceString::validateUserCreatable("test", "system.users").isOK());
    EXPECT_FALSE(NamespaceString::validateUserCreatable("test", "c\xff").isOK());
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(NamespaceStringTest, UserWritable) {
    EXPECT_TRUE(NamespaceString::validateUserWritable("test", "c").isOK());
    EXPECT_TRUE(NamespaceString::validateUserWritable("test", "system.js").isOK());
    EXPECT_EQ("cannot write to 'test.system.profile'",
              NamespaceString::validateUserWritable("test", "system.profile").reason());
    EXPECT_EQ("Invalid system namespace: test.system.x", NamespaceString::validateUserWritable("test", "system.x").reason());
}

}  // namespace
}  // namespace mongo
