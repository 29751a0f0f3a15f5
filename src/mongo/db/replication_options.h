#pragma once
// MongoDB's replication options (replication.*: --replSet, --oplogSize,
// --enableMajorityReadConcern), recognised on the command line and in the config file.
// What the server can do is accepted: --replSet <name> (a replica set formed by
// replSetInitiate, repl/coordinator.h), --oplogSize with it, enableMajorityReadConcern: true.
// What it cannot do yet is refused at start-up with a message saying so (exit code 2, as
// mongod for bad options): a seed list in --replSet, false for enableMajorityReadConcern,
// any other replication.* setting, and --oplogSize without --replSet
// (server_options_apply.cpp, which sets serverGlobalParams().replSetName / oplogSizeMB).
//
// Pure functions over constant tables: callable from any thread.
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

struct ReplicationOption {
    const char* dotted;  // config-file path, also the name in getCmdLineOpts' "parsed"
    const char* cli;     // command-line name, or nullptr (config file only)
    bool isSwitch;       // a boolean (--x alone means true); else a string
    const char* help;    // for --help, or nullptr (config file only)
};

// Every such option the parser must recognise (server_options_parse.cpp adds them to its table).
const std::vector<ReplicationOption>& replicationOptions();

// Whether dotted is one of replicationOptions().
bool isReplicationOption(const std::string& dotted);

// OK if value (the option's typed value: a bool for switches, else a string; numbers from a
// config file) asks for what the server can do; otherwise BadValue saying why it is refused.
Status checkReplicationOption(const std::string& dotted, const BSONElement& value);

// The MB of an --oplogSize / replication.oplogSizeMB value, or nullopt if it is not a whole
// number in [1, 1 PB].
std::optional<long long> oplogSizeMBFromOption(const BSONElement& value);

// For a config-file path the parser does not know: the refusal message when it lies in the
// replication section (e.g. replication.secondaryIndexPrefetch), which is named as
// unsupported rather than merely unrecognised.
std::optional<std::string> unsupportedReplicationSection(const std::string& dotted);

}  // namespace mongo
