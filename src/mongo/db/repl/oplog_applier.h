#pragma once
// OplogApplier: a secondary applies entries fetched from its sync source, in order, each in
// its own unit of work committed at the entry's timestamp, with the entry written verbatim
// to its own oplog in the same unit (oplog.h ApplyingEntryScope), so that its oplog and data
// are the primary's at every entry boundary.
//
// Application is idempotent, as MongoDB's applier must be when an entry is applied twice
// (a restart between a batch's writes and its progress): an insert of an existing _id
// replaces the document, a delete of a missing document and the drop of a missing
// collection succeed, an update applies its $v: 2 diff to the current document (the diff
// rules are idempotent, update_diff.h). What cannot be applied (an update of a document that
// does not exist, an entry of a kind this server does not know) is an error: the applier
// stops rather than let the member diverge silently.
//
// Thread safety: apply() takes the same locks as the writers it replays (collection write
// lock, catalog DDL lock); one applier thread per node.
#include <functional>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_entry.h"

namespace mongo {
namespace repl {

class OplogApplier {
public:
    // kInitialSync (initial_sync.h): the entries replayed over a clone that was read while
    // they happened. The data may already be past an entry, or the entry may concern a
    // collection or document the clone never saw because a later entry removed it, so what
    // cannot be applied because of that is skipped (the entry is still written to the oplog):
    // an update of a missing document, an operation on a missing collection, an index that
    // exists or conflicts, a rename onto an existing collection (the target is replaced); and
    // unique secondary indexes accept a key twice meanwhile (index_constraints.h). Also for a
    // member replaying after a rollback in place (rollback_refetch.h).
    enum class Mode { kSecondary, kInitialSync };

    // Applies one entry (as fetched, doc its raw document). OK, or why it cannot be applied
    // (OplogOperationUnsupported / NamespaceNotFound / NoMatchingDocument ...): nothing of it
    // is then committed. A write conflict (with a transaction this node began as primary, which
    // the reaper aborts after the step-down) is waited out, unless stopRequested() says the
    // caller is stopping (then InterruptedDueToReplStateChange, nothing applied).
    static Status apply(OperationContext* opCtx, const OplogEntry& entry, const BSONObj& doc,
                        Mode mode = Mode::kSecondary, const std::function<bool()>& stopRequested = {});
};

}  // namespace repl
}  // namespace mongo
