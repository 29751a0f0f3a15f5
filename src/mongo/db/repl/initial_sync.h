#pragma once
// InitialSyncer: MongoDB's logical initial sync, for a member with no usable oplog (a new
// member, a wiped one, one whose earlier initial sync did not finish). The coordinator runs it
// in STARTUP2 instead of the oplog fetcher; the member becomes SECONDARY only once it ends.
//
// One attempt:
//   1. choose a sync source (an up member in PRIMARY or SECONDARY state; after a failure,
//      another one when there is one) and note its rollback id (replSetGetRBID);
//   2. persist the "initial sync in progress" flag (local.replset.minvalid), drop every
//      database but local and empty the oplog, all without oplog entries;
//   3. note the source's newest oplog entry: the clone's start point (initialSyncOplogStart;
//      with no multi-document transactions the oldest active point is the same entry);
//   4. clone every database but local (initial_sync_cloner.h);
//   5. note the source's newest entry again (initialSyncOplogEnd), fetch its oplog from the
//      start point to there, write the start entry to this node's oplog and apply the others
//      in order (OplogApplier::Mode::kInitialSync: the clone may be past an entry already),
//      each written verbatim to the oplog in the same unit of work; unique indexes stay
//      relaxed until then;
//   6. check the source did not roll back meanwhile (its rollback id), clear the flag
//      (journaled): the data is the source's as of the end point, and the oplog ends there.
// Any failure (the source went away, a rollback, an entry that cannot be applied) ends the
// attempt; the next begins from step 1 after a second, up to kMaxFailedAttempts (10, MongoDB's
// numInitialSyncAttempts). The flag stays set until an attempt succeeds, so a restart in the
// middle begins again rather than trusting half-copied data: the member is never SECONDARY
// with half a copy. After the last failed attempt the syncer gives up (onFailedForGood), as
// MongoDB does (which exits the process); a restart tries again.
//
// Progress: replSetGetStatus.initialSyncStatus (initial_sync_progress.h) and the log.
// Fail points (MongoDB's names): initialSyncHangBeforeCopyingDatabases,
// initialSyncHangDuringCollectionClone {namespace, numDocsToClone},
// initialSyncHangBeforeFinish.
// Thread safety: start/stop/restartAttempt/appendStatus from any thread (not from the hooks);
// the hooks run on the syncer's thread ("ReplCoordExtern-initialSync").
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/initial_sync_progress.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

class InitialSyncer {
public:
    struct Hooks {
        // A member to sync from ("host:port"), avoiding `avoid` (the source of the last failed
        // attempt) when another qualifies; nullopt: none now (the syncer waits).
        std::function<std::optional<std::string>(const std::string& avoid)> chooseSyncSource;
        // An attempt emptied this node's data and oplog (its last applied optime is null again)
        // and will write the source's entries from `start` on.
        std::function<void(const OpTime& start)> onAttemptStart;
        // The sync succeeded: data and oplog are the source's as of lastApplied.
        std::function<void(const OpTime& lastApplied)> onCompleted;
        // kMaxFailedAttempts attempts failed; why: the last failure.
        std::function<void(const std::string& why)> onFailedForGood;
    };

    ~InitialSyncer() { stop(); }
    void start(Hooks hooks);
    // Abandons the sync (shutdown). The flag stays: a restart syncs again.
    void stop();
    bool running() const { return _running.load(); }
    // replSetSyncFrom during initial sync: the current attempt is abandoned (not counted as a
    // failure) and a new one begins with whatever chooseSyncSource then returns.
    void restartAttempt();
    // initialSyncStatus (nothing once the syncer never ran).
    void appendStatus(BSONObjBuilder* b) const;
    std::string currentSyncSource() const;

    // local.replset.minvalid's initialSyncFlag: an initial sync began and did not finish.
    static bool flagIsSet(OperationContext* opCtx);

private:
    void run();
    // One attempt against source: the optime the data and oplog end at. Throws DBException.
    OpTime attempt(OperationContext* opCtx, const std::string& source, int* rbid);
    void checkInterrupt() const;
    void update(const std::function<void(InitialSyncProgress&)>& f);

    Hooks _hooks;
    std::thread _thread;
    std::atomic<bool> _stop{false};
    std::atomic<bool> _restart{false};
    std::atomic<bool> _running{false};
    mutable std::mutex _mutex;  // guards the fields below
    InitialSyncProgress _progress;
    std::string _source;
    bool _everStarted = false;
};

// Sets/clears local.replset.minvalid's initialSyncFlag, journaled before it returns.
void setInitialSyncFlag(OperationContext* opCtx, bool set, const OpTime& appliedThrough);

}  // namespace repl
}  // namespace mongo
