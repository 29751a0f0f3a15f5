// The coordinator's replies: hello's replica-set fields, replSetGetStatus, replSetGetConfig and
// the cluster time fields, in MongoDB 7.0's shape.
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/logical_clock.h"
#include "mongo/db/storage/kv_engine.h"

namespace mongo {
namespace repl {
namespace {

// protocol version 1's electionId: ObjectId 7fffffff followed by the term (8 bytes, big endian).
OID electionIdForTerm(long long term) {
    OID o;
    o.bytes[0] = 0x7f;
    o.bytes[1] = o.bytes[2] = o.bytes[3] = 0xff;
    for (int i = 0; i < 8; ++i) o.bytes[4 + i] = static_cast<unsigned char>((uint64_t(term) >> (8 * (7 - i))) & 0xff);
    return o;
}

void appendOpTimeAndWall(BSONObjBuilder* b, const char* opTimeName, const OpTime& t, const char* wallName, Date_t w) {
    b->append(opTimeName, t.toBSON());
    b->append(wallName, w);
}

Date_t opTimeDate(const OpTime& t) { return Date_t::fromMillis(int64_t(t.getTimestamp().secs) * 1000); }

}  // namespace

void ReplicationCoordinator::appendHelloFields(bool legacyNames, BSONObjBuilder* b) const {
    std::lock_guard<std::mutex> lk(_mutex);
    const char* primaryField = legacyNames ? "ismaster" : "isWritablePrimary";
    if (!_config || _state == MemberState::kRemoved || _selfIndex < 0) {
        b->append(primaryField, false);
        b->append("secondary", false);
        b->append("info", "Does not have a valid replica set config");
        b->append("isreplicaset", true);
        return;
    }
    const MemberConfig& self = _config->members[size_t(_selfIndex)];
    BSONArrayBuilder hosts, passives, arbiters;
    bool havePassives = false, haveArbiters = false;
    for (const auto& m : _config->members) {
        if (m.hidden) continue;
        if (m.arbiterOnly) {
            arbiters.append(m.host);
            haveArbiters = true;
        } else if (m.priority == 0) {
            passives.append(m.host);
            havePassives = true;
        } else {
            hosts.append(m.host);
        }
    }
    b->appendArray("hosts", hosts.arr());
    if (havePassives) b->appendArray("passives", passives.arr());
    if (haveArbiters) b->appendArray("arbiters", arbiters.arr());
    b->append("setName", _config->setName);
    b->append("setVersion", static_cast<int>(_config->version));
    // A new primary catching up is neither writable nor a secondary (MongoDB's hello then).
    const bool primary = _state == MemberState::kPrimary && !_catchUp.active;
    b->append(primaryField, primary);
    b->append("secondary", _state == MemberState::kSecondary);
    const int p = _topo.primaryIndex();
    if (p >= 0) b->append("primary", _config->members[size_t(p)].host);
    if (self.arbiterOnly) b->append("arbiterOnly", true);
    if (self.priority == 0 && !self.arbiterOnly) b->append("passive", true);
    if (self.hidden) b->append("hidden", true);
    if (!self.tags.isEmpty()) b->append("tags", self.tags);
    b->append("me", self.host);
    if (primary) b->append("electionId", electionIdForTerm(_term));
    BSONObjBuilder lw;
    lw.append("opTime", _lastApplied.toBSON());
    lw.append("lastWriteDate", _lastAppliedWall);
    lw.append("majorityOpTime", _commitPoint.toBSON());
    lw.append("majorityWriteDate", _commitPointWall);
    b->append("lastWrite", lw.obj());
}

void ReplicationCoordinator::appendMemberStatus(BSONObjBuilder& o, size_t i, Date_t now) const {
    const MemberConfig& m = _config->members[i];
    const bool self = int(i) == _selfIndex;
    o.append("_id", m.id);
    o.append("name", m.host);
    if (self) {
        o.append("health", 1.0);
        o.append("state", static_cast<int>(_state));
        o.append("stateStr", memberStateString(_state));
        o.append("uptime", static_cast<int>((now.millis - _startDate.millis) / 1000));
        o.append("optime", _lastApplied.toBSON());
        o.append("optimeDate", opTimeDate(_lastApplied));
        o.append("lastAppliedWallTime", _lastAppliedWall);
        o.append("lastDurableWallTime", _lastDurableWall);
        const std::string source = currentSyncSourceLocked();
        const int sourceIndex = memberIndexForHost(source);
        o.append("syncSourceHost", source);
        o.append("syncSourceId", sourceIndex >= 0 ? _config->members[size_t(sourceIndex)].id : -1);
        o.append("infoMessage", _cannotSync.empty() ? _tooStale : _cannotSync);
        if (_state == MemberState::kPrimary) {
            o.append("electionTime", _electionOpTime.getTimestamp());
            o.append("electionDate", _electionDate);
        }
        o.append("configVersion", static_cast<int>(_config->version));
        o.append("configTerm", static_cast<int>(_config->term));
        o.append("self", true);
        o.append("lastHeartbeatMessage", "");
        return;
    }
    if (i >= _progress.size()) return;
    const Topology::MemberView& v = _topo.member(int(i));
    const MemberProgress& p = _progress[i];
    const MemberState st = _topo.memberState(int(i));
    o.append("health", v.up ? 1.0 : 0.0);
    o.append("state", static_cast<int>(st));
    o.append("stateStr", st == MemberState::kDown ? "(not reachable/healthy)" : memberStateString(st));
    o.append("uptime", v.up ? static_cast<int>((now.millis - _startDate.millis) / 1000) : 0);
    o.append("optime", p.applied.toBSON());
    o.append("optimeDurable", p.durable.toBSON());
    o.append("optimeDate", opTimeDate(p.applied));
    o.append("optimeDurableDate", opTimeDate(p.durable));
    o.append("lastAppliedWallTime", p.appliedWall);
    o.append("lastDurableWallTime", p.durableWall);
    o.append("lastHeartbeat", p.lastHeartbeatDate);
    o.append("lastHeartbeatRecv", p.lastHeartbeatRecvDate);
    o.append("pingMs", p.pingMs);
    o.append("lastHeartbeatMessage", v.lastMessage);
    o.append("syncSourceHost", p.syncingTo);
    const int sourceIndex = memberIndexForHost(p.syncingTo);
    o.append("syncSourceId", sourceIndex >= 0 ? _config->members[size_t(sourceIndex)].id : -1);
    o.append("infoMessage", "");
    if (st == MemberState::kPrimary) {
        o.append("electionTime", p.electionTime);
        o.append("electionDate", Date_t::fromMillis(int64_t(p.electionTime.secs) * 1000));
    }
    o.append("configVersion", static_cast<int>(p.configVersion));
    o.append("configTerm", static_cast<int>(p.configTerm));
}

void ReplicationCoordinator::appendStatus(BSONObjBuilder* b) const {
    // Storage is asked before the state mutex is taken (it is never held across storage calls).
    KVEngine* kv;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        kv = _options.kv;
    }
    const uint64_t stable = kv ? kv->stableTimestamp() : 0;
    std::lock_guard<std::mutex> lk(_mutex);
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", _isReplSet);
    uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
    Date_t now = Date_t::now();
    b->append("set", _config->setName);
    b->append("date", now);
    b->append("myState", static_cast<int>(_state));
    b->append("term", _term);
    const std::string source = currentSyncSourceLocked();
    const int sourceIndex = memberIndexForHost(source);
    b->append("syncSourceHost", source);
    b->append("syncSourceId", sourceIndex >= 0 ? _config->members[size_t(sourceIndex)].id : -1);
    b->append("heartbeatIntervalMillis", _config->heartbeatIntervalMillis);
    b->append("majorityVoteCount", _config->majorityVoteCount());
    b->append("writeMajorityCount", _config->writeMajorityCount());
    b->append("votingMembersCount", _config->votingMembers());
    int writableVoters = 0;
    for (const auto& m : _config->members)
        if (m.votes && !m.arbiterOnly) ++writableVoters;
    b->append("writableVotingMembersCount", writableVoters);
    BSONObjBuilder ot;
    appendOpTimeAndWall(&ot, "lastCommittedOpTime", _commitPoint, "lastCommittedWallTime", _commitPointWall);
    ot.append("readConcernMajorityOpTime", _commitPoint.toBSON());
    ot.append("appliedOpTime", _lastApplied.toBSON());
    ot.append("durableOpTime", _lastDurable.toBSON());
    ot.append("lastAppliedWallTime", _lastAppliedWall);
    ot.append("lastDurableWallTime", _lastDurableWall);
    b->append("optimes", ot.obj());
    b->append("lastStableRecoveryTimestamp", Timestamp::fromULL(stable));
    if (_state == MemberState::kPrimary) {
        BSONObjBuilder em;
        em.append("lastElectionReason", _lastElectionReason.empty() ? "electionTimeout" : _lastElectionReason);
        em.append("lastElectionDate", _electionDate);
        em.append("electionTerm", _term);
        em.append("lastCommittedOpTimeAtElection", OpTime().toBSON());
        em.append("lastSeenOpTimeAtElection", _electionOpTime.toBSON());
        em.append("numVotesNeeded", _config->majorityVoteCount());
        em.append("priorityAtElection", _config->members[size_t(_selfIndex)].priority);
        em.append("electionTimeoutMillis", _config->electionTimeoutMillis);
        if (!_catchUp.target.isNull()) em.append("targetCatchupOpTime", _catchUp.target.toBSON());
        if (!_catchUp.active) {
            em.append("newTermStartDate", _electionDate);
            em.append("wMajorityWriteAvailabilityDate", _electionDate);
        }
        b->append("electionCandidateMetrics", em.obj());
    }
    BSONArrayBuilder members;
    for (size_t i = 0; i < _config->members.size(); ++i) {
        BSONObjBuilder& o = members.subobjStart();
        appendMemberStatus(o, i, now);
        o.doneFast();
    }
    b->appendArray("members", members.arr());
    // As MongoDB (4.2.1+): shown while the member is in initial sync (STARTUP2).
    if (_state == MemberState::kStartup2) _initialSyncer.appendStatus(b);
}

void ReplicationCoordinator::appendConfig(bool commitmentStatus, BSONObjBuilder* b) const {
    std::lock_guard<std::mutex> lk(_mutex);
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", _isReplSet);
    uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
    b->append("config", _config->toBSON());
    // Whether the config is committed: a majority of voters hold it (as heartbeats tell).
    if (commitmentStatus) {
        int have = 0;
        for (size_t i = 0; i < _config->members.size(); ++i) {
            if (!_config->members[i].votes) continue;
            if (int(i) == _selfIndex ||
                (i < _progress.size() && _topo.member(int(i)).up && _progress[i].configVersion == _config->version &&
                 _progress[i].configTerm == _config->term))
                ++have;
        }
        b->append("commitmentStatus", have >= _config->majorityVoteCount());
    }
}

void ReplicationCoordinator::appendClusterTimeFields(BSONObjBuilder* b) const {
    if (!isReplSet()) return;
    OpTime last;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config) return;
        last = _lastApplied;
    }
    Timestamp clusterTime = LogicalClock::get()->getClusterTime();
    BSONObjBuilder ct;
    ct.append("clusterTime", clusterTime);
    BSONObjBuilder sig;
    const unsigned char zeros[20] = {0};
    // Unsigned (no keys without authentication), as MongoDB without auth: keyId 0.
    sig.appendBinData("hash", 20, 0, zeros);
    sig.append("keyId", 0LL);
    ct.append("signature", sig.obj());
    b->append("$clusterTime", ct.obj());
    b->append("operationTime", last.getTimestamp());
}

}  // namespace repl
}  // namespace mongo
