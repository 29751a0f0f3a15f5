#pragma once
// TransactionReaper: aborts the transactions in progress that no command uses when they are
// older than transactionLifetimeLimitSeconds (MongoDB's periodic cleanup; an open transaction
// holds its WiredTiger snapshot and makes other writers of its documents wait), or when this
// node is no longer the primary of the term they began in (after a step-down their writes
// could never commit, and they would conflict with the oplog applier's).
// One background thread, started and stopped by mongod's main (a pass every 500 ms, or at
// once after a step-down: wakeUp()).
// Thread safety: thread safe.
#include <condition_variable>
#include <mutex>
#include <thread>

namespace mongo {
namespace txn {

class TransactionReaper {
public:
    static TransactionReaper& get();
    void start();
    void shutdown();
    void wakeUp();
    // One pass (also for tests): returns how many transactions it aborted.
    size_t reapOnce();

private:
    void run();
    std::mutex _mutex;
    std::condition_variable _cv;
    bool _stopping = false;
    bool _woken = false;
    std::thread _thread;
};

}  // namespace txn
}  // namespace mongo
