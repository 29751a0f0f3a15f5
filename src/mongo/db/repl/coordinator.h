#pragma once
// ReplicationCoordinator: the node's replica-set state (replica_set README). It holds the
// member state, the configuration (persisted in local.system.replset), the term and last vote
// (local.replset.election), every member's applied/durable optimes, the majority commit point,
// and answers hello's replica-set fields, replSetGetStatus and replSetGetConfig in MongoDB
// 7.0's shape.
//
// The election logic is topology.h (pure); this class feeds it and carries out its actions:
// heartbeats and vote requests go through MemberLinks (heartbeat.h), a secondary replicates
// through OplogFetcher + OplogApplier, and a background thread ("ReplCoord") ticks the
// topology, installs configs learnt from heartbeats and (re)starts the fetcher.
//
// Life cycle: startup() at process start when --replSet is given (installs the op observer;
// a stored one-voter config makes the node PRIMARY at once in a new term; a bigger set starts
// as SECONDARY and elects); initiate() forms the set; shutdown() stops the threads.
// Thread safety: every method may be called from any thread. State lives under one mutex,
// never held while calling into storage or the network.
#include <atomic>
#include <chrono>
#include <optional>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/member_state.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/heartbeat.h"
#include "mongo/db/repl/initial_sync.h"
#include "mongo/db/repl/journal_flusher.h"
#include "mongo/db/repl/oplog_fetcher.h"
#include "mongo/db/repl/optime_waiters.h"
#include "mongo/db/repl/repl_config.h"
#include "mongo/db/repl/sync_source.h"
#include "mongo/db/repl/topology.h"

namespace mongo {

class KVEngine;

namespace repl {


struct ReplicationStartupOptions {
    std::string setName;                 // --replSet
    long long oplogSizeBytes = 0;        // the oplog created at initiate
    std::vector<std::string> selfHosts;  // "host:port" strings naming this node
    std::string defaultHost;             // the host of replSetInitiate's default config
    KVEngine* kv = nullptr;              // for the stable/oldest timestamps (may be null in tests)
    std::string dbpath;                  // where rollback files go (<dbpath>/rollback)
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

    // hello's role fields (the hello_cmd.h hook).
    void appendHelloFields(bool legacyNames, BSONObjBuilder* result) const;
    // replSetGetStatus / replSetGetConfig replies (NoReplicationEnabled / NotYetInitialized).
    void appendStatus(BSONObjBuilder* result) const;
    void appendConfig(bool commitmentStatus, BSONObjBuilder* result) const;
    // operationTime and $clusterTime, appended to every reply of an initiated member.
    void appendClusterTimeFields(BSONObjBuilder* result) const;

    // The oplog's commit listener: a unit of work that wrote entries up to opTime committed.
    void onOplogCommitted(const OpTime& opTime, Date_t wall);

    // Stops the background, heartbeat and fetcher threads (process shutdown).
    void shutdown();

    // Member-to-member commands (commands/repl_set_cmds.cpp).
    void processHeartbeat(const BSONObj& cmd, BSONObjBuilder* result);
    void processRequestVotes(OperationContext* opCtx, const BSONObj& cmd, BSONObjBuilder* result);
    void processUpdatePosition(const BSONObj& cmd, BSONObjBuilder* result);
    // A member's request carried its term (the fetcher's find/getMore on the oplog,
    // replSetUpdatePosition): a newer one than ours is adopted at once, and a primary of an
    // older term steps down before it serves or counts anything of the sender (Raft: any
    // request from a newer term). Without it, a primary paused through an election and
    // resumed could count a newer-term secondary that fetched its old-term writes towards a
    // majority the new primary never sees. Returns true when the term was newer.
    bool observeRequestTerm(long long term);
    // replSetStepDown {stepDownSecs, secondaryCatchUpPeriodSecs, force}.
    void stepDown(OperationContext* opCtx, long long stepDownSecs, long long catchUpSecs, bool force);
    void stepUp(OperationContext* opCtx);
    // replSetAbortPrimaryCatchUp: a new primary catching up takes writes now (NotWritablePrimary
    // on a member that is not primary; nothing to do on one that is not catching up).
    void abortPrimaryCatchUp();
    void freeze(long long secs, BSONObjBuilder* result);
    int rbid() const { return _rbid.load(); }

    // Write concern (after a write command ran): waits until the command's writes satisfy
    // wc's w (a number of data-bearing members, or "majority") within wtimeout; returns the
    // writeConcernError document (empty when satisfied). opTime: the newest entry the command
    // wrote (null: it wrote none; then the newest entry this node has).
    // fromDefault: the command gave none and writeConcern is the cluster's default (empty: the
    // implicit w: "majority"); only the provenance reported in errors depends on it.
    BSONObj awaitWriteConcern(OperationContext* opCtx, const BSONObj& writeConcern, OpTime opTime,
                              bool fromDefault = false);
    // Data-bearing members of the config (w may not exceed it; 1 when not a set).
    int dataBearingMembers() const;
    // readConcern {level: majority | snapshot | linearizable} cannot be served correctly on a
    // set of more than one member yet (tables ignore timestamps): ReadConcernMajorityNotEnabled.
    // {afterClusterTime: ts} (causally consistent sessions) waits until this node applied ts,
    // so a secondary never answers a session's read from before the session's own writes.
    // readConcern majority and linearizable are served on sets of any size: the command reads
    // the newest data and its reply waits (awaitReadDurable) until what it read is
    // majority-committed. linearizable: on the primary only (NotWritablePrimary elsewhere).
    // snapshot: refused on sets of more than one member (ReadConcernMajorityNotEnabled 148).
    // useDefault: a command without readConcern takes the cluster's default (setDefaultRWConcern).
    void waitForReadConcern(OperationContext* opCtx, const BSONObj& cmd, bool useDefault = true);
    // After a read with opCtx->readsMajorityCommitted: waits (interruptibly: maxTimeMS) until
    // the majority commit point reaches the newest oplog entry when the read ended, so no
    // document returned can be rolled back (this node's tables keep no history, so it cannot
    // read at the commit point as MongoDB does; it reads the newest data and waits instead).
    // A rollback of this node since rbidBeforeRead (its RBID when the command began) fails the
    // read (InterruptedDueToReplStateChange).
    // linearizable: first writes a no-op in this primary's term and waits for it (MongoDB's
    // way: no newer primary took writes the read missed). Throws on step-down or shutdown.
    void awaitReadDurable(OperationContext* opCtx, bool linearizable, int rbidBeforeRead);
    // $replData of a reply to a member's oplog find/getMore (the request carried a term): our
    // term and commit point, so the fetching member learns the commit point with every batch
    // (majority reads on secondaries) rather than at the next heartbeat.
    void appendReplData(BSONObjBuilder* result) const;

    MemberState state() const;
    OpTime lastApplied() const;
    // The majority commit point as this member knows it (change streams show entries up to it).
    OpTime majorityCommitPoint() const;
    long long term() const;

    // --- isync: replSetSyncFrom (coordinator_initial_sync.cpp)
    // replSetSyncFrom {replSetSyncFrom: host}: MongoDB's checks and reply (syncFromRequested,
    // prevSyncTarget, warning); the fetcher (or a running initial sync) moves to host.
    void syncFrom(const std::string& host, BSONObjBuilder* result);
    // --- end isync

private:
    using Clock = std::chrono::steady_clock;
    Millis nowMillis() const;
    void loadStoredState(OperationContext* opCtx);
    // Term `term` was won: writes the "new primary" no-op in it and becomes PRIMARY.
    // Won the election for term: PRIMARY, catching up first (coordinator_catchup.cpp) unless
    // catchUpTimeoutMillis is 0 or no other member holds data; then finishBecomingPrimary.
    void becomePrimary(OperationContext* opCtx, long long term);
    // The applier stops, the term and config are persisted, the new term's no-op is written and
    // writes are taken.
    void finishBecomingPrimary(OperationContext* opCtx, long long term);
    // The same, REQUIRES: _electionMutex held by the caller. If it fails, the node gives up its
    // leadership (a PRIMARY that cannot take writes helps no one).
    void finishBecomingPrimaryLocked(OperationContext* opCtx, long long term);
    void takeWritesAsPrimary(OperationContext* opCtx, long long term);
    // Catch-up of a new primary (MongoDB's, protocol version 1): PRIMARY but not writable while
    // its fetcher takes what the members that answered its first heartbeats hold beyond its
    // last entry (the target), so that the old primary's last writes which reached only some
    // members are kept rather than rolled back. Ends when the target is applied, after
    // catchUpTimeoutMillis (-1: no limit), on replSetAbortPrimaryCatchUp, when no member that is
    // up holds more than we do, or (beyond MongoDB, which relies on catch-up takeover) when
    // nothing was applied for catchUpTakeoverDelayMillis. On the background thread.
    void manageCatchUp();
    bool catchingUpLocked() const { return _catchUp.active; }
    void persistConfig(OperationContext* opCtx, const ReplSetConfig& config);
    void persistTerm(OperationContext* opCtx, long long term, long long voteTerm, int voteCandidate);
    void persistTopologyTerm();

    // The running config changed (initiate, reconfig, learnt from a heartbeat, startup):
    // topology, links, member table. REQUIRES: _mutex held by the caller (lk).
    void configChangedLocked(Millis now);
    void startThreads();
    void backgroundLoop();
    void execute(const Actions& actions);
    void sendVoteRequests(const VoteRequest& request);
    // elapsedMillis: the heartbeat's round trip, shown as the member's pingMs in replSetGetStatus.
    void onHeartbeatReply(int member, const StatusWith<BSONObj>& reply, long long elapsedMillis);
    BSONObj makeHeartbeatRequest(int member);
    void installConfigFromHeartbeat(const BSONObj& doc);
    void fetchConfigFrom(const std::string& host);
    // A node whose stored config names it only through a proxy (is_self.h) cannot find itself
    // at start-up, before it listens: once a second while REMOVED, look again over the network.
    void retryFindSelfInStoredConfig();
    void stepDownLocked(std::unique_lock<std::mutex>& lk, const std::string& reason);
    void manageFetcher();
    // isync: runs the initial syncer instead of the fetcher while the member needs one; true
    // then (the fetcher must not run).
    bool manageInitialSync();
    std::optional<std::string> chooseInitialSyncSource(const std::string& avoid);
    void onInitialSyncCompleted(const OpTime& lastApplied);
    // The member we pull from now: the fetcher's source or the initial syncer's. REQUIRES: _mutex.
    // What chooseSyncSource/chooseInitialSyncSource decide from (sync_source.h). REQUIRES: _mutex, a config with self.
    std::vector<SyncSourceCandidate> syncSourceCandidatesLocked() const;
    SyncSourceContext syncSourceContextLocked() const;
    std::string currentSyncSourceLocked() const;
    void onBatchApplied(const OpTime& applied, bool reportedWithNextRequest);
    // Flushes the journal when something applied is not durable yet, then publishes it as this
    // member's durable optime: the primary's commit point counts it; a secondary reports it
    // upstream if reportUpstream (else its fetcher's next getMore carries it). The journal
    // flusher's step (journal_flusher.h), also called by a secondary's fetcher after each batch.
    void flushJournal(bool reportUpstream = true);
    // A member in initial sync (or resyncing after a rollback) reports null optimes, in
    // heartbeats and replSetUpdatePosition alike, as MongoDB. REQUIRES: _mutex.
    bool reportsNoProgressLocked() const;
    // replSetUpdatePosition with this member's optimes (empty without a config). REQUIRES: _mutex.
    BSONObj updatePositionCommandLocked() const;
    // This member's applied and durable optimes were set back (start-up, rollback, initial
    // sync): a flush that began before must not publish its older target. REQUIRES: _mutex.
    void resetAppliedLocked(const OpTime& opTime, Date_t wall);
    void onCannotSync(const std::string& why);
    void onTooStale(const std::string& why);
    void onFollowingSource();
    // The fetcher runs in SECONDARY and STARTUP2, and in RECOVERING while too stale (looking for
    // a source whose oplog reaches back) or after a rollback in place (until minValid).
    // REQUIRES: _mutex.
    bool fetchingStateLocked() const;
    void denySyncSource(const std::string& host, const std::string& why, std::chrono::milliseconds forHowLong);
    // The fetcher found our history diverged from source's: ROLLBACK, the rolled-back
    // documents saved (rollback.h), then the divergent writes undone in place and RECOVERING
    // until minValid (rollback_refetch.h), or else an initial sync from the set. On the
    // fetcher's thread.
    void rollBack(RemoteClient* source, const std::string& why);
    // After a rollback in place: once a batch reaches minValid, the member is consistent
    // (SECONDARY) if its oplog holds minValid's entry, and resyncs if another history went past it.
    void checkRollbackMinValid(const OpTime& applied);
    // The member's data is replaced by an initial sync from the set (STARTUP2). REQUIRES: _mutex.
    void startResyncLocked(const char* why);
    std::optional<std::string> chooseSyncSource();
    void sendUpdatePosition();
    // The primary's commit point from members' durable optimes. REQUIRES: _mutex.
    void advanceCommitPointLocked();
    // A non-primary learns the commit point from a primary or its sync source in its own term
    // (never past what it applied itself). REQUIRES: _mutex.
    void learnCommitPointLocked(const OpTime& committed, Date_t wall, long long sourceTerm, bool fromSyncSource);
    void onSourceCommitPoint(const OpTime& committed, Date_t wall, long long sourceTerm);
    // One step of a wait on cv (_progressCv unless given): up to 50 ms for progress, then the operation's
    // interrupt check (maxTimeMS, killOp) without the mutex. REQUIRES: lk holds _mutex; it holds
    // it again on return, also when the check throws.
    void waitForProgressLocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx) {
        waitForProgressLocked(lk, opCtx, _progressCv);
    }
    void waitForProgressLocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx, std::condition_variable& cv);
    // The same step for a waiter of the commit point (_commitPointWaiters).
    void waitForProgressLocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx, OpTimeWaiters::Waiter& w);
    // Whether enough other members keep up to make a w: "majority" write durable without this
    // primary's journal (it is then not flushed for the write). REQUIRES: _mutex.
    bool othersFormDurableMajorityLocked() const;
    static constexpr uint32_t kKeepingUpSecs = 2;
    // opCtx's interrupt check with lk released (held again on return, also when it throws).
    void checkForInterruptUnlocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx);
    void setStateLocked(MemberState s, const char* why);
    // _term and the last vote follow the topology's after each of its events. REQUIRES: _mutex.
    void syncTermLocked();
    int memberIndexForHost(const std::string& host) const;
    OpTime writeNoop(OperationContext* opCtx, const char* msg);
    std::string selfHost() const;
    void appendMemberStatus(BSONObjBuilder& o, size_t i, Date_t now) const;

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

    // Milestone 2: members, elections, replication.
    Topology _topo{0};
    long long _lastVoteTerm = OpTime::kUninitializedTerm;
    int _lastVoteCandidate = -1;
    struct MemberProgress {
        OpTime applied, durable;
        Date_t appliedWall, durableWall;
        Millis lastUpdate = 0;
        Date_t lastHeartbeatDate, lastHeartbeatRecvDate;
        long long pingMs = 0;
        std::string syncingTo;
        Timestamp electionTime;
        long long configVersion = 0, configTerm = -1;
        long long lastRequestTerm = -1;  // the term in its last heartbeat to us
    };
    std::vector<MemberProgress> _progress;  // by config index
    OpTime _lastDurable;  // journaled: what flushJournal last made durable
    Date_t _lastDurableWall;
    unsigned long long _appliedEpoch = 0;  // bumped by resetAppliedLocked
    JournalFlusher _journalFlusher;
    OpTime _commitPoint;
    Date_t _commitPointWall;
    std::condition_variable _progressCv;     // members' progress: w: <n> waiters, catch-up, afterClusterTime
    OpTimeWaiters _commitPointWaiters;       // majority waiters: woken when the commit point reaches them
    std::atomic<bool> _writesAllowed{false};  // LocalOplog's write gate
    std::string _configSourceHost;          // heartbeated us while we had no config
    BSONObj _pendingConfig;                 // newer config from a heartbeat reply
    std::string _cannotSync;                // why the fetcher stopped for good ("" = fine)
    std::string _tooStale;                  // why it waits in RECOVERING for a source that reaches back
    // After a rollback in place, the source's optime the member must hold before its data is
    // consistent (null: none pending). Below it the applier replays as initial sync does.
    OpTime _rollbackMinValid;
    bool _rollbackUndoing = false;  // between the undo's first change and minValid being set
    struct CatchUp {
        bool active = false;
        long long term = -1;
        Millis start = 0;           // nowMillis() when it began: heartbeat replies after it count
        OpTime target;              // null until every member that is up answered since start
        OpTime lastApplied;         // progress watch: what was applied at lastProgress
        Millis lastProgress = 0;
        std::string abortReason;    // set: end it (replSetAbortPrimaryCatchUp, another history)
    };
    CatchUp _catchUp;               // the last one's target stays for electionCandidateMetrics
    std::string _lastElectionReason;
    bool _linksDirty = false;   // the config changed: the bg thread restarts the member links
    int _lastPrimarySeen = -1;  // for topologyVersion: hello's primary changed
    long long _nextFindSelfMillis = 0;  // retryFindSelfInStoredConfig's pace (guarded by _mutex)
    bool _threadsStarted = false;
    std::atomic<int> _rbid{1};  // replSetGetRBID: up by one at every rollback
    Clock::time_point _clockBase = Clock::now();
    MemberLinks _links;
    OplogFetcher _fetcher;
    // isync: initial sync and the sync source override.
    InitialSyncer _initialSyncer;
    bool _initialSyncActive = false;  // an initial sync began and has not completed
    int _forcedSyncSource = -1;       // replSetSyncFrom's target (config index), -1 none
    // Sources the fetcher found unfit (too stale for us, or refusing their batches), each until
    // a deadline: chooseSyncSource treats them as down meanwhile (MongoDB's denylist).
    std::map<std::string, Clock::time_point> _deniedSyncSources;
    std::thread _background;
    std::atomic<bool> _shutdown{false};
    std::mutex _electionMutex;  // one election/step-down transition at a time (never under _mutex)
};

}  // namespace repl
}  // namespace mongo
