// Catch-up of a new primary (coordinator.h manageCatchUp): after its election it stays PRIMARY
// but not writable while its fetcher takes what other members hold beyond its last entry.
#include "mongo/db/repl/coordinator.h"

#include "mongo/db/service_context.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

void ReplicationCoordinator::manageCatchUp() {
    // The election mutex first: a replSetStepDown holds it while it waits, and must not see the
    // catch-up ended before the node is really writable (it would let writes in early).
    std::unique_lock<std::mutex> election(_electionMutex, std::try_to_lock);
    if (!election.owns_lock()) return;  // a transition is under way: next round
    long long term;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_catchUp.active) return;
        if (_state != MemberState::kPrimary || _topo.role() != Role::kLeader || _topo.term() != _catchUp.term) {
            // Deposed meanwhile (a newer term): stepDownLocked ends it when it runs; not before.
            return;
        }
        const Millis now = nowMillis();
        if (_catchUp.lastApplied < _lastApplied) {
            _catchUp.lastApplied = _lastApplied;
            _catchUp.lastProgress = now;
        }
        // The newest optime of the members that are up, and whether each answered a heartbeat
        // sent after the election (the target is fixed only then, as MongoDB's).
        OpTime newest;
        bool allAnswered = true;
        for (size_t i = 0; i < _config->members.size() && i < _progress.size(); ++i) {
            if (int(i) == _selfIndex || _config->members[i].arbiterOnly || !_topo.member(int(i)).up) continue;
            // Only members that can be synced from (not one rolling back, resyncing or stale).
            const MemberState st = _topo.memberState(int(i));
            if (st != MemberState::kPrimary && st != MemberState::kSecondary) continue;
            if (_progress[i].lastUpdate < _catchUp.start) {
                allAnswered = false;
                continue;
            }
            if (newest < _progress[i].applied) newest = _progress[i].applied;
        }
        if (_catchUp.target.isNull() && allAnswered) {
            _catchUp.target = std::max(newest, _lastApplied);
            LOGV2(21365, Replication, "Heartbeats updated catchup target optime",
                  logv2::attrs("targetOpTime", _catchUp.target.toBSON(), "myLastApplied", _lastApplied.toBSON()));
        }
        const char* why = nullptr;
        if (!_catchUp.target.isNull() && !(_lastApplied < _catchUp.target))
            why = "caught up to the target optime";
        else if (!_catchUp.abortReason.empty())
            why = _catchUp.abortReason.c_str();
        else if (!_cannotSync.empty())
            why = "this node cannot sync from the members ahead of it";
        else if (_config->catchUpTimeoutMillis > 0 && now - _catchUp.start >= _config->catchUpTimeoutMillis)
            why = "catch-up timed out (catchUpTimeoutMillis)";
        else if (!_catchUp.target.isNull() && !(_lastApplied < newest) && allAnswered)
            why = "no member that is up holds more than this node";
        else if (_config->catchUpTakeoverDelayMillis >= 0 && !_catchUp.target.isNull() &&
                 now - _catchUp.lastProgress >= _config->catchUpTakeoverDelayMillis)
            why = "nothing applied for catchUpTakeoverDelayMillis";
        if (!why) return;
        LOGV2(21363, Replication, "Exited primary catch-up mode",
              logv2::attrs("reason", why, "myLastApplied", _lastApplied.toBSON(), "targetOpTime",
                           _catchUp.target.toBSON(), "durationMillis", static_cast<long long>(now - _catchUp.start)));
        _catchUp.active = false;
        term = _catchUp.term;
    }
    auto opCtx = makeOperationContext(internalClient());
    finishBecomingPrimaryLocked(opCtx.get(), term);
}

void ReplicationCoordinator::abortPrimaryCatchUp() {
    uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", isReplSet());
    std::lock_guard<std::mutex> lk(_mutex);
    uassert(ErrorCodes::NotWritablePrimary, "node is not in primary state", _state == MemberState::kPrimary);
    if (!_catchUp.active) return;
    LOGV2(21364, Replication, "Received replSetAbortPrimaryCatchUp request");
    _catchUp.abortReason = "catch-up aborted by replSetAbortPrimaryCatchUp";
}

}  // namespace repl
}  // namespace mongo
