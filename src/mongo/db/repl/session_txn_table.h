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
// Sessions unused for logicalSessionTimeoutMinutes (30) are forgotten: sessions sit in a list
// ordered by last use, so each call expires the stale ones from its front (amortized O(1):
// every session is expired once) instead of scanning the table.
// Thread safe (one mutex).
#include <chrono>
#include <list>
#include <unordered_map>
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
    // The same at a given time (tests).
    void beginRetryableWrite(const std::string& commandName, const BSONObj& body,
                             std::chrono::steady_clock::time_point now);

    size_t sizeForTest() const;

    static constexpr std::chrono::minutes kSessionTimeout{30};

private:
    using Clock = std::chrono::steady_clock;
    struct Use {  // an element of the use list: oldest first
        std::string key;
        Clock::time_point lastUse;
    };
    struct Entry {
        long long txnNumber;
        std::list<Use>::iterator use;
    };
    mutable std::mutex _mutex;
    std::list<Use> _byUse;
    std::unordered_map<std::string, Entry> _sessions;
};

}  // namespace repl
}  // namespace mongo
