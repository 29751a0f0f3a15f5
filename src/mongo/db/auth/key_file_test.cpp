// Key files holding several keys (MongoDB's YAML form, for key rollover): every key is read, the
// first is the one a member authenticates with, and the server accepts __system with any.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/scram.h"

namespace mongo::auth {
namespace {

std::string writeFile(const std::string& content) {
    char path[] = "/tmp/auth_multikey_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    close(fd);
    chmod(path, 0600);
    return path;
}

TEST(KeyFileKeys, LegacyAndYamlSequences) {
    const std::string legacy = writeFile("abc123+/=\n  def456\n");
    const std::string block = writeFile("- abcdef123\n- zyxwvu987=\n");
    const std::string flow = writeFile("[abcdef123, zyxwvu987=]\n");
    const std::string map = writeFile("key: abcdef123\n");
    const std::string badItem = writeFile("- abcdef123\n- abc-def\n");
    const std::string shortItem = writeFile("- abcdef123\n- abc\n");
    auto k = readKeyFileKeys(legacy);
    ASSERT_TRUE(k.isOK()) << k.getStatus().reason();
    EXPECT_EQ(k.getValue(), std::vector<std::string>{"abc123+/=def456"});
    for (const auto& p : {block, flow}) {
        auto keys = readKeyFileKeys(p);
        ASSERT_TRUE(keys.isOK()) << keys.getStatus().reason();
        EXPECT_EQ(keys.getValue(), (std::vector<std::string>{"abcdef123", "zyxwvu987="}));
        EXPECT_EQ(readKeyFile(p).getValue(), "abcdef123");
    }
    EXPECT_NE(readKeyFileKeys(map).getStatus().reason().find("not a mapping"), std::string::npos);
    EXPECT_NE(readKeyFileKeys(badItem).getStatus().reason().find("invalid char in key file"), std::string::npos);
    EXPECT_NE(readKeyFileKeys(shortItem).getStatus().reason().find("must be between 6 and 1024 chars"),
              std::string::npos);
    for (const auto& p : {legacy, block, flow, map, badItem, shortItem}) unlink(p.c_str());
}

// A full SCRAM exchange as __system with password `key` against the server's credential.
Status authenticateInternal(HashAlgo a, const std::string& key) {
    const std::string password = a == HashAlgo::kSha1 ? mongoPasswordDigest("__system", key) : key;
    ScramClientConversation client(a, "__system", password);
    ScramServerConversation server(
        a, [&](const std::string& u) -> std::optional<ScramCredential> {
            if (u == "__system") return internalUserCredential(a);
            return std::nullopt;
        },
        10000);
    auto serverFirst = server.step(client.clientFirst());
    if (!serverFirst.isOK()) return serverFirst.getStatus();
    auto clientFinal = client.clientFinal(serverFirst.getValue());
    if (!clientFinal.isOK()) return clientFinal.getStatus();
    auto serverFinal = server.step(clientFinal.getValue());
    if (!serverFinal.isOK()) return serverFinal.getStatus();
    return client.verifyServerFinal(serverFinal.getValue());
}

TEST(KeyFileKeys, AnyKeyAuthenticatesTheFirstIsUsed) {
    setAuthorizationForTest(true, std::vector<std::string>{"firstKey123", "secondKey456"});
    ASSERT_TRUE(internalAuthCredentials());
    EXPECT_EQ(internalAuthCredentials()->password, "firstKey123");
    for (HashAlgo a : {HashAlgo::kSha1, HashAlgo::kSha256}) {
        EXPECT_TRUE(authenticateInternal(a, "firstKey123").isOK());
        EXPECT_TRUE(authenticateInternal(a, "secondKey456").isOK());  // the server signs with the matching key
        EXPECT_EQ(authenticateInternal(a, "thirdKey789").code(), int(ErrorCodes::AuthenticationFailed));
    }
    setAuthorizationForTest(false);
    EXPECT_FALSE(internalAuthCredentials());
}

}  // namespace
}  // namespace mongo::auth
