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
    long long saved = 0;
    try {
        saved = writeRollbackFiles(opCtx.get(), _options.dbpath, p.divergent);
    } catch (const DBException& e) {
        LOGV2_ERROR(21610, Replication, "Rollback: saving the rolled-back documents failed",
                    logv2::attrs("error", e.toStatus().toString()));
    }
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _rbid.fetch_add(1);
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
