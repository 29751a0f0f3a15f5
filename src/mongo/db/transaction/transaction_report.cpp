#include "mongo/db/transaction/transaction_report.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/session_txn_table.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace txn {

std::vector<BSONObj> reportIdleTransactions(const std::string& host) {
    using std::chrono::duration_cast;
    using std::chrono::microseconds;
    std::vector<BSONObj> out;
    const auto now = std::chrono::steady_clock::now();
    for (const auto& t : repl::SessionTxnTable::get()->transactionsInProgress()) {
        if (t.active) continue;
        BSONObjBuilder b;
        b.append("type", "idleSession");
        b.append("host", host);
        b.append("desc", "inactive transaction");
        b.append("active", false);
        b.append("lsid", t.sessionId);
        BSONObjBuilder params;
        params.append("txnNumber", t.txnNumber);
        params.append("autocommit", false);
        if (!t.readConcernLevel.empty()) {
            BSONObjBuilder rc;
            rc.append("level", t.readConcernLevel);
            params.append("readConcern", rc.obj());
        }
        BSONObjBuilder tx;
        tx.append("parameters", params.obj());
        tx.append("startWallClockTime", t.startWallClock);
        const long long open = duration_cast<microseconds>(now - t.started).count();
        const long long inactive = duration_cast<microseconds>(now - t.lastActive).count();
        tx.append("timeOpenMicros", open);
        tx.append("timeActiveMicros", open - inactive);
        tx.append("timeInactiveMicros", inactive);
        tx.append("expiryTime", Date_t::fromMillis(t.startWallClock.millis + 1000LL * transactionLifetimeLimitSeconds()));
        b.append("transaction", tx.obj());
        out.push_back(b.obj());
    }
    return out;
}

}  // namespace txn
}  // namespace mongo
