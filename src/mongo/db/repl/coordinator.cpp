#include "mongo/db/repl/coordinator.h"

#include <random>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/hello_cmd.h"
#include "mongo/db/repl/logical_clock.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

const NamespaceString& configNss() {
    static const NamespaceString n = NamespaceString::parse("local.system.replset");
    return n;
}
const NamespaceString& electionNss() {
    static const NamespaceString n = NamespaceString::parse("local.replset.election");
    return n;
}

// protocol version 1's electionId: ObjectId 7fffffff followed by the term (8 bytes, big endian).
OID electionIdForTerm(long long term) {
    OID o;
    o.bytes[0] = 0x7f;
    o.bytes[1] = o.bytes[2] = o.bytes[3] = 0xff;
    for (int i = 0; i < 8; ++i) o.bytes[4 + i] = static_cast<unsigned char>((uint64_t(term) >> (8 * (7 - i))) & 0xff);
    return o;
}

// The only document of a local single-document collection (nullopt if none).
std::optional<Record> readSingleton(OperationContext* opCtx, const NamespaceString& nss) {
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!c) return std::nullopt;
    auto cursor = c->getCursor(opCtx, true);
    return cursor->next();
}

// Replaces (or inserts) the only document of nss. REQUIRES: the exclusive catalog lock.
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

void appendOpTimeAndWall(BSONObjBuilder* b, const char* opTimeName, const OpTime& t, const char* wallName, Date_t w) {
    b->append(opTimeName, t.toBSON());
    b->append(wallName, w);
}

}  // namespace

ReplicationCoordinator* ReplicationCoordinator::get() {
    static ReplicationCoordinator c;
    return &c;
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

std::string ReplicationCoordinator::selfHost() const {
    if (_config && _selfIndex >= 0) return _config->members[size_t(_selfIndex)].host;
    return _options.defaultHost;
}

bool ReplicationCoordinator::canAcceptWritesForDatabase(const std::string& db) const {
    if (!isReplSet() || db == "local") return true;  // no mutex for a standalone's commands
    std::lock_guard<std::mutex> lk(_mutex);
    return _state == MemberState::kPrimary;
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

void ReplicationCoordinator::startup(OperationContext* opCtx, ReplicationStartupOptions options) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _options = std::move(options);
        _startDate = Date_t::now();
        _isReplSet.store(true, std::memory_order_release);
    }
    OpObserver::set(std::make_unique<OpObserverImpl>());
    LocalOplog::get()->setCommitListener([this](const OpTime& t, Date_t w) { onOplogCommitted(t, w); });
    setHelloReplicationHook([this](OperationContext*, bool legacy, BSONObjBuilder& b) { appendHelloFields(legacy, &b); });
    CatalogDDLLock lock;
    loadStoredState(opCtx);
    bool haveConfig;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        haveConfig = _config != nullptr;
    }
    if (!haveConfig) {
        LOGV2(21313, Replication, "Did not find local replica set configuration document at startup",
              logv2::attrs("setName", _options.setName));
        return;
    }
    if (state() == MemberState::kRemoved) return;
    becomePrimary(opCtx);
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
    _lastApplied = lastOpTime;
    _lastAppliedWall = lastWall;
    if (electionDoc) _term = electionDoc->doc["term"].numberLong();
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
    _selfIndex = _config->findSelf(_options.selfHosts);
    if (_selfIndex < 0) {
        LOGV2_WARNING(21405, Replication, "Locally stored replica set configuration does not have a valid entry for the current node; waiting for reconfig or remote heartbeat",
                      logv2::attrs("config", configDoc->doc));
        _state = MemberState::kRemoved;
        return;
    }
    LocalOplog::get()->setEnabled(true);
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
    uassertStatusOK(checkRunnableHere(config));
    int self = config.findSelf(_options.selfHosts);
    uassert(ErrorCodes::NodeNotFound,
            "No host described in new configuration with {version: " + std::to_string(config.version) +
                ", term: " + std::to_string(config.term) + "} for replica set " + setName + " maps to this node",
            self >= 0);

    CatalogDDLLock lock;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::AlreadyInitialized, "already initialized", !_config);
    }
    LocalOplog::get()->create(opCtx, _options.oplogSizeBytes);
    config.term = 0;
    persistConfig(opCtx, config);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _config = std::make_unique<ReplSetConfig>(config);
        _selfIndex = self;
    }
    LocalOplog::get()->setEnabled(true);
    // As MongoDB: the first entry, before any term.
    LocalOplog::get()->setTerm(OpTime::kUninitializedTerm);
    writeNoop(opCtx, "initiating set");
    LOGV2(21357, Replication, "replSetInitiate config object parses ok", logv2::attrs("numMembers", 1LL));
    becomePrimary(opCtx);
}

Status ReplicationCoordinator::checkRunnableHere(const ReplSetConfig& config) {
    if (config.members.size() > 1)
        return Status(ErrorCodes::InvalidReplicaSetConfig,
                      "a replica set of more than one member is not supported by this server yet: heartbeats and "
                      "oplog fetching between members are not built (issue 10, milestone 2); the config is valid but "
                      "this node would never replicate to the other members");
    return Status::OK();
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
    const int self = config.findSelf(_options.selfHosts);
    uassert(ErrorCodes::NodeNotFound,
            "No host described in new configuration with {version: " + std::to_string(config.version) + ", term: " +
                std::to_string(force ? -1 : term) + "} for replica set " + setName + " maps to this node",
            self >= 0);
    uassertStatusOK(checkRunnableHere(config));
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
    CatalogDDLLock lock;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        // Another reconfig won the race: its version is what ours must now exceed.
        uassert(ErrorCodes::ConfigurationInProgress, "a concurrent replSetReconfig changed the configuration",
                _config->version == oldConfig.version && _config->term == oldConfig.term);
    }
    persistConfig(opCtx, config);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _config = std::make_unique<ReplSetConfig>(config);
        _selfIndex = self;
    }
    bumpTopologyVersion();
    LOGV2(21392, Replication, "New replica set config in use",
          logv2::attrs("config", config.toBSON(), "version", config.version, "term", config.term));
}

void ReplicationCoordinator::becomePrimary(OperationContext* opCtx) {
    long long newTerm;
    ReplSetConfig config;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        newTerm = std::max<long long>(_term, 0) + 1;
        config = *_config;
    }
    persistTerm(opCtx, newTerm);
    config.term = newTerm;
    persistConfig(opCtx, config);
    LocalOplog::get()->setTerm(newTerm);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _term = newTerm;
        _config->term = newTerm;
    }
    // The one-member set elects itself at once: its own vote is the majority.
    OpTime electionOpTime = writeNoop(opCtx, "new primary");
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _state = MemberState::kPrimary;
        _electionOpTime = electionOpTime;
        _electionDate = Date_t::now();
    }
    bumpTopologyVersion();
    LOGV2(21331, Replication, "Transition to primary complete; database writes are now permitted",
          logv2::attrs("term", newTerm));
}

void ReplicationCoordinator::persistConfig(OperationContext* opCtx, const ReplSetConfig& config) {
    writeSingleton(opCtx, configNss(), config.toBSON());
}

void ReplicationCoordinator::persistTerm(OperationContext* opCtx, long long term) {
    BSONObjBuilder b;
    b.append("_id", "electionTerm");
    b.append("term", term);
    b.append("candidateIndex", static_cast<long long>(_selfIndex));
    writeSingleton(opCtx, electionNss(), b.obj());
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
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!(_lastApplied.getTimestamp() < opTime.getTimestamp())) return;  // unchanged: no engine call
        _lastApplied = opTime;
        _lastAppliedWall = wall;
        kv = _options.kv;
    }
    // Majority = this node: what it applied is majority-committed, so WiredTiger's stable
    // timestamp follows it (and nothing needs history older than that yet).
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
    const std::string me = _config->members[size_t(_selfIndex)].host;
    BSONArrayBuilder hosts;
    for (const auto& m : _config->members)
        if (!m.arbiterOnly && !m.hidden && m.priority > 0) hosts.append(m.host);
    b->appendArray("hosts", hosts.arr());
    b->append("setName", _config->setName);
    b->append("setVersion", static_cast<int>(_config->version));
    const bool primary = _state == MemberState::kPrimary;
    b->append(primaryField, primary);
    b->append("secondary", _state == MemberState::kSecondary);
    if (primary) b->append("primary", me);
    b->append("me", me);
    if (primary) b->append("electionId", electionIdForTerm(_term));
    BSONObjBuilder lw;
    lw.append("opTime", _lastApplied.toBSON());
    lw.append("lastWriteDate", _lastAppliedWall);
    lw.append("majorityOpTime", _lastApplied.toBSON());
    lw.append("majorityWriteDate", _lastAppliedWall);
    b->append("lastWrite", lw.obj());
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
    const int myState = static_cast<int>(_state);
    b->append("set", _config->setName);
    b->append("date", now);
    b->append("myState", myState);
    b->append("term", _term);
    b->append("syncSourceHost", "");
    b->append("syncSourceId", -1);
    b->append("heartbeatIntervalMillis", _config->heartbeatIntervalMillis);
    b->append("majorityVoteCount", 1);
    b->append("writeMajorityCount", 1);
    b->append("votingMembersCount", 1);
    b->append("writableVotingMembersCount", 1);
    BSONObjBuilder ot;
    appendOpTimeAndWall(&ot, "lastCommittedOpTime", _lastApplied, "lastCommittedWallTime", _lastAppliedWall);
    ot.append("readConcernMajorityOpTime", _lastApplied.toBSON());
    ot.append("appliedOpTime", _lastApplied.toBSON());
    ot.append("durableOpTime", _lastApplied.toBSON());
    ot.append("lastAppliedWallTime", _lastAppliedWall);
    ot.append("lastDurableWallTime", _lastAppliedWall);
    b->append("optimes", ot.obj());
    b->append("lastStableRecoveryTimestamp", Timestamp::fromULL(stable));
    if (_state == MemberState::kPrimary) {
        BSONObjBuilder em;
        em.append("lastElectionReason", "electionTimeout");
        em.append("lastElectionDate", _electionDate);
        em.append("electionTerm", _term);
        em.append("lastCommittedOpTimeAtElection", OpTime().toBSON());
        em.append("lastSeenOpTimeAtElection", _electionOpTime.toBSON());
        em.append("numVotesNeeded", 1);
        em.append("priorityAtElection", _config->members[size_t(_selfIndex)].priority);
        em.append("electionTimeoutMillis", _config->electionTimeoutMillis);
        em.append("newTermStartDate", _electionDate);
        em.append("wMajorityWriteAvailabilityDate", _electionDate);
        b->append("electionCandidateMetrics", em.obj());
    }
    BSONArrayBuilder members;
    for (size_t i = 0; i < _config->members.size(); ++i) {
        const MemberConfig& m = _config->members[i];
        BSONObjBuilder& o = members.subobjStart();
        o.append("_id", m.id);
        o.append("name", m.host);
        o.append("health", 1.0);
        o.append("state", myState);
        o.append("stateStr", memberStateString(_state));
        o.append("uptime", static_cast<int>((now.millis - _startDate.millis) / 1000));
        o.append("optime", _lastApplied.toBSON());
        o.append("optimeDate", Date_t::fromMillis(int64_t(_lastApplied.getTimestamp().secs) * 1000));
        o.append("lastAppliedWallTime", _lastAppliedWall);
        o.append("lastDurableWallTime", _lastAppliedWall);
        o.append("syncSourceHost", "");
        o.append("syncSourceId", -1);
        o.append("infoMessage", "");
        if (_state == MemberState::kPrimary) {
            o.append("electionTime", _electionOpTime.getTimestamp());
            o.append("electionDate", _electionDate);
        }
        o.append("configVersion", static_cast<int>(_config->version));
        o.append("configTerm", static_cast<int>(_config->term));
        o.append("self", true);
        o.append("lastHeartbeatMessage", "");
        o.doneFast();
    }
    b->appendArray("members", members.arr());
}

void ReplicationCoordinator::appendConfig(bool commitmentStatus, BSONObjBuilder* b) const {
    std::lock_guard<std::mutex> lk(_mutex);
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", _isReplSet);
    uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
    b->append("config", _config->toBSON());
    // A one-member set's config is committed as soon as it is written.
    if (commitmentStatus) b->append("commitmentStatus", true);
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
