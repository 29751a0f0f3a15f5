#include "mongo/db/auth/auth_options.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "mongo/db/auth/saslprep.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo::auth {

namespace {

using SPT = ServerParameterType;

Status atLeast5000(const int& v) {
    if (v < 5000) return Status(ErrorCodes::BadValue, "must be greater than or equal to 5000");
    return Status::OK();
}

ServerParameterWithStorage<int> gScramIterationCount("scramIterationCount", 10000, SPT::kStartupAndRuntime, atLeast5000);
ServerParameterWithStorage<int> gScramSha256IterationCount("scramSHA256IterationCount", 15000,
                                                           SPT::kStartupAndRuntime, atLeast5000);
ServerParameterWithStorage<bool> gEnableLocalhostAuthBypass("enableLocalhostAuthBypass", true, SPT::kStartupOnly);

struct State {
    bool enabled = false;
    bool transition = false;
    std::vector<std::string> keys;  // every key of the key file (empty: none)
    std::optional<ScramCredential> sha1, sha256;
};
State& state() {
    static State s;
    return s;
}

void setKeys(const std::vector<std::string>& keys) {
    State& s = state();
    s.keys = keys;
    s.sha1.reset();
    s.sha256.reset();
    if (keys.empty()) return;
    // The keys are base64 (ASCII): SASLprep leaves them unchanged. Further keys share the
    // first one's salt and iteration count, since the salt is sent before the proof shows
    // which key the peer holds.
    s.sha1 = makeScramCredential(HashAlgo::kSha1, mongoPasswordDigest("__system", keys.front()), 10000);
    s.sha256 = makeScramCredential(HashAlgo::kSha256, keys.front(), 15000);
    std::string salt1, salt256;
    base64Decode(s.sha1->salt, &salt1);
    base64Decode(s.sha256->salt, &salt256);
    for (size_t i = 1; i < keys.size(); ++i) {
        auto c1 = makeScramCredential(HashAlgo::kSha1, mongoPasswordDigest("__system", keys[i]), 10000, salt1);
        auto c256 = makeScramCredential(HashAlgo::kSha256, keys[i], 15000, salt256);
        s.sha1->alternateKeys.emplace_back(c1.storedKey, c1.serverKey);
        s.sha256->alternateKeys.emplace_back(c256.storedKey, c256.serverKey);
    }
}
void setKey(const std::string& key) { setKeys(key.empty() ? std::vector<std::string>{} : std::vector<std::string>{key}); }

std::string percentEncode(const std::string& s) {
    std::string out;
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : s) {
        if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace

bool authorizationEnabled() { return state().enabled; }
bool transitionToAuth() { return state().transition; }
int scramIterationCount() { return gScramIterationCount.get(); }
int scramSha256IterationCount() { return gScramSha256IterationCount.get(); }
bool localhostAuthBypassEnabled() { return gEnableLocalhostAuthBypass.get(); }

namespace {
// One key as written in the file: whitespace dropped, base64 characters, 6 to 1024 of them.
StatusWith<std::string> checkKey(const std::string& path, const std::string& raw) {
    std::string key;
    for (char c : raw) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') continue;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
                  c == '=';
        if (!ok) return Status(ErrorCodes::UnsupportedFormat, "invalid char in key file " + path + ": " + std::string(1, c));
        key += c;
    }
    if (key.size() < 6 || key.size() > 1024)
        return Status(ErrorCodes::UnsupportedFormat, "security key in " + path + " has length " +
                                                         std::to_string(key.size()) + ", must be between 6 and 1024 chars");
    return key;
}
}  // namespace

StatusWith<std::vector<std::string>> readKeyFileKeys(const std::string& path) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": not a regular file");
    if (st.st_mode & (S_IRWXG | S_IRWXO)) return Status(ErrorCodes::InvalidPath, "permissions on " + path + " are too open");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    // YAML: a scalar (one key, the legacy form) or a sequence of scalars. Text YAML cannot
    // read (a lone quote, a tab in the wrong place...) is checked as one legacy key, so its
    // error names the offending character.
    std::vector<std::string> raws;
    try {
        YAML::Node doc = YAML::Load(text);
        if (doc.IsSequence()) {
            for (const YAML::Node& k : doc) {
                if (!k.IsScalar())
                    return Status(ErrorCodes::UnsupportedFormat, "key file " + path + ": each key must be a string");
                raws.push_back(k.as<std::string>());
            }
            if (raws.empty()) return Status(ErrorCodes::UnsupportedFormat, "key file " + path + " holds no key");
        } else if (doc.IsMap()) {
            return Status(ErrorCodes::UnsupportedFormat,
                          "key file " + path + " must hold a key or a sequence of keys, not a mapping");
        } else {
            raws.push_back(text);
        }
    } catch (const YAML::Exception&) {
        raws = {text};
    }
    std::vector<std::string> keys;
    for (const auto& r : raws) {
        auto k = checkKey(path, r);
        if (!k.isOK()) return k.getStatus();
        keys.push_back(k.getValue());
    }
    return keys;
}

StatusWith<std::string> readKeyFile(const std::string& path) {
    auto keys = readKeyFileKeys(path);
    if (!keys.isOK()) return keys.getStatus();
    return keys.getValue().front();
}

void initializeAuthOrExit(const ServerGlobalParams& params) {
    State& s = state();
    s.enabled = params.authorization;
    if (!params.keyFile.empty()) {
        auto keys = readKeyFileKeys(params.keyFile);
        if (!keys.isOK()) {
            LOGV2_ERROR(20254, Access, "Read security file failed",
                        logv2::attrs("error", keys.getStatus().reason(), "keyFile", params.keyFile));
            fprintf(stderr, "Unable to acquire security key[s]: %s\n", keys.getStatus().reason().c_str());
            std::exit(1);
        }
        setKeys(keys.getValue());
        // A key file turns access control on, as in MongoDB, except in transition.
        s.transition = params.transitionToAuth;
        s.enabled = !s.transition;
    }
    if (s.enabled)
        LOGV2(20000, Access, "Access control is enabled",
              logv2::attrs("keyFile", !params.keyFile.empty(), "localhostAuthBypass", localhostAuthBypassEnabled()));
    if (s.transition)
        LOGV2_WARNING(20001, Access,
                      "transitionToAuth: access control is not enforced; members authenticate with the key file where "
                      "they can");
}

void setAuthorizationForTest(bool enabled, const std::string& key) {
    state().enabled = enabled;
    setKey(key);
}

void setAuthorizationForTest(bool enabled, const std::vector<std::string>& keys) {
    state().enabled = enabled;
    setKeys(keys);
}

std::optional<ScramCredential> internalUserCredential(HashAlgo a) {
    return a == HashAlgo::kSha1 ? state().sha1 : state().sha256;
}

std::string InternalAuthCredentials::uriCredentials() const {
    return percentEncode(user) + ":" + percentEncode(password) + "@";
}

std::string InternalAuthCredentials::uriOptions() const { return "authSource=" + source + "&authMechanism=" + mechanism; }

std::optional<InternalAuthCredentials> internalAuthCredentials(size_t keyIndex) {
    if (keyIndex >= state().keys.size()) return std::nullopt;
    return InternalAuthCredentials{"__system", "local", kScramSha256, state().keys[keyIndex]};
}

}  // namespace mongo::auth
