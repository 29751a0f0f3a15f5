#include "mongo/db/repl/initial_sync.h"

#include <chrono>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/repl/coordinator_internal.h"
#include "mongo/db/repl/initial_sync_cloner.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/oplog_applier.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/service_context.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

MONGO_FAIL_POINT_DEFINE(initialSyncHangBeforeCopyingDatabases);
MONGO_FAIL_POINT_DEFINE(initialSyncHangBeforeFinish);

namespace {

constexpr int kNetworkTimeoutMillis = 10000;
constexpr int kOplogBatchSize = 1000;

const NamespaceString& minValidNss() {
    static const NamespaceString n = NamespaceString::parse("local.replset.minvalid");
    return n;
}

void sleepMillis(long long ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The source's newest oplog entry (its document in *doc).
OpTime newestEntry(RemoteClient* source, BSONObj* doc) {
    auto newest = newestOplogEntry(source);
    uassertStatusOK(newest.getStatus());
    uassert(ErrorCodes::InitialSyncOplogSourceMissing, "the sync source " + source->host() + " has an empty oplog",
            !newest.getValue().isEmpty());
    *doc = newest.getValue();
    auto e = OplogEntry::parse(*doc);
    uassertStatusOK(e.getStatus());
    return e.getValue().opTime;
}

int rollbackIdOf(RemoteClient* source) {
    BSONObjBuilder cmd;
    cmd.append("replSetGetRBID", 1);
    return runOrThrow(source, "admin", cmd.obj())["rbid"].numberInt();
}

}  // namespace

bool InitialSyncer::flagIsSet(OperationContext* opCtx) {
    CatalogReadLock lock;
    auto doc = readSingleton(opCtx, minValidNss());
    return doc && doc->doc["initialSyncFlag"].trueValue();
}

void setInitialSyncFlag(OperationContext* opCtx, bool set, const OpTime& appliedThrough) {
    BSONObjBuilder b;
    b.append("_id", "minvalid");
    b.append("ts", appliedThrough.getTimestamp());
    b.append("t", appliedThrough.getTerm());
    if (set) b.append("initialSyncFlag", true);
    {
        UnreplicatedWritesBlock unreplicated;
        CatalogDDLLock lock;
        writeSingleton(opCtx, minValidNss(), b.obj());
    }
    opCtx->recoveryUnit()->waitUntilDurable();
}

void InitialSyncer::start(Hooks hooks) {
    stop();
    _hooks = std::move(hooks);
    _stop = false;
    _restart = false;
    _running = true;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _everStarted = true;
    }
    _thread = std::thread([this] { run(); });
}

void InitialSyncer::stop() {
    _stop = true;
    if (_thread.joinable()) _thread.join();
    _running = false;
}

void InitialSyncer::restartAttempt() { _restart = true; }

std::string InitialSyncer::currentSyncSource() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _running ? _source : std::string();
}

void InitialSyncer::appendStatus(BSONObjBuilder* b) const {
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_everStarted) return;
    BSONObjBuilder& s = b->subobjStart("initialSyncStatus");
    _progress.append(&s, Date_t::now());
    s.doneFast();
}

void InitialSyncer::update(const std::function<void(InitialSyncProgress&)>& f) {
    std::lock_guard<std::mutex> lk(_mutex);
    f(_progress);
}

void InitialSyncer::checkInterrupt() const {
    if (_stop) uasserted(ErrorCodes::ShutdownInProgress, "initial sync stopped");
    if (_restart) uasserted(ErrorCodes::InitialSyncFailure, "initial sync restarted by replSetSyncFrom");
}

void InitialSyncer::run() {
    logv2::setThreadName("ReplCoordExtern-initialSync");
    auto opCtx = makeOperationContext(internalClient());
    std::string avoid;
    while (!_stop) {
        auto source = _hooks.chooseSyncSource(avoid);
        if (!source) {
            sleepMillis(200);
            continue;
        }
        int attemptNumber;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _progress.beginAttempt(Date_t::now());
            _source = *source;
            attemptNumber = _progress.failedAttempts + 1;
        }
        _restart = false;
        LOGV2(21164, Replication, "Starting initial sync attempt",
              logv2::attrs("syncSource", *source, "attempt", attemptNumber, "maxAttempts",
                           InitialSyncProgress::kMaxFailedAttempts));
        int rbid = -1;
        Status status = Status::OK();
        OpTime end;
        try {
            end = attempt(opCtx.get(), *source, &rbid);
        } catch (const DBException& e) {
            status = e.toStatus();
        }
        opCtx->recoveryUnit()->abandonSnapshot();
        if (_stop) break;
        if (_restart) {
            LOGV2(21167, Replication, "Initial sync attempt abandoned: restarting with a new sync source",
                  logv2::attrs("syncSource", *source));
            continue;
        }
        int failed;
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _progress.endAttempt(Date_t::now(), status, *source, rbid);
            failed = _progress.failedAttempts;
        }
        if (status.isOK()) {
            LOGV2(21192, Replication, "Initial sync done",
                  logv2::attrs("syncSource", *source, "lastApplied", end.toBSON(), "failedAttempts", failed));
            _hooks.onCompleted(end);
            break;
        }
        LOGV2_ERROR(21200, Replication, "Initial sync attempt failed",
                    logv2::attrs("syncSource", *source, "error", status.toString(), "attemptsLeft",
                                 InitialSyncProgress::kMaxFailedAttempts - failed));
        if (failed >= InitialSyncProgress::kMaxFailedAttempts) {
            LOGV2_ERROR(21201, Replication, "The maximum number of retries have been exhausted for initial sync",
                        logv2::attrs("error", status.toString()));
            _hooks.onFailedForGood(status.toString());
            break;
        }
        avoid = *source;
        for (int i = 0; i < 10 && !_stop; ++i) sleepMillis(100);
    }
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _source.clear();
    }
    _running = false;
}

OpTime InitialSyncer::attempt(OperationContext* opCtx, const std::string& sourceHost, int* rbid) {
    RemoteClient source(sourceHost, kNetworkTimeoutMillis);
    *rbid = rollbackIdOf(&source);

    // Whatever this node held is replaced, and stays marked unusable until the end.
    setInitialSyncFlag(opCtx, true, OpTime());
    dropReplicatedDatabases(opCtx);
    {
        CatalogDDLLock lock;
        Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
        uassert(ErrorCodes::NamespaceNotFound, "initial sync needs local.oplog.rs", oplog);
        oplog->truncate(opCtx);
    }

    BSONObj startDoc;
    const OpTime start = newestEntry(&source, &startDoc);
    update([&](InitialSyncProgress& p) { p.oplogStart = start; });
    if (_hooks.onAttemptStart) _hooks.onAttemptStart(start);
    LOGV2(21173, Replication, "Initial sync: oplog start point recorded",
          logv2::attrs("syncSource", sourceHost, "beginFetchingOpTime", start.toBSON(), "beginApplyingOpTime",
                       start.toBSON()));
    initialSyncHangBeforeCopyingDatabases.pauseWhileSet([this] { checkInterrupt(); });

    DataCloner cloner(&source, [this](const std::function<void(InitialSyncProgress&)>& f) { update(f); },
                      [this] { checkInterrupt(); });
    cloner.cloneAll(opCtx);

    BSONObj endDoc;
    const OpTime end = newestEntry(&source, &endDoc);
    update([&](InitialSyncProgress& p) { p.oplogEnd = end; });
    LOGV2(21179, Replication, "Initial sync: cloning done; applying the sync source's oplog",
          logv2::attrs("from", start.toBSON(), "to", end.toBSON()));

    // The source's oplog from the start point to the end point, over the clone.
    BSONObjBuilder find;
    find.append("find", "oplog.rs");
    BSONObjBuilder filter;
    BSONObjBuilder gte;
    gte.append("$gte", start.getTimestamp());
    filter.append("ts", gte.obj());
    find.append("filter", filter.obj());
    find.append("batchSize", kOplogBatchSize);
    RemoteCursor cursor(&source, "local", find.obj());
    bool first = true;
    long long applied = 0;
    for (;;) {
        const BSONObj* next = cursor.next();
        uassert(ErrorCodes::InitialSyncOplogSourceMissing,
                "the sync source's oplog ended before the initial sync's end point " + end.toString(), next);
        checkInterrupt();
        BSONObj doc = next->getOwned();
        auto parsed = OplogEntry::parse(doc);
        uassertStatusOK(parsed.getStatus());
        const OplogEntry& e = parsed.getValue();
        if (first) {
            // The source's oplog must still hold the start point (else it rolled over or
            // rolled back during the clone: the entries in between are lost to us).
            uassert(ErrorCodes::InitialSyncOplogSourceMissing,
                    "the sync source's oplog no longer holds the initial sync's start point " + start.toString() +
                        " (its first entry from there is " + e.opTime.toString() + ")",
                    e.opTime == start);
            CollectionWriteLock lock;
            WriteUnitOfWork wuow(opCtx);
            LocalOplog::get()->appendVerbatim(opCtx, doc, e.opTime, e.wall);
            wuow.commit();
            first = false;
        } else {
            if (end < e.opTime) break;
            Status s = OplogApplier::apply(opCtx, e, doc, OplogApplier::Mode::kInitialSync);
            if (!s.isOK())
                uassertStatusOK(Status(s.code(), "initial sync: failed to apply " + doc.jsonString() + ": " + s.reason()));
            ++applied;
            update([&](InitialSyncProgress& p) { p.appliedOps = applied; });
        }
        opCtx->recoveryUnit()->abandonSnapshot();
        if (e.opTime == end) break;
    }
    LOGV2(21181, Replication, "Initial sync: oplog applied", logv2::attrs("appliedOps", applied, "lastApplied", end.toBSON()));

    // A rollback on the source during the clone could have undone entries we applied.
    const int rbidAfter = rollbackIdOf(&source);
    uassert(ErrorCodes::InitialSyncFailure,
            "the sync source " + sourceHost + " rolled back during initial sync (rollback id " + std::to_string(*rbid) +
                " -> " + std::to_string(rbidAfter) + ")",
            rbidAfter == *rbid);
    initialSyncHangBeforeFinish.pauseWhileSet([this] { checkInterrupt(); });
    checkInterrupt();
    setInitialSyncFlag(opCtx, false, end);
    return end;
}

}  // namespace repl
}  // namespace mongo
