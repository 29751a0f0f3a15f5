#pragma once
// ReplSetConfig: a replica set configuration document (replSetInitiate's argument, what
// replSetGetConfig and rs.conf() show, stored in local.system.replset), parsed and validated
// with MongoDB's error codes, and written back in MongoDB 7.0's full form (every member
// option and setting with its default filled in):
//   {_id, version, term, members: [{_id, host, arbiterOnly, buildIndexes, hidden, priority,
//    tags, secondaryDelaySecs, votes}], protocolVersion: 1, writeConcernMajorityJournalDefault,
//    settings: {chainingAllowed, heartbeatIntervalMillis, heartbeatTimeoutSecs,
//    electionTimeoutMillis, catchUpTimeoutMillis, catchUpTakeoverDelayMillis,
//    getLastErrorModes, getLastErrorDefaults, replicaSetId}}
// What this server cannot run yet is refused rather than accepted and ignored: more than one
// member (there is no replication between members yet), and a lone member that could never
// be primary (arbiter, priority 0, no vote).
// A value type: thread safe as any value.
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

struct MemberConfig {
    int id = 0;
    std::string host;
    bool arbiterOnly = false;
    bool buildIndexes = true;
    bool hidden = false;
    double priority = 1;
    BSONObj tags;
    long long secondaryDelaySecs = 0;
    int votes = 1;
};

struct ReplSetConfig {
    std::string setName;
    long long version = 1;
    long long term = -1;  // the config term (-1: none yet)
    std::vector<MemberConfig> members;
    bool writeConcernMajorityJournalDefault = true;
    bool chainingAllowed = true;
    long long heartbeatIntervalMillis = 2000;
    long long heartbeatTimeoutSecs = 10;
    long long electionTimeoutMillis = 10000;
    long long catchUpTimeoutMillis = -1;
    long long catchUpTakeoverDelayMillis = 30000;
    BSONObj getLastErrorModes;                   // {}
    BSONObj getLastErrorDefaults;                // {w: 1, wtimeout: 0}
    OID replicaSetId;

    // Parses and validates doc as replSetInitiate receives it. expectedSetName: the --replSet
    // name. InvalidReplicaSetConfig (93) / TypeMismatch / BadValue as MongoDB.
    static StatusWith<ReplSetConfig> parse(const BSONObj& doc, const std::string& expectedSetName);
    // The default configuration of replSetInitiate without one: this node alone, as host.
    static ReplSetConfig makeDefault(const std::string& setName, const std::string& host);

    BSONObj toBSON() const;
    // Index in members of the member whose host is one of selfHosts, -1 if none.
    int findSelf(const std::vector<std::string>& selfHosts) const;
};

}  // namespace repl
}  // namespace mongo
