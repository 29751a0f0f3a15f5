// The coordinator's side of elections: the background thread, heartbeats sent and received,
// vote requests, carrying out the topology's actions (persist the term and vote, become
// primary, step down), and replSetStepDown / replSetStepUp / replSetFreeze.
#include <random>
#include <thread>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/hello_cmd.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/transaction/transaction_reaper.h"
#include "mongo/db/repl/coordinator_internal.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/port_probe.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/service_context.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {

MONGO_FAIL_POINT_DEFINE(blockHeartbeatStepdown);

namespace repl {
namespace {

void sleepMillis(long long ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

BSONObj voteRequestBSON(const VoteRequest& r) {
    BSONObjBuilder b;
    b.append("replSetRequestVotes", 1);
    b.append("setName", r.setName);
    b.append("dryRun", r.dryRun);
    b.append("term", r.term);
    b.append("candidateIndex", static_cast<long long>(r.candidateIndex));
    b.append("configVersion", r.configVersion);
    b.append("configTerm", r.configTerm);
    b.append("lastAppliedOpTime", r.lastApplied.toBSON());
    return b.obj();
}

}  // namespace

void ReplicationCoordinator::syncTermLocked() {
    if (_topo.term() > _term) {
        _term = _topo.term();
        if (_state != MemberState::kPrimary) LocalOplog::get()->setTerm(_term);
    }
    _lastVoteTerm = _topo.lastVoteTerm();
    _lastVoteCandidate = _topo.lastVoteCandidate();
}

int ReplicationCoordinator::memberIndexForHost(const std::string& host) const {
    if (!_config) return -1;
    for (size_t i = 0; i < _config->members.size(); ++i)
        if (_config->members[i].host == host) return int(i);
    return -1;
}

void ReplicationCoordinator::configChangedLocked(Millis now) {
    _topo.setConfig(*_config, _selfIndex, now);
    _topo.setPersistedTerm(_term, _lastVoteTerm, _lastVoteCandidate);
    _topo.setFollowerState(_state == MemberState::kPrimary ? MemberState::kSecondary : _state);
    _topo.setMyLastApplied(_lastApplied);
    _progress.assign(_config->members.size(), MemberProgress());
    _linksDirty = true;
}

void ReplicationCoordinator::startThreads() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_threadsStarted) return;
        _threadsStarted = true;
    }
    _background = std::thread([this] { backgroundLoop(); });
    // MongoDB's default commitIntervalMs: how stale this member's durable optime may get when
    // nobody waits for it.
    _journalFlusher.start([this] { flushJournal(); }, std::chrono::milliseconds(100));
}

void ReplicationCoordinator::shutdown() {
    if (!isReplSet()) return;
    _shutdown = true;
    _progressCv.notify_all();
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _commitPointWaiters.wakeAll();
    }
    if (_background.joinable()) _background.join();
    _journalFlusher.stop();
    _links.stop();
    _fetcher.stop();
    _initialSyncer.stop();
}

void ReplicationCoordinator::backgroundLoop() {
    logv2::setThreadName("ReplCoord");
    while (!_shutdown) {
        bool restartLinks = false, haveConfig = false;
        BSONObj pending;
        std::string source;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            restartLinks = _linksDirty;
            _linksDirty = false;
            pending = _pendingConfig;
            _pendingConfig = BSONObj();
            source = _configSourceHost;
            haveConfig = _config && _selfIndex >= 0;
        }
        try {
            if (!pending.isEmpty()) installConfigFromHeartbeat(pending);
            if (!haveConfig) {
                if (!source.empty())
                    fetchConfigFrom(source);
                else
                    retryFindSelfInStoredConfig();
                sleepMillis(200);
                continue;
            }
            if (restartLinks) {
                std::vector<MemberLinks::Target> targets;
                long long interval;
                int timeout;
                {
                    std::lock_guard<std::mutex> lk(_mutex);
                    for (size_t i = 0; i < _config->members.size(); ++i)
                        if (int(i) != _selfIndex) targets.push_back({int(i), _config->members[i].host});
                    interval = _config->heartbeatIntervalMillis;
                    timeout = int(std::min<long long>(_config->heartbeatTimeoutSecs * 1000,
                                                      std::max<long long>(_config->electionTimeoutMillis, 1000)));
                }
                _links.start(targets, interval, timeout, [this](int m) { return makeHeartbeatRequest(m); },
                             [this](int m, const MemberLinks::Reply& r, long long ms) { onHeartbeatReply(m, r, ms); });
            }
            Actions actions;
            {
                std::lock_guard<std::mutex> lk(_mutex);
                actions = _topo.tick(nowMillis());
                syncTermLocked();
                const int primary = _topo.primaryIndex();
                if (primary != _lastPrimarySeen) {
                    _lastPrimarySeen = primary;
                    bumpTopologyVersion();  // hello's "primary" changed
                }
                advanceCommitPointLocked();
            }
            execute(actions);
            manageCatchUp();
            manageFetcher();
        } catch (const DBException& e) {
            LOGV2_WARNING(21216, Replication, "Replication background task failed; retrying",
                          logv2::attrs("error", e.toStatus().toString()));
            sleepMillis(200);
        }
        sleepMillis(20);
    }
}

void ReplicationCoordinator::execute(const Actions& actions) {
    for (const TopologyAction& a : actions) {
        switch (a.kind) {
            case TopologyAction::kPersistTerm:
                persistTopologyTerm();
                break;
            case TopologyAction::kSendDryRun:
                LOGV2(21438, Election, "Conducting a dry run election to see if we could be elected",
                      logv2::attrs("currentTerm", a.term - 1, "reason", a.reason));
                sendVoteRequests(a.request);
                break;
            case TopologyAction::kStartElection:
                // The vote for itself is on disk before anyone is asked.
                persistTopologyTerm();
                LOGV2(21444, Election, "Running for election",
                      logv2::attrs("term", a.term, "reason", a.reason));
                {
                    std::lock_guard<std::mutex> lk(_mutex);
                    _lastElectionReason = a.reason;
                }
                sendVoteRequests(a.request);
                break;
            case TopologyAction::kBecomePrimary: {
                LOGV2(21450, Election, "Election succeeded, assuming primary role", logv2::attrs("term", a.term));
                auto opCtx = makeOperationContext(internalClient());
                becomePrimary(opCtx.get(), a.term);
                break;
            }
            case TopologyAction::kStepDown: {
                // blockHeartbeatStepdown (MongoDB's name): a step-down the topology decided (a newer
                // term seen, the majority lost) waits while it is on; tests hold a deposed
                // primary there, between learning the new term and leaving PRIMARY.
                blockHeartbeatStepdown.pauseWhileSet();
                std::unique_lock<std::mutex> lk(_mutex);
                stepDownLocked(lk, a.reason);
                break;
            }
        }
    }
}

void ReplicationCoordinator::sendVoteRequests(const VoteRequest& request) {
    std::vector<int> voters;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        for (size_t i = 0; i < _config->members.size(); ++i)
            if (int(i) != _selfIndex && _config->members[i].votes) voters.push_back(int(i));
    }
    const BSONObj cmd = voteRequestBSON(request);
    for (int m : voters) {
        const bool dryRun = request.dryRun;
        const long long term = request.term;
        _links.send(m, cmd, [this, m, dryRun, term](const MemberLinks::Reply& reply) {
            VoteResponse r;
            if (reply.isOK()) {
                r.term = reply.getValue()["term"].numberLong();
                r.voteGranted = reply.getValue()["voteGranted"].trueValue();
                r.reason = reply.getValue()["reason"].str();
            } else {
                r.term = OpTime::kUninitializedTerm;
                r.reason = reply.getStatus().toString();
            }
            Actions actions;
            {
                std::lock_guard<std::mutex> lk(_mutex);
                if (!_config) return;
                LOGV2(51799, Election, "VoteRequester processResponse",
                      logv2::attrs("term", term, "dryRun", dryRun, "vote", r.voteGranted ? "yes" : "no", "from",
                                   _config->members[size_t(m)].host, "message", r.reason));
                actions = _topo.onVoteResponse(nowMillis(), m, dryRun, term, r);
                syncTermLocked();
            }
            execute(actions);
        });
    }
}

BSONObj ReplicationCoordinator::makeHeartbeatRequest(int member) {
    std::lock_guard<std::mutex> lk(_mutex);
    HeartbeatRequest r;
    r.setName = _options.setName;
    if (_config && _selfIndex >= 0) {
        r.configVersion = _config->version;
        r.configTerm = _config->term;
        r.from = _config->members[size_t(_selfIndex)].host;
        r.fromId = _config->members[size_t(_selfIndex)].id;
    }
    r.term = _term;
    if (member >= 0 && size_t(member) < _progress.size()) _progress[size_t(member)].lastHeartbeatDate = Date_t::now();
    return r.toBSON();
}

void ReplicationCoordinator::onHeartbeatReply(int member, const StatusWith<BSONObj>& reply, long long elapsedMillis) {
    // A heartbeat to the primary failed: is its process gone (its port refuses connections)?
    // Asked here, on the member's own heartbeat thread, with no lock held.
    bool portRefused = false;
    if (!reply.isOK()) {
        std::string host;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            if (_config && member >= 0 && size_t(member) < _config->members.size() && _topo.primaryIndex() == member &&
                _topo.role() == Role::kFollower)
                host = _config->members[size_t(member)].host;
        }
        portRefused = !host.empty() && portRefusesConnections(host, 250);
        if (portRefused)
            LOGV2(7800301, Election, "The primary's port refuses connections: electing without waiting out the "
                                     "election timeout",
                  logv2::attrs("primary", host));
    }
    Actions actions;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config || member < 0 || size_t(member) >= _config->members.size() || size_t(member) >= _progress.size()) return;
        const Millis now = nowMillis();
        StatusWith<HeartbeatReply> parsed =
            reply.isOK() ? HeartbeatReply::parse(reply.getValue()) : StatusWith<HeartbeatReply>(reply.getStatus());
        if (!parsed.isOK()) {
            const bool wasUp = _topo.member(member).up;
            _topo.onHeartbeatFailed(now, member, parsed.getStatus().reason(), portRefused);
            if (wasUp)
                LOGV2(21210, Replication, "Member is now in state RS_DOWN",
                      logv2::attrs("hostAndPort", _config->members[size_t(member)].host, "heartbeatMessage",
                                   parsed.getStatus().reason()));
        } else {
            const HeartbeatReply& r = parsed.getValue();
            MemberProgress& p = _progress[size_t(member)];
            p.pingMs = elapsedMillis;
            const MemberState before = _topo.memberState(member);
            if (!r.config.isEmpty()) {
                auto c = ReplSetConfig::parse(r.config, _options.setName, "reconfigure");
                if (c.isOK()) {
                    ReplSetConfig theirs = c.getValue();
                    theirs.term = r.config["term"].isNumber() ? r.config["term"].numberLong() : theirs.term;
                    if (configIsNewer(theirs, *_config)) _pendingConfig = r.config.getOwned();
                }
            }
            p.applied = r.applied;
            p.durable = r.durable;
            p.appliedWall = r.appliedWall;
            p.durableWall = r.durableWall;
            p.syncingTo = r.syncingTo;
            p.electionTime = r.electionTime;
            p.configVersion = r.configVersion;
            p.configTerm = r.configTerm;
            p.lastUpdate = now;
            HeartbeatData d;
            d.state = r.state;
            d.term = r.term;
            d.applied = r.applied;
            d.durable = r.durable;
            d.configVersion = r.configVersion;
            d.configTerm = r.configTerm;
            actions = _topo.onHeartbeat(now, member, d);
            syncTermLocked();
            if (before != r.state)
                LOGV2(21215, Replication, "Member is in new state",
                      logv2::attrs("hostAndPort", _config->members[size_t(member)].host, "newState", memberStateString(r.state)));
            // A secondary learns the commit point from the primary of its term (never past what
            // it applied itself).
            if (r.state == MemberState::kPrimary) learnCommitPointLocked(r.lastCommitted, r.lastCommittedWall, r.term, false);
            advanceCommitPointLocked();
        }
    }
    _progressCv.notify_all();
    execute(actions);
}

void ReplicationCoordinator::fetchConfigFrom(const std::string& host) {
    HeartbeatRequest r;
    r.setName = _options.setName;
    r.from = _options.defaultHost;
    RemoteClient client(host, 3000);
    auto reply = client.runCommand("admin", r.toBSON());
    if (!reply.isOK()) return;
    BSONElement config = reply.getValue()["config"];
    if (config.type() == Object) installConfigFromHeartbeat(config.embeddedObject().getOwned());
}

void ReplicationCoordinator::processHeartbeat(const BSONObj& cmd, BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    auto parsed = HeartbeatRequest::parse(cmd);
    uassertStatusOK(parsed.getStatus());
    const HeartbeatRequest& req = parsed.getValue();
    Actions actions;
    HeartbeatReply r;
    int beatBack = -1;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::InconsistentReplicaSetNames,
                "Our set name of " + _options.setName + " does not match name " + req.setName + " reported by remote node",
                req.setName == _options.setName);
        r.setName = _options.setName;
        r.term = _term;
        if (!_config) {
            // Not a member yet: someone with a config knows of us; ask it for the config.
            if (req.configVersion >= 1 && !req.from.empty()) _configSourceHost = req.from;
            r.state = MemberState::kStartup;
            r.configVersion = -2;
        } else {
            if (req.term > _term) {
                actions = _topo.observeTerm(nowMillis(), req.term);
                syncTermLocked();
            }
            r.term = _term;
            r.state = _state;
            const int primary = _topo.primaryIndex();
            r.primaryId = primary >= 0 ? _config->members[size_t(primary)].id : -1;
            const bool syncing = reportsNoProgressLocked();
            r.applied = syncing ? OpTime() : _lastApplied;
            r.appliedWall = syncing ? Date_t() : _lastAppliedWall;
            r.durable = syncing ? OpTime() : _lastDurable;
            r.durableWall = syncing ? Date_t() : _lastDurableWall;
            r.configVersion = _config->version;
            r.configTerm = _config->term;
            if (_state == MemberState::kPrimary) r.electionTime = _electionOpTime.getTimestamp();
            r.syncingTo = currentSyncSourceLocked();
            r.lastCommitted = _commitPoint;
            r.lastCommittedWall = _commitPointWall;
            ReplSetConfig theirs;
            theirs.version = req.configVersion;
            theirs.term = req.configTerm;
            if (req.configVersion < 1 || configIsNewer(*_config, theirs)) r.config = _config->toBSON();
            const bool theirConfigIsNewer = req.configVersion >= 1 && configIsNewer(theirs, *_config);
            for (size_t i = 0; i < _config->members.size() && i < _progress.size(); ++i) {
                if (_config->members[i].id != req.fromId) continue;
                _progress[i].lastHeartbeatRecvDate = Date_t::now();
                // A sender in a newer term than it had may have just been elected: learn its
                // state now rather than at our next heartbeat (drivers ask us who is primary).
                if (req.term > _progress[i].lastRequestTerm) beatBack = int(i);
                // A sender with a newer config (a reconfig on the primary): fetch it now, as
                // MongoDB does; until we have it the primary refuses our progress reports.
                if (theirConfigIsNewer) beatBack = int(i);
                _progress[i].lastRequestTerm = req.term;
            }
        }
    }
    if (beatBack >= 0) _links.heartbeatNow(beatBack);
    execute(actions);
    BSONObj reply = r.toBSON();
    for (BSONElement e : reply)
        if (e.fieldNameStringData() != "ok") result->append(e);
}

bool ReplicationCoordinator::observeRequestTerm(long long term) {
    if (!isReplSet()) return false;
    Actions actions;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config || term <= _term) return false;
        actions = _topo.observeTerm(nowMillis(), term);
        syncTermLocked();
    }
    LOGV2(21360, Replication, "A member's request carries a newer term", logv2::attrs("term", term));
    execute(actions);
    return true;
}

void ReplicationCoordinator::processRequestVotes(OperationContext* opCtx, const BSONObj& cmd, BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    VoteRequest req;
    req.setName = cmd["setName"].str();
    req.dryRun = cmd["dryRun"].trueValue();
    req.term = cmd["term"].numberLong();
    req.candidateIndex = cmd["candidateIndex"].numberInt();
    req.configVersion = cmd["configVersion"].numberLong();
    req.configTerm = cmd["configTerm"].isNumber() ? cmd["configTerm"].numberLong() : OpTime::kUninitializedTerm;
    if (cmd["lastAppliedOpTime"].type() == Object) {
        auto t = OpTime::parse(cmd["lastAppliedOpTime"].embeddedObject());
        uassertStatusOK(t.getStatus());
        req.lastApplied = t.getValue();
    }
    Topology::VoteResult res;
    std::string candidate;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
        res = _topo.processVoteRequest(nowMillis(), req);
        syncTermLocked();
        candidate = req.candidateIndex >= 0 && size_t(req.candidateIndex) < _config->members.size()
                        ? _config->members[size_t(req.candidateIndex)].host
                        : std::to_string(req.candidateIndex);
    }
    // The vote is on disk before the candidate learns of it.
    if (res.persistVote) persistTopologyTerm();
    execute(res.actions);
    LOGV2(21466, Election, "Received vote request",
          logv2::attrs("candidate", candidate, "term", req.term, "dryRun", req.dryRun, "voteGranted",
                       res.response.voteGranted, "reason", res.response.reason));
    result->append("term", res.response.term);
    result->append("voteGranted", res.response.voteGranted);
    result->append("reason", res.response.reason);
}

void ReplicationCoordinator::becomePrimary(OperationContext* opCtx, long long term) {
    size_t members;
    {
        std::lock_guard<std::mutex> election(_electionMutex);
        std::lock_guard<std::mutex> lk(_mutex);
        if (_topo.role() != Role::kLeader || _topo.term() != term) return;  // lost it meanwhile
        // Won while rolling back, or before an earlier rollback reached minValid (the votes were
        // asked while it was a consistent SECONDARY): its data is not the set's; it gives up.
        if (_state != MemberState::kSecondary || !_rollbackMinValid.isNull()) {
            LOGV2(7700218, Election, "Not assuming the primary role: this member's data is not consistent now",
                  logv2::attrs("term", term, "state", memberStateString(_state)));
            const Millis now = nowMillis();
            (void)_topo.stepDown(now, now);
            return;
        }
        int dataBearingOthers = 0;
        for (size_t i = 0; i < _config->members.size(); ++i)
            if (int(i) != _selfIndex && !_config->members[i].arbiterOnly) ++dataBearingOthers;
        if (_config->catchUpTimeoutMillis != 0 && dataBearingOthers > 0) {
            const Millis now = nowMillis();
            _catchUp = CatchUp();
            _catchUp.active = true;
            _catchUp.term = term;
            _catchUp.start = _catchUp.lastProgress = now;
            _catchUp.lastApplied = _lastApplied;
            _electionDate = Date_t::now();
            setStateLocked(MemberState::kPrimary, "won election: catching up");
            LOGV2(21359, Replication, "Entering primary catch-up mode", logv2::attrs("term", term));
            members = _progress.size();
        } else {
            members = 0;
        }
    }
    if (members == 0) return finishBecomingPrimary(opCtx, term);
    // Fresh optimes from every member: the catch-up target is the newest of them.
    for (size_t i = 0; i < members; ++i) _links.heartbeatNow(int(i));
}

void ReplicationCoordinator::finishBecomingPrimary(OperationContext* opCtx, long long term) {
    std::lock_guard<std::mutex> election(_electionMutex);
    finishBecomingPrimaryLocked(opCtx, term);
}

void ReplicationCoordinator::finishBecomingPrimaryLocked(OperationContext* opCtx, long long term) {
    try {
        takeWritesAsPrimary(opCtx, term);
    } catch (const DBException& e) {
        LOGV2_ERROR(7700217, Replication, "Could not take writes after winning the election; stepping down",
                    logv2::attrs("term", term, "error", e.toStatus().toString()));
        std::unique_lock<std::mutex> lk(_mutex);
        const Millis now = nowMillis();
        // Frozen for an election timeout: another member may win rather than this one again.
        if (_topo.role() == Role::kLeader && _topo.term() == term)
            (void)_topo.stepDown(now, now + (_config ? _config->electionTimeoutMillis : 10000));
        stepDownLocked(lk, "could not take writes after winning the election");
    }
}

void ReplicationCoordinator::takeWritesAsPrimary(OperationContext* opCtx, long long term) {
    // The applier stops before the node takes writes: what it fetched is applied, the rest
    // of the old primary's entries (if any) are not this term's. Without waiting for a fetch
    // in flight to an old primary that may hang (SIGSTOP): manageFetcher joins it later.
    _fetcher.stopApplying();
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_topo.role() != Role::kLeader || _topo.term() != term) return;  // lost it meanwhile
    }
    OpTime electionOpTime;
    {
        CatalogDDLLock lock;
        ReplSetConfig config;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            config = *_config;
        }
        persistTerm(opCtx, term, term, _selfIndex);
        config.term = term;  // as MongoDB: a new primary's config carries its term
        persistConfig(opCtx, config);
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _config->term = term;
            _topo.setConfigTerm(term);
            _term = std::max(_term, term);
        }
        LocalOplog::get()->setTerm(term);
        _writesAllowed = true;
        electionOpTime = writeNoop(opCtx, "new primary");
    }
    size_t members;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_topo.role() != Role::kLeader) {
            _writesAllowed = false;
            return;
        }
        members = _progress.size();
        _electionOpTime = electionOpTime;
        if (_state != MemberState::kPrimary) _electionDate = Date_t::now();
        setStateLocked(MemberState::kPrimary, "won election");
        bumpTopologyVersion();  // hello: writable now
        advanceCommitPointLocked();
    }
    // The new term's first entry made durable at once: a one-member set commits it (and shows
    // it as majority-committed) without waiting for the flusher's interval.
    flushJournal();
    // Others learn at once that there is a primary (and its config's new term).
    for (size_t i = 0; i < members; ++i) _links.heartbeatNow(int(i));
    LOGV2(21331, Replication, "Transition to primary complete; database writes are now permitted",
          logv2::attrs("term", term));
}

void ReplicationCoordinator::stepDownLocked(std::unique_lock<std::mutex>& lk, const std::string& reason) {
    _writesAllowed = false;
    if (_state != MemberState::kPrimary) return;
    LOGV2(21358, Replication, "Stepping down from primary", logv2::attrs("reason", reason, "term", _term));
    setStateLocked(MemberState::kSecondary, "step down");
    txn::TransactionReaper::get().wakeUp();  // the transactions in progress can never commit now
}

void ReplicationCoordinator::stepDown(OperationContext* opCtx, long long stepDownSecs, long long catchUpSecs, bool force) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    std::lock_guard<std::mutex> election(_electionMutex);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotWritablePrimary, "not primary so can't step down", _state == MemberState::kPrimary);
    }
    // Writes stop now; the secondaries get the chance to catch up.
    _writesAllowed = false;
    size_t members;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        members = _progress.size();
    }
    for (size_t i = 0; i < members; ++i) _links.heartbeatNow(int(i));
    const auto deadline = Clock::now() + std::chrono::seconds(catchUpSecs);
    std::unique_lock<std::mutex> lk(_mutex);
    while (!_topo.hasCaughtUpElectableSecondary(nowMillis()) && Clock::now() < deadline) {
        try {
            waitForProgressLocked(lk, opCtx);
        } catch (...) {
            if (_state == MemberState::kPrimary && !_catchUp.active) _writesAllowed = true;
            throw;
        }
    }
    if (!force && !_topo.hasCaughtUpElectableSecondary(nowMillis())) {
        if (_state == MemberState::kPrimary && !_catchUp.active) _writesAllowed = true;
        uasserted(ErrorCodes::ExceededTimeLimit,
                  "No electable secondaries caught up as of " + BSONObjBuilder().append("d", Date_t::now()).obj()["d"].toString(false) +
                      ". Please use the replSetStepDown command with the argument {force: true} to force node to "
                      "step down.");
    }
    const Millis now = nowMillis();
    const int candidate = _topo.electionHandoffCandidate(now);
    if (!_topo.stepDown(now, now + stepDownSecs * 1000).isOK()) return;  // already stepped down meanwhile
    stepDownLocked(lk, "replSetStepDown command");
    // Election handoff (as MongoDB since 4.0.2): the caught-up secondary is asked to stand at
    // once (replSetStepUp, no dry run) instead of the set waiting out an election timeout for a
    // primary. Best effort, on the candidate's heartbeat link (its connection, authenticated as
    // a member): if it fails, the ordinary election follows.
    if (candidate >= 0 && _config && size_t(candidate) < _config->members.size()) {
        std::string host = _config->members[candidate].host;
        LOGV2(21347, Replication, "Handing off election", logv2::attrs("target", host));
        BSONObjBuilder cmd;
        cmd.append("replSetStepUp", 1);
        cmd.append("skipDryRun", true);
        _links.send(candidate, cmd.obj(), [host](const MemberLinks::Reply& reply) {
            if (!reply.isOK())
                LOGV2(21348, Replication, "Election handoff failed", logv2::attrs("target", host, "error", reply.getStatus().reason()));
        });
    }
}

void ReplicationCoordinator::stepUp(OperationContext* opCtx) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    Actions actions;
    long long timeout;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
        if (_state == MemberState::kPrimary) return;
        auto sw = _topo.stepUp(nowMillis());
        uassertStatusOK(sw.getStatus());
        actions = sw.getValue();
        syncTermLocked();
        timeout = _config->electionTimeoutMillis;
    }
    execute(actions);
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout);
    std::unique_lock<std::mutex> lk(_mutex);
    while (_state != MemberState::kPrimary && Clock::now() < deadline) _progressCv.wait_for(lk, std::chrono::milliseconds(50));
    uassert(ErrorCodes::CommandFailed, "Election failed.", _state == MemberState::kPrimary);
}

void ReplicationCoordinator::freeze(long long secs, BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    std::lock_guard<std::mutex> lk(_mutex);
    uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
    const Millis now = nowMillis();
    uassertStatusOK(_topo.freeze(now, secs > 0 ? now + secs * 1000 : 0));
    if (secs == 0) {
        result->append("info", "unfreezing");
        LOGV2(21366, Replication, "'unfreezing'");
    } else {
        if (secs == 1) result->append("warning", "you really want to freeze for only 1 second?");
        LOGV2(21367, Replication, "'freezing' for seconds", logv2::attrs("seconds", secs));
    }
}

}  // namespace repl
}  // namespace mongo
