#include "mongo/db/protection_options.h"

#include <cstring>

namespace mongo {

namespace {

// What the server lacks, per family of options, for the messages.
constexpr const char* kNoAuth =
    "this server does not implement it (authentication here is SCRAM with --auth, --keyFile and "
    "--clusterAuthMode keyFile and --transitionToAuth; there is no IP allowlist, x509, LDAP or Kerberos)";
constexpr const char* kNoTls =
    "this server does not support TLS/SSL; only --tlsMode disabled (net.tls.mode: disabled) or "
    "--sslMode disabled (net.ssl.mode: disabled) is accepted";
constexpr const char* kNoEncryption = "this server has no encryption at rest";
constexpr const char* kNoRedaction = "this server does not redact client data from its log";
constexpr const char* kNoAudit = "this server has no auditing";

const char* reasonFor(const std::string& dotted) {
    auto starts = [&](const char* p) { return dotted.rfind(p, 0) == 0; };
    if (starts("net.tls.") || starts("net.ssl.")) return kNoTls;
    if (starts("auditLog.")) return kNoAudit;
    if (dotted == "security.enableEncryption" || starts("security.encryption") || starts("security.kmip."))
        return kNoEncryption;
    if (dotted == "security.redactClientLogData") return kNoRedaction;
    return kNoAuth;
}

}  // namespace

const std::vector<ProtectionOption>& protectionOptions() {
    static const std::vector<ProtectionOption> options = {
        {"security.authorization", nullptr, false},  // --auth / --noauth: server_options.cpp
        {"security.keyFile", "keyFile", false},
        {"security.clusterAuthMode", "clusterAuthMode", false},
        {"security.transitionToAuth", "transitionToAuth", true},
        {"security.clusterIpSourceAllowlist", "clusterIpSourceAllowlist", false},
        {"security.clusterIpSourceWhitelist", "clusterIpSourceWhitelist", false},
        {"security.enableEncryption", "enableEncryption", true},
        {"security.encryptionKeyFile", "encryptionKeyFile", false},
        {"security.encryptionCipherMode", "encryptionCipherMode", false},
        {"security.redactClientLogData", "redactClientLogData", true},
        {"net.tls.mode", "tlsMode", false},
        {"net.tls.certificateKeyFile", "tlsCertificateKeyFile", false},
        {"net.tls.certificateKeyFilePassword", "tlsCertificateKeyFilePassword", false},
        {"net.tls.clusterFile", "tlsClusterFile", false},
        {"net.tls.clusterPassword", "tlsClusterPassword", false},
        {"net.tls.CAFile", "tlsCAFile", false},
        {"net.tls.clusterCAFile", "tlsClusterCAFile", false},
        {"net.tls.CRLFile", "tlsCRLFile", false},
        {"net.tls.allowConnectionsWithoutCertificates", "tlsAllowConnectionsWithoutCertificates", true},
        {"net.tls.allowInvalidCertificates", "tlsAllowInvalidCertificates", true},
        {"net.tls.allowInvalidHostnames", "tlsAllowInvalidHostnames", true},
        {"net.tls.disabledProtocols", "tlsDisabledProtocols", false},
        {"net.tls.FIPSMode", "tlsFIPSMode", true},
        {"net.tls.certificateSelector", "tlsCertificateSelector", false},
        {"net.tls.clusterCertificateSelector", "tlsClusterCertificateSelector", false},
        {"net.tls.logVersions", "tlsLogVersions", false},
        {"net.ssl.mode", "sslMode", false},
        {"net.ssl.PEMKeyFile", "sslPEMKeyFile", false},
        {"net.ssl.PEMKeyPassword", "sslPEMKeyPassword", false},
        {"net.ssl.clusterFile", "sslClusterFile", false},
        {"net.ssl.clusterPassword", "sslClusterPassword", false},
        {"net.ssl.CAFile", "sslCAFile", false},
        {"net.ssl.clusterCAFile", "sslClusterCAFile", false},
        {"net.ssl.CRLFile", "sslCRLFile", false},
        {"net.ssl.allowConnectionsWithoutCertificates", "sslAllowConnectionsWithoutCertificates", true},
        {"net.ssl.allowInvalidCertificates", "sslAllowInvalidCertificates", true},
        {"net.ssl.allowInvalidHostnames", "sslAllowInvalidHostnames", true},
        {"net.ssl.disabledProtocols", "sslDisabledProtocols", false},
        {"net.ssl.FIPSMode", "sslFIPSMode", true},
        {"net.ssl.sslOnNormalPorts", "sslOnNormalPorts", true},
        {"auditLog.destination", "auditDestination", false},
        {"auditLog.format", "auditFormat", false},
        {"auditLog.path", "auditPath", false},
        {"auditLog.filter", "auditFilter", false},
    };
    return options;
}

bool isProtectionOption(const std::string& dotted) {
    for (const auto& o : protectionOptions())
        if (dotted == o.dotted) return true;
    return false;
}

Status checkProtectionOption(const std::string& dotted, const BSONElement& value) {
    const ProtectionOption* opt = nullptr;
    for (const auto& o : protectionOptions())
        if (dotted == o.dotted) opt = &o;
    if (!opt) return Status::OK();
    // The values that leave the protection off, which is how the server runs.
    // Authentication and access control are implemented (src/mongo/db/auth): --auth, a key
    // file and keyFile cluster authentication are accepted; the key file itself is read and
    // checked at start-up (auth/auth_options.h).
    if (dotted == "security.authorization") {
        if (value.type() == String && (value.str() == "disabled" || value.str() == "enabled")) return Status::OK();
        return Status(ErrorCodes::BadValue, "Bad value for security.authorization: " + value.toString(false) +
                                                " (must be enabled or disabled)");
    } else if (dotted == "security.keyFile") {
        if (value.type() == String && !value.str().empty()) return Status::OK();
    } else if (dotted == "security.clusterAuthMode") {
        if (value.type() == String && value.str() == "keyFile") return Status::OK();
        if (value.type() == String && (value.str() == "x509" || value.str() == "sendX509" || value.str() == "sendKeyFile"))
            return Status(ErrorCodes::BadValue,
                          "Unsupported option security.clusterAuthMode: " + value.str() +
                              " (--clusterAuthMode): this server has no TLS, so members can only authenticate "
                              "with a key file; use --clusterAuthMode keyFile");
        return Status(ErrorCodes::BadValue, "Bad value for security.clusterAuthMode: " + value.toString(false) +
                                                " (must be keyFile, sendKeyFile, sendX509 or x509)");
    } else if (dotted == "net.tls.mode" || dotted == "net.ssl.mode") {
        if (value.type() == String && value.str() == "disabled") return Status::OK();
    } else if (dotted == "security.transitionToAuth") {
        if (value.type() == Bool) return Status::OK();  // server_options_apply.cpp checks its key file
    } else if (dotted == "security.enableEncryption" || dotted == "security.redactClientLogData") {
        if (value.type() == Bool && !value.boolean()) return Status::OK();
    }
    std::string shown = value.type() == Bool ? (value.boolean() ? "true" : "false") : value.str();
    std::string cli = opt->cli ? std::string(" (--") + opt->cli + ")" : "";
    if (dotted == "security.authorization") cli = " (--auth)";
    return Status(ErrorCodes::BadValue, "Unsupported option " + dotted + ": " + shown + cli +
                                            ": " + reasonFor(dotted));
}

std::optional<std::string> unsupportedProtectionSection(const std::string& dotted) {
    for (const char* p : {"security.", "net.tls.", "net.ssl.", "auditLog."})
        if (dotted.rfind(p, 0) == 0)
            return "Unsupported option " + dotted + ": " + reasonFor(dotted);
    return std::nullopt;
}

}  // namespace mongo
