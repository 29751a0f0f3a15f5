// The coordinator's side of initial sync and of sync source choice: when a member runs the
// initial syncer instead of the fetcher, chaining (settings.chainingAllowed, sync_source.h),
// and replSetSyncFrom.
#include "mongo/db/repl/coordinator.h"

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/sync_source.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

// What heartbeats say of every member, for sync_source.h.
std::vector<SyncSourceCandidate> candidates(const ReplSetConfig& config, const Topology& topo,
                                            const std::vector<std::string>& syncingTo,
                                            const std::vector<long long>& pings) {
    std::vector<SyncSourceCandidate> out;
    for (size_t i = 0; i < config.members.size(); ++i) {
        const MemberConfig& m = config.members[i];
        SyncSourceCandidate c;
        c.host = m.host;
        c.up = topo.member(int(i)).up;
        c.state = topo.memberState(int(i));
        c.applied = topo.member(int(i)).data.applied;
        c.pingMs = i < pings.size() ? pings[i] : 0;
        c.arbiter = m.arbiterOnly;
        c.hidden = m.hidden;
        c.secondaryDelaySecs = m.secondaryDelaySecs;
        c.voter = m.votes > 0;
        c.syncingFromSomeone = i < syncingTo.size() && !syncingTo[i].empty();
        out.push_back(c);
    }
    return out;
}

std::string withDefaultPort(const std::string& host) {
    if (host.find(':') != std::string::npos) return host;
    return host + ":27017";
}

}  // namespace

std::vector<SyncSourceCandidate> ReplicationCoordinator::syncSourceCandidatesLocked() const {
    std::vector<std::string> syncingTo;
    std::vector<long long> pings;
    for (const MemberProgress& p : _progress) {
        syncingTo.push_back(p.syncingTo);
        pings.push_back(p.pingMs);
    }
    return candidates(*_config, _topo, syncingTo, pings);
}

SyncSourceContext ReplicationCoordinator::syncSourceContextLocked() const {
    SyncSourceContext ctx;
    ctx.self = _selfIndex;
    ctx.selfVoter = _config->members[size_t(_selfIndex)].votes > 0;
    ctx.chainingAllowed = _config->chainingAllowed;
    ctx.primary = _topo.primaryIndex();
    if (_catchUp.active) {
        // A new primary catching up: any member ahead of it is a source, chaining or not.
        ctx.primary = -1;
        ctx.chainingAllowed = true;
    }
    ctx.forced = _forcedSyncSource;
    return ctx;
}

std::string ReplicationCoordinator::currentSyncSourceLocked() const {
    std::string s = _fetcher.syncSource();
    return s.empty() ? _initialSyncer.currentSyncSource() : s;
}

std::optional<std::string> ReplicationCoordinator::chooseSyncSource() {
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_config || _selfIndex < 0 || !_cannotSync.empty() || _shutdown) return std::nullopt;
    if (!fetchingStateLocked()) return std::nullopt;
    if (_initialSyncActive) return std::nullopt;  // the initial syncer pulls, not the fetcher
    auto members = syncSourceCandidatesLocked();
    const auto now = Clock::now();
    for (auto it = _deniedSyncSources.begin(); it != _deniedSyncSources.end();) {
        if (it->second <= now) {
            it = _deniedSyncSources.erase(it);
            continue;
        }
        if (int i = memberIndexForHost(it->first); i >= 0 && size_t(i) < members.size()) members[size_t(i)].up = false;
        ++it;
    }
    SyncSourceContext ctx = syncSourceContextLocked();
    ctx.myApplied = _lastApplied;
    // Sticky: the current source stays while it is fit (no switching on ping noise). A
    // replSetSyncFrom override is used up once the fetcher follows it, as in MongoDB; the
    // usual rules then decide how long it stays.
    const int current = memberIndexForHost(_fetcher.syncSource());
    if (current >= 0 && current == _forcedSyncSource) _forcedSyncSource = ctx.forced = -1;
    if (current >= 0 && !shouldChangeSyncSource(members, ctx, current)) return members[size_t(current)].host;
    const int pick = repl::chooseSyncSource(members, ctx);
    if (pick < 0) return std::nullopt;
    return members[size_t(pick)].host;
}

std::optional<std::string> ReplicationCoordinator::chooseInitialSyncSource(const std::string& avoid) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_config || _selfIndex < 0 || _shutdown) return std::nullopt;
    const auto members = syncSourceCandidatesLocked();
    SyncSourceContext ctx = syncSourceContextLocked();
    if (int a = memberIndexForHost(avoid); a >= 0) ctx.exclude.push_back(a);
    const int pick = repl::chooseSyncSource(members, ctx);
    if (pick < 0) return std::nullopt;
    if (pick == _forcedSyncSource) _forcedSyncSource = -1;
    return members[size_t(pick)].host;
}

bool ReplicationCoordinator::manageInitialSync() {
    bool need, want;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        // A member in STARTUP2 with no oplog (new, wiped, or an initial sync that did not
        // finish: startup empties lastApplied then) or in the middle of a sync.
        need = _state == MemberState::kStartup2 && (_lastApplied.isNull() || _initialSyncActive);
        want = need && _cannotSync.empty() && !_shutdown && _config && _selfIndex >= 0;
        if (want) _initialSyncActive = true;
    }
    if (!need) {
        if (_initialSyncer.running()) _initialSyncer.stop();
        return false;
    }
    if (_fetcher.running()) _fetcher.stop();
    if (!want) {
        if (_initialSyncer.running()) _initialSyncer.stop();
        return true;
    }
    if (_initialSyncer.running()) return true;
    InitialSyncer::Hooks hooks;
    hooks.chooseSyncSource = [this](const std::string& avoid) { return chooseInitialSyncSource(avoid); };
    hooks.onAttemptStart = [this](const OpTime& start) {
        KVEngine* kv;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            resetAppliedLocked(OpTime(), Date_t());
            _commitPoint = OpTime();  // learnt again from the set, on the history being copied
            _commitPointWall = Date_t();
            _topo.setMyLastApplied(OpTime());
            kv = _options.kv;
        }
        // The entries written from here on commit at the source's timestamps, from start on,
        // which may be older than what this node applied in an earlier attempt or life: its
        // stable/oldest timestamps go back to just before start (WiredTiger refuses commits
        // at or before the stable timestamp).
        if (kv) kv->resetStableAndOldestTimestamp(start.getTimestamp().asULL() - 1);
    };
    hooks.onCompleted = [this](const OpTime& t) { onInitialSyncCompleted(t); };
    hooks.onFailedForGood = [this](const std::string& why) {
        onCannotSync("initial sync failed " + std::to_string(InitialSyncProgress::kMaxFailedAttempts) +
                     " times; the last error: " + why + " (restart the member to try again)");
    };
    _initialSyncer.start(std::move(hooks));
    return true;
}

void ReplicationCoordinator::onInitialSyncCompleted(const OpTime& lastApplied) {
    {
        // What the sync wrote is journaled before it is reported durable.
        auto opCtx = makeOperationContext(internalClient());
        opCtx->recoveryUnit()->waitUntilDurable();
    }
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _initialSyncActive = false;
        resetAppliedLocked(lastApplied, _lastAppliedWall);
        _topo.setMyLastApplied(lastApplied);
        if (_state == MemberState::kStartup2) setStateLocked(MemberState::kSecondary, "initial sync done");
    }
    _progressCv.notify_all();
    sendUpdatePosition();
}

void ReplicationCoordinator::syncFrom(const std::string& hostArg, BSONObjBuilder* result) {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    uassert(ErrorCodes::FailedToParse, "Empty host component parsing HostAndPort from \"" + hostArg + "\"",
            !hostArg.empty());
    const std::string host = withDefaultPort(hostArg);
    bool restartInitialSync = false;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        uassert(ErrorCodes::NotYetInitialized, "no replset config has been received", _config && _selfIndex >= 0);
        result->append("syncFromRequested", hostArg);
        const MemberConfig& self = _config->members[size_t(_selfIndex)];
        uassert(ErrorCodes::NotSecondary, "arbiters don't sync", !self.arbiterOnly);
        uassert(ErrorCodes::NotSecondary, "primaries don't sync", _state != MemberState::kPrimary);
        const int target = memberIndexForHost(host);
        uassert(ErrorCodes::NodeNotFound, "Could not find member \"" + host + "\" in replica set", target >= 0);
        uassert(ErrorCodes::InvalidOptions, "I cannot sync from myself", target != _selfIndex);
        const MemberConfig& t = _config->members[size_t(target)];
        uassert(ErrorCodes::InvalidOptions, "Cannot sync from \"" + host + "\" because it is an arbiter", !t.arbiterOnly);
        uassert(ErrorCodes::InvalidOptions, "Cannot sync from \"" + host + "\" because it does not build indexes",
                t.buildIndexes || !self.buildIndexes);
        uassert(ErrorCodes::InvalidOptions, "Cannot sync from \"" + host + "\" because it is not a voter",
                !self.votes || t.votes);
        uassert(ErrorCodes::HostUnreachable, "I cannot reach the requested member: " + host,
                _topo.member(target).up);
        const OpTime theirs = _topo.member(target).data.applied;
        if ((long long)theirs.getTimestamp().secs + 10 < (long long)_lastApplied.getTimestamp().secs) {
            LOGV2_WARNING(21837, Replication,
                          "Attempting to sync from sync source, but it is more than 10 seconds behind us",
                          logv2::attrs("syncSource", host, "syncSourceHeartbeatAppliedOpTime",
                                       static_cast<long long>(theirs.getTimestamp().secs), "lastOpApplied",
                                       static_cast<long long>(_lastApplied.getTimestamp().secs)));
            result->append("warning", "requested member \"" + host + "\" is more than 10 seconds behind us");
        }
        const std::string prev = currentSyncSourceLocked();
        if (!prev.empty()) result->append("prevSyncTarget", prev);
        _forcedSyncSource = target;
        // MongoDB 3.4+: an initial sync in progress starts again from the requested member.
        restartInitialSync = _state == MemberState::kStartup2 && _initialSyncActive;
    }
    LOGV2(21832, Replication, "Choosing new sync source because the user has requested to use it",
          logv2::attrs("syncSource", host));
    if (restartInitialSync) _initialSyncer.restartAttempt();
}

}  // namespace repl
}  // namespace mongo
