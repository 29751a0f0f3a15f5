#pragma once
// OplogFetcher: a secondary's replication thread. It tails its sync source's oplog with a
// tailable awaitData find + getMore on local.oplog.rs (through libmongoc, remote_client.h)
// and hands each batch to the applier (oplog_applier.h), in order.
//
// Where it starts: at the member's last applied entry, which must be the first entry the
// source returns (same ts and term). If it is not, the member's history and the source's
// differ (the member holds entries the set rolled back, or the source's oplog no longer
// reaches back that far): that needs rollback or initial sync (milestone 3), so the fetcher
// stops and reports it instead of applying anything (never a silent divergence). A member
// with an empty oplog (it just joined the set) may start from the source's first entry only
// when that is the set's very first one ("initiating set"), i.e. the source's oplog still
// holds the whole history of the set; otherwise it needs initial sync and is refused.
//
// Thread safety: start/stop from any thread (not from the hooks); the hooks run on the
// fetcher's thread.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

class RemoteClient;

// A getMore field of members' fetchers: the replSetUpdatePosition command of the member, which
// the source processes as that command (same privilege) before it serves the getMore.
constexpr const char* kUpdatePositionField = "$_replUpdatePosition";

class OplogFetcher {
public:
    struct Hooks {
        // The member to sync from now ("host:port"), or nullopt (wait).
        std::function<std::optional<std::string>()> chooseSyncSource;
        // The newest applied entry (null: the oplog is empty).
        std::function<OpTime()> lastApplied;
        // A batch was applied (after its entries committed); applied is its last entry.
        // reportedWithNextRequest: the fetcher's next getMore carries this member's progress
        // (updatePosition below), so it needs no replSetUpdatePosition of its own.
        std::function<void(const OpTime& applied, bool reportedWithNextRequest)> onBatchApplied;
        // This member's progress as a replSetUpdatePosition command (empty: none to give). The
        // getMores after a batch carry it (kUpdatePositionField): the source counts it before it
        // waits for more entries, with no message and no thread hop of its own per batch.
        std::function<BSONObj()> updatePosition;
        // A batch's progress could not travel with a getMore (the cursor ended): report it apart.
        std::function<void()> reportPosition;
        // Fetching cannot go on (divergence, needs initial sync): why, for state and log.
        std::function<void(const std::string& why)> onCannotSync;
        // This source is unfit for a while (too stale for us, or its batches refused): another
        // one is chosen meanwhile.
        std::function<void(const std::string& source, const std::string& why, std::chrono::milliseconds)>
            denySyncSource;
        // The primary's oplog no longer reaches back to our last entry (MongoDB's "too stale"):
        // the member waits in RECOVERING for a source whose oplog does (onFollowing ends it).
        std::function<void(const std::string& why)> onTooStale;
        // The source's history was checked to continue ours: from here on its entries are applied.
        std::function<void()> onFollowing;
        // Whether this member is a new primary catching up (its sources may sync from no one).
        std::function<bool()> catchingUp;
        // Whether the member's data may be ahead of the entries it applies (after a rollback in
        // place, until minValid): they are then applied as initial sync replays entries.
        std::function<bool()> replayingOverNewerData;
        // secondaryDelaySecs of this member (0: none).
        std::function<long long()> delaySecs;
        // Our history diverged from the source's (connected as `source`): roll back (the
        // fetcher stops fetching from it; rollback.h).
        std::function<void(RemoteClient* source, const std::string& why)> onDiverged;
        // This member's term, sent with every find/getMore on the source's oplog.
        std::function<long long()> term;
        // The source's commit point and term ($replData of each reply), after the batch applied.
        std::function<void(const OpTime& committed, Date_t wall, long long sourceTerm)> onSourceCommitPoint;
    };

    ~OplogFetcher() { stop(); }
    void start(Hooks hooks);
    void stop();
    // Like stop() for what matters to a node about to take writes: once it returns no entry is
    // being applied and none will be, but it does not wait for the thread, which may still be
    // blocked in a call to an unresponsive sync source (up to the network timeout); stop() or
    // start() joins it later. (A new primary must not wait for a SIGSTOPped old primary.)
    void stopApplying();
    bool running() const { return _running.load(); }
    // True while it applies from a source whose history it checked continues ours (not while
    // choosing, checking, rolling back or between cursors): what $replData calls hasSyncSource.
    bool following() const { return _following.load(); }
    // The source of the current cursor ("" if none).
    std::string syncSource() const;

private:
    void run();
    // One cursor's life on source: returns when it ends (error, stop, source change).
    void fetchFrom(const std::string& source);

    Hooks _hooks;
    std::thread _thread;
    std::atomic<bool> _stop{false};
    std::atomic<bool> _running{false};
    mutable std::mutex _mutex;
    std::string _source;
    std::atomic<bool> _following{false};
    // The last source that refused $_dedupForwardDeltas (fetcher thread only): it is asked
    // without it from then on, until another source refuses it too or this member restarts.
    std::string _sourceRefusingDeltas;
    // Likewise for the last source that refused kUpdatePositionField on a getMore.
    std::string _sourceRefusingPositions;
    std::mutex _applyMutex;  // held while one entry is applied (stopApplying waits for it)
    // start/stop come from different threads (the coordinator's background thread, an
    // election won on a heartbeat thread): one at a time, or two would join (and one replace)
    // the same std::thread.
    std::mutex _lifecycleMutex;
    void stopLocked();
};

}  // namespace repl
}  // namespace mongo
