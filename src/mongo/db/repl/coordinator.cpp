// The coordinator's life cycle and configuration: startup, replSetInitiate, replSetReconfig,
// configs learnt from heartbeats, what is persisted in local. Elections and heartbeats are in
// coordinator_elections.cpp, replication progress and write concern in coordinator_sync.cpp,
// the hello/replSetGetStatus replies in coordinator_status.cpp.
#include "mongo/db/repl/coordinator.h"

#include <random>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/hello_cmd.h"
#include "mongo/db/repl/coordinator_internal.h"
#include "mongo/db/repl/is_self.h"
#include "mongo/db/repl/logical_clock.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

const NamespaceString& configNss() {
    static const NamespaceString n = NamespaceString::parse("local.system.replset");
    return n;
}
const NamespaceString& electionNss() {
    static const NamespaceString n = NamespaceString::parse("local.replset.election");
    return n;
}

std::optional<Record> readSingleton(OperationContext* opCtx, const NamespaceString& nss) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!c) return std::nullopt;
    auto cursor = c->getCursor(opCtx, true);
    return cursor->next();
}

void writeSingleton(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& doc) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!c) c = CollectionCatalog::get()->createCollection(opCtx, nss, CollectionOptions());
    auto old = readSingleton(opCtx, nss);
    WriteUnitOfWork wuow(opCtx);
    if (old)
        c->updateDocument(opCtx, old->id, old->doc, doc);
    else
        c->insertDocument(opCtx, doc);
    wuow.commit();
}

bool configIsNewer(const ReplSetConfig& a, const ReplSetConfig& b) {
    // As MongoDB: by term then version; a forced config (term -1) compares by version alone.
    if (a.term == OpTime::kUninitializedTerm || b.term == OpTime::kUninitializedTerm) return a.version > b.version;
    if (a.term != b.term) return a.term > b.term;
    return a.version > b.version;
}

ReplicationCoordinator* ReplicationCoordinator::get() {
    static ReplicationCoordinator* c = new ReplicationCoordinator();  // never destroyed: threads may outlive main
    return c;
}

bool ReplicationCoordinator::isReplSet() const {
    return _isReplSet.load(std::memory_order_acquire);
}

MemberState ReplicationCoordinator::state() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _state;
}

OpTime ReplicationCoordinator::lastApplied() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _lastApplied;
}

long long ReplicationCoordinator::term() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _term;
}

Millis ReplicationCoordinator::nowMillis() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - _clockBase).count() + 1;
}

std::string ReplicationCoordinator::selfHost() const {
    if (_config && _selfIndex >= 0) return _config->members[size_t(_selfIndex)].host;
    return _options.defaultHost;
}

bool ReplicationCoordinator::canAcceptWritesForDatabase(const std::string& db) const {
    if (!isReplSet() || db == "local") return true;  // no mutex for a standalone's commands
    std::lock_guard<std::mutex> lk(_mutex);
    return _state == MemberState::kPrimary && !_catchUp.active;
}

void ReplicationCoordinator::checkCanAcceptWrites(const std::string& db) const {
    uassert(ErrorCodes::NotWritablePrimary, "not primary", canAcceptWritesForDatabase(db));
}

void ReplicationCoordinator::checkCanServeReads(const std::string& db, bool secondaryOk) const {
    if (!isReplSet() || db == "local") return;
    MemberState state;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_state == MemberState::kPrimary) return;
        state = _state;
    }
    uassert(ErrorCodes::NotPrimaryNoSecondaryOk, "not primary and secondaryOk=false", secondaryOk);
    uassert(ErrorCodes::NotPrimaryOrSecondary, "node is not in primary or recovering state",
            state == MemberState::kSecondary);
}

void ReplicationCoordinator::setStateLocked(MemberState s, const char* why) {
    if (_state == s) return;
    LOGV2(21215, Replication, "Member state changed",
          logv2::attrs("oldState", memberStateString(_state), "newState", memberStateString(s), "reason", why));
    if (_state == MemberState::kPrimary && _catchUp.active) {
        // Left PRIMARY (step-down, removal) while catching up: nothing more to catch up for.
        LOGV2(21363, Replication, "Exited primary catch-up mode", logv2::attrs("reason", std::string("left PRIMARY: ") + why));
        _catchUp.active = false;
    }
    _state = s;
    _topo.setFollowerState(s == MemberState::kPrimary ? MemberState::kSecondary : s);
    bumpTopologyVersion();
    _progressCv.notify_all();
    _commitPointWaiters.wakeAll();
}

void ReplicationCoordinator::startup(OperationContext* opCtx, ReplicationStartupOptions options) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _options = std::move(options);
        _startDate = Date_t::now();
        _rbid = 1 + int(std::random_device{}() % 1000000);
        _isReplSet.store(true, std::memory_order_release);
    }
    OpObserver::set(std::make_unique<OpObserverImpl>());
    LocalOplog::get()->setCommitListener([this](const OpTime& t, Date_t w) { onOplogCommitted(t, w); });
    LocalOplog::get()->setWriteGate([this] {
        uassert(ErrorCodes::NotWritablePrimary, "not primary", _writesAllowed.load());
    });
    setHelloReplicationHook([this](OperationContext*, bool legacy, BSONObjBuilder& b) { appendHelloFields(legacy, &b); });
    loadStoredState(opCtx);
    // isync: an initial sync that did not finish left data that is not the set's: the member
    // starts over (STARTUP2, initial sync) instead of trusting it.
    if (InitialSyncer::flagIsSet(opCtx)) {
        LOGV2(21212, Replication, "Initial sync flag set: the last initial sync did not finish; starting it over");
        std::lock_guard<std::mutex> lk(_mutex);
        resetAppliedLocked(OpTime(), Date_t());
    }
    Actions actions;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config) {
            LOGV2(21313, Replication, "Did not find local replica set configuration document at startup",
                  logv2::attrs("setName", _options.setName));
        } else if (_state != MemberState::kRemoved) {
            const MemberConfig& me = _config->members[size_t(_selfIndex)];
            setStateLocked(me.arbiterOnly ? MemberState::kArbiter
                                          : _lastApplied.isNull() ? MemberState::kStartup2 : MemberState::kSecondary,
                           "startup");
            configChangedLocked(nowMillis());
            // A one-voter set elects itself at once (no one to wait for).
            if (_config->votingMembers() == 1) actions = _topo.tick(nowMillis());
        }
    }
    execute(actions);
    startThreads();
}

void ReplicationCoordinator::loadStoredState(OperationContext* opCtx) {
    auto [lastOpTime, lastWall] = LocalOplog::get()->readLast(opCtx);
    // The clock must hand out timestamps past everything in the oplog (and past what
    // WiredTiger recovered to), whatever the wall clock says now.
    LogicalClock::get()->advanceClusterTime(lastOpTime.getTimestamp());
    if (_options.kv) LogicalClock::get()->advanceClusterTime(Timestamp::fromULL(_options.kv->recoveryTimestamp()));
    auto configDoc = readSingleton(opCtx, configNss());
    auto electionDoc = readSingleton(opCtx, electionNss());
    std::lock_guard<std::mutex> lk(_mutex);
    resetAppliedLocked(lastOpTime, lastWall);
    if (electionDoc) {
        _term = electionDoc->doc["term"].numberLong();
        const int candidate = electionDoc->doc["candidateIndex"].numberInt();
        _lastVoteTerm = candidate >= 0 ? _term : OpTime::kUninitializedTerm;
        _lastVoteCandidate = candidate;
    }
    // The newest term the node knows: its last vote's or its last entry's.
    _term = std::max(_term, lastOpTime.getTerm());
    if (!configDoc) return;
    auto sw = ReplSetConfig::parse(configDoc->doc, _options.setName);
    if (!sw.isOK()) {
        // A config of another set name, or one this server cannot run: not a member.
        LOGV2_ERROR(21414, Replication, "Locally stored replica set configuration is invalid",
                    logv2::attrs("config", configDoc->doc, "error", sw.getStatus().toString()));
        _state = MemberState::kRemoved;
        return;
    }
    _config = std::make_unique<ReplSetConfig>(sw.getValue());
    _config->term = configDoc->doc["term"].isNumber() ? configDoc->doc["term"].numberLong() : _config->term;
    _selfIndex = findSelfInConfig(*_config, _options.selfHosts, /*allowNetwork=*/false);
    if (_selfIndex < 0) {
        LOGV2_WARNING(21405, Replication, "Locally stored replica set configuration does not have a valid entry for the current node; waiting for reconfig or remote heartbeat",
                      logv2::attrs("config", configDoc->doc));
        _state = MemberState::kRemoved;
        return;
    }
    LocalOplog::get()->setEnabled(true);
    LocalOplog::get()->setTerm(_term);
}

void ReplicationCoordinator::initiate(OperationContext* opCtx, const BSONObj& configObj, BSONObjBuilder* result) {
    std::string setName;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NoReplicationEnabled, "This node was not started with replication enabled.", _isReplSet);
        uassert(ErrorCodes::AlreadyInitialized, "already initialized", !_config && _state != MemberState::kRemoved);
        setName = _options.setName;
    }
    ReplSetConfig config;
    if (configObj.isEmpty()) {
        config = ReplSetConfig::makeDefault(setName, _options.defaultHost);
        result->append("info2", "no configuration specified. Using a default configuration for the set");
        result->append("me", _options.defaultHost);
        LOGV2(21356, Replication, "replSetInitiate admin command received from client; no configuration specified. Using a default configuration for the set",
              logv2::attrs("config", config.toBSON()));
    } else {
        auto sw = ReplSetConfig::parse(configObj, setName);
        uassertStatusOK(sw.getStatus());
        config = sw.getValue();
    }
    const int self = findSelfInConfig(config, _options.selfHosts);
    uassert(ErrorCodes::NodeNotFound,
            "No host described in new configuration with {version: " + std::to_string(config.version) +
                ", term: " + std::to_string(config.term) + "} for replica set " + setName + " maps to this node",
            self >= 0);
    uassert(ErrorCodes::InvalidReplicaSetConfig, "the node running replSetInitiate must not be an arbiter",
            !config.members[size_t(self)].arbiterOnly);
    config.term = 0;
    // Quorum check, as MongoDB: every member must answer a heartbeat and have no config yet.
    std::string failures;
    for (size_t i = 0; i < config.members.size(); ++i) {
        if (int(i) == self) continue;
        HeartbeatRequest hb;
        hb.setName = setName;
        hb.configVersion = config.version;
        hb.configTerm = config.term;
        hb.from = config.members[size_t(self)].host;
        hb.fromId = config.members[size_t(self)].id;
        hb.term = 0;
        RemoteClient client(config.members[i].host, 5000);
        auto reply = client.runCommand("admin", hb.toBSON());
        std::string why;
        if (!reply.isOK())
            why = reply.getStatus().toString();
        else if (reply.getValue()["configVersion"].numberLong() >= 1)
            why = "it already has a replica set configuration";
        if (!why.empty()) failures += (failures.empty() ? "" : "; ") + config.members[i].host + " failed with " + why;
    }
    uassert(ErrorCodes::NodeNotFound,
            "replSetInitiate quorum check failed because not all proposed set members responded affirmatively: " + failures,
            failures.empty());
    LOGV2(21357, Replication, "replSetInitiate config object parses ok",
          logv2::attrs("numMembers", static_cast<long long>(config.members.size())));
    {
        CatalogDDLLock lock;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            uassert(ErrorCodes::AlreadyInitialized, "already initialized", !_config);
        }
        LocalOplog::get()->create(opCtx, _options.oplogSizeBytes);
        persistConfig(opCtx, config);
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _config = std::make_unique<ReplSetConfig>(config);
            _selfIndex = self;
        }
        LocalOplog::get()->setEnabled(true);
        // As MongoDB: the first entry, before any term.
        LocalOplog::get()->setTerm(OpTime::kUninitializedTerm);
        _writesAllowed = true;
        writeNoop(opCtx, "initiating set");
        _writesAllowed = false;
    }
    Actions actions;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        setStateLocked(MemberState::kSecondary, "replSetInitiate");
        configChangedLocked(nowMillis());
        if (config.votingMembers() == 1) actions = _topo.tick(nowMillis());
    }
    execute(actions);
}

void ReplicationCoordinator::reconfig(OperationContext* opCtx, const BSONObj& configObj, bool force,
                                      BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "This node was not started with replication enabled.", isReplSet());
    ReplSetConfig oldConfig;
    std::string setName;
    long long term;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
        uassert(ErrorCodes::NotWritablePrimary,
                std::string("replSetReconfig should only be run on a writable PRIMARY. Current state ") +
                    memberStateString(_state) + ";",
                force || _state == MemberState::kPrimary);
        oldConfig = *_config;
        setName = _options.setName;
        term = _term;
    }
    LOGV2(21353, Replication, "replSetReconfig admin command received from client",
          logv2::attrs("newConfig", configObj, "force", force));
    auto sw = ReplSetConfig::parse(configObj, setName, "reconfigure");
    uassertStatusOK(sw.getStatus());
    ReplSetConfig config = sw.getValue();
    if (!config.replicaSetIdGiven) config.replicaSetId = oldConfig.replicaSetId;
    uassertStatusOK(ReplSetConfig::checkReconfig(oldConfig, config, force));
    const int self = findSelfInConfig(config, _options.selfHosts);
    uassert(ErrorCodes::NodeNotFound,
            "No host described in new configuration with {version: " + std::to_string(config.version) + ", term: " +
                std::to_string(force ? -1 : term) + "} for replica set " + setName + " maps to this node",
            self >= 0);
    if (force) {
        // As MongoDB: a forced config jumps ahead by a large random amount (so that configs
        // forced on different members concurrently are unlikely to share a version) and has
        // no term, so any config written by a primary later supersedes it.
        static std::mt19937_64 rng(std::random_device{}());
        config.version = std::max(config.version, oldConfig.version) + 10000 + static_cast<long long>(rng() % 90000);
        config.term = OpTime::kUninitializedTerm;
    } else {
        config.term = term;
    }
    {
        CatalogDDLLock lock;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            // Another reconfig won the race: its version is what ours must now exceed.
            uassert(ErrorCodes::ConfigurationInProgress, "a concurrent replSetReconfig changed the configuration",
                    _config->version == oldConfig.version && _config->term == oldConfig.term);
        }
        persistConfig(opCtx, config);
    }
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _config = std::make_unique<ReplSetConfig>(config);
        _selfIndex = self;
        configChangedLocked(nowMillis());
    }
    bumpTopologyVersion();
    LOGV2(21392, Replication, "New replica set config in use",
          logv2::attrs("config", config.toBSON(), "version", config.version, "term", config.term));
}

void ReplicationCoordinator::installConfigFromHeartbeat(const BSONObj& doc) {
    auto sw = ReplSetConfig::parse(doc, _options.setName, "reconfigure");
    if (!sw.isOK()) {
        LOGV2_WARNING(21490, Replication, "Not installing a config received in a heartbeat: it is invalid",
                      logv2::attrs("config", doc, "error", sw.getStatus().toString()));
        return;
    }
    ReplSetConfig config = sw.getValue();
    config.term = doc["term"].isNumber() ? doc["term"].numberLong() : config.term;
    const int self = findSelfInConfig(config, _options.selfHosts);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        // The same config is taken again when it now names this node and did not before
        // (found through a proxy once the node listens: retryFindSelfInStoredConfig).
        if (_config && !configIsNewer(config, *_config) && !(self >= 0 && _selfIndex < 0)) return;
    }
    auto opCtx = makeOperationContext(internalClient());
    {
        CatalogDDLLock lock;
        LocalOplog::get()->create(opCtx.get(), _options.oplogSizeBytes);
        persistConfig(opCtx.get(), config);
    }
    LocalOplog::get()->setEnabled(true);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        const bool first = !_config;
        _config = std::make_unique<ReplSetConfig>(config);
        _selfIndex = self;
        if (self < 0) {
            setStateLocked(MemberState::kRemoved, "not in the config received in a heartbeat");
        } else if (first || _state == MemberState::kRemoved || _state == MemberState::kStartup) {
            // isync: a member removed and added back in the middle of an initial sync resumes it.
            setStateLocked(config.members[size_t(self)].arbiterOnly
                               ? MemberState::kArbiter
                               : _lastApplied.isNull() || _initialSyncActive ? MemberState::kStartup2
                               : !_rollbackMinValid.isNull() || _rollbackUndoing ? MemberState::kRecovering
                                                                              : MemberState::kSecondary,
                           "config received in a heartbeat");
        }
        if (self >= 0) configChangedLocked(nowMillis());
    }
    bumpTopologyVersion();
    LOGV2(21392, Replication, "New replica set config in use",
          logv2::attrs("config", config.toBSON(), "version", config.version, "term", config.term));
}

void ReplicationCoordinator::retryFindSelfInStoredConfig() {
    BSONObj doc;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config || _selfIndex >= 0 || _state != MemberState::kRemoved) return;
        const long long now = nowMillis();
        if (now < _nextFindSelfMillis) return;
        _nextFindSelfMillis = now + 1000;
        doc = _config->toBSON();
    }
    installConfigFromHeartbeat(doc);
}

void ReplicationCoordinator::persistConfig(OperationContext* opCtx, const ReplSetConfig& config) {
    writeSingleton(opCtx, configNss(), config.toBSON());
}

void ReplicationCoordinator::persistTerm(OperationContext* opCtx, long long term, long long voteTerm, int voteCandidate) {
    BSONObjBuilder b;
    b.append("_id", "electionTerm");
    b.append("term", term);
    // The vote cast in this term (-1: none yet): a restarted node must not vote twice in it.
    b.append("candidateIndex", static_cast<long long>(voteTerm == term ? voteCandidate : -1));
    writeSingleton(opCtx, electionNss(), b.obj());
}

void ReplicationCoordinator::persistTopologyTerm() {
    long long term, voteTerm;
    int candidate;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        term = _topo.term();
        voteTerm = _topo.lastVoteTerm();
        candidate = _topo.lastVoteCandidate();
    }
    auto opCtx = makeOperationContext(internalClient());
    CatalogDDLLock lock;
    persistTerm(opCtx.get(), term, voteTerm, candidate);
}

OpTime ReplicationCoordinator::writeNoop(OperationContext* opCtx, const char* msg) {
    OplogEntry e;
    e.op = OpTypeEnum::kNoop;
    e.ns = "";
    BSONObjBuilder o;
    o.append("msg", msg);
    e.o = o.obj();
    WriteUnitOfWork wuow(opCtx);
    OpTime t = LocalOplog::get()->append(opCtx, &e);
    wuow.commit();
    return t;
}

void ReplicationCoordinator::onOplogCommitted(const OpTime& opTime, Date_t wall) {
    KVEngine* kv;
    bool notify;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!(_lastApplied.getTimestamp() < opTime.getTimestamp())) return;  // unchanged: no engine call
        _lastApplied = opTime;
        _lastAppliedWall = wall;
        _topo.setMyLastApplied(opTime);
        advanceCommitPointLocked();
        kv = _options.kv;
        // Waits on this member's own applied optime are a non-primary's (afterClusterTime); on
        // the primary every commit would wake each writer waiting for replication, for nothing.
        notify = _state != MemberState::kPrimary;
        // A primary that is its own majority commits only through its own journal flushes: the
        // flusher runs now rather than at its interval, so that majority reads and change
        // streams of a one-member set see a w: 1 write at once, as they did.
        if (_state == MemberState::kPrimary && _config && _config->writeMajorityCount() == 1)
            _journalFlusher.request();
    }
    if (notify) _progressCv.notify_all();
    // The stable timestamp follows what this node applied: every table is still logged, so
    // WiredTiger ignores timestamps (README), and nothing needs history older than that yet.
    // This runs after the write committed: a failure here must not turn an applied write
    // into an error reply, so it is logged (the next commit tries again).
    if (kv) {
        uint64_t ts = opTime.getTimestamp().asULL();
        try {
            kv->setStableAndOldestTimestamp(ts);
        } catch (const DBException& e) {
            LOGV2_WARNING(21411, Replication, "Could not advance the stable timestamp",
                          logv2::attrs("timestamp", opTime.getTimestamp(), "error", e.toStatus().toString()));
        }
    }
}

}  // namespace repl
}  // namespace mongo
