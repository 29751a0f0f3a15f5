#pragma once
// Counters of multi-document transactions since start-up (serverStatus().transactions, with
// the retryable-write counters: repl/retryable_write.cpp).
// Thread safe.
#include <atomic>

namespace mongo {
namespace txn {

struct TransactionStats {
    std::atomic<long long> totalStarted{0};
    std::atomic<long long> totalCommitted{0};
    std::atomic<long long> totalAborted{0};
    // Aborted by the reaper: past transactionLifetimeLimitSeconds, or of an older term.
    std::atomic<long long> totalExpired{0};

    static TransactionStats& get();
};

}  // namespace txn
}  // namespace mongo
