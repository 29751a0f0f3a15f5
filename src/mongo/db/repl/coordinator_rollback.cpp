// The coordinator's side of rollback (rollback.h): a member whose history diverged from the
// set's goes through ROLLBACK, saves what it rolls back, and either undoes its divergent writes
// in place and replays the set's entries in RECOVERING up to minValid (rollback_refetch.h), or
// resyncs from the set when they cannot be undone so.
#include "mongo/db/repl/coordinator.h"

#include <optional>

#include "mongo/db/repl/initial_sync.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/repl/rollback.h"
#include "mongo/db/repl/rollback_refetch.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

// rollbackHangBeforeFinish (MongoDB's name): a rollback in place holds after it undid the
// divergent writes, before the member goes on to minValid (tests kill it there).
MONGO_FAIL_POINT_DEFINE(rollbackHangBeforeFinish);

void ReplicationCoordinator::rollBack(RemoteClient* source, const std::string& why) {
    OpTime lastApplied;
    bool consistent;  // false: an earlier rollback in place has not reached its minValid
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_shutdown || _initialSyncActive) return;
        if (_catchUp.active && _catchUp.abortReason.empty()) {
            // A new primary catching up from a member whose history is not ours: nothing more to
            // take from it (as MongoDB, the catch-up ends; the other member rolls back later).
            _catchUp.abortReason = "the member ahead has another history: " + why;
            return;
        }
        // Not while running for election or elected: the votes were for this member's history.
        if (_topo.role() != Role::kFollower) return;
        consistent = _rollbackMinValid.isNull();
        if (_state != MemberState::kSecondary && !(!consistent && _state == MemberState::kRecovering)) return;
        setStateLocked(MemberState::kRollback, "our history diverged from the sync source's");
        lastApplied = _lastApplied;
    }
    LOGV2(21606, Replication, "Rollback: this member's history diverged from the sync source's",
          logv2::attrs("syncSource", source->host(), "reason", why, "lastApplied", lastApplied.toBSON()));
    // Nothing changed yet: back to where it was, and the fetcher tries again (maybe elsewhere).
    auto notNow = [&](const char* what, const Status& s) {
        LOGV2_WARNING(21607, Replication, "Rollback did not start; will try again",
                      logv2::attrs("syncSource", source->host(), "step", what, "error", s.toString()));
        std::lock_guard<std::mutex> lk(_mutex);
        if (_state == MemberState::kRollback)
            setStateLocked(consistent ? MemberState::kSecondary : MemberState::kRecovering, "rollback did not start");
    };
    auto opCtx = makeOperationContext(internalClient());
    auto plan = findCommonPoint(opCtx.get(), source);
    if (!plan.isOK()) return notNow("finding the common point", plan.getStatus());
    const RollbackPlan& p = plan.getValue();
    LOGV2(21605, Replication, "Rollback common point found",
          logv2::attrs("commonPoint", p.commonPoint.toBSON(), "divergentEntries", static_cast<long long>(p.divergent.size()),
                       "truncated", p.truncated));
    // What follows discards this member's versions of documents: only once they are saved.
    // Otherwise it stops (RECOVERING, as a MongoDB rollback that fails) and keeps its data.
    auto stop = [&](const std::string& reason) {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_cannotSync.empty()) _cannotSync = reason;
        LOGV2_ERROR(21610, Replication, "Rollback failed: this member keeps its data and stops replicating",
                    logv2::attrs("reason", reason));
        if (_state == MemberState::kRollback) setStateLocked(MemberState::kRecovering, "rollback failed");
    };
    if (p.truncated) {
        stop("more than " + std::to_string(kMaxDivergentBytes >> 20) + " MB of divergent oplog entries: too many to "
             "save before a resync; save what is needed from this member, then empty its data directory");
        return;
    }
    const TouchedDocuments touched = touchedDocuments(opCtx.get(), p.divergent);
    std::string notInPlace = !consistent ? "the data was not consistent yet after an earlier rollback"
        : p.commonPoint.isNull()         ? "no common point with the sync source"
                                         : whyNotInPlace(opCtx.get(), touched);
    std::optional<RefetchedDocuments> refetched;
    if (notInPlace.empty()) {
        auto r = refetchTouchedDocuments(opCtx.get(), source, touched);
        if (r.isOK())
            refetched = std::move(r.getValue());
        else if (r.getStatus().code() == int(ErrorCodes::IllegalOperation))
            notInPlace = r.getStatus().reason();
        else
            return notNow("refetching the touched documents", r.getStatus());
    }
    long long saved = 0;
    try {
        saved = writeRollbackFiles(opCtx.get(), _options.dbpath, touched);
    } catch (const DBException& e) {
        stop("saving the rolled-back documents failed: " + e.toStatus().toString());
        return;
    }
    if (refetched) {
        // From here until minValid the data is neither ours nor the set's: a restart resyncs.
        setInitialSyncFlag(opCtx.get(), true, p.commonPoint);
        {
            std::lock_guard<std::mutex> lk(_mutex);
            if (_shutdown || _state != MemberState::kRollback) return;  // removed or shut down meanwhile
            _rbid.fetch_add(1);
            _rollbackUndoing = true;  // a member re-added meanwhile comes back RECOVERING
        }
        try {
            undoInPlace(opCtx.get(), p.commonPoint, *refetched);
        } catch (const DBException& e) {
            LOGV2_ERROR(7700213, Replication, "Rollback in place failed; resyncing from the set",
                        logv2::attrs("error", e.toStatus().toString()));
            std::lock_guard<std::mutex> lk(_mutex);
            _rollbackUndoing = false;
            // Whatever the state now (removed meanwhile too), the data is not to be kept.
            if (!_shutdown) startResyncLocked("rollback in place failed: resyncing");
            return;
        }
        try {
            rollbackHangBeforeFinish.pauseWhileSet([this] {
                uassert(ErrorCodes::ShutdownInProgress, "shutting down", !_shutdown.load());
            });
        } catch (const DBException&) {
            std::lock_guard<std::mutex> lk(_mutex);
            _rollbackUndoing = false;
            return;  // shutting down: the initial sync flag makes the next start resync
        }
        // The source's entries after the common point commit at their own timestamps, which may
        // be older than what this member applied on its divergent history.
        if (_options.kv) _options.kv->resetStableAndOldestTimestamp(p.commonPoint.getTimestamp().asULL());
        {
            std::lock_guard<std::mutex> lk(_mutex);
            resetAppliedLocked(p.commonPoint, p.commonPointWall);
            _topo.setMyLastApplied(p.commonPoint);
            _rollbackMinValid = refetched->minValid;
            _rollbackUndoing = false;
            if (_state == MemberState::kRollback || _state == MemberState::kSecondary)
                setStateLocked(MemberState::kRecovering, "rollback: applying the set's entries up to minValid");
        }
        LOGV2(7700211, Replication, "Rollback in place: applying the sync source's entries up to minValid",
              logv2::attrs("commonPoint", p.commonPoint.toBSON(), "minValid", refetched->minValid.toBSON(),
                           "documentsSaved", saved, "rbid", _rbid.load()));
        return;
    }
    LOGV2(7700214, Replication, "Rollback: the divergent writes cannot be undone in place; resyncing from the set",
          logv2::attrs("reason", notInPlace));
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_shutdown || _state != MemberState::kRollback) return;  // removed or shut down meanwhile
        startResyncLocked("rollback: resyncing from the set");
    }
    LOGV2(21612, Replication, "Rollback: rolled-back documents saved; resyncing from the set",
          logv2::attrs("documentsSaved", saved, "rbid", _rbid.load()));
}

void ReplicationCoordinator::checkRollbackMinValid(const OpTime& applied) {
    OpTime minValid;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        minValid = _rollbackMinValid;
    }
    if (minValid.isNull() || (applied.getTimestamp() < minValid.getTimestamp() && applied.getTerm() <= minValid.getTerm()))
        return;
    // minValid's entry must be in our history: the documents were refetched from a history that
    // holds it. A source that rolled back meanwhile could lead us past its timestamp on another.
    auto opCtx = makeOperationContext(internalClient());
    auto entry = readOplogEntry(opCtx.get(), minValid);
    const bool holds = entry && (*entry)["t"].numberLong() == minValid.getTerm();
    if (holds) setInitialSyncFlag(opCtx.get(), false, applied);
    std::lock_guard<std::mutex> lk(_mutex);
    if (_rollbackMinValid != minValid) return;
    _rollbackMinValid = OpTime();
    if (!holds) {
        LOGV2_WARNING(7700215, Replication, "Rollback: the set's history went past minValid without it; resyncing",
                      logv2::attrs("minValid", minValid.toBSON(), "lastApplied", applied.toBSON()));
        startResyncLocked("rollback: minValid is not in the set's history");
        return;
    }
    LOGV2(7700212, Replication, "Rollback complete: minValid reached, the data is consistent",
          logv2::attrs("minValid", minValid.toBSON(), "lastApplied", applied.toBSON()));
    if (_state == MemberState::kRecovering && _tooStale.empty() && _cannotSync.empty())
        setStateLocked(MemberState::kSecondary, "rollback complete");
}

void ReplicationCoordinator::startResyncLocked(const char* why) {
    _rbid.fetch_add(1);
    _rollbackMinValid = OpTime();
    _commitPoint = OpTime();  // learnt again on the set's history
    _commitPointWall = Date_t();
    // The data is replaced by an initial sync from the set (manageInitialSync), which begins by
    // dropping every replicated database.
    _initialSyncActive = true;
    setStateLocked(MemberState::kStartup2, why);
}

}  // namespace repl
}  // namespace mongo
