#pragma once
// ReplicationCoordinator: the node's replica-set state. Milestone 1 of issue 10: a set of one
// member (replica_set README). It holds the member state, the configuration (persisted in
// local.system.replset), the term (local.replset.election), the node's applied/durable
// optimes and the majority commit point (this node alone: its own applied optime, which
// also becomes WiredTiger's stable timestamp), and answers hello's replica-set fields,
// replSetGetStatus and replSetGetConfig in MongoDB 7.0's shape.
//
// Life cycle: startup() at process start when --replSet is given (installs the op observer;
// with a stored config the node takes a new term and becomes PRIMARY at once, writing a
// "new primary" no-op); initiate() forms the set (creates the oplog, writes the config,
// "initiating set" then, in term 1, "new primary").
// Thread safety: every method may be called from any thread. State lives under one mutex,
// never held while calling into storage; initiate/startup take the exclusive catalog lock.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/member_state.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/repl_config.h"

namespace mongo {

class KVEngine;

namespace repl {


struct ReplicationStartupOptions {
    std::string setName;                 // --replSet
    long long oplogSizeBytes = 0;        // the oplog created at initiate
    std::vector<std::string> selfHosts;  // "host:port" strings naming this node
    std::string defaultHost;             // the host of replSetInitiate's default config
    KVEngine* kv = nullptr;              // for the stable/oldest timestamps (may be null in tests)
};

class ReplicationCoordinator {
public:
    static ReplicationCoordinator* get();

    // --replSet given: the node is a member. Loads a stored config and, if there is one,
    // becomes PRIMARY in a new term. REQUIRES: the catalog is open; called once.
    void startup(OperationContext* opCtx, ReplicationStartupOptions options);

    bool isReplSet() const;
    // Writes to db may be accepted: not a member, the local database, or PRIMARY.
    bool canAcceptWritesForDatabase(const std::string& db) const;
    // NotWritablePrimary (10107) "not primary" unless canAcceptWritesForDatabase.
    void checkCanAcceptWrites(const std::string& db) const;

    // Reads of db's data may be served: not a member, the local database, PRIMARY, or
    // SECONDARY when the client allows it (secondaryOk: a $readPreference other than primary).
    // Otherwise NotPrimaryNoSecondaryOk (13435) without secondaryOk, NotPrimaryOrSecondary
    // (13436) with it (a member in STARTUP or REMOVED serves no reads), as MongoDB.
    void checkCanServeReads(const std::string& db, bool secondaryOk) const;

    // replSetInitiate. config: the document, or empty for the default one. Appends info2/me
    // for the default config. Throws DBException with MongoDB's codes.
    void initiate(OperationContext* opCtx, const BSONObj& config, BSONObjBuilder* result);

    // replSetReconfig {replSetReconfig: config, force}. Without force: only on the PRIMARY
    // (NotWritablePrimary), a higher version, at most one voter added or removed; the config
    // takes the current term. With force: on any member with a config; the version is raised
    // by a large random number and the term is -1, as MongoDB. Throws DBException.
    void reconfig(OperationContext* opCtx, const BSONObj& config, bool force, BSONObjBuilder* result);

    // What this node can run: a config naming other members needs heartbeats and the oplog
    // fetcher, which are not built yet (InvalidReplicaSetConfig saying so).
    static Status checkRunnableHere(const ReplSetConfig& config);

    // hello's role fields (the hello_cmd.h hook).
    void appendHelloFields(bool legacyNames, BSONObjBuilder* result) const;
    // replSetGetStatus / replSetGetConfig replies (NoReplicationEnabled / NotYetInitialized).
    void appendStatus(BSONObjBuilder* result) const;
    void appendConfig(bool commitmentStatus, BSONObjBuilder* result) const;
    // operationTime and $clusterTime, appended to every reply of an initiated member.
    void appendClusterTimeFields(BSONObjBuilder* result) const;

    // The oplog's commit listener: a unit of work that wrote entries up to opTime committed.
    void onOplogCommitted(const OpTime& opTime, Date_t wall);

    MemberState state() const;
    OpTime lastApplied() const;
    long long term() const;

private:
    void loadStoredState(OperationContext* opCtx);
    // In a new term: persists it, writes the "new primary" no-op, becomes PRIMARY.
    // REQUIRES: the exclusive catalog lock, a config.
    void becomePrimary(OperationContext* opCtx);
    void persistConfig(OperationContext* opCtx, const ReplSetConfig& config);
    void persistTerm(OperationContext* opCtx, long long term);
    OpTime writeNoop(OperationContext* opCtx, const char* msg);
    std::string selfHost() const;

    mutable std::mutex _mutex;
    ReplicationStartupOptions _options;
    // Read by every command (isReplSet), set once at startup: an atomic, not the mutex.
    std::atomic<bool> _isReplSet{false};
    std::unique_ptr<ReplSetConfig> _config;
    int _selfIndex = -1;
    MemberState _state = MemberState::kStartup;
    long long _term = OpTime::kUninitializedTerm;
    OpTime _lastApplied;
    Date_t _lastAppliedWall;
    OpTime _electionOpTime;
    Date_t _electionDate;
    Date_t _startDate;
};

}  // namespace repl
}  // namespace mongo
