#pragma once
// SessionTxnTable: retryable writes on a replica-set member (drivers send lsid + txnNumber
// with every insert/update/delete/findAndModify once they see a replica set), reduced to the
// one guarantee this server can give before it keeps statement outcomes (config.transactions,
// issue 10 milestone 4): a statement is never applied twice.
//   - a txnNumber newer than the session's last one starts a new retryable write;
//   - an older one fails with TransactionTooOld (225), as in MongoDB;
//   - the same one again (a driver's retry after a lost reply or a retryable error) fails
//     with IncompleteTransactionHistory (217), MongoDB's error for a retry whose history is
//     gone, instead of being applied a second time.
// The table lives in memory only: a retry across a restart of the server is not detected.
// Sessions unused for logicalSessionTimeoutMinutes (30) are forgotten.
// Thread safe (one mutex).
#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

class SessionTxnTable {
public:
    static SessionTxnTable* get();

    // For a command carrying txnNumber on a replica-set member: checks lsid, the command and
    // the number (InvalidOptions, NotARetryableWriteCommand, TypeMismatch, TransactionTooOld,
    // IncompleteTransactionHistory) and records the number as the session's newest.
    void beginRetryableWrite(const std::string& commandName, const BSONObj& body);

    size_t sizeForTest() const;

private:
    struct Entry {
        long long txnNumber;
        std::chrono::steady_clock::time_point lastUse;
    };
    mutable std::mutex _mutex;
    std::map<std::string, Entry> _sessions;
};

}  // namespace repl
}  // namespace mongo
