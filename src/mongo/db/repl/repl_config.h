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
// parse() applies MongoDB 7.0's rules (member options, at most 50 members and 7 voters, an
// electable member, localhost consistency); checkReconfig() those of replSetReconfig (same
// set name and id, a higher version, members keep their _id/arbiterOnly, and without force
// at most one voter added or removed). What the coordinator can run is its own check.
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

    // May stand for election: a data-bearing member with priority > 0.
    bool isElectable() const { return !arbiterOnly && priority > 0; }
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
    bool replicaSetIdGiven = false;  // parsed from settings (else generated: a reconfig keeps the old one)

    // Parses and validates doc as replSetInitiate receives it. expectedSetName: the --replSet
    // name. InvalidReplicaSetConfig (93) / TypeMismatch / BadValue as MongoDB.
    // verb names the command in the set-name error ("initiate", "reconfigure").
    static StatusWith<ReplSetConfig> parse(const BSONObj& doc, const std::string& expectedSetName,
                                           const char* verb = "initiate");
    // replSetReconfig's rules between the running config and a parsed new one:
    // NewReplicaSetConfigurationIncompatible (103) as MongoDB.
    static Status checkReconfig(const ReplSetConfig& oldConfig, const ReplSetConfig& newConfig, bool force);

    static constexpr size_t kMaxMembers = 50;
    static constexpr int kMaxVotingMembers = 7;

    // The set-wide rules (InvalidReplicaSetConfig); parse applies them.
    Status validate() const;
    int votingMembers() const;
    // Votes that elect a primary (a majority of the voters), and acknowledgements that make a
    // write majority-committed (the same, but at most the number of data-bearing voters).
    int majorityVoteCount() const;
    int writeMajorityCount() const;
    const MemberConfig* findMember(int id) const;
    // The default configuration of replSetInitiate without one: this node alone, as host.
    static ReplSetConfig makeDefault(const std::string& setName, const std::string& host);

    BSONObj toBSON() const;
    // Index in members of the member whose host is one of selfHosts, -1 if none.
    int findSelf(const std::vector<std::string>& selfHosts) const;
};

}  // namespace repl
}  // namespace mongo
