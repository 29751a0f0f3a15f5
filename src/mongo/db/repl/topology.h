#pragma once
// Topology: the election state machine of protocol version 1 (MongoDB's Raft variant), as a
// pure object: events and the current time go in, the actions the node must take come out.
// No sockets, threads, storage or clock of its own, so it is unit-tested against randomized
// schedules (topology_test.cpp). The coordinator owns one, feeds it heartbeat replies, vote
// requests and responses and a periodic tick(), and carries out what it returns.
//
// The rules (MongoDB 7.0's behaviour):
//   - Terms only grow. Any term newer than ours seen in a heartbeat, a vote request or a vote
//     response is adopted at once (a primary then steps down) and must be persisted
//     (local.replset.election) before the node answers anything else.
//   - One vote per term (persisted with the term): a real vote request is granted only if the
//     candidate's term is not older than ours, its config is not older than ours, its last
//     applied optime is at least ours, and we have not voted for someone else in that term.
//   - A follower that has not heard from a primary for electionTimeoutMillis plus a random
//     offset (up to 15% of it, so that followers rarely start together) runs a dry run: the
//     same request for term + 1 with dryRun: true, which changes nothing on the voters. Only
//     when a majority of voters would vote does it take the next term, vote for itself and run
//     the real election. Candidates give up after electionTimeoutMillis.
//   - Only a voting, electable member (not an arbiter, priority > 0) in SECONDARY runs, and
//     not while frozen (replSetFreeze, or the stepDownSecs after a step-down).
//   - Priority takeover: a secondary whose priority is higher than the primary's, that is the
//     highest-priority electable member it can see, and whose data is within 2 seconds of the
//     primary's, runs an election after a delay (shorter the higher its rank) while that holds.
//   - A primary refuses dry-run votes while it is primary (a candidate that lost contact
//     with it must not depose a primary the rest of the set still follows).
//   - A primary that has not heard from a majority of voters (itself included) within
//     electionTimeoutMillis steps down: it cannot know it is still the only primary.
//   - Beyond MongoDB: a follower whose heartbeat finds the primary's port refusing connections
//     (the process is gone) runs within a short random offset instead of the election timeout.
// Catch-up after winning (catchUpTimeoutMillis) is the coordinator's (coordinator.h
// manageCatchUp): the topology's leader is then PRIMARY but not writable. Not built yet:
// catch-up takeover (catchUpTakeoverDelayMillis).
//
// Times are milliseconds of a monotonic clock chosen by the caller (Millis). Members are
// config indexes. Not thread safe: the owner serialises calls (the coordinator's mutex).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/db/repl/member_state.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/repl_config.h"

namespace mongo {
namespace repl {

using Millis = int64_t;

// What a member's heartbeat reply says about it.
struct HeartbeatData {
    MemberState state = MemberState::kUnknown;
    long long term = OpTime::kUninitializedTerm;
    OpTime applied;
    OpTime durable;
    long long configVersion = 0;
    long long configTerm = OpTime::kUninitializedTerm;
};

// replSetRequestVotes: {setName, dryRun, term, candidateIndex, configVersion, configTerm,
// lastAppliedOpTime}.
struct VoteRequest {
    std::string setName;
    bool dryRun = false;
    long long term = 0;
    int candidateIndex = -1;
    long long configVersion = 0;
    long long configTerm = OpTime::kUninitializedTerm;
    OpTime lastApplied;
};

struct VoteResponse {
    long long term = 0;
    bool voteGranted = false;
    std::string reason;
};

enum class Role { kFollower, kCandidate, kLeader };
const char* roleString(Role r);

struct TopologyAction {
    enum Kind {
        kPersistTerm,    // a newer term was seen: persist term (no vote) before answering
        kSendDryRun,     // send request (dryRun: true) to every other voter
        kStartElection,  // persist term + vote for self, then send request to every other voter
        kBecomePrimary,  // won the election of term
        kStepDown,       // stop accepting writes (reason says why); the node is a follower again
    };
    Kind kind;
    long long term = 0;
    VoteRequest request;
    std::string reason;
};
using Actions = std::vector<TopologyAction>;

class Topology {
public:
    explicit Topology(uint64_t seed);

    // A (new) config; self is this node's index in it (-1: not a member). Keeps the term,
    // forgets what was heard of members, restarts the election timer.
    void setConfig(const ReplSetConfig& config, int self, Millis now);
    // A new primary gives its config its term (same version): vote requests carry it.
    void setConfigTerm(long long term) { _config.term = term; }
    // The persisted term and last vote (at startup, from local.replset.election).
    void setPersistedTerm(long long term, long long lastVoteTerm, int lastVoteCandidate);
    // The node's own member state as its data allows (SECONDARY when it may be elected;
    // STARTUP2/RECOVERING/ROLLBACK/REMOVED/ARBITER never run). PRIMARY is the topology's own
    // decision (role kLeader) and is not set here.
    void setFollowerState(MemberState s) { _followerState = s; }
    void setMyLastApplied(const OpTime& t) { _myApplied = t; }

    // Time passes: elections start or time out, a primary without a majority steps down,
    // priority takeover happens.
    Actions tick(Millis now);

    Actions onHeartbeat(Millis now, int member, const HeartbeatData& data);
    // portRefused: the member's host answered that nothing listens on its port (its process is
    // gone; a partition or a hung host makes connections time out instead). When that member
    // is the primary this follower knows of, the election is not put off for the whole
    // election timeout but held within a short random offset (beyond MongoDB, issue 10: a dead
    // primary replaced in about a second). Votes keep it as safe as any election; if the
    // process was only restarting, the set has had one election too many.
    void onHeartbeatFailed(Millis now, int member, const std::string& message, bool portRefused = false);

    // A replSetRequestVotes command. persistVote: the caller must persist (term, vote) before
    // replying. actions: what a newer term in a real request forces (persist, step down).
    struct VoteResult {
        VoteResponse response;
        bool persistVote = false;
        Actions actions;
    };
    VoteResult processVoteRequest(Millis now, const VoteRequest& request);
    // A voter's reply to the request this node sent for electionTerm (the request's term).
    Actions onVoteResponse(Millis now, int member, bool dryRun, long long electionTerm, const VoteResponse& r);
    // Any term learnt from a message (replSetUpdatePosition, getMore metadata, ...).
    Actions observeTerm(Millis now, long long term);

    // replSetStepDown / step-down on a reconfig: a leader becomes a follower that will not run
    // for election before frozenUntil. Returns NotWritablePrimary if not leader.
    Status stepDown(Millis now, Millis frozenUntil);
    // replSetFreeze: no elections before until (0 seconds: unfreeze; a one-voter set then
    // elects itself at the next tick). NotSecondary on a leader or candidate.
    Status freeze(Millis now, Millis until);
    // replSetStepUp: an election now, without dry run. Errors as MongoDB: CommandFailed
    // ("Election failed.") when this node cannot run.
    StatusWith<Actions> stepUp(Millis now);

    // An electable voter whose applied optime is at least ours and which was heard within the
    // election timeout (a non-forced replSetStepDown waits for one).
    bool hasCaughtUpElectableSecondary(Millis now) const;
    // The member a primary stepping down hands the election to (MongoDB's election handoff): of
    // the up, voting, electable secondaries that applied all this member applied, the one of
    // highest priority (lowest index on ties); -1 when there is none.
    int electionHandoffCandidate(Millis now) const;

    Role role() const { return _role; }
    long long term() const { return _term; }
    long long lastVoteTerm() const { return _lastVoteTerm; }
    int lastVoteCandidate() const { return _lastVoteCandidate; }
    int primaryIndex() const { return _role == Role::kLeader ? _self : _primary; }
    int self() const { return _self; }
    Millis electionDeadline() const { return _electionDeadline; }
    Millis frozenUntil() const { return _frozenUntil; }
    // What this node knows of member i (heartbeats): state DOWN/UNKNOWN when not heard.
    struct MemberView {
        bool up = false;
        bool everHeard = false;
        Millis lastHeartbeat = 0;    // last attempt's answer (ok or not)
        Millis lastHeartbeatOk = 0;  // last successful reply
        HeartbeatData data;
        std::string lastMessage;
    };
    const MemberView& member(int i) const { return _members[size_t(i)]; }
    MemberState memberState(int i) const;
    const ReplSetConfig& config() const { return _config; }

private:
    bool canRunForElection(Millis now) const;
    void resetElectionTimer(Millis now);
    VoteRequest makeRequest(bool dryRun, long long term) const;
    Actions startDryRun(Millis now, const std::string& reason);
    Actions startRealElection(Millis now, const std::string& reason);
    Actions checkVotes(Millis now);
    Actions adoptTerm(Millis now, long long term, const std::string& why);
    void becomeFollower(Millis now);
    int votesNeeded() const { return _config.majorityVoteCount(); }

    ReplSetConfig _config;
    int _self = -1;
    std::mt19937_64 _rng;
    std::vector<MemberView> _members;
    MemberState _followerState = MemberState::kStartup;
    OpTime _myApplied;

    long long _term = OpTime::kUninitializedTerm;
    long long _lastVoteTerm = OpTime::kUninitializedTerm;
    int _lastVoteCandidate = -1;

    Role _role = Role::kFollower;
    int _primary = -1;  // the primary a follower knows of, -1 none
    Millis _electionDeadline = 0;
    Millis _frozenUntil = 0;
    Millis _takeoverAt = -1;  // a pending priority takeover (-1 none)
    Millis _leaderSince = 0;

    // The candidacy in progress.
    bool _dryRun = false;
    long long _electionTerm = 0;  // the term asked for
    std::string _electionReason;
    Millis _candidacyDeadline = 0;
    std::vector<int> _granted;    // voters who said yes (self included)
    std::vector<int> _responded;  // voters who answered
};

}  // namespace repl
}  // namespace mongo
