// DedupStorage's start-up rebuild (links, then features, in the background) and the
// relearning of a collection whose engine state was lost (resync, unsynced collections).
// See dedup_storage.h.
#include <chrono>
#include <thread>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/dedup/dedup_record_store.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// Tests hold the start-up rebuild before its steps, to see the server serve meanwhile.
MONGO_FAIL_POINT_DEFINE(hangDedupRebuildBeforeLinks);
MONGO_FAIL_POINT_DEFINE(hangDedupRebuildBeforeIndexing);

}  // namespace

void DedupStorage::rebuildLoop() {
    logv2::setThreadName("DedupRebuild");
    const auto t0 = std::chrono::steady_clock::now();
    auto millisSince = [](std::chrono::steady_clock::time_point t) {
        return static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count());
    };
    std::vector<std::string> names;
    {
        std::lock_guard<std::mutex> lk(_storesMu);
        for (auto& [ns, rs] : _stores) names.push_back(ns);
    }
    _rebuildState = 1;
    auto hangWhile = [this](FailPoint& fp) {
        while (fp.shouldFail() && !_stopping) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
    hangWhile(hangDedupRebuildBeforeLinks);
    auto opCtx = makeOperationContext(internalClient());
    DedupOpCtxScope scope(opCtx.get());
    // The collections the state saved at the last clean shutdown describes need neither step
    // (dedup_storage_saved.cpp).
    loadSavedState(opCtx.get(), &names);
    if (!names.empty())
        LOGV2(7700012, Dedup, "Rebuilding dedup state from the stored records in the background",
              logv2::attrs("collections", static_cast<long long>(names.size())));
    // Step 1: links, collection by collection. The catalog lock keeps each collection from
    // being dropped while it is read; updates and deletes wait for this step (they must know
    // who decodes through the record they change), reads and inserts do not.
    std::vector<std::pair<std::string, std::vector<int64_t>>> raw;
    for (const std::string& ns : names) {
        if (_stopping) return;
        CatalogReadLock catalog;
        DedupRecordStore* rs = storeFor(ns);
        if (!rs) continue;  // dropped meanwhile
        raw.emplace_back(ns, std::vector<int64_t>());
        try {
            long long n = rs->restoreLinksInto(opCtx.get(), &raw.back().second, _stopping);
            if (n < 0) return;  // shutting down
            _restoreRecords.fetch_add(n);
            _rebuildToIndex.fetch_add(static_cast<long long>(raw.back().second.size()));
        } catch (const DBException& e) {
            markUnsynced(ns, e.toStatus());
        }
        opCtx->recoveryUnit()->abandonSnapshot();
    }
    _rebuildLinksMillis = millisSince(t0);
    {
        std::lock_guard<std::mutex> lk(_threadMu);
        _linksReady = true;
        _rebuildState = 2;
    }
    _readyCv.notify_all();
    if (!names.empty())
        LOGV2(7700021, Dedup, "Dedup links rebuilt; updates and deletes proceed, features are being indexed",
              logv2::attrs("records", _restoreRecords.load(), "durationMillis", _rebuildLinksMillis.load(),
                           "recordsToIndex", _rebuildToIndex.load()));
    // Step 2: the features of the records stored whole, which new versions are encoded
    // against. Until a record is indexed, an insert similar to it is stored whole.
    hangWhile(hangDedupRebuildBeforeIndexing);
    for (auto& [ns, ids] : raw) {
        if (_stopping) return;
        indexRawRecords(opCtx.get(), ns, ids);
        std::vector<int64_t>().swap(ids);
    }
    _restoreMillis = millisSince(t0);
    _rebuildState = 3;
    if (!names.empty())
        LOGV2(7700013, Dedup, "Rebuilt dedup state",
              logv2::attrs("records", _restoreRecords.load(), "recordsIndexed", _rebuildIndexed.load(),
                           "durationMillis", _restoreMillis.load()));
}

void DedupStorage::indexRawRecords(OperationContext* opCtx, const std::string& ns, const std::vector<int64_t>& ids) {
    // Sketching the raw records is CPU-bound and shares nothing but the engine's index (taken
    // under its mutex per record): a large collection is indexed as two halves on two threads,
    // as the links step reads it (dedup_record_store.cpp).
    constexpr size_t kTwoThreadsFrom = 50000;
    if (ids.size() < kTwoThreadsFrom) {
        indexRawRange(opCtx, ns, ids, 0, ids.size());
        return;
    }
    const size_t mid = ids.size() / 2;
    std::thread upper([&] {
        try {
            auto ctx = makeOperationContext(internalClient());
            DedupOpCtxScope scope(ctx.get());
            indexRawRange(ctx.get(), ns, ids, mid, ids.size());
        } catch (const std::exception& e) {
            // Only compression is lost: those records stay unindexed.
            LOGV2_WARNING(7700025, Dedup, "Could not index part of a collection's records after start-up",
                          logv2::attrs("ns", ns, "error", std::string(e.what())));
        }
    });
    indexRawRange(opCtx, ns, ids, 0, mid);
    upper.join();
}

void DedupStorage::indexRawRange(OperationContext* opCtx, const std::string& ns, const std::vector<int64_t>& ids,
                                 size_t from, size_t to) {
    // Batches under the catalog lock, let go in between so DDL is not held up for long.
    constexpr size_t kBatch = 256;
    auto lastLog = std::chrono::steady_clock::now();
    std::string stored;
    for (size_t i = from; i < to && !_stopping;) {
        CatalogReadLock catalog;
        DedupRecordStore* rs = storeFor(ns);
        if (!rs) return;  // dropped meanwhile
        try {
            for (size_t end = std::min(to, i + kBatch); i < end; ++i) {
                dedup::StoredView v;
                if (!rs->readStored(opCtx, ids[i], &stored).isOK() || !dedup::parseStored(ids[i], stored, &v).isOK() ||
                    v.isDelta || v.retained)
                    continue;  // changed since step 1: what the engine learned then stands
                _engine->indexRestored(ns, ids[i], v.payload);
                _rebuildIndexed.fetch_add(1, std::memory_order_relaxed);
            }
        } catch (const DBException& e) {
            // Only compression is lost: the rest of the collection stays unindexed.
            LOGV2_WARNING(7700022, Dedup, "Could not index a collection's records after start-up",
                          logv2::attrs("ns", ns, "error", e.toStatus().toString()));
            return;
        }
        opCtx->recoveryUnit()->abandonSnapshot();
        auto now = std::chrono::steady_clock::now();
        if (now - lastLog > std::chrono::seconds(5)) {
            lastLog = now;
            LOGV2(7700023, Dedup, "Indexing dedup features",
                  logv2::attrs("ns", ns, "recordsIndexed", _rebuildIndexed.load(), "recordsToIndex",
                               _rebuildToIndex.load()));
        }
    }
}

void DedupStorage::waitForLinks(OperationContext* opCtx) {
    if (_linksReady.load()) return;
    std::unique_lock<std::mutex> lk(_threadMu);
    while (!_linksReady.load() && !_stopping) {
        _readyCv.wait_for(lk, std::chrono::milliseconds(50));
        lk.unlock();
        opCtx->checkForInterrupt();
        lk.lock();
    }
}

void DedupStorage::resync(const std::string& ns) {
    std::unique_lock<std::mutex> lk(_insertMu);
    resyncLocked(ns);
}

void DedupStorage::resyncLocked(const std::string& ns) {
    DedupRecordStore* rs = storeFor(ns);
    if (!rs) {
        _engine->forgetNamespace(ns);
        return;
    }
    _resyncs.fetch_add(1, std::memory_order_relaxed);
    auto opCtx = makeOperationContext(internalClient());
    DedupOpCtxScope scope(opCtx.get());
    try {
        long long n = rs->restoreInto(opCtx.get());
        {
            std::lock_guard<std::mutex> lk(_unsyncedMu);
            _unsynced.erase(ns);
        }
        LOGV2(7700015, Dedup, "Relearned a collection's dedup state", logv2::attrs("ns", ns, "records", n));
    } catch (const DBException& e) {
        markUnsynced(ns, e.toStatus());
    }
}

// The engine does not know the collection's records (it forgot them when the rebuild
// started): updates and deletes could overwrite bytes others decode through, so they are
// refused (ObjectIsBusy) until the write-back thread's retry succeeds. Reads and inserts go on.
void DedupStorage::markUnsynced(const std::string& ns, const Status& why) {
    LOGV2_WARNING(7700016, Dedup, "Could not rebuild a collection's dedup state; its updates and deletes wait",
                  logv2::attrs("ns", ns, "error", why.toString()));
    std::lock_guard<std::mutex> lk(_unsyncedMu);
    _unsynced.insert(ns);
}

bool DedupStorage::isUnsynced(const std::string& ns) const {
    std::lock_guard<std::mutex> lk(_unsyncedMu);
    return !_unsynced.empty() && _unsynced.count(ns) > 0;
}

void DedupStorage::retryUnsynced() {
    std::vector<std::string> names;
    {
        std::lock_guard<std::mutex> lk(_unsyncedMu);
        names.assign(_unsynced.begin(), _unsynced.end());
    }
    if (names.empty()) return;
    CollectionWriteLock lock;
    std::unique_lock<std::mutex> lk(_insertMu);
    for (const auto& ns : names) resyncLocked(ns);
}

}  // namespace mongo
