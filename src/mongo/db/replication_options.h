#pragma once
// MongoDB's replication options (replication.*: --replSet, --oplogSize,
// --enableMajorityReadConcern). This server has no replication yet: it runs standalone only,
// so an option that asks for a replica set member must not be accepted and ignored (the
// user would believe the node replicates, and getCmdLineOpts would say so). Each option is
// recognised on the command line and in the config file and refused at start-up with a
// message saying so (exit code 2, as mongod for bad options); only settings that ask for
// nothing a standalone lacks are accepted (replication.enableMajorityReadConcern: true,
// MongoDB's fixed default). serverGlobalParams().replSetName therefore stays empty and hello
// never reports a setName.
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

// OK if value (the option's typed value: a bool for switches, else a string) asks for
// nothing beyond a standalone server; otherwise BadValue saying why it is refused.
Status checkReplicationOption(const std::string& dotted, const BSONElement& value);

// For a config-file path the parser does not know: the refusal message when it lies in the
// replication section (e.g. replication.secondaryIndexPrefetch), which is named as
// unsupported rather than merely unrecognised.
std::optional<std::string> unsupportedReplicationSection(const std::string& dotted);

}  // namespace mongo
