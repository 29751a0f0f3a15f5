#include "mongo/db/replication_options.h"

#include "mongo/db/server_options_parse.h"

namespace mongo {

namespace {

constexpr const char* kNotBuilt = "not supported by this server yet";

std::string shownValue(const BSONElement& value) {
    if (value.type() == Bool) return value.boolean() ? "true" : "false";
    if (value.isNumber()) return std::to_string(value.numberLong());
    return value.str();
}

}  // namespace

const std::vector<ReplicationOption>& replicationOptions() {
    // Per option, what is accepted and why:
    //  - replSetName / replSet (--replSet <name>[/<seeds>]): makes the node a member of the
    //    named set (repl/coordinator.h), which replSetInitiate then forms. A seed list is
    //    refused: it names other members, and the server cannot replicate between members yet.
    //  - oplogSizeMB (--oplogSize): the size of the oplog a member creates at replSetInitiate
    //    (a positive number of MB). Only with --replSet: a standalone has no oplog, so the
    //    value would do nothing.
    //  - enableMajorityReadConcern (--enableMajorityReadConcern): since MongoDB 5.0 it can
    //    only be true, its default; true is accepted, false refused, as MongoDB 5.0+ do.
    static const std::vector<ReplicationOption> options = {
        {"replication.replSetName", nullptr, false, nullptr},
        {"replication.replSet", "replSet", false, "arg is <setname> (a seed list is not supported)"},
        {"replication.oplogSizeMB", "oplogSize", false, "size to use (in MB) for replication op log"},
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
    std::string shown = shownValue(value);
    std::string cli = opt->cli ? std::string(" (--") + opt->cli + ")" : "";
    if (dotted == "replication.replSetName") cli = " (--replSet)";
    if (dotted == "replication.enableMajorityReadConcern") {
        if (value.type() == Bool && value.boolean()) return Status::OK();
        return Status(ErrorCodes::BadValue, "Unsupported option " + dotted + ": " + shown + cli +
                                                ": majority read concern cannot be disabled "
                                                "(only true is accepted, as in MongoDB 5.0 and later)");
    }
    if (dotted == "replication.oplogSizeMB") {
        if (!oplogSizeMBFromOption(value))
            return Status(ErrorCodes::BadValue, "bad --oplogSize, arg must be greater than 0: " + shown);
        return Status::OK();
    }
    // replSetName / replSet
    if (shown.empty()) return Status(ErrorCodes::BadValue, "Unsupported option " + dotted + cli + ": an empty replica set name");
    if (shown.find('/') != std::string::npos)
        return Status(ErrorCodes::BadValue, "Unsupported option " + dotted + ": " + shown + cli +
                                                ": a seed list is " + kNotBuilt +
                                                " (start each member with --replSet <name> and form the set with "
                                                "replSetInitiate)");
    return Status::OK();
}

std::optional<long long> oplogSizeMBFromOption(const BSONElement& value) {
    long long mb = 0;
    if (value.isNumber()) {
        if (!value.isIntegral64(&mb)) return std::nullopt;
    } else if (value.type() == String) {
        if (!option_parsing::parseLongStrict(value.str(), &mb)) return std::nullopt;
    } else {
        return std::nullopt;
    }
    // At most 1 PB, MongoDB's bound for a capped collection.
    if (mb <= 0 || mb > 1024LL * 1024 * 1024) return std::nullopt;
    return mb;
}

std::optional<std::string> unsupportedReplicationSection(const std::string& dotted) {
    if (dotted.rfind("replication.", 0) == 0)
        return "Unsupported option " + dotted + ": " + kNotBuilt;
    return std::nullopt;
}

}  // namespace mongo
