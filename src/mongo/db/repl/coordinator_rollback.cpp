// The coordinator's side of rollback (rollback.h): a member whose history diverged from the
// set's goes through ROLLBACK, saves what it rolls back and resyncs from the set.
#include "mongo/db/repl/coordinator.h"

#include "mongo/db/repl/remote_client.h"
#include "mongo/db/repl/rollback.h"
#include "mongo/db/service_context.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

void ReplicationCoordinator::rollBack(RemoteClient* source, const std::string& why) {
    OpTime lastApplied;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_shutdown || _initialSyncActive || _state != MemberState::kSecondary) return;
        setStateLocked(MemberState::kRollback, "our history diverged from the sync source's");
        lastApplied = _lastApplied;
    }
    LOGV2(21606, Replication, "Rollback: this member's history diverged from the sync source's",
          logv2::attrs("syncSource", source->host(), "reason", why, "lastApplied", lastApplied.toBSON()));
    auto opCtx = makeOperationContext(internalClient());
    auto plan = findCommonPoint(opCtx.get(), source);
    if (!plan.isOK()) {
        // Nothing changed yet: back to SECONDARY, and the fetcher tries again (maybe elsewhere).
        LOGV2_WARNING(21607, Replication, "Rollback: could not find the common point; will try again",
                      logv2::attrs("syncSource", source->host(), "error", plan.getStatus().toString()));
        std::lock_guard<std::mutex> lk(_mutex);
        if (_state == MemberState::kRollback) setStateLocked(MemberState::kSecondary, "rollback did not start");
        return;
    }
    const RollbackPlan& p = plan.getValue();
    LOGV2(21605, Replication, "Rollback common point found",
          logv2::attrs("commonPoint", p.commonPoint.toBSON(), "divergentEntries", static_cast<long long>(p.divergent.size()),
                       "truncated", p.truncated));
    // The resync below discards this member's data: only once what it rolls back is saved.
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
    long long saved = 0;
    try {
        saved = writeRollbackFiles(opCtx.get(), _options.dbpath, p.divergent);
    } catch (const DBException& e) {
        stop("saving the rolled-back documents failed: " + e.toStatus().toString());
        return;
    }
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_shutdown || _state != MemberState::kRollback) return;  // removed or shut down meanwhile
        _rbid.fetch_add(1);
        _commitPoint = OpTime();  // learnt again on the set's history
        _commitPointWall = Date_t();
        // The data is replaced by an initial sync from the set (manageInitialSync), which
        // begins by dropping every replicated database.
        _initialSyncActive = true;
        setStateLocked(MemberState::kStartup2, "rollback: resyncing from the set");
    }
    LOGV2(21612, Replication, "Rollback: rolled-back documents saved; resyncing from the set",
          logv2::attrs("documentsSaved", saved, "rbid", _rbid.load()));
}

}  // namespace repl
}  // namespace mongo
