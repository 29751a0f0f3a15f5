#pragma once
// The TTL monitor: a background thread that deletes the documents TTL indexes say have expired,
// as MongoDB's does. Every ttlMonitorSleepSecs (60; settable at startup and at run time) it makes
// a pass, unless ttlMonitorEnabled is false: for each index with expireAfterSeconds on a
// non-capped collection it deletes the documents whose indexed field holds a date (or an array
// holding a date) no later than now - expireAfterSeconds. The earliest date of an array counts;
// documents whose field holds no date never expire.
//
// Deletes go through the delete command's own path (ops/write_ops.h deleteMatchingDocuments:
// Collection::deleteDocument under the collection write lock, one unit of work per document), so
// the layers below (the dedup record store's chains and reference counts) see ordinary deletes.
// They are made in chunks that release the locks in between, so client writes interleave; with
// ttlMonitorBatchDeletes (true) an index stops after ttlIndexDeleteTargetDocs documents or
// ttlIndexDeleteTargetTimeMS and is visited again after the others ("sub-passes"), for at most
// ttlMonitorSubPassTargetSecs before a new sub-pass re-reads the indexes; a pass ends when no
// index has anything left to delete.
//
// serverStatus().metrics.ttl: {deletedDocuments, passes, subPasses, invalidTTLIndexSkips}.
// Thread safety: start/shutdown from the main thread; runPass may be called from any thread
// (passes never overlap: one mutex).
#include <condition_variable>
#include <mutex>
#include <thread>

namespace mongo {

class OperationContext;

class TTLMonitor {
public:
    static TTLMonitor& get();

    // Starts the background thread (once the catalog is open) / stops it and waits for it
    // (before the catalog closes): an interrupted pass stops between two documents.
    void start();
    void shutdown();

    // One pass over every TTL index. Returns the number of documents deleted.
    long long runPass();

    // Wakes the thread so that a changed ttlMonitorSleepSecs takes effect now.
    void sleepSecsChanged();

private:
    void run();
    bool stopping();

    std::mutex _mutex;
    std::condition_variable _cv;
    bool _shuttingDown = false;
    std::thread _thread;
    std::mutex _passMutex;
};

}  // namespace mongo
