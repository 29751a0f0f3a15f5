#include "mongo/db/replication_options.h"

namespace mongo {

namespace {

constexpr const char* kStandaloneOnly =
    "replica sets are not supported yet; this server runs standalone only";

}  // namespace

const std::vector<ReplicationOption>& replicationOptions() {
    // Per option, what is accepted and why:
    //  - replSetName / replSet (--replSet <name>[/<seeds>]): any value makes the node a replica
    //    set member, which it cannot be. Refused.
    //  - oplogSizeMB (--oplogSize): sizes the oplog, which only a replica set member has; the
    //    server has none, so no value can be honoured (and getCmdLineOpts would report an
    //    oplog that does not exist). Refused, whatever the value.
    //  - enableMajorityReadConcern (--enableMajorityReadConcern): since MongoDB 5.0 it can
    //    only be true, its default; true asks for nothing the server does not already do, so
    //    it is accepted (config files written for MongoDB carry it). false is refused, as
    //    MongoDB 5.0 and later refuse it.
    static const std::vector<ReplicationOption> options = {
        {"replication.replSetName", nullptr, false, nullptr},
        {"replication.replSet", "replSet",
         false, "arg is <setname>[/<optionalseedhostlist>]: not supported by this server (refused)"},
        {"replication.oplogSizeMB", "oplogSize", false,
         "size to use (in MB) for replication op log: not supported by this server (refused)"},
        {"replication.enableMajorityReadConcern", "enableMajorityReadConcern", true,
         "enables majority readConcern: always on (only true is accepted)"},
    };
    return options;
}

bool isReplicationOption(const std::string& dotted) {
    for (const auto& o : replicationOptions())
        if (dotted == o.dotted) return true;
    return false;
}

Status checkReplicationOption(const std::string& dotted, const BSONElement& value) {
    const ReplicationOption* opt = nullptr;
    for (const auto& o : replicationOptions())
        if (dotted == o.dotted) opt = &o;
    if (!opt) return Status::OK();
    std::string shown = value.type() == Bool ? (value.boolean() ? "true" : "false") : value.str();
    std::string cli = opt->cli ? std::string(" (--") + opt->cli + ")" : "";
    if (dotted == "replication.replSetName") cli = " (--replSet)";
    if (dotted == "replication.enableMajorityReadConcern") {
        if (value.type() == Bool && value.boolean()) return Status::OK();
        return Status(ErrorCodes::BadValue, "Unsupported option " + dotted + ": " + shown + cli +
                                                ": majority read concern cannot be disabled "
                                                "(only true is accepted, as in MongoDB 5.0 and later)");
    }
    return Status(ErrorCodes::BadValue,
                  "Unsupported option " + dotted + ": " + shown + cli + ": " + kStandaloneOnly);
}

std::optional<std::string> unsupportedReplicationSection(const std::string& dotted) {
    if (dotted.rfind("replication.", 0) == 0) return "Unsupported option " + dotted + ": " + kStandaloneOnly;
    return std::nullopt;
}

}  // namespace mongo
