#pragma once
// SCRAM (RFC 5802) with SHA-1 and SHA-256 (RFC 7677), as MongoDB runs it inside saslStart /
// saslContinue: credentials as MongoDB stores them ({iterationCount, salt, storedKey,
// serverKey}, all base64), the server's side of one conversation, and a client side (unit
// tests; outgoing connections of replica-set members).
//
// The password given to makeScramCredential / ScramClientConversation is the *prepared*
// one: for SCRAM-SHA-1 MongoDB's digest md5hex("<user>:mongo:<password>")
// (mongoPasswordDigest), for SCRAM-SHA-256 the SASLprep'd password (saslprep.h).
//
// Not thread safe per object; separate objects may run concurrently.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <string_view>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/crypto.h"

namespace mongo::auth {

constexpr const char* kScramSha1 = "SCRAM-SHA-1";
constexpr const char* kScramSha256 = "SCRAM-SHA-256";
// Mechanism name -> hash, nullopt for anything else.
std::optional<HashAlgo> scramAlgoForMechanism(std::string_view mechanism);
const char* mechanismName(HashAlgo a);

// MongoDB's password digest: lowercase hex MD5 of "<user>:mongo:<password>".
std::string mongoPasswordDigest(std::string_view user, std::string_view password);

struct ScramCredential {
    int iterationCount = 0;
    std::string salt;       // base64
    std::string storedKey;  // base64
    std::string serverKey;  // base64
    // Other keys accepted for the same user, as {storedKey, serverKey} (base64) under the same
    // salt and iteration count: the further keys of a key file (auth_options.h), so that members
    // sharing any one key authenticate. In memory only: toBSON leaves them out.
    std::vector<std::pair<std::string, std::string>> alternateKeys;

    bool isValid() const { return iterationCount > 0 && !salt.empty() && !storedKey.empty() && !serverKey.empty(); }
    BSONObj toBSON() const;
    // From a stored credentials entry; BadValue if a field is missing or of the wrong type.
    static StatusWith<ScramCredential> fromBSON(const BSONObj& o);
};

// New credentials for a prepared password: a random salt (16 bytes for SHA-1, 28 for
// SHA-256, as MongoDB) unless rawSalt is given (tests).
ScramCredential makeScramCredential(HashAlgo a, std::string_view preparedPassword, int iterations,
                                    std::string_view rawSalt = {});

// The server's side of one exchange. step() takes the client's message and returns the
// server's: client-first -> server-first, client-final -> server-final (done() is true
// after it). Errors (malformed message, wrong nonce, wrong proof) end the conversation; the
// Status says why for the log (the client must only be told "Authentication failed.").
class ScramServerConversation {
public:
    // lookup(user) gives the user's credential for this mechanism, or nullopt if there is
    // none; the conversation then goes on with made-up credentials and fails at the proof,
    // so that a client cannot tell an unknown user from a wrong password.
    using Lookup = std::function<std::optional<ScramCredential>(const std::string& user)>;
    ScramServerConversation(HashAlgo a, Lookup lookup, int fakeIterationCount);

    StatusWith<std::string> step(std::string_view clientMessage);
    bool done() const { return _state == State::kDone; }
    // The user named in client-first (unescaped), once step 1 ran.
    const std::string& user() const { return _user; }
    HashAlgo algo() const { return _algo; }
    // Tests only: the server's part of the nonce (random otherwise), to replay RFC vectors.
    void setServerNonceForTest(std::string n) { _testServerNonce = std::move(n); }

private:
    StatusWith<std::string> first(std::string_view msg);
    StatusWith<std::string> final(std::string_view msg);

    enum class State { kFirst, kFinal, kDone, kFailed };
    HashAlgo _algo;
    Lookup _lookup;
    int _fakeIterations;
    State _state = State::kFirst;
    std::string _user;
    std::string _gs2Header;        // "n,," or "y,,"
    std::string _clientFirstBare;  // "n=...,r=..."
    std::string _serverFirst;
    std::string _nonce;            // client nonce + server nonce
    ScramCredential _cred;
    bool _userKnown = false;
    std::string _testServerNonce;
};

// The client's side (RFC 5802 section 3).
class ScramClientConversation {
public:
    // clientNonce: printable, no ','; random (24 bytes, base64) when empty.
    ScramClientConversation(HashAlgo a, std::string user, std::string preparedPassword, std::string clientNonce = {});
    std::string clientFirst();
    // server-first -> client-final. BadValue for a malformed message, a nonce that does not
    // extend ours, or an iteration count below 4096 (RFC 5802's minimum).
    StatusWith<std::string> clientFinal(std::string_view serverFirst);
    // Checks the server's signature in server-final (AuthenticationFailed if wrong).
    Status verifyServerFinal(std::string_view serverFinal) const;

private:
    HashAlgo _algo;
    std::string _user, _password, _nonce;
    std::string _clientFirstBare, _authMessage, _serverSignature;
};

// SCRAM's escaping of user names in n= ("," -> "=2C", "=" -> "=3D") and its inverse
// (nullopt for a bad escape).
std::string scramEscapeUser(std::string_view user);
std::optional<std::string> scramUnescapeUser(std::string_view escaped);

}  // namespace mongo::auth
