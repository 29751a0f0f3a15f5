#include "mongo/db/transaction/transaction_reaper.h"

#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/session_txn_table.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/transaction/transaction_scope.h"
#include "mongo/db/transaction/transaction_stats.h"
#include "mongo/util/log.h"

namespace mongo {
namespace txn {

TransactionStats& TransactionStats::get() {
    static TransactionStats s;
    return s;
}

TransactionReaper& TransactionReaper::get() {
    static TransactionReaper* r = new TransactionReaper();  // never destroyed: used at exit
    return *r;
}

size_t TransactionReaper::reapOnce() {
    auto* coord = repl::ReplicationCoordinator::get();
    const bool primary = coord->state() == repl::MemberState::kPrimary;
    const long long term = repl::LocalOplog::get()->term();
    const auto now = std::chrono::steady_clock::now();
    const auto limit = std::chrono::seconds(transactionLifetimeLimitSeconds());
    const size_t n = abortIdleTransactions(
        [&](const BSONObj& sessionId, long long txnNumber, const repl::MultiDocumentTransaction& t) {
            const bool expired = now - t.started > limit;
            const bool killed = t.abortRequested.load();  // killSessions marked it while a command ran
            if (!expired && !killed && primary && t.term == term) return false;
            LOGV2(7800201, Transaction, "Aborting a transaction",
                  logv2::attrs("lsid", sessionId, "txnNumber", txnNumber, "reason",
                               killed    ? "killSessions"
                               : expired ? "it exceeded transactionLifetimeLimitSeconds"
                                         : "this node stepped down"));
            return true;
        });
    TransactionStats::get().totalExpired.fetch_add(n);
    return n;
}

void TransactionReaper::start() {
    std::lock_guard<std::mutex> lk(_mutex);
    _stopping = false;
    _thread = std::thread([this] { run(); });
}

void TransactionReaper::shutdown() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _stopping = true;
    }
    _cv.notify_all();
    if (_thread.joinable()) _thread.join();
}

void TransactionReaper::wakeUp() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _woken = true;
    }
    _cv.notify_all();
}

void TransactionReaper::run() {
    logv2::setThreadName("TransactionReaper");
    std::unique_lock<std::mutex> lk(_mutex);
    while (!_stopping) {
        _cv.wait_for(lk, std::chrono::milliseconds(500), [this] { return _stopping || _woken; });
        if (_stopping) break;
        _woken = false;
        lk.unlock();
        reapOnce();
        lk.lock();
    }
}

}  // namespace txn
}  // namespace mongo
