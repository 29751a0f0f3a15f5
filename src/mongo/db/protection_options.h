#pragma once
// MongoDB's security options. Authentication and access control are implemented
// (src/mongo/db/auth): --auth / security.authorization, --keyFile / security.keyFile and
// --clusterAuthMode keyFile are accepted (the key file is checked at start-up). The others
// turn on a protection this server does not implement (transitionToAuth,
// clusterIpSourceAllowlist, x509 cluster authentication, TLS/SSL (net.tls.*,
// net.ssl.*), encryption at rest (security.enableEncryption, ...), log redaction, auditing
// (auditLog.*), SASL/LDAP/KMIP. The server must never run unprotected while its options say
// otherwise, so each is recognised (command line and config file) and refused at start-up
// with a message saying why (exit code 2, as mongod for bad options); the only values
// accepted are those that turn the protection off (--noauth, security.authorization:
// disabled, --tlsMode disabled, --sslMode disabled, --transitionToAuth false, ...), which is
// what the server does anyway, so getCmdLineOpts never reports a protection not in force.
//
// Pure functions over constant tables: callable from any thread.
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

struct ProtectionOption {
    const char* dotted;  // config-file path, also the name in getCmdLineOpts' "parsed"
    const char* cli;     // command-line name, or nullptr (config file only)
    bool isSwitch;       // a boolean (--x alone means true); else a string
};

// Every such option the parser must recognise (server_options.cpp adds them to its table).
const std::vector<ProtectionOption>& protectionOptions();

// Whether dotted is one of protectionOptions().
bool isProtectionOption(const std::string& dotted);

// OK if value (the option's typed value: a bool for switches, else a string) turns the
// protection off; otherwise BadValue explaining that the server does not implement it.
Status checkProtectionOption(const std::string& dotted, const BSONElement& value);

// For a config-file path the parser does not know: the refusal message when it lies in one
// of the protection sections (security.*, net.tls.*, net.ssl.*, auditLog.*), e.g.
// security.kmip.serverName or security.ldap.servers, which are named as unsupported rather
// than merely unrecognised.
std::optional<std::string> unsupportedProtectionSection(const std::string& dotted);

}  // namespace mongo
