// serverStatus().dedup: the engine's counters and the service's (backlog, write-backs,
// garbage collection, start-up rebuild). See dedup_storage.h.
#include <chrono>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/dedup/dedup_storage.h"

namespace mongo {

BSONObj DedupStorage::serverStatusSection() const {
    dedup::Stats s = _engine->stats(false);
    const dedup::Options& o = _engine->options();
    BSONObjBuilder b;
    b.append("enabled", _storageEngine->options().dedup);
    {
        std::lock_guard<std::mutex> lk(_storesMu);
        b.append("collections", static_cast<long long>(_stores.size()));
    }
    b.append("chainScheme", dedup::chainSchemeName(o.chainScheme));
    b.append("maxDecodeSteps", static_cast<long long>(_engine->decodeBound()));  // the decode bound in force, 0: none
    b.append("recordsExamined", static_cast<long long>(s.recordsExamined));
    b.append("recordsEncoded", static_cast<long long>(s.recordsEncoded));
    b.append("recordsUnique", static_cast<long long>(s.recordsUnique));
    b.append("skippedBySizeFilter", static_cast<long long>(s.skippedBySizeFilter));
    b.append("skippedByGovernor", static_cast<long long>(s.skippedByGovernor));
    b.append("sourceUnavailable", static_cast<long long>(s.sourceUnavailable));
    b.append("logicalBytes", static_cast<long long>(s.logicalBytes));
    b.append("storedBytes", static_cast<long long>(s.storedBytes));
    b.append("ratio", s.storedBytes ? static_cast<double>(s.logicalBytes) / static_cast<double>(s.storedBytes) : 1.0);
    b.append("forwardDeltaBytes", static_cast<long long>(s.forwardDeltaBytes));
    b.append("indexEntries", static_cast<long long>(s.indexEntries));
    b.append("indexBytes", static_cast<long long>(s.indexBytes));
    b.append("metadataBytes", static_cast<long long>(s.metadataBytes));
    const dedup::DecodedRecordCache::Stats rc = _decoded.stats();
    b.append("memoryBytes", static_cast<long long>(s.indexBytes + s.metadataBytes + s.sourceCacheBytes +
                                                   s.writeBackCacheBytes + rc.bytes));
    b.append("longestChain", _longestChain.load());
    b.append("retainedRecords", _retainedRecords.load());  // as of the last idle moment
    b.append("requiredRewrites", static_cast<long long>(s.requiredRewrites));
    b.append("updatesReencoded", static_cast<long long>(s.updatesReencoded));
    {
        BSONObjBuilder& c = b.subobjStart("sourceCache");
        c.append("hits", static_cast<long long>(s.sourceCacheHits));
        c.append("misses", static_cast<long long>(s.sourceCacheMisses));
        c.append("bytes", static_cast<long long>(s.sourceCacheBytes));
        c.append("capacityBytes", static_cast<long long>(o.sourceCacheBytes));
        c.append("fetches", static_cast<long long>(s.sourceFetches));
        c.doneFast();
    }
    {
        // Client reads of deduplicated collections, and the decoded record cache they share.
        BSONObjBuilder& r = b.subobjStart("reads");
        _readStats.appendTo(r);
        BSONObjBuilder& c = r.subobjStart("cache");
        c.append("bytes", static_cast<long long>(rc.bytes));
        c.append("capacityBytes", static_cast<long long>(rc.capacityBytes));
        c.append("entries", static_cast<long long>(rc.entries));
        c.append("hits", static_cast<long long>(rc.hits));
        c.append("misses", static_cast<long long>(rc.misses));
        c.append("fills", static_cast<long long>(rc.fills));
        c.append("refusedFills", static_cast<long long>(rc.refusedFills));
        c.append("evictions", static_cast<long long>(rc.evictions));
        c.doneFast();
        r.doneFast();
    }
    {
        BSONObjBuilder& w = b.subobjStart("writeBacks");
        w.append("queued", static_cast<long long>(s.writeBacksQueued));
        w.append("applied", static_cast<long long>(s.writeBacksApplied));
        w.append("dropped", static_cast<long long>(s.writeBacksDropped));
        w.append("invalidated", static_cast<long long>(s.writeBacksInvalidated));
        w.append("replaced", static_cast<long long>(s.writeBacksReplaced));
        w.append("depthLimited", static_cast<long long>(s.writeBacksDepthLimited));
        w.append("rejectedStale", _writeBackRejected.load());
        w.append("failed", _writeBackFailed.load());
        w.append("pending", static_cast<long long>(s.writeBacksPending) + _applyingWriteBacks.load());
        w.append("pendingBytes", static_cast<long long>(s.writeBackCacheBytes));
        w.append("capacityBytes", static_cast<long long>(o.writeBackCacheBytes));
        w.append("batches", _applyBatches.load());
        w.append("settleCheckpoints", _settleCheckpoints.load());
        w.doneFast();
    }
    {
        BSONObjBuilder& g = b.subobjStart("garbageCollection");
        g.append("retainedRemoved", _retainedRemoved.load());
        g.append("rewritesRequeued", static_cast<long long>(s.garbageRequeued));
        g.append("requestedByReads", _readPathCollections.load());
        g.doneFast();
    }
    {
        BSONObjBuilder& g = b.subobjStart("governor");
        for (const dedup::DbStats& d : s.dbs) {
            BSONObjBuilder& e = g.subobjStart(d.db);
            e.append("active", d.active);
            e.append("windowRatio", d.windowRatio);
            e.append("sizeThreshold", static_cast<long long>(d.sizeThreshold));
            e.append("records", static_cast<long long>(d.records));
            e.append("logicalBytes", static_cast<long long>(d.logicalBytes));
            e.append("storedBytes", static_cast<long long>(d.storedBytes));
            e.doneFast();
        }
        g.doneFast();
    }
    {
        std::lock_guard<std::mutex> lk(_queueMu);
        const long long waiting = static_cast<long long>(_queue.size() + _deferred.size()) + _encoding;
        b.append("pendingInserts", waiting);
        BSONObjBuilder& q = b.subobjStart("backlog");
        q.append("policy", _service.throttleWhenFull ? "throttle" : "storeRaw");
        q.append("maxBytes", static_cast<long long>(_service.backlogBytes));
        q.append("inserts", waiting);
        q.append("bytes", static_cast<long long>(_queueBytes));
        const long long now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count();  // the clock enqueueInsert stamps with
        long long oldestNanos = 0;
        if (!_queue.empty()) oldestNanos = _queue.front().enqueuedNanos;
        if (!_deferred.empty() && (oldestNanos == 0 || _deferred.front().enqueuedNanos < oldestNanos))
            oldestNanos = _deferred.front().enqueuedNanos;
        q.append("oldestAgeMillis", oldestNanos == 0 ? 0LL : (now - oldestNanos) / 1000000);
        q.append("deferred", static_cast<long long>(_deferred.size()));
        q.append("deferredBytes", static_cast<long long>(_deferredBytes));
        q.append("deferredTotal", _backlogDeferredTotal.load());
        q.append("storedRaw", _backlogStoredRaw.load());
        q.append("throttledWrites", _throttledWrites.load());
        q.append("throttledMillis", _throttledMicros.load() / 1000);
        q.doneFast();
    }
    b.append("insertsNotTracked", _insertsDropped.load());
    b.append("decodeFailures", _decodeFailures.load());
    b.append("resyncs", _resyncs.load());
    {
        std::lock_guard<std::mutex> lk(_unsyncedMu);
        b.append("collectionsBeingRebuilt", static_cast<long long>(_unsynced.size()));
    }
    {
        static const char* const kStates[] = {"starting", "links", "indexing", "done"};
        BSONObjBuilder& r = b.subobjStart("startupRebuild");
        const int state = _rebuildState.load();
        r.append("state", kStates[state]);
        r.append("ready", state == 3);
        r.append("records", _restoreRecords.load());
        r.append("linksMillis", _rebuildLinksMillis.load());
        r.append("recordsToIndex", _rebuildToIndex.load());
        r.append("recordsIndexed", _rebuildIndexed.load());
        r.append("durationMillis", _restoreMillis.load());
        r.append("collectionsFromSavedState", _rebuildFromSaved.load());
        r.doneFast();
    }
    return b.obj();
}

}  // namespace mongo
