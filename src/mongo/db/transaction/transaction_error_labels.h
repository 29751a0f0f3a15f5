#pragma once
// The error labels MongoDB 7.0 puts on the replies of a transaction's commands (those with
// autocommit), which drivers' convenient transaction API acts on:
//   - TransientTransactionError: the whole transaction may be retried from the start (it left
//     nothing behind): WriteConflict, LockTimeout, SnapshotTooOld/Unavailable, NoSuchTransaction
//     (for commit/abort only without a writeConcernError), and on a command other than
//     commit/abort an error of a node that stopped being primary or is shutting down.
//   - RetryableWriteError: commitTransaction/abortTransaction failed with an error the
//     retryable-writes specification retries (the command may be sent again).
// A reply that has errorLabels already is left alone. Pure (unit-tested).
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace txn {

BSONObj withTransactionErrorLabels(const std::string& commandName, const BSONObj& body, const BSONObj& reply);

}  // namespace txn
}  // namespace mongo
