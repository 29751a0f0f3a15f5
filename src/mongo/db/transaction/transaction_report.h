#pragma once
// $currentOp's view of transactions (MongoDB 7.0's shape): each transaction in progress that no
// command runs now, as {type: "idleSession", host, desc: "inactive transaction", active: false,
// lsid, transaction: {parameters: {txnNumber, autocommit: false, readConcern?},
// startWallClockTime, timeOpenMicros, timeActiveMicros, timeInactiveMicros, expiryTime}}
// (the two times are Dates here; MongoDB formats them as strings).
// Thread safety: thread safe.
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace txn {

std::vector<BSONObj> reportIdleTransactions(const std::string& host);

}  // namespace txn
}  // namespace mongo
