#pragma once
// serverStatus().transactions' retryable-write counters, as MongoDB 7.0 reports them:
//   retriedCommandsCount: write commands with at least one statement answered from history;
//   retriedStatementsCount: statements answered from history;
//   transactionsCollectionWriteCount: writes to config.transactions.
// The multi-document transaction counters of that section are reported as 0: this server
// runs no multi-document transactions (they are refused).
// Thread safety: atomics.
#include <atomic>

namespace mongo {
namespace repl {

struct RetryableWriteStats {
    static RetryableWriteStats& get();
    std::atomic<long long> retriedCommandsCount{0};
    std::atomic<long long> retriedStatementsCount{0};
    std::atomic<long long> transactionsCollectionWriteCount{0};
};

}  // namespace repl
}  // namespace mongo
