#include "mongo/db/repl/topology.h"

#include <algorithm>

namespace mongo {
namespace repl {
namespace {

// MongoDB's electionTimeoutOffsetLimitFraction: the random offset is at most 15% of the timeout.
constexpr double kElectionOffsetFraction = 0.15;
// The random offset of an election held because the primary's process is gone: followers that
// notice together rarely start together, and a new primary comes within about a second.
constexpr long long kPromptElectionMaxOffsetMillis = 500;
// MongoDB's priorityTakeoverFreshnessWindowSeconds.
constexpr Millis kTakeoverFreshnessMillis = 2000;

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// How far behind b a is, in milliseconds of timestamp seconds (0 if a is not behind).
Millis lagMillis(const OpTime& a, const OpTime& b) {
    if (a >= b) return 0;
    return (Millis(b.getTimestamp().secs) - Millis(a.getTimestamp().secs)) * 1000;
}

}  // namespace

const char* roleString(Role r) {
    switch (r) {
        case Role::kFollower: return "follower";
        case Role::kCandidate: return "candidate";
        case Role::kLeader: return "leader";
    }
    return "?";
}

Topology::Topology(uint64_t seed) : _rng(seed) {}

void Topology::setConfig(const ReplSetConfig& config, int self, Millis now) {
    _config = config;
    _self = self;
    _members.assign(config.members.size(), MemberView());
    // A leader stays leader across a reconfig that keeps it electable (the coordinator steps
    // it down otherwise); every other role starts afresh.
    if (_role == Role::kCandidate) becomeFollower(now);
    if (_role == Role::kLeader) {
        _leaderSince = now;  // a grace period before the majority check
        if (self < 0 || !config.members[size_t(self)].isElectable()) becomeFollower(now);
    }
    _primary = -1;
    _takeoverAt = -1;
    resetElectionTimer(now);
}

void Topology::setPersistedTerm(long long term, long long lastVoteTerm, int lastVoteCandidate) {
    _term = std::max(_term, term);
    _lastVoteTerm = lastVoteTerm;
    _lastVoteCandidate = lastVoteCandidate;
}

void Topology::resetElectionTimer(Millis now) {
    const long long timeout = _config.electionTimeoutMillis;
    const long long maxOffset = static_cast<long long>(timeout * kElectionOffsetFraction);
    const long long offset = maxOffset > 0 ? static_cast<long long>(_rng() % uint64_t(maxOffset + 1)) : 0;
    _electionDeadline = now + timeout + offset;
}

bool Topology::canRunForElection(Millis now) const {
    if (_self < 0 || _followerState != MemberState::kSecondary) return false;
    const MemberConfig& me = _config.members[size_t(_self)];
    return me.votes == 1 && me.isElectable() && now >= _frozenUntil;
}

VoteRequest Topology::makeRequest(bool dryRun, long long term) const {
    VoteRequest r;
    r.setName = _config.setName;
    r.dryRun = dryRun;
    r.term = term;
    r.candidateIndex = _self;
    r.configVersion = _config.version;
    r.configTerm = _config.term;
    r.lastApplied = _myApplied;
    return r;
}

void Topology::becomeFollower(Millis now) {
    _role = Role::kFollower;
    _granted.clear();
    _responded.clear();
    _takeoverAt = -1;
    resetElectionTimer(now);
}

Actions Topology::adoptTerm(Millis now, long long term, const std::string& why) {
    Actions out;
    if (term <= _term) return out;
    _term = term;
    out.push_back({TopologyAction::kPersistTerm, term, {}, why});
    if (_role == Role::kLeader) {
        out.push_back({TopologyAction::kStepDown, term, {}, "a newer term " + std::to_string(term) + " was seen (" + why + ")"});
        _primary = -1;
        becomeFollower(now);
    } else if (_role == Role::kCandidate) {
        becomeFollower(now);
    }
    return out;
}

Actions Topology::observeTerm(Millis now, long long term) { return adoptTerm(now, term, "observed"); }

Actions Topology::startDryRun(Millis now, const std::string& reason) {
    _role = Role::kCandidate;
    _dryRun = true;
    _electionTerm = std::max<long long>(_term, 0) + 1;
    _electionReason = reason;
    _candidacyDeadline = now + _config.electionTimeoutMillis;
    _granted.assign(1, _self);
    _responded.assign(1, _self);
    _takeoverAt = -1;
    Actions out;
    if (int(_granted.size()) >= votesNeeded()) return startRealElection(now, reason);
    out.push_back({TopologyAction::kSendDryRun, _electionTerm, makeRequest(true, _electionTerm), reason});
    return out;
}

Actions Topology::startRealElection(Millis now, const std::string& reason) {
    _role = Role::kCandidate;
    _dryRun = false;
    _term = std::max<long long>(_term, 0) + 1;
    _electionTerm = _term;
    _electionReason = reason;
    _lastVoteTerm = _term;
    _lastVoteCandidate = _self;
    _candidacyDeadline = now + _config.electionTimeoutMillis;
    _granted.assign(1, _self);
    _responded.assign(1, _self);
    Actions out;
    out.push_back({TopologyAction::kStartElection, _term, makeRequest(false, _term), reason});
    Actions more = checkVotes(now);
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

Actions Topology::checkVotes(Millis now) {
    Actions out;
    if (_role != Role::kCandidate) return out;
    if (int(_granted.size()) >= votesNeeded()) {
        if (_dryRun) return startRealElection(now, _electionReason);
        _role = Role::kLeader;
        _primary = _self;
        _leaderSince = now;
        // A new leader has heard from nobody yet: its majority check starts from now.
        for (auto& m : _members) m.lastHeartbeatOk = std::max(m.lastHeartbeatOk, now);
        out.push_back({TopologyAction::kBecomePrimary, _term, {}, _electionReason});
        return out;
    }
    // Everyone answered and there are not enough yeses: give up now rather than at the deadline.
    int voters = _config.votingMembers();
    if (int(_responded.size()) >= voters) becomeFollower(now);
    return out;
}

Actions Topology::tick(Millis now) {
    Actions out;
    if (_self < 0) return out;
    if (_role == Role::kLeader) {
        int seen = 0;
        for (size_t i = 0; i < _members.size(); ++i) {
            if (_config.members[i].votes == 0) continue;
            if (int(i) == _self || now - _members[i].lastHeartbeatOk <= _config.electionTimeoutMillis) ++seen;
        }
        if (seen < votesNeeded() && now - _leaderSince > _config.electionTimeoutMillis) {
            out.push_back({TopologyAction::kStepDown, _term, {},
                           "can't see a majority of the set, relinquishing primary"});
            _primary = -1;
            becomeFollower(now);
        }
        return out;
    }
    if (_role == Role::kCandidate) {
        if (now >= _candidacyDeadline) becomeFollower(now);
        return out;
    }
    if (!canRunForElection(now)) return out;
    // A one-voter set needs nobody: it elects itself as soon as it may.
    if (_config.votingMembers() == 1) return startDryRun(now, "electionTimeout");
    if (now >= _electionDeadline) return startDryRun(now, "electionTimeout");
    // Priority takeover.
    if (_primary >= 0 && _members[size_t(_primary)].up) {
        const MemberConfig& me = _config.members[size_t(_self)];
        const MemberView& p = _members[size_t(_primary)];
        bool highest = me.priority > _config.members[size_t(_primary)].priority;
        int rank = 0;  // electable members seen up with a higher priority than ours
        for (size_t i = 0; highest && i < _members.size(); ++i) {
            if (int(i) == _self || !_members[i].up) continue;
            if (_config.members[i].isElectable() && _config.members[i].priority > me.priority) ++rank;
        }
        const bool fresh = lagMillis(_myApplied, p.data.applied) <= kTakeoverFreshnessMillis;
        if (highest && rank == 0 && fresh) {
            if (_takeoverAt < 0) {
                // As MongoDB: a delay that lets a higher-ranked member go first, plus the random
                // election offset.
                const long long maxOffset = static_cast<long long>(_config.electionTimeoutMillis * kElectionOffsetFraction);
                _takeoverAt = now + _config.heartbeatIntervalMillis + (maxOffset > 0 ? Millis(_rng() % uint64_t(maxOffset + 1)) : 0);
            } else if (now >= _takeoverAt) {
                return startDryRun(now, "priorityTakeover");
            }
        } else {
            _takeoverAt = -1;
        }
    }
    return out;
}

Actions Topology::onHeartbeat(Millis now, int member, const HeartbeatData& data) {
    Actions out;
    if (member < 0 || size_t(member) >= _members.size() || member == _self) return out;
    MemberView& m = _members[size_t(member)];
    m.up = true;
    m.everHeard = true;
    m.lastHeartbeat = now;
    m.lastHeartbeatOk = now;
    m.data = data;
    m.lastMessage.clear();
    if (data.term > _term) out = adoptTerm(now, data.term, "heartbeat from " + _config.members[size_t(member)].host);
    if (data.state == MemberState::kPrimary && data.term >= _term) {
        if (_role != Role::kLeader) {
            _primary = member;
            if (_role == Role::kCandidate) becomeFollower(now);
            resetElectionTimer(now);
        }
    } else if (_primary == member) {
        _primary = -1;  // it stepped down; the election timer runs from its last heartbeat as primary
    }
    return out;
}

void Topology::onHeartbeatFailed(Millis now, int member, const std::string& message, bool portRefused) {
    if (member < 0 || size_t(member) >= _members.size() || member == _self) return;
    MemberView& m = _members[size_t(member)];
    m.up = false;
    m.lastHeartbeat = now;
    m.lastMessage = message;
    // Otherwise the election timer is not touched: the primary is given up only when nothing
    // was heard from it for the whole timeout (it may be alive behind a partition).
    if (portRefused && member == _primary && _role == Role::kFollower) {
        const long long maxOffset = std::min<long long>(kPromptElectionMaxOffsetMillis,
                                                        static_cast<long long>(_config.electionTimeoutMillis *
                                                                               kElectionOffsetFraction));
        const Millis at = now + (maxOffset > 0 ? Millis(_rng() % uint64_t(maxOffset + 1)) : 0);
        _electionDeadline = std::min(_electionDeadline, at);
    }
}

MemberState Topology::memberState(int i) const {
    if (i == _self) return _role == Role::kLeader ? MemberState::kPrimary : _followerState;
    const MemberView& m = _members[size_t(i)];
    if (!m.everHeard) return m.lastHeartbeat ? MemberState::kDown : MemberState::kUnknown;
    return m.up ? m.data.state : MemberState::kDown;
}

Topology::VoteResult Topology::processVoteRequest(Millis now, const VoteRequest& req) {
    VoteResult res;
    // A real request for a newer term moves this node to that term first (and deposes a
    // primary), whatever the answer: the candidate's term is the newest the set has started.
    if (!req.dryRun && req.term > _term) res.actions = adoptTerm(now, req.term, "vote request");
    VoteResponse& r = res.response;
    r.term = _term;
    if (req.setName != _config.setName) {
        r.reason = "candidate's set name (" + req.setName + ") differs from mine (" + _config.setName + ")";
    } else if (req.term < _term) {
        r.reason = "candidate's term (" + std::to_string(req.term) + ") is lower than mine (" + std::to_string(_term) + ")";
    } else if (req.configTerm < _config.term || (req.configTerm == _config.term && req.configVersion < _config.version)) {
        r.reason = "candidate's config with {version: " + std::to_string(req.configVersion) + ", term: " +
                   std::to_string(req.configTerm) + "} is older than mine with {version: " + std::to_string(_config.version) +
                   ", term: " + std::to_string(_config.term) + "}";
    } else if (req.lastApplied < _myApplied) {
        r.reason = "candidate's data is staler than mine. candidate's last applied OpTime: " + req.lastApplied.toString() +
                   ", my last applied OpTime: " + _myApplied.toString();
    } else if (!req.dryRun && _lastVoteTerm == req.term) {
        r.reason = "already voted for another candidate (" +
                   (_lastVoteCandidate >= 0 && size_t(_lastVoteCandidate) < _config.members.size()
                        ? _config.members[size_t(_lastVoteCandidate)].host
                        : std::to_string(_lastVoteCandidate)) +
                   ") this term (" + std::to_string(req.term) + ")";
    } else if (req.dryRun && _role == Role::kLeader && req.term <= _term + 1 && _config.votingMembers() > 1) {
        // A live primary answers no to a dry run for the term after its own: the candidate
        // has merely lost contact with it (MongoDB's voters learn the same from heartbeats).
        r.reason = "I am the primary of term " + std::to_string(_term);
    } else {
        r.voteGranted = true;
        if (!req.dryRun) {
            _lastVoteTerm = req.term;
            _lastVoteCandidate = req.candidateIndex;
            res.persistVote = true;
            resetElectionTimer(now);  // give the candidate time to win
        }
    }
    return res;
}

Actions Topology::onVoteResponse(Millis now, int member, bool dryRun, long long electionTerm, const VoteResponse& r) {
    Actions out;
    if (dryRun) {
        // A dry run asks for term + 1 without moving anyone to it: a voter already past our
        // term means the set moved on.
        if (r.term > _term) return adoptTerm(now, r.term, "dry run response");
    } else if (r.term > _term) {
        return adoptTerm(now, r.term, "vote response");
    }
    if (_role != Role::kCandidate || _dryRun != dryRun || _electionTerm != electionTerm) return out;
    if (member < 0 || size_t(member) >= _members.size() || contains(_responded, member)) return out;
    if (_config.members[size_t(member)].votes == 0) return out;
    _responded.push_back(member);
    if (r.voteGranted) _granted.push_back(member);
    return checkVotes(now);
}

Status Topology::stepDown(Millis now, Millis frozenUntil) {
    if (_role != Role::kLeader) return Status(ErrorCodes::NotWritablePrimary, "not primary so can't step down");
    _primary = -1;
    becomeFollower(now);
    _frozenUntil = std::max(_frozenUntil, frozenUntil);
    return Status::OK();
}

Status Topology::freeze(Millis now, Millis until) {
    if (_role != Role::kFollower)
        return Status(ErrorCodes::NotSecondary,
                      std::string("cannot freeze node when primary or running for election. state: ") +
                          (_role == Role::kLeader ? "Primary" : "Running-Election"));
    _frozenUntil = until;
    if (until <= now) resetElectionTimer(now);
    return Status::OK();
}

StatusWith<Actions> Topology::stepUp(Millis now) {
    if (_role == Role::kLeader) return Actions();
    if (_role == Role::kCandidate || !canRunForElection(now))
        return Status(ErrorCodes::CommandFailed, "Election failed.");
    return startRealElection(now, "stepUpRequestSkipDryRun");
}

int Topology::electionHandoffCandidate(Millis now) const {
    int best = -1;
    for (size_t i = 0; i < _members.size(); ++i) {
        if (int(i) == _self) continue;
        const MemberView& m = _members[i];
        const MemberConfig& c = _config.members[i];
        if (m.up && c.votes && c.isElectable() && m.data.state == MemberState::kSecondary &&
            now - m.lastHeartbeatOk <= _config.electionTimeoutMillis && m.data.applied >= _myApplied &&
            (best < 0 || c.priority > _config.members[best].priority))
            best = int(i);
    }
    return best;
}

bool Topology::hasCaughtUpElectableSecondary(Millis now) const {
    return electionHandoffCandidate(now) >= 0;
}

}  // namespace repl
}  // namespace mongo
