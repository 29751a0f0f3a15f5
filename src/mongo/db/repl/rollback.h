#pragma once
// Rollback of a member whose oplog diverged from the set's (its last entries were written by a
// primary that lost its term before they reached a majority: a killed or partitioned primary
// that comes back, a secondary that fetched from a primary paused through an election).
//
// The divergent entries are found against the sync source (the common point) and the
// documents they touched are saved to rollback files as this member holds them. Then, when
// the entries are inserts, updates, deletes and transactions of those, they are undone in
// place (rollback_refetch.h: MongoDB's rollback via refetch); otherwise (a collection created,
// dropped or renamed, an index built) the member runs an initial sync from the set. MongoDB 7.0
// recovers to a stable timestamp instead, which needs history this server's logged tables do
// not keep; the outcome for clients is the same (the member holds the set's history, the
// rolled-back writes are in <dbpath>/rollback, the rollback id went up).
// Thread safety: free functions, no shared state.
#include <map>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

class RemoteClient;

struct RollbackPlan {
    OpTime commonPoint;                // the newest entry both oplogs hold (null: none found)
    Date_t commonPointWall;            // its wall time (in our oplog)
    std::vector<BSONObj> divergent;    // our entries after it, newest first
    bool truncated = false;            // more divergent entries than kept (kMaxDivergentBytes)
};

// At most this many bytes of divergent entries are kept for the rollback files.
constexpr size_t kMaxDivergentBytes = 64u << 20;

// Walks our oplog and the source's backwards from our newest entry until both hold an entry of
// the same optime. Errors: network, or the source's oplog cannot be read.
StatusWith<RollbackPlan> findCommonPoint(OperationContext* opCtx, RemoteClient* source);

// What the divergent entries wrote: per namespace the documents ({_id: value}, once each,
// whatever the entry: insert, update, delete, or an operation of a transaction, read back along
// its chain while our oplog still holds it), the sessions (lsid) of retryable writes and
// transactions, and the commands other than transactions (create, drop, createIndexes ...).
struct TouchedDocuments {
    std::map<std::string, std::vector<BSONObj>> ids;
    std::vector<BSONObj> sessions;
    std::vector<BSONObj> commands;
};
TouchedDocuments touchedDocuments(OperationContext* opCtx, const std::vector<BSONObj>& divergent);

// The documents the divergent inserts and updates touched, as this member holds them now, each
// collection's in <dbpath>/rollback/<collection uuid>/removed.<time>.bson (MongoDB 7.0's
// layout: BSON documents back to back, readable with bsondump, restorable with
// mongorestore). Deletes and commands leave nothing to save. Returns the documents written;
// throws (FileStreamFailed) when a file cannot be written: the caller must not go on to
// discard the data then.
long long writeRollbackFiles(OperationContext* opCtx, const std::string& dbpath, const TouchedDocuments& touched);

}  // namespace repl
}  // namespace mongo
