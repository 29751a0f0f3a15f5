// The coordinator's side of replication: choosing a sync source and running the fetcher,
// progress reports (replSetUpdatePosition), the majority commit point, write concern waits,
// and the read concerns a multi-member set cannot serve yet.
#include <algorithm>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/rw_concern_defaults.h"
#include "mongo/db/service_context.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

// chooseSyncSource (chaining, replSetSyncFrom): coordinator_initial_sync.cpp.

void ReplicationCoordinator::manageFetcher() {
    if (manageInitialSync()) return;  // a member without usable data syncs it first
    bool want;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        // Not once an election is won: becomePrimary stops the fetcher and must not see it
        // started again before the node is PRIMARY.
        want = fetchingStateLocked() && _cannotSync.empty() && !_shutdown &&
            (_topo.role() != Role::kLeader || _catchUp.active);
    }
    if (!want) {
        if (_fetcher.running()) _fetcher.stop();
        return;
    }
    if (_fetcher.running()) return;
    OplogFetcher::Hooks hooks;
    hooks.chooseSyncSource = [this] { return chooseSyncSource(); };
    hooks.lastApplied = [this] { return lastApplied(); };
    hooks.term = [this] { return term(); };
    hooks.onSourceCommitPoint = [this](const OpTime& c, Date_t wall, long long term) {
        onSourceCommitPoint(c, wall, term);
    };
    hooks.onBatchApplied = [this](const OpTime& t, bool reportedWithNextRequest) {
        onBatchApplied(t, reportedWithNextRequest);
    };
    hooks.updatePosition = [this] {
        std::lock_guard<std::mutex> lk(_mutex);
        return updatePositionCommandLocked();
    };
    hooks.reportPosition = [this] { sendUpdatePosition(); };
    hooks.onCannotSync = [this](const std::string& why) { onCannotSync(why); };
    hooks.denySyncSource = [this](const std::string& host, const std::string& why, std::chrono::milliseconds d) {
        denySyncSource(host, why, d);
    };
    hooks.onDiverged = [this](RemoteClient* source, const std::string& why) { rollBack(source, why); };
    hooks.onTooStale = [this](const std::string& why) { onTooStale(why); };
    hooks.catchingUp = [this] {
        std::lock_guard<std::mutex> lk(_mutex);
        return _catchUp.active;
    };
    hooks.replayingOverNewerData = [this] {
        std::lock_guard<std::mutex> lk(_mutex);
        return !_rollbackMinValid.isNull();
    };
    hooks.onFollowing = [this] { onFollowingSource(); };
    hooks.delaySecs = [this] {
        std::lock_guard<std::mutex> lk(_mutex);
        return _config && _selfIndex >= 0 ? _config->members[size_t(_selfIndex)].secondaryDelaySecs : 0LL;
    };
    _fetcher.start(std::move(hooks));
}

void ReplicationCoordinator::onBatchApplied(const OpTime& applied, bool reportedWithNextRequest) {
    checkRollbackMinValid(applied);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_state == MemberState::kStartup2) setStateLocked(MemberState::kSecondary, "caught up with the sync source");
    }
    // Journaled before it is reported durable (w: "majority" counts durable optimes), here on
    // the fetcher's thread: handing it to the flusher costs two thread switches per batch, which
    // on a machine the set saturates is slower than the flush itself.
    flushJournal(/*reportUpstream=*/!reportedWithNextRequest);
}

void ReplicationCoordinator::resetAppliedLocked(const OpTime& opTime, Date_t wall) {
    _lastApplied = _lastDurable = opTime;
    _lastAppliedWall = _lastDurableWall = wall;
    ++_appliedEpoch;
}

void ReplicationCoordinator::flushJournal(bool reportUpstream) {
    OpTime target;
    Date_t wall;
    unsigned long long epoch;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!(_lastDurable < _lastApplied)) return;
        // Every entry up to _lastApplied has committed (its commit handler set it), so its
        // journal record is written before the flush below starts.
        target = _lastApplied;
        wall = _lastAppliedWall;
        epoch = _appliedEpoch;
    }
    try {
        auto opCtx = makeOperationContext(internalClient());
        opCtx->recoveryUnit()->waitUntilDurable();
    } catch (const DBException& e) {
        LOGV2_WARNING(21412, Replication, "Could not flush the journal; trying again at the next request",
                      logv2::attrs("error", e.toStatus().toString()));
        return;
    }
    bool report;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (epoch != _appliedEpoch || !(_lastDurable < target)) return;
        _lastDurable = target;
        _lastDurableWall = wall;
        advanceCommitPointLocked();
        report = reportUpstream && _state != MemberState::kPrimary && !reportsNoProgressLocked();
    }
    _progressCv.notify_all();
    if (report) sendUpdatePosition();
}

void ReplicationCoordinator::denySyncSource(const std::string& host, const std::string& why,
                                            std::chrono::milliseconds forHowLong) {
    std::lock_guard<std::mutex> lk(_mutex);
    _deniedSyncSources[host] = Clock::now() + forHowLong;
    LOGV2(21800, Replication, "Denylisting a sync source",
          logv2::attrs("syncSource", host, "reason", why, "durationMillis", static_cast<long long>(forHowLong.count())));
}

bool ReplicationCoordinator::reportsNoProgressLocked() const {
    // Its data is not the set's until the sync ends: it must count in no majority. Nor while a
    // rollback in place replays to minValid: a restart then resyncs, dropping what it holds.
    return _state == MemberState::kStartup2 || _initialSyncActive || !_rollbackMinValid.isNull();
}

bool ReplicationCoordinator::fetchingStateLocked() const {
    return _state == MemberState::kSecondary || _state == MemberState::kStartup2 ||
        (_state == MemberState::kRecovering && (!_tooStale.empty() || !_rollbackMinValid.isNull())) ||
        (_state == MemberState::kPrimary && _catchUp.active);
}

void ReplicationCoordinator::onTooStale(const std::string& why) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (_state != MemberState::kSecondary && _state != MemberState::kRecovering) return;
    if (_tooStale.empty())
        LOGV2_ERROR(7700208, Replication, "Too stale to catch up: waiting in RECOVERING for a sync source whose oplog reaches back",
                    logv2::attrs("reason", why, "lastApplied", _lastApplied.toBSON()));
    _tooStale = why;
    if (_state == MemberState::kSecondary) setStateLocked(MemberState::kRecovering, "too stale");
}

void ReplicationCoordinator::onFollowingSource() {
    std::lock_guard<std::mutex> lk(_mutex);
    if (_tooStale.empty()) return;
    _tooStale.clear();
    LOGV2(7700209, Replication, "No longer too stale: a sync source's oplog reaches back to our last entry",
          logv2::attrs("syncSource", _fetcher.syncSource(), "lastApplied", _lastApplied.toBSON()));
    // After a rollback in place the member stays RECOVERING until minValid (checkRollbackMinValid).
    if (_state == MemberState::kRecovering && _rollbackMinValid.isNull()) setStateLocked(MemberState::kSecondary, "sync source found");
}

void ReplicationCoordinator::onCannotSync(const std::string& why) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_cannotSync.empty()) return;
    if (!_rollbackMinValid.isNull() && _state == MemberState::kRecovering) {
        // Replaying after a rollback in place: the data is not this member's to keep anyway.
        LOGV2_WARNING(7700216, Replication, "Could not apply the set's entries after a rollback in place; resyncing",
                      logv2::attrs("reason", why, "lastApplied", _lastApplied.toBSON()));
        startResyncLocked("rollback: replay failed, resyncing");
        return;
    }
    _cannotSync = why;
    LOGV2_ERROR(21799, Replication, "Replication stopped: this member cannot sync from the set",
                logv2::attrs("reason", why, "lastApplied", _lastApplied.toBSON()));
    if (_state == MemberState::kSecondary) setStateLocked(MemberState::kRecovering, "cannot sync");
    _tooStale.clear();  // the state is the final verdict's now
}

BSONObj ReplicationCoordinator::updatePositionCommandLocked() const {
    if (!_config || _selfIndex < 0) return BSONObj();
    BSONObjBuilder b;
    b.append("replSetUpdatePosition", 1);
    b.append("term", _term);
    BSONArrayBuilder arr;
    auto append = [&](int id, const OpTime& applied, Date_t appliedWall, const OpTime& durable, Date_t durableWall) {
        BSONObjBuilder& o = arr.subobjStart();
        o.append("durableOpTime", durable.toBSON());
        o.append("durableWallTime", durableWall);
        o.append("appliedOpTime", applied.toBSON());
        o.append("appliedWallTime", appliedWall);
        o.append("memberId", id);
        o.append("cfgver", _config->version);
        o.doneFast();
    };
    if (reportsNoProgressLocked())
        append(_config->members[size_t(_selfIndex)].id, OpTime(), Date_t(), OpTime(), Date_t());
    else
        append(_config->members[size_t(_selfIndex)].id, _lastApplied, _lastAppliedWall, _lastDurable, _lastDurableWall);
    // And what we know of the others (members syncing from us report to us, not to the
    // primary): as MongoDB, a chained member's progress reaches the primary through us.
    for (size_t i = 0; i < _config->members.size() && i < _progress.size(); ++i) {
        const MemberProgress& p = _progress[i];
        if (int(i) == _selfIndex || p.applied.isNull()) continue;
        append(_config->members[i].id, p.applied, p.appliedWall, p.durable, p.durableWall);
    }
    b.appendArray("optimes", arr.arr());
    return b.obj();
}

void ReplicationCoordinator::sendUpdatePosition() {
    int target;
    BSONObj cmd;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_config || _selfIndex < 0) return;
        target = memberIndexForHost(_fetcher.syncSource());
        if (target < 0) target = _topo.primaryIndex();
        if (target < 0 || target == _selfIndex) return;
        cmd = updatePositionCommandLocked();
    }
    _links.send(target, cmd, nullptr);
}

void ReplicationCoordinator::processUpdatePosition(const BSONObj& cmd, BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    BSONElement optimes = cmd["optimes"];
    uassert(ErrorCodes::TypeMismatch, "replSetUpdatePosition's optimes must be an array", optimes.type() == Array);
    // A reporter in a newer term is not counted: we step down instead (observeRequestTerm).
    if (cmd["term"].isNumber() && observeRequestTerm(cmd["term"].numberLong())) return;
    bool advanced = false, forward = false;
    std::string mismatch;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config != nullptr);
        for (BSONElement e : optimes.embeddedObject()) {
            uassert(ErrorCodes::TypeMismatch, "replSetUpdatePosition entries must be objects", e.type() == Object);
            BSONObj u = e.embeddedObject();
            const int id = u["memberId"].numberInt();
            // As MongoDB: progress reported under another config version is not counted. After
            // a reconfig a member id can name another member, and a reporter on the old config
            // would credit it; the reporter learns the new config from heartbeats.
            if (!u["cfgver"].isNumber() || u["cfgver"].numberLong() != _config->version) {
                if (mismatch.empty())
                    mismatch = "Received replSetUpdatePosition for node with memberId " + std::to_string(id) +
                        " whose config version of " + u["cfgver"].toString(false) +
                        " doesn't match our config version of " + std::to_string(_config->version);
                continue;
            }
            for (size_t i = 0; i < _config->members.size() && i < _progress.size(); ++i) {
                if (_config->members[i].id != id || int(i) == _selfIndex) continue;
                MemberProgress& p = _progress[i];
                auto applied = OpTime::parse(u["appliedOpTime"].embeddedObject());
                auto durable = OpTime::parse(u["durableOpTime"].embeddedObject());
                uassertStatusOK(applied.getStatus());
                uassertStatusOK(durable.getStatus());
                if (p.applied < applied.getValue()) {
                    p.applied = applied.getValue();
                    if (u["appliedWallTime"].type() == Date) p.appliedWall = u["appliedWallTime"].date();
                    advanced = true;
                }
                if (p.durable < durable.getValue()) {
                    p.durable = durable.getValue();
                    if (u["durableWallTime"].type() == Date) p.durableWall = u["durableWallTime"].date();
                    advanced = true;
                }
            }
        }
        advanceCommitPointLocked();
        forward = advanced && _state != MemberState::kPrimary;
    }
    _progressCv.notify_all();
    // A member syncing from us: its progress goes on upstream (only news, so it ends).
    if (forward) sendUpdatePosition();
    uassert(ErrorCodes::InvalidReplicaSetConfig, mismatch, mismatch.empty());
}

void ReplicationCoordinator::advanceCommitPointLocked() {
    if (!_config || _selfIndex < 0 || _state != MemberState::kPrimary) return;
    // Only while this node leads the term it holds. A primary told of a newer term (a heartbeat
    // from a member of the new primary's set) is still PRIMARY until its step-down runs, but the
    // progress it hears now is of another history: members report optimes of the newer term,
    // which passed the term test below once _term had moved, and moved the commit point past this
    // node's own unreplicated writes: their waiters were acknowledged as majority-committed and
    // the writes lost in the rollback (found by test_random_faults.py).
    if (_topo.role() != Role::kLeader || _topo.term() != _term) return;
    // The newest optime durable on writeMajorityCount voting data-bearing members, this one's
    // as its journal flusher last made it durable.
    std::vector<OpTime> durable;
    for (size_t i = 0; i < _config->members.size(); ++i) {
        const MemberConfig& m = _config->members[i];
        if (!m.votes || m.arbiterOnly) continue;
        durable.push_back(int(i) == _selfIndex ? _lastDurable : i < _progress.size() ? _progress[i].durable : OpTime());
    }
    const size_t k = size_t(_config->writeMajorityCount());
    if (k == 0 || durable.size() < k) return;
    std::sort(durable.begin(), durable.end(), [](const OpTime& a, const OpTime& b) { return b < a; });
    const OpTime candidate = durable[k - 1];
    // Only an entry of the primary's own term commits by counting (Raft): an older term's
    // entry on a majority may still be replaced by a later primary.
    if (candidate.getTerm() != _term || !(_commitPoint < candidate)) return;
    _commitPoint = candidate;
    LocalOplog::get()->setMajorityCommitted(_commitPoint.getTimestamp());
    _commitPointWall = _lastAppliedWall;
    _commitPointWaiters.reached(_commitPoint);
    LocalOplog::get()->notifyReaders();  // change streams: more entries are events now
}

void ReplicationCoordinator::learnCommitPointLocked(const OpTime& committed, Date_t wall, long long sourceTerm,
                                                    bool fromSyncSource) {
    if (sourceTerm != _term || _state == MemberState::kPrimary) return;
    // Clamping to our last applied entry is sound only on the sync source's history (the fetcher
    // checked it continues ours). From anyone else (heartbeats) a commit point is taken only in
    // the term of our last entry: a member whose last entries are another branch's (an old
    // primary back with unreplicated writes) must not count them as committed.
    if (!fromSyncSource && committed.getTerm() != _lastApplied.getTerm()) return;
    const OpTime c = std::min(committed, _lastApplied);
    if (!(_commitPoint < c)) return;
    _commitPoint = c;
    LocalOplog::get()->setMajorityCommitted(_commitPoint.getTimestamp());
    _commitPointWall = wall;
    _commitPointWaiters.reached(_commitPoint);
    LocalOplog::get()->notifyReaders();
}

OpTime ReplicationCoordinator::majorityCommitPoint() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _commitPoint;
}

void ReplicationCoordinator::onSourceCommitPoint(const OpTime& committed, Date_t wall, long long sourceTerm) {
    std::lock_guard<std::mutex> lk(_mutex);
    learnCommitPointLocked(committed, wall, sourceTerm, true);
}

void ReplicationCoordinator::appendReplData(BSONObjBuilder* result) const {
    std::lock_guard<std::mutex> lk(_mutex);
    BSONObjBuilder d;
    d.append("term", _term);
    d.append("lastOpCommitted", _commitPoint.toBSON());
    d.append("lastCommittedWall", _commitPointWall);
    d.append("isPrimary", _state == MemberState::kPrimary);
    // A source others may take entries from: primary, or a secondary following a source whose
    // history it checked (not one rolling back, resyncing, or just deposed and not yet checked).
    d.append("state", static_cast<int>(_state));
    d.append("hasSyncSource", _state == MemberState::kSecondary && _fetcher.following());
    result->append("$replData", d.obj());
}

void ReplicationCoordinator::awaitReadDurable(OperationContext* opCtx, bool linearizable, int rbidBeforeRead) {
    OpTime target;
    if (linearizable) {
        CollectionWriteLock lock;
        target = writeNoop(opCtx, "linearizable read");
    } else {
        // Whatever the read saw: a write and its oplog entry commit in one unit of work, and
        // _lastApplied moves only in the unit's commit handler, a moment later. The newest entry
        // in the oplog, read now, covers every write the read could see.
        OpTime newest;
        {
            CatalogReadLock lock;
            newest = LocalOplog::get()->readLast(opCtx).first;
        }
        std::lock_guard<std::mutex> lk(_mutex);
        target = std::max(_lastApplied, newest);
    }
    std::unique_lock<std::mutex> lk(_mutex);
    // The target is an entry of this node's history, and so is the commit point, as long as this
    // node does not roll back: if it does (from the command's start on), what the read returned
    // may be gone, and a commit point of the new history says nothing of it.
    auto checkNoRollback = [&] {
        if (_state == MemberState::kRollback || _rbid.load() != rbidBeforeRead || !_rollbackMinValid.isNull())
            uasserted(ErrorCodes::InterruptedDueToReplStateChange,
                      "this member rolled back while a majority read waited for what it read to be majority-committed");
    };
    if (_state == MemberState::kPrimary && _lastDurable < target) _journalFlusher.request();
    OpTimeWaiters::Waiter waiter(_commitPointWaiters, target);
    while (_commitPoint < target) {
        if (linearizable && _state != MemberState::kPrimary)
            uasserted(ErrorCodes::PrimarySteppedDown, "primary stepped down while waiting for a linearizable read");
        checkNoRollback();
        if (_shutdown) uasserted(ErrorCodes::ShutdownInProgress, "Replication is being shut down");
        waitForProgressLocked(lk, opCtx, waiter);
    }
    checkNoRollback();
}

void ReplicationCoordinator::waitForProgressLocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx,
                                                   std::condition_variable& cv) {
    cv.wait_for(lk, std::chrono::milliseconds(50));
    checkForInterruptUnlocked(lk, opCtx);
}

void ReplicationCoordinator::waitForProgressLocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx,
                                                   OpTimeWaiters::Waiter& w) {
    w.waitFor(lk, std::chrono::milliseconds(50));
    checkForInterruptUnlocked(lk, opCtx);
}

void ReplicationCoordinator::checkForInterruptUnlocked(std::unique_lock<std::mutex>& lk, OperationContext* opCtx) {
    lk.unlock();
    try {
        opCtx->checkForInterrupt();
    } catch (...) {
        lk.lock();
        throw;
    }
    lk.lock();
}

bool ReplicationCoordinator::othersFormDurableMajorityLocked() const {
    if (!_config || _selfIndex < 0) return false;
    // Why: on a healthy set the secondaries' reports commit a write before, or as soon as, the
    // primary's own flush would; a flush asked for by every w: "majority" writer cost the primary
    // an fdatasync for every two or three writes at saturation, CPU the writes needed. Members
    // count only while they keep up (SECONDARY, not delayed, durable within a couple of seconds
    // of our newest write): a member catching up would otherwise hold writes for up to the
    // flusher's interval.
    const uint32_t newestSecs = _lastApplied.getTimestamp().secs;
    int others = 0;
    for (size_t i = 0; i < _config->members.size(); ++i) {
        const MemberConfig& m = _config->members[i];
        if (int(i) == _selfIndex || !m.votes || m.arbiterOnly || m.secondaryDelaySecs > 0 || i >= _progress.size())
            continue;
        if (_topo.memberState(int(i)) != MemberState::kSecondary) continue;
        if (_progress[i].durable.getTimestamp().secs + kKeepingUpSecs < newestSecs) continue;
        ++others;
    }
    return others >= _config->writeMajorityCount();
}

int ReplicationCoordinator::dataBearingMembers() const {
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_config) return 1;
    int n = 0;
    for (const MemberConfig& m : _config->members)
        if (!m.arbiterOnly) ++n;
    return n;
}

void ReplicationCoordinator::waitForReadConcern(OperationContext* opCtx, const BSONObj& cmd, bool useDefault) {
    if (!isReplSet()) return;
    BSONElement rc = cmd["readConcern"];
    if (rc.type() != Object) {
        // None given: a read takes the cluster's default (setDefaultRWConcern), as MongoDB's.
        static const std::set<std::string, std::less<>> kReads = {"find", "aggregate", "count", "distinct"};
        if (!useDefault || !kReads.count(cmd.firstElementFieldName())) return;
        const BSONObj def = RWConcernDefaults::get().current(opCtx).readConcern;
        if (def.isEmpty()) return;
        BSONObjBuilder b;
        b.append("readConcern", def);
        return waitForReadConcern(opCtx, b.obj());
    }
    BSONElement level = rc.embeddedObject()["level"];
    if (level.type() == String) {
        const std::string l = level.str();
        if (l == "majority" || l == "snapshot" || l == "linearizable") {
            std::lock_guard<std::mutex> lk(_mutex);
            // One member: everything applied is committed, so these are served as they are.
            const bool several = _config && _config->members.size() > 1;
            if (l == "snapshot" && several)
                uasserted(ErrorCodes::ReadConcernMajorityNotEnabled,
                          "readConcern level 'snapshot' is not supported on a replica set of more than one member by "
                          "this server yet: its tables do not keep history, so a read cannot be served at one point "
                          "in time across batches");
            if (l == "linearizable")
                uassert(ErrorCodes::NotWritablePrimary, "cannot satisfy linearizable read concern on non-primary node",
                        _state == MemberState::kPrimary);
            if (several && l != "snapshot") opCtx->readsMajorityCommitted = true;
        }
    }
    BSONElement after = rc.embeddedObject()["afterClusterTime"];
    if (after.type() != bsonTimestamp) return;
    const Timestamp ts = after.timestamp();
    std::unique_lock<std::mutex> lk(_mutex);
    // The primary holds every write acknowledged in its term (an operationTime a client saw is
    // at most what it applied); a secondary waits until it applied that far.
    while (_state != MemberState::kPrimary && _lastApplied.getTimestamp() < ts) {
        waitForProgressLocked(lk, opCtx);
        if (_shutdown) uasserted(ErrorCodes::ShutdownInProgress, "Replication is being shut down");
    }
}

BSONObj ReplicationCoordinator::awaitWriteConcern(OperationContext* opCtx, const BSONObj& writeConcern, OpTime opTime,
                                                  bool fromDefault) {
    BSONElement w = writeConcern["w"];
    const bool majority = isMajorityWriteConcern(writeConcern);
    long long n = w.isNumber() ? w.numberLong() : 1;
    if (w.type() == String && !majority) {
        // Tagged write concerns need settings.getLastErrorModes, which configs may not hold yet.
        BSONObjBuilder e;
        e.append("code", static_cast<int>(ErrorCodes::UnknownReplWriteConcern));
        e.append("codeName", errorCodeName(ErrorCodes::UnknownReplWriteConcern));
        e.append("errmsg", "No write concern mode named '" + w.str() + "' found in replica set configuration");
        return e.obj();
    }
    if (!majority && n <= 1) return BSONObj();
    if (!majority && n > dataBearingMembers()) {
        BSONObjBuilder e;
        e.append("code", static_cast<int>(ErrorCodes::UnsatisfiableWriteConcern));
        e.append("codeName", errorCodeName(ErrorCodes::UnsatisfiableWriteConcern));
        e.append("errmsg", "Not enough data-bearing nodes");
        return e.obj();
    }
    long long wtimeout = writeConcern["wtimeout"].isNumber() ? writeConcern["wtimeout"].numberLong() : 0;
    const bool journal = writeConcern["j"].trueValue();
    const auto start = Clock::now();
    std::unique_lock<std::mutex> lk(_mutex);
    if (opTime.isNull()) opTime = _lastApplied;
    // The commit point counts this member's durable optime like any member's: the flusher
    // journals at once rather than at its next interval, unless the other members can make the
    // write durable on a majority without it (then it still journals at its interval).
    if (majority && _lastDurable < opTime && !othersFormDurableMajorityLocked()) _journalFlusher.request();
    auto satisfied = [&] {
        if (majority) return !(_commitPoint < opTime);
        long long count = 0;
        for (size_t i = 0; _config && i < _config->members.size(); ++i) {
            if (_config->members[i].arbiterOnly) continue;
            if (int(i) == _selfIndex) {
                if (!(_lastApplied < opTime)) ++count;
            } else if (i < _progress.size() && !((journal ? _progress[i].durable : _progress[i].applied) < opTime)) {
                ++count;
            }
        }
        return count >= n;
    };
    auto wcError = [&](ErrorCodes code, const std::string& msg, bool timedOut) {
        BSONObjBuilder e;
        e.append("code", static_cast<int>(code));
        e.append("codeName", errorCodeName(code));
        e.append("errmsg", msg);
        BSONObjBuilder info;
        if (timedOut) info.append("wtimeout", true);
        BSONObjBuilder wc;
        if (w.eoo())
            wc.append("w", "majority");
        else
            wc.appendAs(w, "w");
        if (!writeConcern["j"].eoo()) wc.append("j", journal);
        wc.append("wtimeout", static_cast<int>(wtimeout));
        wc.append("provenance", w.eoo() ? "implicitDefault" : fromDefault ? "customDefault" : "clientSupplied");
        info.append("writeConcern", wc.obj());
        e.append("errInfo", info.obj());
        return e.obj();
    };
    // A majority waiter wakes only when the commit point reaches its write (or the state
    // changes), not at every member's report or every commit of other writers.
    std::optional<OpTimeWaiters::Waiter> majorityWaiter;
    if (majority) majorityWaiter.emplace(_commitPointWaiters, opTime);
    while (!satisfied()) {
        if (_state != MemberState::kPrimary)
            return wcError(ErrorCodes::PrimarySteppedDown, "Primary stepped down while waiting for replication", false);
        if (_shutdown) return wcError(ErrorCodes::ShutdownInProgress, "Replication is being shut down", false);
        if (wtimeout > 0 && Clock::now() - start >= std::chrono::milliseconds(wtimeout))
            return wcError(ErrorCodes::WriteConcernFailed, "waiting for replication timed out", true);
        try {
            if (majorityWaiter)
                waitForProgressLocked(lk, opCtx, *majorityWaiter);
            else
                waitForProgressLocked(lk, opCtx, _progressCv);
        } catch (const DBException& e) {
            return wcError(ErrorCodes(e.code()), e.reason(), false);
        }
    }
    return BSONObj();
}

}  // namespace repl
}  // namespace mongo
