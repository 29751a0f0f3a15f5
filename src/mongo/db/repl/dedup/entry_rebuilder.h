#pragma once
// A member's side of forward-encoded oplog entries (oplog_delta_encoding.h), for its fetcher:
// each fetched entry as its sync source stores it, rebuilt from a forward delta against this
// member's copy of the source document, or fetched whole from the source when that cannot be
// done (the paper's supplemental fetch, counted in serverStatus().dedup.replication).
// Thread safety: called on the fetcher's thread only.
#include <memory>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"

namespace mongo {

struct ReplicatedDelta;

namespace repl {

class RemoteClient;

struct FetchedEntry {
    BSONObj doc;
    std::shared_ptr<const ReplicatedDelta> replicated;  // for the storage layer's re-encoder, or null
};

// An error only if the whole entry cannot be had from source either (the fetcher then starts a
// new cursor after what it applied). timeoutMillis: the extra socket time the caller's other
// commands on source use (RemoteClient reconnects when it changes).
StatusWith<FetchedEntry> rebuildFetchedEntry(OperationContext* opCtx, RemoteClient* source, const BSONObj& fetched,
                                             int timeoutMillis);

}  // namespace repl
}  // namespace mongo
