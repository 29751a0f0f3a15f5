#include "mongo/db/auth/auth_options.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

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
    std::string key;  // empty: no key file
    std::optional<ScramCredential> sha1, sha256;
};
State& state() {
    static State s;
    return s;
}

void setKey(const std::string& key) {
    State& s = state();
    s.key = key;
    s.sha1.reset();
    s.sha256.reset();
    if (key.empty()) return;
    // The key is base64 (ASCII): SASLprep leaves it unchanged.
    s.sha1 = makeScramCredential(HashAlgo::kSha1, mongoPasswordDigest("__system", key), 10000);
    s.sha256 = makeScramCredential(HashAlgo::kSha256, key, 15000);
}

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
int scramIterationCount() { return gScramIterationCount.get(); }
int scramSha256IterationCount() { return gScramSha256IterationCount.get(); }
bool localhostAuthBypassEnabled() { return gEnableLocalhostAuthBypass.get(); }

StatusWith<std::string> readKeyFile(const std::string& path) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": not a regular file");
    if (st.st_mode & (S_IRWXG | S_IRWXO)) return Status(ErrorCodes::InvalidPath, "permissions on " + path + " are too open");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    std::string key;
    for (char c : ss.str()) {
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

void initializeAuthOrExit(const ServerGlobalParams& params) {
    State& s = state();
    s.enabled = params.authorization;
    if (!params.keyFile.empty()) {
        auto key = readKeyFile(params.keyFile);
        if (!key.isOK()) {
            LOGV2_ERROR(20254, Access, "Read security file failed",
                        logv2::attrs("error", key.getStatus().reason(), "keyFile", params.keyFile));
            fprintf(stderr, "Unable to acquire security key[s]: %s\n", key.getStatus().reason().c_str());
            std::exit(1);
        }
        setKey(key.getValue());
        s.enabled = true;  // a key file turns access control on, as in MongoDB
    }
    if (s.enabled)
        LOGV2(20000, Access, "Access control is enabled",
              logv2::attrs("keyFile", !params.keyFile.empty(), "localhostAuthBypass", localhostAuthBypassEnabled()));
}

void setAuthorizationForTest(bool enabled, const std::string& key) {
    state().enabled = enabled;
    setKey(key);
}

std::optional<ScramCredential> internalUserCredential(HashAlgo a) {
    return a == HashAlgo::kSha1 ? state().sha1 : state().sha256;
}

std::string InternalAuthCredentials::uriCredentials() const {
    return percentEncode(user) + ":" + percentEncode(password) + "@";
}

std::string InternalAuthCredentials::uriOptions() const { return "authSource=" + source + "&authMechanism=" + mechanism; }

std::optional<InternalAuthCredentials> internalAuthCredentials() {
    if (state().key.empty()) return std::nullopt;
    return InternalAuthCredentials{"__system", "local", kScramSha256, state().key};
}

}  // namespace mongo::auth
