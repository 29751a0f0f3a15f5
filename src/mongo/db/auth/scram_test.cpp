// SCRAM against the published test vectors: RFC 5802 section 5 (SHA-1), RFC 7677 section 3
// (SHA-256), and the drivers' authentication specification's SCRAM-SHA-1 example, whose
// password is MongoDB's digest of "user:mongo:pencil".
#include "mongo/db/auth/scram.h"

#include <gtest/gtest.h>

#include <vector>

#include "mongo/db/auth/saslprep.h"

namespace mongo::auth {
namespace {

struct Vector {
    HashAlgo algo;
    std::string password;  // prepared
    std::string clientNonce, serverNonce, salt;
    int iterations;
    std::string clientFinal, serverFinal;
};

void replay(const Vector& v) {
    std::string rawSalt;
    ASSERT_TRUE(base64Decode(v.salt, &rawSalt));
    ScramCredential cred = makeScramCredential(v.algo, v.password, v.iterations, rawSalt);
    EXPECT_EQ(cred.salt, v.salt);

    ScramClientConversation client(v.algo, "user", v.password, v.clientNonce);
    ScramServerConversation server(
        v.algo, [&](const std::string& u) -> std::optional<ScramCredential> {
            if (u == "user") return cred;
            return std::nullopt;
        },
        10000);
    server.setServerNonceForTest(v.serverNonce);

    std::string first = client.clientFirst();
    EXPECT_EQ(first, "n,,n=user,r=" + v.clientNonce);
    auto serverFirst = server.step(first);
    ASSERT_TRUE(serverFirst.isOK()) << serverFirst.getStatus().reason();
    EXPECT_EQ(serverFirst.getValue(),
              "r=" + v.clientNonce + v.serverNonce + ",s=" + v.salt + ",i=" + std::to_string(v.iterations));
    auto clientFinal = client.clientFinal(serverFirst.getValue());
    ASSERT_TRUE(clientFinal.isOK()) << clientFinal.getStatus().reason();
    EXPECT_EQ(clientFinal.getValue(), v.clientFinal);
    auto serverFinal = server.step(clientFinal.getValue());
    ASSERT_TRUE(serverFinal.isOK()) << serverFinal.getStatus().reason();
    EXPECT_EQ(serverFinal.getValue(), v.serverFinal);
    EXPECT_TRUE(server.done());
    EXPECT_TRUE(client.verifyServerFinal(serverFinal.getValue()).isOK());
    EXPECT_FALSE(client.verifyServerFinal("v=" + base64Encode(std::string(hashLength(v.algo), 'x'))).isOK());
}

TEST(Scram, Rfc5802Sha1) {
    replay({HashAlgo::kSha1, "pencil", "fyko+d2lbbFgONRv9qkxdawL", "3rfcNHYJY1ZVvWVs7j", "QSXCR+Q6sek8bf92", 4096,
            "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=",
            "v=rmF9pqV8S7suAoZWja4dJRkFsKQ="});
}

TEST(Scram, Rfc7677Sha256) {
    replay({HashAlgo::kSha256, "pencil", "rOprNGfwEbeRWgbNEkqO", "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
            "W22ZaJ0SNY7soEsUEjb6gQ==", 4096,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
            "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="});
}

TEST(Scram, MongoDigestSha1DriverSpec) {
    std::string digest = mongoPasswordDigest("user", "pencil");
    EXPECT_EQ(digest, "1c33006ec1ffd90f9cadcbcc0e118200");
    replay({HashAlgo::kSha1, digest, "fyko+d2lbbFgONRv9qkxdawL", "Ho+Vgk7qvUOKUwuWLIWg4l/9SraGMHEE",
            "rQ9ZY3MntBeuP3E1TDVC4w==", 10000,
            "c=biws,r=fyko+d2lbbFgONRv9qkxdawLHo+Vgk7qvUOKUwuWLIWg4l/9SraGMHEE,p=MC2T8BvbmWRckDw8oWl5IVghwCY=",
            "v=UMWeI25JD1yNYZRMpZ4VHvhZ9e0="});
}

ScramServerConversation serverFor(HashAlgo a, const ScramCredential& cred) {
    return ScramServerConversation(
        a, [cred](const std::string& u) -> std::optional<ScramCredential> {
            if (u == "alice") return cred;
            return std::nullopt;
        },
        15000);
}

TEST(Scram, WrongPasswordAndUnknownUserFailAlikeAtTheProof) {
    ScramCredential cred = makeScramCredential(HashAlgo::kSha256, "secret", 5000);
    for (std::string user : {"alice", "bob"}) {
        auto server = serverFor(HashAlgo::kSha256, cred);
        ScramClientConversation client(HashAlgo::kSha256, user, "wrong");
        auto sf = server.step(client.clientFirst());
        ASSERT_TRUE(sf.isOK()) << user;  // an unknown user is not refused at the first step
        auto cf = client.clientFinal(sf.getValue());
        ASSERT_TRUE(cf.isOK());
        auto r = server.step(cf.getValue());
        EXPECT_EQ(r.getStatus().code(), static_cast<int>(ErrorCodes::AuthenticationFailed)) << user;
        EXPECT_FALSE(server.done());
    }
    // The right password works, and the unknown user's salt is stable across attempts.
    auto server = serverFor(HashAlgo::kSha256, cred);
    ScramClientConversation client(HashAlgo::kSha256, "alice", "secret");
    auto sf = server.step(client.clientFirst());
    auto r = server.step(client.clientFinal(sf.getValue()).getValue());
    ASSERT_TRUE(r.isOK());
    EXPECT_TRUE(client.verifyServerFinal(r.getValue()).isOK());
    auto s1 = serverFor(HashAlgo::kSha256, cred), s2 = serverFor(HashAlgo::kSha256, cred);
    std::string a = s1.step("n,,n=bob,r=abc").getValue(), b = s2.step("n,,n=bob,r=abc").getValue();
    EXPECT_EQ(a.substr(a.find(",s=")), b.substr(b.find(",s=")));
}

TEST(Scram, MalformedMessagesEndTheConversation) {
    ScramCredential cred = makeScramCredential(HashAlgo::kSha1, "x", 5000);
    for (std::string bad : {"", "n,", "p=tls-unique,,n=alice,r=abc", "x,,n=alice,r=abc", "n,,r=abc", "n,,n=alice",
                            "n,,n=al=ice,r=abc", "n,,n=,r=abc", "n,a=bob,n=alice,r=abc", "n,,n=alice,r=a c",
                            "n,,n=alice,r=abc,m=ext"}) {
        auto server = serverFor(HashAlgo::kSha1, cred);
        EXPECT_FALSE(server.step(bad).isOK()) << bad;
        EXPECT_FALSE(server.step("n,,n=alice,r=abc").isOK()) << "a failed conversation stays failed";
    }
    auto server = serverFor(HashAlgo::kSha1, cred);
    std::string sf = server.step("n,,n=alice,r=abc").getValue();
    std::string nonce = sf.substr(2, sf.find(',') - 2);
    for (std::string bad : std::vector<std::string>{"c=biws,r=" + nonce, "c=biws,r=abcX,p=AAAA", "c=eXl5,r=" + nonce + ",p=AAAA",
                            "c=biws,r=" + nonce + ",p=!!!", "garbage"}) {
        auto s = serverFor(HashAlgo::kSha1, cred);
        std::string f = s.step("n,,n=alice,r=abc").getValue();
        std::string n2 = f.substr(2, f.find(',') - 2);
        std::string msg = bad;
        if (auto p = msg.find(nonce); p != std::string::npos) msg.replace(p, nonce.size(), n2);
        EXPECT_FALSE(s.step(msg).isOK()) << bad;
    }
}

TEST(Scram, UserNameEscaping) {
    EXPECT_EQ(scramEscapeUser("a,b=c"), "a=2Cb=3Dc");
    EXPECT_EQ(*scramUnescapeUser("a=2Cb=3Dc"), "a,b=c");
    EXPECT_FALSE(scramUnescapeUser("a=2"));
    EXPECT_FALSE(scramUnescapeUser("a=41"));
}

TEST(Scram, CredentialRoundTripsThroughBSON) {
    ScramCredential c = makeScramCredential(HashAlgo::kSha256, "pw", 15000);
    auto back = ScramCredential::fromBSON(c.toBSON());
    ASSERT_TRUE(back.isOK());
    EXPECT_EQ(back.getValue().storedKey, c.storedKey);
    EXPECT_EQ(back.getValue().iterationCount, 15000);
    std::string salt;
    ASSERT_TRUE(base64Decode(c.salt, &salt));
    EXPECT_EQ(salt.size(), 28u);
    EXPECT_FALSE(ScramCredential::fromBSON(BSONObj()).isOK());
}

TEST(Crypto, Base64) {
    std::string out;
    EXPECT_EQ(base64Encode("pencil"), "cGVuY2ls");
    EXPECT_TRUE(base64Decode("cGVuY2ls", &out));
    EXPECT_EQ(out, "pencil");
    EXPECT_TRUE(base64Decode("YQ==", &out));
    EXPECT_EQ(out, "a");
    EXPECT_FALSE(base64Decode("YQ=", &out));
    EXPECT_FALSE(base64Decode("Y=Q=", &out));
    EXPECT_FALSE(base64Decode("YQ*=", &out));
}

TEST(SaslPrep, Rfc4013Examples) {
    EXPECT_EQ(saslPrep("I\xC2\xAD" "X").getValue(), "IX");          // soft hyphen mapped to nothing
    EXPECT_EQ(saslPrep("user").getValue(), "user");
    EXPECT_EQ(saslPrep("USER").getValue(), "USER");                  // case preserved
    EXPECT_EQ(saslPrep("\xC2\xAA").getValue(), "a");                 // NFKC
    EXPECT_EQ(saslPrep("\xE2\x85\xA8").getValue(), "IX");            // NFKC
    EXPECT_EQ(saslPrep("a\xC2\xA0" "b").getValue(), "a b");          // non-ASCII space -> space
    EXPECT_FALSE(saslPrep("\x07").isOK());                           // prohibited
    EXPECT_FALSE(saslPrep("\xD8\xA7" "1").isOK());                   // bidi check
}

}  // namespace
}  // namespace mongo::auth
