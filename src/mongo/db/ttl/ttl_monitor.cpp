#include "mongo/db/ttl/ttl_monitor.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/profile_settings.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/service_context.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {

using SPT = ServerParameterType;

// MongoDB 7.0's TTL parameters and defaults.
ServerParameterWithStorage<bool> gTtlMonitorEnabled("ttlMonitorEnabled", true, SPT::kStartupAndRuntime);
ServerParameterWithStorage<int> gTtlMonitorSleepSecs("ttlMonitorSleepSecs", 60, SPT::kStartupAndRuntime,
                                                     boundedBy<int>(1, INT_MAX),
                                                     [](const int&) { TTLMonitor::get().sleepSecsChanged(); });
ServerParameterWithStorage<bool> gTtlMonitorBatchDeletes("ttlMonitorBatchDeletes", true, SPT::kStartupAndRuntime);
ServerParameterWithStorage<long long> gTtlIndexDeleteTargetDocs("ttlIndexDeleteTargetDocs", 50000,
                                                                SPT::kStartupAndRuntime,
                                                                boundedBy<long long>(0, LLONG_MAX));
ServerParameterWithStorage<long long> gTtlIndexDeleteTargetTimeMS("ttlIndexDeleteTargetTimeMS", 1000,
                                                                  SPT::kStartupAndRuntime,
                                                                  boundedBy<long long>(0, LLONG_MAX));
ServerParameterWithStorage<int> gTtlMonitorSubPassTargetSecs("ttlMonitorSubPassTargetSecs", 60,
                                                             SPT::kStartupAndRuntime, boundedBy<int>(0, INT_MAX));

// serverStatus().metrics.ttl
std::atomic<long long> gPasses{0}, gSubPasses{0}, gDeletedDocuments{0}, gInvalidTTLIndexSkips{0};

// Documents deleted per lock hold: between two chunks client writes get the locks.
constexpr long long kChunkDocs = 1000;

using Clock = std::chrono::steady_clock;
long long millisSince(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

struct TTLIndex {
    NamespaceString nss;
    std::string name;
    std::string field;
    long long expireAfterSeconds = 0;
    BSONObj partialFilter;
    bool hidden = false;  // hidden indexes still expire documents, but cannot be hinted
};

// The TTL indexes of every collection, read under the shared catalog lock. Specs createIndexes
// would refuse today (which an older data directory may hold) are skipped, as MongoDB does.
std::vector<TTLIndex> ttlIndexes(OperationContext* opCtx) {
    std::vector<TTLIndex> out;
    CatalogReadLock lock;
    auto* cat = CollectionCatalog::get();
    for (const std::string& db : cat->listDatabases(opCtx)) {
        // As MongoDB: only a primary deletes expired documents (a replica-set member before
        // rs.initiate() must not write).
        if (!repl::ReplicationCoordinator::get()->canAcceptWritesForDatabase(db)) continue;
        for (const NamespaceString& nss : cat->listCollections(opCtx, db)) {
            const Collection* coll = cat->lookupCollection(opCtx, nss);
            if (!coll) continue;
            for (const IndexDescriptor* d : coll->getIndexCatalog()->getAllIndexes()) {
                BSONElement ttl = d->infoObj["expireAfterSeconds"];
                if (ttl.eoo()) continue;
                bool valid = ttl.isNumber() && !std::isnan(ttl.numberDouble()) && ttl.numberDouble() >= 0 &&
                             d->keyPattern.nFields() == 1 && !d->isIdIndex() && !coll->options().capped;
                if (!valid) {
                    gInvalidTTLIndexSkips++;
                    LOGV2_ERROR(6909100, Index, "Skipping TTL job due to invalid index spec",
                                logv2::attrs("ns", nss.ns(), "index", d->infoObj));
                    continue;
                }
                TTLIndex t;
                t.nss = nss;
                t.name = d->name;
                t.field = std::string(d->keyPattern.firstElementFieldName());
                t.expireAfterSeconds = static_cast<long long>(std::trunc(ttl.numberDouble()));
                t.hidden = d->infoObj["hidden"].trueValue();
                if (BSONElement pfe = d->infoObj["partialFilterExpression"]; pfe.type() == Object)
                    t.partialFilter = pfe.Obj().getOwned();
                out.push_back(std::move(t));
            }
        }
    }
    return out;
}

// The expired documents of one index: the field holds a date no later than the expiration
// date. $gte the earliest date and $lte the expiration both hold for some element of an array
// exactly when its earliest date has expired; values of other types never match a date range.
// The index's partial filter is part of the query: documents outside it are not in the index.
BSONObj expiredQuery(const TTLIndex& t, Date_t now) {
    BSONObjBuilder range;
    range.append("$gte", Date_t::fromMillis(LLONG_MIN));
    range.append("$lte", Date_t::fromMillis(now.millis - t.expireAfterSeconds * 1000));
    BSONObjBuilder q;
    q.append(t.field, range.obj());
    if (t.partialFilter.isEmpty()) return q.obj();
    BSONArrayBuilder both;
    both.append(q.obj());
    both.append(t.partialFilter);
    BSONObjBuilder a;
    a.append("$and", both.arr());
    return a.obj();
}

}  // namespace

TTLMonitor& TTLMonitor::get() {
    static TTLMonitor monitor;
    return monitor;
}

void TTLMonitor::start() {
    registerServerStatusMetric("ttl", [](OperationContext*) {
        BSONObjBuilder b;
        b.append("deletedDocuments", gDeletedDocuments.load());
        b.append("passes", gPasses.load());
        b.append("subPasses", gSubPasses.load());
        b.append("invalidTTLIndexSkips", gInvalidTTLIndexSkips.load());
        return b.obj();
    });
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _shuttingDown = false;
    }
    _thread = std::thread([this] { run(); });
}

void TTLMonitor::shutdown() {
    if (!_thread.joinable()) return;
    LOGV2(3684100, Index, "Shutting down TTL collection monitor thread");
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _shuttingDown = true;
    }
    _cv.notify_all();
    _thread.join();
    LOGV2(3684101, Index, "Finished shutting down TTL collection monitor thread");
}

void TTLMonitor::sleepSecsChanged() { _cv.notify_all(); }

bool TTLMonitor::stopping() {
    std::lock_guard<std::mutex> lk(_mutex);
    return _shuttingDown || globalInShutdown();
}

void TTLMonitor::run() {
    logv2::setThreadName("TTLMonitor");
    while (true) {
        {
            // Sleep ttlMonitorSleepSecs, measured from now; a new value counts at once.
            std::unique_lock<std::mutex> lk(_mutex);
            auto start = Clock::now();
            while (!_shuttingDown) {
                auto deadline = start + std::chrono::seconds(gTtlMonitorSleepSecs.get());
                if (Clock::now() >= deadline) break;
                _cv.wait_until(lk, deadline);
            }
            if (_shuttingDown) return;
        }
        LOGV2_DEBUG(22528, 3, Index, "thread awake");
        if (!gTtlMonitorEnabled.get()) {
            LOGV2_DEBUG(22529, 1, Index, "disabled");
            continue;
        }
        try {
            runPass();
        } catch (const DBException& e) {
            if (stopping()) return;
            LOGV2_WARNING(22537, Index, "TTLMonitor was interrupted, waiting before doing another pass",
                          logv2::attrs("interruption", e.toStatus().toString()));
        }
    }
}

long long TTLMonitor::runPass() {
    std::lock_guard<std::mutex> passLock(_passMutex);
    Client client(0, "");
    long long deleted = 0;
    bool moreToDelete = true;
    while (moreToDelete && !stopping()) {
        // A sub-pass: every index once, then those that stopped at their target again, until
        // none has more or ttlMonitorSubPassTargetSecs is spent; then the indexes are re-read.
        std::vector<TTLIndex> work;
        {
            auto opCtx = makeOperationContext(&client);
            work = ttlIndexes(opCtx.get());
        }
        auto subPassStart = Clock::now();
        do {
            std::vector<TTLIndex> more;
            for (const TTLIndex& t : work) {
                if (stopping()) break;
                bool batching = gTtlMonitorBatchDeletes.get();
                long long targetDocs = batching ? gTtlIndexDeleteTargetDocs.get() : 0;
                long long targetMs = batching ? gTtlIndexDeleteTargetTimeMS.get() : 0;
                LOGV2_DEBUG(22533, 1, Index, "running TTL job for index",
                            logv2::attrs("namespace", t.nss.ns(), "key", BSONObjBuilder().append(t.field, 1).obj(),
                                         "name", t.name));
                auto indexStart = Clock::now();
                long long n = 0;
                bool targetMet = false;
                try {
                    BSONObj q = expiredQuery(t, Date_t::now());
                    BSONObjBuilder hint;
                    if (!t.hidden) hint.append("$hint", t.name);
                    BSONObj h = hint.obj();
                    while (!stopping()) {
                        long long chunk = kChunkDocs;
                        if (targetDocs > 0) chunk = std::min(chunk, targetDocs - n);
                        auto opCtx = makeOperationContext(&client);
                        long long d = deleteMatchingDocuments(opCtx.get(), t.nss, q, h, chunk);
                        n += d;
                        if (d < chunk) break;  // nothing left
                        if ((targetDocs > 0 && n >= targetDocs) || (targetMs > 0 && millisSince(indexStart) >= targetMs)) {
                            targetMet = true;
                            break;
                        }
                    }
                } catch (const DBException& e) {
                    if (stopping()) throw;
                    // The collection or index went away meanwhile, or a document could not be
                    // deleted: the other indexes still get their pass.
                    LOGV2_ERROR(5400703, Index, "Error running TTL job on collection",
                                logv2::attrs("namespace", t.nss.ns(), "error", e.toStatus().toString()));
                }
                gDeletedDocuments += n;
                deleted += n;
                long long ms = millisSince(indexStart);
                if (ms >= slowOpThresholdMs())
                    LOGV2(5479200, Index, "Deleted expired documents using index",
                          logv2::attrs("namespace", t.nss.ns(), "index", t.name, "numDeleted", n, "durationMillis", ms));
                if (targetMet) more.push_back(t);
            }
            work = std::move(more);
        } while (!work.empty() && !stopping() &&
                 millisSince(subPassStart) < static_cast<long long>(gTtlMonitorSubPassTargetSecs.get()) * 1000);
        gSubPasses++;
        moreToDelete = !work.empty();
    }
    gPasses++;
    return deleted;
}

}  // namespace mongo
