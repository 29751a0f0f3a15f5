#pragma once
// Process-wide authentication settings: whether access control is on (--auth, or implied by
// --keyFile), the key file's key and the internal __system@local user it defines, and the
// server parameters of authentication:
//   scramIterationCount        (default 10000, >= 5000) for new SCRAM-SHA-1 credentials
//   scramSHA256IterationCount  (default 15000, >= 5000) for new SCRAM-SHA-256 credentials
//   enableLocalhostAuthBypass  (default true, start-up only): the localhost exception
//
// initializeAuthOrExit runs once in main() before the listener starts; afterwards the
// settings are read-only and may be read from any thread.
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/db/auth/scram.h"
#include "mongo/db/server_options.h"

namespace mongo::auth {

bool authorizationEnabled();
int scramIterationCount();
int scramSha256IterationCount();
bool localhostAuthBypassEnabled();

// Reads and checks a key file as MongoDB does: on POSIX it must not be readable, writable or
// executable by group or others ("permissions on <path> are too open"); whitespace is
// ignored; the rest must be 6 to 1024 characters of the base64 alphabet. Returns the key.
StatusWith<std::string> readKeyFile(const std::string& path);

// Applies params: --auth / --keyFile (which reads the key file and implies --auth). Logs
// and exits(1) on a bad key file, as mongod refuses to start.
void initializeAuthOrExit(const ServerGlobalParams& params);
// For tests: turns access control on or off, with an optional key.
void setAuthorizationForTest(bool enabled, const std::string& key = "");

// The internal user of key-file authentication, __system@local, whose password is the key.
// Its credentials exist only in memory (never in admin.system.users); nullopt without a key
// file.
std::optional<ScramCredential> internalUserCredential(HashAlgo a);

// For outgoing connections of replica-set members (API for src/mongo/db/repl): how to
// authenticate as __system@local to another member, nullopt when no key file is in use.
//   user = "__system", source = "local", mechanism = "SCRAM-SHA-256", password = the key
// uriCredentials() is the "user:password@" part of a mongodb:// URI (percent-encoded),
// uriOptions() the options to append ("authSource=local&authMechanism=SCRAM-SHA-256").
struct InternalAuthCredentials {
    std::string user, source, mechanism, password;
    std::string uriCredentials() const;
    std::string uriOptions() const;
};
std::optional<InternalAuthCredentials> internalAuthCredentials();

}  // namespace mongo::auth
