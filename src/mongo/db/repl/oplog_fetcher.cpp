#include "mongo/db/repl/oplog_fetcher.h"

#include <chrono>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/dedup/entry_rebuilder.h"
#include "mongo/db/repl/dedup/oplog_delta_encoding.h"
#include "mongo/db/repl/oplog_applier.h"
#include "mongo/db/repl/repl_metrics.h"
#include "mongo/db/repl/sync_source.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/service_context.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {

// stopReplProducer (MongoDB's name): while on, the fetcher asks its source for nothing more
// (no find, no getMore); a batch already received is still applied. Rollback tests use it to
// keep a write on the primary alone.
MONGO_FAIL_POINT_DEFINE(stopReplProducer);

namespace repl {
namespace {

constexpr int kNetworkTimeoutMillis = 5000;
constexpr long long kAwaitMillis = 500;  // how long one getMore waits for new entries

// Whether members ask their sync source for forward-encoded inserts (oplog_delta_encoding.h).
ServerParameterWithStorage<bool> gFetchForwardDeltas("replFetchForwardDeltas", true,
                                                     ServerParameterType::kStartupAndRuntime);

void sleepFor(long long ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Holds the fetcher while stopReplProducer is on; true if it must stop meanwhile.
bool heldByStopReplProducer(const std::atomic<bool>& stop) {
    while (stopReplProducer.shouldFail() && !stop) sleepFor(50);
    return stop;
}

// Marks the fetcher as following a source whose history it verified, for the scope's life.
struct FollowingScope {
    std::atomic<bool>& flag;
    explicit FollowingScope(std::atomic<bool>& f) : flag(f) { flag = true; }
    ~FollowingScope() { flag = false; }
};

void killCursor(RemoteClient* source, long long cursorId) {
    if (cursorId == 0) return;
    BSONObjBuilder kill;
    kill.append("killCursors", "oplog.rs");
    BSONArrayBuilder ids;
    ids.append(cursorId);
    kill.appendArray("cursors", ids.arr());
    source->runCommand("local", kill.obj(), int(kAwaitMillis));
}

// On leaving a cursor's loop with progress that was meant to ride on the next getMore: it is
// reported apart (replSetUpdatePosition), else the source would learn it only from a heartbeat.
struct ReportPendingPosition {
    bool& pending;
    const OplogFetcher::Hooks& hooks;
    ~ReportPendingPosition() {
        if (pending && hooks.reportPosition) hooks.reportPosition();
        pending = false;
    }
};

// The source's $replData (ReplicationCoordinator::appendReplData), owned; empty if none.
BSONObj replDataOf(const BSONObj& reply) {
    BSONElement d = reply["$replData"];
    return d.type() == Object ? d.embeddedObject().getOwned() : BSONObj();
}

}  // namespace

void OplogFetcher::start(Hooks hooks) {
    std::lock_guard<std::mutex> life(_lifecycleMutex);
    stopLocked();
    _hooks = std::move(hooks);
    _stop = false;
    _running = true;
    _thread = std::thread([this] { run(); });
}

void OplogFetcher::stopApplying() {
    _stop = true;
    std::lock_guard<std::mutex> applying(_applyMutex);
}

void OplogFetcher::stop() {
    std::lock_guard<std::mutex> life(_lifecycleMutex);
    stopLocked();
}

void OplogFetcher::stopLocked() {
    _stop = true;
    if (_thread.joinable()) _thread.join();
    _running = false;
    std::lock_guard<std::mutex> lk(_mutex);
    _source.clear();
}

std::string OplogFetcher::syncSource() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _source;
}

void OplogFetcher::run() {
    logv2::setThreadName("BackgroundSync");
    while (!_stop) {
        auto source = _hooks.chooseSyncSource();
        if (!source) {
            sleepFor(100);
            continue;
        }
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _source = *source;
        }
        LOGV2(21799, Replication, "Sync source candidate chosen", logv2::attrs("syncSource", *source));
        fetchFrom(*source);
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _source.clear();
        }
        if (!_stop) sleepFor(100);
    }
    _running = false;
}

void OplogFetcher::fetchFrom(const std::string& source) {
    if (heldByStopReplProducer(_stop)) return;
    RemoteClient client(source, kNetworkTimeoutMillis);
    const OpTime last = _hooks.lastApplied();
    BSONObjBuilder find;
    find.append("find", "oplog.rs");
    if (!last.isNull()) {
        BSONObjBuilder f;
        BSONObjBuilder gte;
        gte.append("$gte", last.getTimestamp());
        f.append("ts", gte.obj());
        find.append("filter", f.obj());
    }
    find.append("tailable", true);
    find.append("awaitData", true);
    // Our term: a source in an older one (a primary paused through an election) steps down
    // before it answers (ReplicationCoordinator::observeRequestTerm).
    if (_hooks.term) find.append("term", _hooks.term());
    // Inserts as forward deltas against documents we hold (oplog_delta_encoding.h), unless the
    // source refused the field before (a server that does not know it).
    const bool askDeltas = gFetchForwardDeltas.get() && source != _sourceRefusingDeltas;
    if (askDeltas) find.append(kFetchForwardDeltasField, true);
    auto reply = client.runCommand("local", find.obj());
    if (!reply.isOK() && askDeltas && reply.getStatus().code() == 40415) {  // unknown field
        LOGV2(7700203, Replication, "The sync source does not send forward-encoded entries; fetching whole ones",
              logv2::attrs("syncSource", source, "error", reply.getStatus().toString()));
        _sourceRefusingDeltas = source;
        return;
    }
    if (!reply.isOK()) {
        LOGV2(21274, Replication, "Error returned from oplog query",
              logv2::attrs("syncSource", source, "error", reply.getStatus().toString()));
        return;
    }
    BSONObj cursor = reply.getValue()["cursor"].embeddedObject().getOwned();
    BSONObj replData = replDataOf(reply.getValue());
    long long cursorId = cursor["id"].numberLong();
    std::vector<BSONElement> batch = cursor["firstBatch"].arrayElements();
    // Entries, and verdicts on our history (too stale, diverged), only from a source in our term
    // or newer that is primary or syncs itself (sync_source.h): a primary paused through an
    // election and resumed answers with its last old-term writes, which the new primary never
    // has. Such a source is set aside for a moment (another is chosen); our next request to it
    // carries our term.
    auto refusedBatch = [&](const BSONObj& data) {
        std::string why = whyNotApplyBatchFrom(data, _hooks.term ? _hooks.term() : 0,
                                               _hooks.catchingUp && _hooks.catchingUp());
        if (why.empty()) return false;
        LOGV2(7700206, Replication, "Not applying a batch from this sync source",
              logv2::attrs("syncSource", source, "reason", why));
        killCursor(&client, cursorId);
        if (_hooks.denySyncSource) _hooks.denySyncSource(source, why, std::chrono::seconds(2));
        return true;
    };
    if (refusedBatch(replData)) return;
    if (batch.empty()) {
        // Nothing at or after our last entry's timestamp. Either the source is simply not ahead
        // of us, or its history went another way: its newest entry is then newer than ours (a
        // later term) although it has nothing from our timestamp on. The latter is a
        // divergence (our last entries were never majority-committed): it needs rollback.
        auto newest = newestOplogEntry(&client);
        if (newest.isOK() && !last.isNull()) {
            if (!newest.getValue().isEmpty()) {
                auto e = OplogEntry::parse(newest.getValue());
                if (e.isOK() && last < e.getValue().opTime)
                    _hooks.onDiverged(&client, "the sync source " + source + " has newer entries (up to " +
                                                   e.getValue().opTime.toString() + ") but none from our last applied "
                                                   "optime " + last.toString() + " on");
            }
        }
        return;
    }
    // The first entry decides whether the source's history continues ours.
    auto first = OplogEntry::parse(batch[0].embeddedObject());
    if (!first.isOK()) {
        _hooks.onCannotSync("the sync source's oplog holds an entry this server cannot parse: " + first.getStatus().toString());
        return;
    }
    size_t skip = 0;
    if (last.isNull()) {
        BSONElement msg = first.getValue().o["msg"];
        if (first.getValue().op != OpTypeEnum::kNoop || msg.type() != String || msg.str() != "initiating set") {
            _hooks.onCannotSync("the sync source's oplog no longer starts with the set's first entry: this member needs "
                                "an initial sync, which this server does not have yet (issue 10, milestone 3)");
            return;
        }
    } else {
        if (first.getValue().opTime != last) {
            // Our last entry is not in the source's oplog: it rolled off there (we are too
            // stale: MongoDB's RECOVERING until someone resyncs us), or the source never had it
            // (our history diverged: rollback).
            auto oldest = oldestOplogEntry(&client);
            auto o = oldest.isOK() && !oldest.getValue().isEmpty() ? OplogEntry::parse(oldest.getValue())
                                                                   : StatusWith<OplogEntry>(oldest.getStatus());
            if (o.isOK() && last.getTimestamp() < o.getValue().opTime.getTimestamp()) {
                const std::string why = "we are too stale to use " + source + " as a sync source: our last applied " +
                    "optime " + last.toString() + " is older than its oldest entry " + o.getValue().opTime.toString();
                // As MongoDB, the source is denylisted for a minute and another is chosen: a
                // secondary's oplog can start later than ours (it resynced, or is small). When even
                // the primary's does, the member waits in RECOVERING, still looking: a member
                // with a longer oplog may come back (never a final verdict; resyncing is the
                // operator's remedy when none does).
                if (_hooks.denySyncSource) _hooks.denySyncSource(source, why, std::chrono::minutes(1));
                const bool fromPrimary = replData["isPrimary"].type() == Bool && replData["isPrimary"].boolean();
                if (fromPrimary && _hooks.onTooStale) _hooks.onTooStale(why + " (resync this member if no member's oplog reaches back)");
                return;
            }
            if (!oldest.isOK()) return;  // the source went away: choose again
            _hooks.onDiverged(&client, "our last applied optime " + last.toString() + " is not in the sync source " +
                                           source + "'s oplog (its entry there is " +
                                           first.getValue().opTime.toString() + ")");
            return;
        }
        skip = 1;
    }
    bool positionPending = false;  // applied entries whose progress the next getMore reports
    // From here on the source's history continues ours: what we apply from it makes us a
    // source others may take entries from ($replData hasSyncSource).
    FollowingScope following(_following);
    if (_hooks.onFollowing) _hooks.onFollowing();
    while (!_stop) {
        noteBatchReceived(batch);
        if (skip < batch.size()) {
            auto opCtx = makeOperationContext(internalClient());
            OpTime applied;
            bool incomplete = false;  // an entry could not be had: a new cursor starts after `applied`
            const bool replaying = _hooks.replayingOverNewerData && _hooks.replayingOverNewerData();
            for (size_t i = skip; i < batch.size() && !_stop; ++i) {
                auto rebuilt = rebuildFetchedEntry(opCtx.get(), &client, batch[i].embeddedObject(), int(kAwaitMillis));
                if (!rebuilt.isOK()) {
                    LOGV2(7700202, Replication, "Could not fetch an oplog entry whole",
                          logv2::attrs("syncSource", source, "error", rebuilt.getStatus().toString()));
                    incomplete = true;
                    break;
                }
                BSONObj doc = rebuilt.getValue().doc.getOwned();
                opCtx->recoveryUnit()->abandonSnapshot();
                auto e = OplogEntry::parse(doc);
                if (!e.isOK()) {
                    _hooks.onCannotSync("cannot parse the fetched entry " + doc.jsonString() + ": " + e.getStatus().toString());
                    return;
                }
                if (long long delay = _hooks.delaySecs ? _hooks.delaySecs() : 0; delay > 0) {
                    // secondaryDelaySecs: apply an entry only once it is that old.
                    while (!_stop && Date_t::now().millis < e.getValue().wall.millis + delay * 1000) sleepFor(100);
                    if (_stop) break;
                }
                std::lock_guard<std::mutex> applying(_applyMutex);
                if (_stop) break;  // stopApplying(): not one more entry
                Status s = [&] {
                    ReplicatedDeltaScope re(rebuilt.getValue().replicated);
                    const auto mode = replaying ? OplogApplier::Mode::kInitialSync : OplogApplier::Mode::kSecondary;
                    return OplogApplier::apply(opCtx.get(), e.getValue(), doc, mode, [this] { return _stop.load(); });
                }();
                if (!s.isOK() && _stop) break;  // stopApplying() during a write conflict: not applied
                if (!s.isOK()) {
                    _hooks.onCannotSync("failed to apply the entry " + doc.jsonString() + ": " + s.toString());
                    return;
                }
                applied = e.getValue().opTime;
                opCtx->recoveryUnit()->abandonSnapshot();
            }
            if (!applied.isNull()) {
                // The next getMore carries our progress, unless the cursor ends here or the source
                // does not take it (then replSetUpdatePosition goes apart, as before).
                const bool withNext = !incomplete && cursorId != 0 && source != _sourceRefusingPositions;
                _hooks.onBatchApplied(applied, withNext);
                positionPending = withNext;
            }
            if (incomplete) {
                killCursor(&client, cursorId);
                return;
            }
        }
        if (_hooks.onSourceCommitPoint && replData["lastOpCommitted"].type() == Object) {
            auto committed = OpTime::parse(replData["lastOpCommitted"].embeddedObject());
            if (committed.isOK())
                _hooks.onSourceCommitPoint(committed.getValue(), replData["lastCommittedWall"].date(),
                                           replData["term"].numberLong());
        }
        skip = 0;
        // Progress that was to ride on a getMore which will not be sent goes apart.
        ReportPendingPosition report{positionPending, _hooks};
        if (cursorId == 0) return;
        // A new sync source (say, a new primary) ends this cursor.
        auto want = _hooks.chooseSyncSource();
        if (!want || *want != source) {
            killCursor(&client, cursorId);
            return;
        }
        if (heldByStopReplProducer(_stop)) return;
        BSONObjBuilder more;
        more.append("getMore", cursorId);
        more.append("collection", "oplog.rs");
        more.append("maxTimeMS", kAwaitMillis);
        if (_hooks.term) more.append("term", _hooks.term());
        if (positionPending && _hooks.updatePosition) {
            BSONObj position = _hooks.updatePosition();
            if (!position.isEmpty()) more.append(kUpdatePositionField, position);
        }
        const auto getMoreStart = std::chrono::steady_clock::now();
        auto r = client.runCommand("local", more.obj(), int(kAwaitMillis));
        noteOplogGetMore(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                               getMoreStart).count());
        if (!r.isOK() && positionPending && r.getStatus().code() == 40415) {  // unknown field
            LOGV2(7700204, Replication, "The sync source does not take progress reports with getMore; sending them apart",
                  logv2::attrs("syncSource", source, "error", r.getStatus().toString()));
            _sourceRefusingPositions = source;
            return;  // the report goes apart on the way out; a new cursor starts after what we applied
        }
        positionPending = r.isOK() ? false : positionPending;
        if (!r.isOK()) {
            LOGV2(21275, Replication, "Error returned from oplog query while tailing",
                  logv2::attrs("syncSource", source, "error", r.getStatus().toString()));
            return;
        }
        BSONObj c = r.getValue()["cursor"].embeddedObject().getOwned();
        replData = replDataOf(r.getValue());
        cursorId = c["id"].numberLong();
        cursor = c;
        batch = cursor["nextBatch"].arrayElements();
        if (refusedBatch(replData)) return;
    }
}

}  // namespace repl
}  // namespace mongo
