#include "mongo/db/repl/session_txn_table.h"

#include "mongo/base/status.h"

namespace mongo {
namespace repl {

SessionTxnTable* SessionTxnTable::get() {
    static SessionTxnTable t;
    return &t;
}

size_t SessionTxnTable::sizeForTest() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _sessions.size();
}

void SessionTxnTable::beginRetryableWrite(const std::string& commandName, const BSONObj& body) {
    beginRetryableWrite(commandName, body, Clock::now());
}

void SessionTxnTable::beginRetryableWrite(const std::string& commandName, const BSONObj& body,
                                          Clock::time_point now) {
    BSONElement txn = body["txnNumber"];
    if (txn.type() != NumberLong)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'OperationSessionInfo.txnNumber' is the wrong type '" +
                                                typeName(txn.type()) + "', expected type 'long'");
    BSONElement lsid = body["lsid"];
    uassert(ErrorCodes::InvalidOptions, "Transaction number requires a session ID to also be specified",
            lsid.type() == Object);
    uassert(ErrorCodes::NotARetryableWriteCommand,
            "txnNumber may only be provided for multi-document transactions and retryable write commands. "
            "autocommit:false was not provided, and " + commandName + " is not a retryable write command.",
            commandName == "insert" || commandName == "update" || commandName == "delete" ||
                commandName == "findAndModify");
    const long long n = txn.numberLong();
    uassert(ErrorCodes::BadValue, "Transaction number cannot be negative", n >= 0);
    const std::string key = lsid.embeddedObject()["id"].toString(false);
    std::lock_guard<std::mutex> lk(_mutex);
    while (!_byUse.empty() && now - _byUse.front().lastUse > kSessionTimeout) {
        _sessions.erase(_byUse.front().key);
        _byUse.pop_front();
    }
    auto it = _sessions.find(key);
    if (it != _sessions.end()) {
        const long long cur = it->second.txnNumber;
        uassert(ErrorCodes::TransactionTooOld,
                "Cannot start transaction " + std::to_string(n) + " on session " + key +
                    " because a newer transaction " + std::to_string(cur) + " has already started.",
                n >= cur);
        uassert(ErrorCodes::IncompleteTransactionHistory,
                "Incomplete history detected for transaction " + std::to_string(n) + " on session " + key +
                    ": this server does not keep the outcome of retryable writes yet, so a retried statement is "
                    "refused rather than applied twice",
                n != cur);
    }
    if (it != _sessions.end()) {
        it->second.txnNumber = n;
        it->second.use->lastUse = now;
        _byUse.splice(_byUse.end(), _byUse, it->second.use);  // now the newest use
    } else {
        _byUse.push_back(Use{key, now});
        _sessions.emplace(key, Entry{n, std::prev(_byUse.end())});
    }
}

}  // namespace repl
}  // namespace mongo
