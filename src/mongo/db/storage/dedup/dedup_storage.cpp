#include "mongo/db/storage/dedup/dedup_storage.h"

#include <algorithm>
#include <chrono>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/server_options.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/dedup/dedup_record_store.h"
#include "mongo/db/storage/write_admission.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

std::unique_ptr<DedupStorage> gDedup;

thread_local OperationContext* tlsOpCtx = nullptr;

// Tests hold the encoder, to see inserts wait in (and past) the backlog.
MONGO_FAIL_POINT_DEFINE(hangDedupEncoder);

// Client writes count as paused after this long without one: the moment for the work that
// walks the engine's whole state (serverStatus' chain figures).
constexpr auto kIdleBeforeBackgroundWork = std::chrono::milliseconds(20);
constexpr auto kBackgroundPoll = std::chrono::milliseconds(5);
// An encoder batch: at most this many records or this long, then the locks are let go so
// DDL and the write-back thread are not held up.
constexpr int kEncodeBatchRecords = 64;
constexpr auto kEncodeBatchTime = std::chrono::milliseconds(20);
// Write-backs go in batches this large: each holds the write lock for about as long as a
// client's insert_many of a few documents.
constexpr size_t kWriteBacksPerBatch = 32;
// Once a burst of writes settles (backlog and write-backs drained, clients paused), a
// checkpoint after this many applied write-backs writes the pages in their deduplicated form
// and frees the blocks that held raw records (WiredTiger reuses them, truncates a free tail,
// and background compaction gives back the rest) instead of leaving that to the periodic
// checkpoint (--syncdelay, 60 s). At most one such checkpoint per kSettleCheckpointEvery.
constexpr long long kSettleCheckpointWriteBacks = 256;
constexpr auto kSettleCheckpointEvery = std::chrono::seconds(5);
// A writer lets a waiting write-back batch take the write lock first, for at most this long.
constexpr auto kYieldToWriteBacks = std::chrono::milliseconds(20);
// Under storeRaw, inserts that find the backlog full are stored whole and set aside: at most
// this many (about 100 bytes each), encoded whenever the backlog is empty (after a burst,
// or in the pauses of a load); past this many a record stays whole for good.
constexpr size_t kMaxDeferredInserts = 131072;

long long nowNanos() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

Status noOpCtx() { return Status(ErrorCodes::InternalError, "dedup: engine callback without an operation context"); }

}  // namespace

dedup::Options dedupEngineOptions(const DedupOptions& o) {
    dedup::Options e;
    e.avgChunkSize = static_cast<uint32_t>(o.chunkSize);
    e.sketchSize = static_cast<uint32_t>(o.sketchSize);
    e.anchorInterval = static_cast<uint32_t>(o.anchorInterval);
    e.hopDistance = static_cast<uint32_t>(o.hopDistance);
    e.sourceCacheBytes = static_cast<size_t>(o.sourceCacheMB) << 20;
    e.writeBackCacheBytes = static_cast<size_t>(o.writeBackCacheMB) << 20;
    e.governorMinRatio = o.governorThreshold;
    e.governorWindow = static_cast<uint64_t>(o.governorWindow);
    e.sizeFilter = o.sizeFilter;
    dedup::parseChainScheme(o.chainScheme.c_str(), &e.chainScheme);
    e.maxDecodeSteps = static_cast<uint32_t>(o.maxDecodeSteps);
    return e;
}

DedupOpCtxScope::DedupOpCtxScope(OperationContext* opCtx) : _prev(tlsOpCtx) { tlsOpCtx = opCtx; }
DedupOpCtxScope::~DedupOpCtxScope() { tlsOpCtx = _prev; }
OperationContext* DedupOpCtxScope::current() { return tlsOpCtx; }

DedupServiceOptions dedupServiceOptions(const DedupOptions& o) {
    DedupServiceOptions s;
    s.backlogBytes = static_cast<size_t>(o.backlogMB) << 20;
    s.throttleWhenFull = o.backlogPolicy == "throttle";
    s.readCacheBytes = static_cast<size_t>(o.readCacheMB) << 20;
    return s;
}

DedupStorage::DedupStorage(StorageEngine* engine, const dedup::Options& options, const DedupServiceOptions& service)
    : _storageEngine(engine),
      _service(service),
      _engine(std::make_unique<dedup::Engine>(options, this)),
      _decoded(service.readCacheBytes, &RecoveryUnit::changeEpoch()),
      _forwardDeltas(service.forwardDeltaCacheBytes) {}

DedupStorage::~DedupStorage() { shutdown(); }

DedupStorage* DedupStorage::install(StorageEngine* engine, const dedup::Options& options,
                                   const DedupServiceOptions& service) {
    invariant(!gDedup);
    gDedup.reset(new DedupStorage(engine, options, service));
    DedupStorage* svc = gDedup.get();
    SizeStorer* sizes = engine->kvEngine()->sizeStorer();
    engine->setRecordStoreWrapper(
        [svc, sizes](std::unique_ptr<mongo::RecordStore> base, const CollectionStorageInfo& info) -> std::unique_ptr<mongo::RecordStore> {
            if (!info.dedup) return base;
            std::string db = info.ns.substr(0, info.ns.find('.'));
            return std::make_unique<DedupRecordStore>(std::move(base), db + "." + info.ident, sizes, svc);
        });
    setWriteAdmissionHook([svc](OperationContext* opCtx) { svc->admitClientWrite(opCtx); });
    return svc;
}

DedupStorage* DedupStorage::get() { return gDedup.get(); }

void DedupStorage::registerStore(DedupRecordStore* rs) {
    std::lock_guard<std::mutex> lk(_storesMu);
    _stores[rs->engineNs()] = rs;
}

void DedupStorage::unregisterStore(DedupRecordStore* rs) {
    std::lock_guard<std::mutex> lk(_storesMu);
    auto it = _stores.find(rs->engineNs());
    if (it != _stores.end() && it->second == rs) _stores.erase(it);
}

DedupRecordStore* DedupStorage::storeFor(std::string_view ns) {
    std::lock_guard<std::mutex> lk(_storesMu);
    auto it = _stores.find(ns);
    return it == _stores.end() ? nullptr : it->second;
}

// ---------------------------------------------------------------------------------------
// Start-up and shutdown.

void DedupStorage::start() {
    takeSavedState();
    _rebuild = std::thread([this] { rebuildLoop(); });
    _encoder = std::thread([this] { encoderLoop(); });
    _writeBack = std::thread([this] { writeBackLoop(); });
}

void DedupStorage::shutdown(bool saveState) {
    {
        std::lock_guard<std::mutex> lk(_threadMu);
        _stopping = true;
    }
    _threadCv.notify_all();
    {
        std::lock_guard<std::mutex> lk(_queueMu);
    }
    _insertCv.notify_all();
    _roomCv.notify_all();
    _readyCv.notify_all();
    if (_rebuild.joinable()) _rebuild.join();
    if (_encoder.joinable()) _encoder.join();
    if (_writeBack.joinable()) _writeBack.join();
    std::lock_guard<std::mutex> lk(_queueMu);
    if (!_queue.empty() || !_deferred.empty())
        LOGV2(7700014, Dedup, "Inserts not yet deduplicated at shutdown stay stored whole",
              logv2::attrs("records", static_cast<long long>(_queue.size() + _deferred.size())));
    _queue.clear();
    _deferred.clear();
    _queueBytes = _deferredBytes = 0;
    if (saveState) captureSavedState();
}

// ---------------------------------------------------------------------------------------
// Inserts.

void DedupStorage::enqueueInsert(const std::string& ns, int64_t id, size_t size, bool updated,
                                 std::shared_ptr<const ReplicatedDelta> replicated) {
    std::unique_lock<std::mutex> lk(_queueMu);
    // Under the throttle policy admitClientWrite keeps the backlog near its bound; a writer
    // admitted just before it filled may still overshoot by one batch, up to four times the
    // bound, and past that the record stays stored whole. Under storeRaw, a record past the
    // bound is deferred: stored whole now (its writer never waits) and set aside, to be encoded
    // when the backlog is empty. The backlog itself keeps the newest inserts: encoding right
    // behind the writers is cheap (the record and its source are in the caches), while an
    // encoder that works through a long queue in order reads cold records and falls further
    // behind (measured: at 1M records under 5 loaders it examined 37%). Past
    // kMaxDeferredInserts a record stays whole. This runs in a commit handler, which must not
    // wait or fail.
    const size_t cap = _service.throttleWhenFull ? 4 * _service.backlogBytes : _service.backlogBytes;
    PendingInsert p{ns, id, size, nowNanos(), ++_enqueuedSeq, updated, std::move(replicated)};
    const bool wasIdle = _queue.empty() && _deferred.empty();
    if (!_queue.empty() && _queueBytes + size > cap) {
        if (_service.throttleWhenFull || _deferred.size() >= kMaxDeferredInserts) {
            _backlogStoredRaw.fetch_add(1, std::memory_order_relaxed);
            if (!updated) _forwardDeltas.putNotEncoded(ns, id);
            return;
        }
        _deferredBytes += size;
        _deferred.push_back(std::move(p));
        // Encoded only once the backlog empties: a member's fetch does not wait for it.
        if (!updated) _forwardDeltas.putNotEncoded(ns, id);
        _backlogDeferredTotal.fetch_add(1, std::memory_order_relaxed);
    } else {
        _queueBytes += size;
        _queue.push_back(std::move(p));
    }
    lk.unlock();
    if (wasIdle) _insertCv.notify_one();
}

void DedupStorage::admitClientWrite(OperationContext* opCtx) {
    // A write-back batch waiting for the write lock goes first: under a steady stream of
    // writers it would otherwise wait behind all of them, and the raw bytes it replaces would
    // reach the disk.
    if (backgroundWriteLockWaiters().load(std::memory_order_relaxed) > 0) {
        const auto until = std::chrono::steady_clock::now() + kYieldToWriteBacks;
        while (backgroundWriteLockWaiters().load(std::memory_order_relaxed) > 0 && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (!_service.throttleWhenFull) return;
    std::unique_lock<std::mutex> lk(_queueMu);
    if (_queueBytes < _service.backlogBytes || _stopping) return;
    const auto t0 = std::chrono::steady_clock::now();
    _throttledWrites.fetch_add(1, std::memory_order_relaxed);
    while (_queueBytes >= _service.backlogBytes && !_stopping) {
        _roomCv.wait_for(lk, std::chrono::milliseconds(50));
        lk.unlock();
        opCtx->checkForInterrupt();
        lk.lock();
    }
    _throttledMicros.fetch_add(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count(),
        std::memory_order_relaxed);
}

bool DedupStorage::clientWritesPaused() const {
    return nowNanos() - _lastClientWriteNanos.load(std::memory_order_relaxed) >
        std::chrono::duration_cast<std::chrono::nanoseconds>(kIdleBeforeBackgroundWork).count();
}

void DedupStorage::processInsertLocked(OperationContext* opCtx, const PendingInsert& p) {
    DedupRecordStore* rs = storeFor(p.ns);
    if (!rs) return;  // dropped meanwhile
    // A client updated or deleted the record since it was queued (changedWhileQueued): the
    // engine skips it rather than learn bytes that may be stale. It stays stored whole.
    if (_changedWhileQueued.erase({p.ns, p.id})) return;
    DedupOpCtxScope scope(opCtx);
    try {
        opCtx->recoveryUnit()->abandonSnapshot();
        std::string stored;
        dedup::StoredView v;
        if (!rs->readStored(opCtx, p.id, &stored).isOK() || !dedup::parseStored(p.id, stored, &v).isOK() ||
            v.isDelta || v.retained)
            return;
        if (p.updated) {
            Status st = _engine->onUpdateSettled(p.ns, p.id, v.payload);
            if (st.code() != static_cast<int>(ErrorCodes::NoSuchKey)) return;
            // Not tracked (inserted before dedup was on, or its insert was skipped because
            // it changed while queued): learn it now, as an insert.
        }
        if (p.replicated && reencodeLocked(p, v.payload)) return;
        auto sw = _engine->onInsert(p.ns, p.id, v.payload);
        // DuplicateKey: a resync after a rollback already reported the record.
        if (!sw.isOK() && sw.getStatus().code() != static_cast<int>(ErrorCodes::DuplicateKey))
            _insertsDropped.fetch_add(1, std::memory_order_relaxed);
        if (sw.isOK() && sw.getValue().outcome == dedup::InsertDecision::Outcome::kEncoded)
            keepForwardDelta(opCtx, rs, p, sw.getValue().sourceId, std::move(sw.getValue().forwardDelta));
    } catch (const DBException& e) {
        // Only compression is lost: the record stays stored whole.
        _insertsDropped.fetch_add(1, std::memory_order_relaxed);
        LOGV2_WARNING(7700019, Dedup, "Could not deduplicate an inserted record",
                      logv2::attrs("ns", p.ns, "recordId", p.id, "error", e.toStatus().toString()));
    }
}

dedup::RecordInfo DedupStorage::prepareClientChange(OperationContext* opCtx, const std::string& ns, int64_t id) {
    waitForLinks(opCtx);
    uassert(ErrorCodes::ObjectIsBusy,
            "the deduplication state of this collection is being rebuilt after a storage error; retry the write",
            !isUnsynced(ns));
    std::lock_guard<std::mutex> lk(_insertMu);
    // Under _insertMu the encoder is not between reading the record and telling the engine.
    dedup::RecordInfo info = _engine->describe(ns, id);
    std::lock_guard<std::mutex> q(_queueMu);
    if (!_queue.empty() || !_deferred.empty())
        (info.tracked ? _sourceChangedAt : _changedWhileQueued)[{ns, id}] = _enqueuedSeq;
    return info;
}

bool DedupStorage::reencodeLocked(const PendingInsert& p, std::string_view bytes) {
    // The delta names its result's length and CRC32C: it fails here if the source changed since
    // the entry was decoded (a later entry updated it), and the record is then searched for as
    // any insert.
    std::string rebuilt;
    Status st = _engine->onReplicatedInsert(p.ns, p.id, p.replicated->sourceId, p.replicated->delta, &rebuilt);
    if (!st.isOK() || rebuilt != bytes) {
        if (st.isOK()) resyncLocked(p.ns);  // cannot happen (the CRC); never keep wrong bookkeeping
        _reencodeFallbacks.fetch_add(1, std::memory_order_relaxed);
        return st.isOK();
    }
    _reencoded.fetch_add(1, std::memory_order_relaxed);
    // This member serves the same delta to members that sync from it (chained replication).
    _forwardDeltas.put(p.ns, p.id, {p.replicated->sourceId, p.replicated->delta, p.replicated->sourceKey});
    return true;
}

void DedupStorage::keepForwardDelta(OperationContext* opCtx, DedupRecordStore* rs, const PendingInsert& p,
                                    int64_t sourceId, std::string delta) {
    if (_forwardDeltas.capacityBytes() == 0) return;  // a standalone: no member reads them
    // A source a client changed after this insert was queued (its new version flagged the old
    // one, say): members hold the bytes it had at the insert, not these.
    auto changed = _sourceChangedAt.find({p.ns, sourceId});
    if (changed != _sourceChangedAt.end() && changed->second >= p.seq) return;
    // The source's _id, read now (once) rather than by every member's fetch: right after the
    // insert the source is usually still stored whole (its write-back is queued).
    std::string source;
    if (!rs->decode(opCtx, sourceId, &source).isOK() || source.size() < 5) return;
    auto doc = BSONObj::fromUntrusted(source.data(), source.size());
    if (!doc.isOK() || doc.getValue()["_id"].eoo()) return;
    BSONObjBuilder key;
    key.appendAs(doc.getValue()["_id"], "");
    BSONObj k = key.obj();
    _forwardDeltas.put(p.ns, p.id, {sourceId, std::move(delta), std::string(k.objdata(), size_t(k.objsize()))});
}

void DedupStorage::encoderLoop() {
    logv2::setThreadName("DedupEncoder");
    auto opCtx = makeOperationContext(internalClient());
    while (true) {
        {
            std::unique_lock<std::mutex> lk(_queueMu);
            _insertCv.wait_for(lk, kBackgroundPoll * 20,
                               [&] { return !_queue.empty() || !_deferred.empty() || _stopping; });
            if (_stopping) return;
            // Until the start-up rebuild has learned the links, inserts wait in the backlog.
            if ((_queue.empty() && _deferred.empty()) || !_linksReady.load()) continue;
        }
        if (hangDedupEncoder.shouldFail()) {
            std::this_thread::sleep_for(kBackgroundPoll);
            continue;
        }
        // Lock order: the catalog lock (keeps collections from being dropped under the
        // engine's reads) before _insertMu. _insertMu is taken per record, so a client's
        // update or delete waits for one record's encoding at most.
        CatalogReadLock catalog;
        const auto until = std::chrono::steady_clock::now() + kEncodeBatchTime;
        for (int i = 0; i < kEncodeBatchRecords && !_stopping; ++i) {
            std::lock_guard<std::mutex> lk(_insertMu);
            PendingInsert p;
            {
                std::lock_guard<std::mutex> q(_queueMu);
                // The backlog first; deferred inserts only when it is empty.
                std::deque<PendingInsert>& from = !_queue.empty() ? _queue : _deferred;
                if (from.empty()) break;
                p = std::move(from.front());
                from.pop_front();
                (&from == &_queue ? _queueBytes : _deferredBytes) -= p.size;
                _encoding = 1;
            }
            processInsertLocked(opCtx.get(), p);
            // Whatever became of it, a member's fetch waiting for its delta may go on.
            if (!p.updated && !_forwardDeltas.get(p.ns, p.id)) _forwardDeltas.putNotEncoded(p.ns, p.id);
            uint64_t oldest;
            {
                std::lock_guard<std::mutex> q(_queueMu);
                _encoding = 0;
                oldest = oldestPendingSeqLocked();
            }
            for (auto* marks : {&_changedWhileQueued, &_sourceChangedAt}) {
                if (oldest == UINT64_MAX) {
                    marks->clear();
                } else if (marks->size() > 1024) {
                    // A mark can go once every insert queued up to it has been encoded.
                    for (auto it = marks->begin(); it != marks->end();)
                        it = it->second < oldest ? marks->erase(it) : std::next(it);
                }
            }
            _roomCv.notify_all();
            if (std::chrono::steady_clock::now() > until) break;
        }
        opCtx->recoveryUnit()->abandonSnapshot();
    }
}

uint64_t DedupStorage::oldestPendingSeqLocked() const {
    uint64_t oldest = UINT64_MAX;
    if (!_queue.empty()) oldest = _queue.front().seq;
    if (!_deferred.empty()) oldest = std::min(oldest, _deferred.front().seq);
    return oldest;
}

void DedupStorage::forgetNamespace(const std::string& ns) {
    std::lock_guard<std::mutex> lk(_insertMu);
    _forwardDeltas.forgetNamespace(ns);
    {
        std::lock_guard<std::mutex> q(_queueMu);
        for (auto [queue, bytes] : {std::pair{&_queue, &_queueBytes}, std::pair{&_deferred, &_deferredBytes}}) {
            for (auto it = queue->begin(); it != queue->end();) {
                if (it->ns == ns) {
                    *bytes -= it->size;
                    it = queue->erase(it);
                } else {
                    ++it;
                }
            }
        }
    }
    _engine->forgetNamespace(ns);
}

// ---------------------------------------------------------------------------------------
// Write-backs and garbage collection.

void DedupStorage::noteClientWrite() { _lastClientWriteNanos.store(nowNanos(), std::memory_order_relaxed); }

void DedupStorage::applyWriteBacks(size_t maxEntries) {
    backgroundWriteLockWaiters().fetch_add(1);
    CollectionWriteLock lock;
    backgroundWriteLockWaiters().fetch_sub(1);
    auto opCtx = makeOperationContext(internalClient());
    DedupOpCtxScope scope(opCtx.get());
    // Taken from the engine's queue but not yet committed: still pending for serverStatus, so
    // that "nothing pending" means the write-backs are on disk.
    _applyingWriteBacks.store(1);
    struct Done {
        std::atomic<int>& flag;
        ~Done() { flag.store(0); }
    } done{_applyingWriteBacks};
    try {
        WriteUnitOfWork wuow(opCtx.get());
        dedup::DrainResult r = _engine->drainWriteBacks(maxEntries);
        wuow.commit();
        _writeBacksSinceCheckpoint.fetch_add(static_cast<long long>(r.applied), std::memory_order_relaxed);
        _applyBatches.fetch_add(1, std::memory_order_relaxed);
        _retainedRemoved.fetch_add(r.removed, std::memory_order_relaxed);
    } catch (const DBException& e) {
        // The engine believes some write-backs applied that were not: relearn everything.
        LOGV2_WARNING(7700017, Dedup, "Applying write-backs failed", logv2::attrs("error", e.toStatus().toString()));
        std::vector<std::string> names;
        {
            std::lock_guard<std::mutex> lk(_storesMu);
            for (auto& [ns, rs] : _stores) names.push_back(ns);
        }
        std::unique_lock<std::mutex> lk(_insertMu);
        for (auto& ns : names) resyncLocked(ns);
    }
}

void DedupStorage::noteRetainedRead(const std::string& ns, const std::vector<int64_t>& ids) {
    std::lock_guard<std::mutex> lk(_readGcMu);
    for (int64_t id : ids)
        if (_retainedRead.size() < 4096) _retainedRead.insert({ns, id});
}

void DedupStorage::collectGarbage() {
    std::set<std::pair<std::string, int64_t>> seen;
    {
        std::lock_guard<std::mutex> lk(_readGcMu);
        seen.swap(_retainedRead);
    }
    CollectionWriteLock lock;
    auto opCtx = makeOperationContext(internalClient());
    DedupOpCtxScope scope(opCtx.get());
    try {
        WriteUnitOfWork wuow(opCtx.get());
        size_t removed = 0;
        for (const auto& [ns, id] : seen) removed += _engine->collectRetained(ns, id);
        _readPathCollections.fetch_add(static_cast<long long>(seen.size()), std::memory_order_relaxed);
        removed += _engine->collectGarbage(10000);
        wuow.commit();
        _retainedRemoved.fetch_add(static_cast<long long>(removed), std::memory_order_relaxed);
    } catch (const DBException& e) {
        LOGV2_WARNING(7700020, Dedup, "Garbage collection failed", logv2::attrs("error", e.toStatus().toString()));
    }
}

void DedupStorage::writeBackLoop() {
    logv2::setThreadName("DedupWriteBack");
    auto lastGc = std::chrono::steady_clock::now(), lastWalk = lastGc, lastCheckpoint = lastGc;
    while (true) {
        if (!_linksReady.load()) {
            std::unique_lock<std::mutex> lk(_threadMu);
            _readyCv.wait_for(lk, kBackgroundPoll * 20, [&] { return _linksReady.load() || _stopping.load(); });
            if (_stopping) return;
            continue;
        }
        dedup::WriteBackBacklog b = _engine->writeBackBacklog();
        // Write-backs follow the inserts closely, a batch at a time, whether or not clients
        // pause: the bytes they free are reused by the next checkpoint.
        if (b.entries > 0 && !_stopping) {
            applyWriteBacks(kWriteBacksPerBatch);
            if (b.entries > kWriteBacksPerBatch) continue;
        }
        {
            std::unique_lock<std::mutex> lk(_threadMu);
            _threadCv.wait_for(lk, kBackgroundPoll, [&] { return _stopping.load(); });
            if (_stopping) return;
        }
        auto now = std::chrono::steady_clock::now();
        if (_writeBacksSinceCheckpoint.load() >= kSettleCheckpointWriteBacks && now - lastCheckpoint > kSettleCheckpointEvery &&
            clientWritesPaused() && _engine->writeBackBacklog().entries == 0) {
            bool drained;
            {
                std::lock_guard<std::mutex> lk(_queueMu);
                drained = _queue.empty() && _deferred.empty() && _encoding == 0;
            }
            if (drained) {
                lastCheckpoint = now;
                _writeBacksSinceCheckpoint.store(0);
                try {
                    _storageEngine->flushAllFiles(false);
                    _settleCheckpoints.fetch_add(1, std::memory_order_relaxed);
                } catch (const DBException& e) {
                    LOGV2_WARNING(7700024, Dedup, "Checkpoint after write-backs failed",
                                  logv2::attrs("error", e.toStatus().toString()));
                }
            }
        }
        bool readRequests;
        {
            std::lock_guard<std::mutex> lk(_readGcMu);
            readRequests = !_retainedRead.empty();
        }
        const auto gcEvery = readRequests ? std::chrono::milliseconds(200) : std::chrono::milliseconds(2000);
        if (now - lastGc > gcEvery) {
            lastGc = now;
            collectGarbage();
            retryUnsynced();
        }
        // serverStatus shows these as of the last walk: walking every record under the
        // engine's lock on each serverStatus would stall writers.
        if (now - lastWalk > std::chrono::seconds(2) && (clientWritesPaused() || now - lastWalk > std::chrono::seconds(30))) {
            lastWalk = now;
            dedup::Stats walked = _engine->stats(true);
            _longestChain.store(static_cast<long long>(walked.longestChain));
            _retainedRecords.store(static_cast<long long>(walked.retainedRecords));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The engine's callbacks.

Status DedupStorage::readStored(std::string_view ns, int64_t id, std::string* out) {
    OperationContext* opCtx = DedupOpCtxScope::current();
    if (!opCtx) return noOpCtx();
    DedupRecordStore* rs = storeFor(ns);
    if (!rs) return Status(ErrorCodes::NamespaceNotFound, "dedup: collection is gone");
    try {
        return rs->readStored(opCtx, id, out);
    } catch (const DBException& e) {
        return e.toStatus();
    }
}

Status DedupStorage::writeStored(std::string_view ns, int64_t id, std::string_view stored) {
    OperationContext* opCtx = DedupOpCtxScope::current();
    if (!opCtx) return noOpCtx();
    DedupRecordStore* rs = storeFor(ns);
    if (!rs) return Status(ErrorCodes::NamespaceNotFound, "dedup: collection is gone");
    Status st = rs->writeBack(opCtx, id, stored);
    if (!st.isOK())
        (st.code() == static_cast<int>(ErrorCodes::ConflictingOperationInProgress) ? _writeBackRejected : _writeBackFailed)
            .fetch_add(1, std::memory_order_relaxed);
    return st;
}

Status DedupStorage::removeRetained(std::string_view ns, int64_t id) {
    OperationContext* opCtx = DedupOpCtxScope::current();
    if (!opCtx) return noOpCtx();
    DedupRecordStore* rs = storeFor(ns);
    if (!rs) return Status(ErrorCodes::NamespaceNotFound, "dedup: collection is gone");
    return rs->removeRetained(opCtx, id);
}

// ---------------------------------------------------------------------------------------
}  // namespace mongo
