#pragma once
// Rollback in place (MongoDB's "rollback via refetch", which it used before recover-to-stable
// and still documents): undo a member's divergent entries without copying the whole data set.
//
//   1. refetch: read from the sync source the current version of every document the divergent
//      entries touched (or learn that the source has none), the session records of their
//      retryable writes, and the source's newest optime after that (minValid). Nothing local
//      changes here, so a failure leaves the member as it was.
//   2. undo: each touched document is replaced by the source's version or removed, and our
//      oplog loses its entries after the common point. Unreplicated writes, with unique
//      secondary indexes relaxed as during initial sync.
//   3. (the coordinator) the member applies the source's entries from the common point on, as
//      initial sync replays entries over a clone (what cannot be applied because the data is
//      already past it is skipped), and its data is consistent again once it holds minValid.
//      Every document is then the source's: untouched ones were equal at the common point and
//      follow the same entries; touched ones were taken at a moment no later than minValid.
//
// Only inserts, updates, deletes, no-ops and transactions of those, on collections that are not
// capped (nor admin.system.version, whose featureCompatibilityVersion is also held in memory),
// can be undone so; any other divergent entry (a collection created, dropped or
// renamed, an index built or dropped) makes whyNotInPlace say so, and the coordinator resyncs.
// Thread safety: free functions, no shared state; the caller keeps the member out of
// PRIMARY/SECONDARY (ROLLBACK) while they run.
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/rollback.h"

namespace mongo {
namespace repl {

class RemoteClient;

// At most this many bytes of refetched documents are held (beyond: resync).
constexpr long long kMaxRefetchBytes = 256ll << 20;

struct RefetchedDocuments {
    struct Namespace {
        std::string ns;
        std::string uuidHex;          // ours, which the source's collection of that name has too
        std::vector<BSONObj> ids;     // {_id: value} of each touched document
        std::vector<BSONObj> docs;    // the source's current versions of those it holds
    };
    std::vector<Namespace> namespaces;
    OpTime minValid;  // the source's newest entry once every document was read
    long long bytes = 0;
};

// Why the touched documents cannot be undone in place ("" when they can).
std::string whyNotInPlace(OperationContext* opCtx, const TouchedDocuments& touched);

// Step 1. Errors: the source went away or answered an error (nothing changed: try again), or
// the source's collection of a touched namespace is another one (dropped, recreated or renamed
// after the common point) or the documents are too many (IllegalOperation: resync).
StatusWith<RefetchedDocuments> refetchTouchedDocuments(OperationContext* opCtx, RemoteClient* source,
                                                       const TouchedDocuments& touched);

// Step 2. Throws on any failure, after which the member's data is neither its own nor the
// set's: the caller must have set the initial sync flag before and resyncs then.
void undoInPlace(OperationContext* opCtx, const OpTime& commonPoint, const RefetchedDocuments& refetched);

}  // namespace repl
}  // namespace mongo
