#include "mongo/db/auth/scram.h"

#include <vector>

namespace mongo::auth {

namespace {

constexpr size_t kNonceBytes = 24;
constexpr int kMinClientIterations = 4096;

std::string xorStrings(std::string_view a, std::string_view b) {
    std::string out(a.size(), '\0');
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) out[i] = static_cast<char>(a[i] ^ b[i]);
    return out;
}

// "k=v,k=v,..." split on ','. Values may contain '=' (base64 padding).
std::vector<std::string_view> splitComma(std::string_view s) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        size_t p = s.find(',', start);
        out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
        if (p == std::string_view::npos) break;
        start = p + 1;
    }
    return out;
}

bool attr(std::string_view part, char key, std::string_view* value) {
    if (part.size() < 2 || part[0] != key || part[1] != '=') return false;
    *value = part.substr(2);
    return true;
}

// A key of the process, for made-up credentials of unknown users: the same user gets the
// same salt on every attempt (as a real one would), and nobody can compute a proof.
const std::string& processSecret() {
    static const std::string s = secureRandomBytes(32);
    return s;
}

Status bad(const std::string& why) { return Status(ErrorCodes::BadValue, why); }

}  // namespace

std::optional<HashAlgo> scramAlgoForMechanism(std::string_view m) {
    if (m == kScramSha1) return HashAlgo::kSha1;
    if (m == kScramSha256) return HashAlgo::kSha256;
    return std::nullopt;
}

const char* mechanismName(HashAlgo a) { return a == HashAlgo::kSha1 ? kScramSha1 : kScramSha256; }

std::string mongoPasswordDigest(std::string_view user, std::string_view password) {
    std::string s(user);
    s += ":mongo:";
    s += password;
    return md5Hex(s);
}

BSONObj ScramCredential::toBSON() const {
    BSONObjBuilder b;
    b.append("iterationCount", iterationCount);
    b.append("salt", salt);
    b.append("storedKey", storedKey);
    b.append("serverKey", serverKey);
    return b.obj();
}

StatusWith<ScramCredential> ScramCredential::fromBSON(const BSONObj& o) {
    ScramCredential c;
    BSONElement it = o["iterationCount"];
    long long n = 0;
    if (!it.isNumber() || !it.isIntegral64(&n) || n <= 0 || n > INT32_MAX)
        return bad("SCRAM credentials must have a positive integer iterationCount");
    c.iterationCount = static_cast<int>(n);
    for (auto [name, dst] : {std::pair<const char*, std::string*>{"salt", &c.salt},
                             {"storedKey", &c.storedKey},
                             {"serverKey", &c.serverKey}}) {
        BSONElement e = o[name];
        if (e.type() != String || e.valueStringData().empty())
            return bad(std::string("SCRAM credentials must have a string field ") + name);
        *dst = e.str();
    }
    return c;
}

ScramCredential makeScramCredential(HashAlgo a, std::string_view password, int iterations, std::string_view rawSalt) {
    std::string salt = rawSalt.empty() ? secureRandomBytes(hashLength(a) - 4) : std::string(rawSalt);
    std::string salted = pbkdf2(a, password, salt, iterations);
    std::string clientKey = hmac(a, salted, "Client Key");
    ScramCredential c;
    c.iterationCount = iterations;
    c.salt = base64Encode(salt);
    c.storedKey = base64Encode(hashOf(a, clientKey));
    c.serverKey = base64Encode(hmac(a, salted, "Server Key"));
    return c;
}

std::string scramEscapeUser(std::string_view user) {
    std::string out;
    for (char c : user) {
        if (c == ',') out += "=2C";
        else if (c == '=') out += "=3D";
        else out += c;
    }
    return out;
}

std::optional<std::string> scramUnescapeUser(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == ',') return std::nullopt;
        if (s[i] != '=') {
            out += s[i];
            continue;
        }
        if (s.substr(i, 3) == "=2C") out += ',';
        else if (s.substr(i, 3) == "=3D") out += '=';
        else return std::nullopt;
        i += 2;
    }
    return out;
}

ScramServerConversation::ScramServerConversation(HashAlgo a, Lookup lookup, int fakeIterationCount)
    : _algo(a), _lookup(std::move(lookup)), _fakeIterations(fakeIterationCount) {}

StatusWith<std::string> ScramServerConversation::step(std::string_view msg) {
    StatusWith<std::string> r = Status(ErrorCodes::BadValue, "");
    switch (_state) {
        case State::kFirst: r = first(msg); break;
        case State::kFinal: r = final(msg); break;
        case State::kDone: return bad("SCRAM conversation is already complete");
        case State::kFailed: return bad("SCRAM conversation has failed");
    }
    if (!r.isOK()) _state = State::kFailed;
    return r;
}

StatusWith<std::string> ScramServerConversation::first(std::string_view msg) {
    // gs2-header: "n,," or "y,," (no channel binding; "p=" asks for it and is refused),
    // with an optional authzid "a=" that must name the same user.
    if (msg.size() < 3) return bad("Invalid SCRAM client first message: too short");
    char cb = msg[0];
    if (cb == 'p') return bad("Server does not support channel binding");
    if ((cb != 'n' && cb != 'y') || msg[1] != ',') return bad("Invalid SCRAM gs2 header");
    size_t authzEnd = msg.find(',', 2);
    if (authzEnd == std::string_view::npos) return bad("Invalid SCRAM gs2 header");
    std::string_view authz = msg.substr(2, authzEnd - 2);
    _gs2Header = std::string(msg.substr(0, authzEnd + 1));
    _clientFirstBare = std::string(msg.substr(authzEnd + 1));
    auto parts = splitComma(_clientFirstBare);
    std::string_view n, r;
    if (parts.size() < 2 || !attr(parts[0], 'n', &n) || !attr(parts[1], 'r', &r))
        return bad("Invalid SCRAM client first message: expected n=<user>,r=<nonce>");
    if (parts.size() > 2 && !parts[2].empty() && parts[2][0] == 'm')
        return bad("SCRAM mandatory extensions are not supported");
    auto user = scramUnescapeUser(n);
    if (!user || user->empty()) return bad("Invalid SCRAM user name");
    if (!authz.empty()) {
        std::string_view a;
        if (!attr(authz, 'a', &a) || scramUnescapeUser(a) != user)
            return bad("SCRAM authorization identity must match the authentication identity");
    }
    if (r.empty()) return bad("Invalid SCRAM client nonce");
    for (char c : r)
        if (c < 0x21 || c > 0x7e || c == ',') return bad("Invalid SCRAM client nonce");
    _user = *user;

    auto cred = _lookup(_user);
    _userKnown = cred.has_value() && cred->isValid();
    if (_userKnown) {
        _cred = *cred;
    } else {
        std::string seed = hmac(HashAlgo::kSha256, processSecret(), std::string(mechanismName(_algo)) + "\n" + _user);
        _cred.iterationCount = _fakeIterations;
        _cred.salt = base64Encode(seed.substr(0, hashLength(_algo) - 4));
        _cred.storedKey = base64Encode(secureRandomBytes(hashLength(_algo)));
        _cred.serverKey = base64Encode(secureRandomBytes(hashLength(_algo)));
    }
    _nonce = std::string(r) + (_testServerNonce.empty() ? base64Encode(secureRandomBytes(kNonceBytes)) : _testServerNonce);
    _serverFirst = "r=" + _nonce + ",s=" + _cred.salt + ",i=" + std::to_string(_cred.iterationCount);
    _state = State::kFinal;
    return _serverFirst;
}

StatusWith<std::string> ScramServerConversation::final(std::string_view msg) {
    auto parts = splitComma(msg);
    std::string_view c, r, p;
    if (parts.size() < 3 || !attr(parts[0], 'c', &c) || !attr(parts[1], 'r', &r) || !attr(parts.back(), 'p', &p))
        return bad("Invalid SCRAM client final message: expected c=,r=,...,p=");
    std::string cbind;
    if (!base64Decode(c, &cbind) || cbind != _gs2Header) return bad("SCRAM channel binding data does not match");
    if (r != _nonce) return bad("Unmatched SCRAM nonce received from client in second step");
    std::string proof;
    if (!base64Decode(p, &proof) || proof.size() != hashLength(_algo)) return bad("Invalid SCRAM client proof");

    std::string withoutProof(msg.substr(0, msg.size() - parts.back().size() - 1));
    std::string authMessage = _clientFirstBare + "," + _serverFirst + "," + withoutProof;
    // The credential's keys, then its alternates (several keys in a key file): the first whose
    // storedKey matches the proof wins, and its serverKey signs the answer.
    std::vector<std::pair<std::string, std::string>> keys{{_cred.storedKey, _cred.serverKey}};
    keys.insert(keys.end(), _cred.alternateKeys.begin(), _cred.alternateKeys.end());
    for (const auto& [storedB64, serverB64] : keys) {
        std::string storedKey, serverKey;
        if (!base64Decode(storedB64, &storedKey) || !base64Decode(serverB64, &serverKey))
            return bad("Stored SCRAM credentials are not valid base64");
        std::string clientSignature = hmac(_algo, storedKey, authMessage);
        std::string clientKey = xorStrings(proof, clientSignature);
        if (_userKnown && constantTimeEquals(hashOf(_algo, clientKey), storedKey)) {
            _state = State::kDone;
            return "v=" + base64Encode(hmac(_algo, serverKey, authMessage));
        }
    }
    return Status(ErrorCodes::AuthenticationFailed, _userKnown ? "SCRAM authentication failed, storedKey mismatch"
                                                               : "Could not find user \"" + _user + "\"");
}

ScramClientConversation::ScramClientConversation(HashAlgo a, std::string user, std::string password,
                                                 std::string clientNonce)
    : _algo(a), _user(std::move(user)), _password(std::move(password)), _nonce(std::move(clientNonce)) {
    if (_nonce.empty()) _nonce = base64Encode(secureRandomBytes(kNonceBytes));
}

std::string ScramClientConversation::clientFirst() {
    _clientFirstBare = "n=" + scramEscapeUser(_user) + ",r=" + _nonce;
    return "n,," + _clientFirstBare;
}

StatusWith<std::string> ScramClientConversation::clientFinal(std::string_view serverFirst) {
    auto parts = splitComma(serverFirst);
    std::string_view r, s, i;
    if (parts.size() < 3 || !attr(parts[0], 'r', &r) || !attr(parts[1], 's', &s) || !attr(parts[2], 'i', &i))
        return bad("Invalid SCRAM server first message");
    if (r.size() <= _nonce.size() || r.substr(0, _nonce.size()) != _nonce)
        return bad("Server SCRAM nonce does not match client nonce");
    std::string salt;
    if (!base64Decode(s, &salt)) return bad("Invalid SCRAM salt");
    int iterations = 0;
    try {
        size_t used = 0;
        iterations = std::stoi(std::string(i), &used);
        if (used != i.size()) return bad("Invalid SCRAM iteration count");
    } catch (...) {
        return bad("Invalid SCRAM iteration count");
    }
    if (iterations < kMinClientIterations) return bad("SCRAM iteration count is too low");
    std::string salted = pbkdf2(_algo, _password, salt, iterations);
    std::string clientKey = hmac(_algo, salted, "Client Key");
    std::string storedKey = hashOf(_algo, clientKey);
    std::string withoutProof = "c=biws,r=" + std::string(r);
    _authMessage = _clientFirstBare + "," + std::string(serverFirst) + "," + withoutProof;
    std::string proof = xorStrings(clientKey, hmac(_algo, storedKey, _authMessage));
    _serverSignature = hmac(_algo, hmac(_algo, salted, "Server Key"), _authMessage);
    return withoutProof + ",p=" + base64Encode(proof);
}

Status ScramClientConversation::verifyServerFinal(std::string_view serverFinal) const {
    std::string_view v;
    std::string sig;
    if (!attr(serverFinal, 'v', &v) || !base64Decode(v, &sig) || !constantTimeEquals(sig, _serverSignature))
        return Status(ErrorCodes::AuthenticationFailed, "Server SCRAM signature does not match");
    return Status::OK();
}

}  // namespace mongo::auth
