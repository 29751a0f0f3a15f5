#pragma once
// A committed transaction in the oplog, as MongoDB 7.0 writes it: one applyOps entry
//   {op: "c", ns: "admin.$cmd", o: {applyOps: [...]}, lsid, txnNumber, prevOpTime: null}
// or, when its operations do not fit in one entry, a chain of them written together at commit:
//   {o: {applyOps: [...], partialTxn: true}, prevOpTime: <the previous entry>} ...
//   {o: {applyOps: [...], count: <operations of the whole transaction>}, prevOpTime: <...>}
// Only the last entry commits the transaction: appliers and change streams act on it, reading
// the earlier ones back along prevOpTime.
// Pure functions (the reading of earlier entries is the caller's): thread safe.
#include <functional>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/oplog_entry.h"

namespace mongo {
namespace repl {

// Whether entry is an applyOps entry of a transaction whose commit entry comes later.
bool isPartialTransactionEntry(const OplogEntry& entry);

// The operations of the transaction that `commit` (an applyOps entry that is not partial)
// commits, in order: those of the earlier entries of its chain, read with readEntry, then its
// own. Throws NoSuchKey when an earlier entry cannot be read (gone from the oplog) and
// FailedToParse when the chain is not one transaction's.
std::vector<BSONObj> transactionOperations(const OplogEntry& commit,
                                           const std::function<std::optional<BSONObj>(const OpTime&)>& readEntry);

// The applyOps objects ({applyOps: [...], partialTxn: true} ... {applyOps: [...], count: n}) of
// a transaction with these operations, each at most maxBytes of operations (a lone operation
// larger than that gets an entry of its own). One object, without partialTxn or count, when
// they fit in one.
std::vector<BSONObj> applyOpsObjects(const std::vector<BSONObj>& ops, size_t maxBytes);

}  // namespace repl
}  // namespace mongo
