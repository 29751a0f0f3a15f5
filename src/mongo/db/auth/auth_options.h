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
// --transitionToAuth: access control is off, members still authenticate to each other with the
// key file where the other accepts it and go on without where it does not.
bool transitionToAuth();
int scramIterationCount();
int scramSha256IterationCount();
bool localhostAuthBypassEnabled();

// Reads and checks a key file as MongoDB does: on POSIX it must not be readable, writable or
// executable by group or others ("permissions on <path> are too open"). The file is YAML: one
// key (the legacy text form, whitespace ignored) or a sequence of keys (`- key1` lines or
// `[key1, key2]`), each 6 to 1024 characters of the base64 alphabet once whitespace is removed.
// readKeyFileKeys returns every key in order; readKeyFile the first, the one a member
// authenticates with. The server accepts __system with any of them (key rollover: members
// sharing one key authenticate).
StatusWith<std::vector<std::string>> readKeyFileKeys(const std::string& path);
StatusWith<std::string> readKeyFile(const std::string& path);

// Applies params: --auth / --keyFile (which reads the key file and implies --auth). Logs
// and exits(1) on a bad key file, as mongod refuses to start.
void initializeAuthOrExit(const ServerGlobalParams& params);
// For tests: turns access control on or off, with an optional key (or keys: the first is used
// for outgoing connections, any is accepted).
void setAuthorizationForTest(bool enabled, const std::string& key = "");
void setAuthorizationForTest(bool enabled, const std::vector<std::string>& keys);

// The internal user of key-file authentication, __system@local, whose password is the key.
// Its credentials exist only in memory (never in admin.system.users); nullopt without a key
// file.
std::optional<ScramCredential> internalUserCredential(HashAlgo a);

// For outgoing connections of replica-set members (API for src/mongo/db/repl): how to
// authenticate as __system@local to another member with the key file's keyIndex-th key,
// nullopt when no key file is in use or it has fewer keys. As MongoDB, a member tries its keys
// in order until one is accepted (members need only share one key).
//   user = "__system", source = "local", mechanism = "SCRAM-SHA-256", password = the key
// uriCredentials() is the "user:password@" part of a mongodb:// URI (percent-encoded),
// uriOptions() the options to append ("authSource=local&authMechanism=SCRAM-SHA-256").
struct InternalAuthCredentials {
    std::string user, source, mechanism, password;
    std::string uriCredentials() const;
    std::string uriOptions() const;
};
std::optional<InternalAuthCredentials> internalAuthCredentials(size_t keyIndex = 0);

}  // namespace mongo::auth
