#pragma once
// The durable side of retryable writes: config.transactions, config.image_collection and the
// oplog chain of a session's entries (formats: session_txn_record.h).
//
// As in MongoDB, both collections are written without oplog entries of their own
// (UnreplicatedWritesBlock, op_observer.h): every member derives them from the oplog, the
// primary while it writes a statement's entry, a secondary while it applies it
// (onRetryableEntryApplied). Their creation, and the reaper's deletes, are replicated.
// Thread safety: functions take the locks they need unless stated; "in the caller's unit"
// ones REQUIRE the collection write lock (or the DDL lock) and a unit of work.
#include <optional>

#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/session_txn_table.h"

namespace mongo {
namespace repl {

// SessionTxnStore over the catalog: the record by _id; the history by walking the oplog
// from the newest entry backwards (one pass collects the whole chain).
class StorageSessionTxnStore : public SessionTxnStore {
public:
    std::optional<SessionTxnRecord> readRecord(OperationContext* opCtx, const BSONObj& sessionId) override;
    TxnHistory readHistory(OperationContext* opCtx, const OpTime& lastWrite) override;
};

// What a retry needs of a statement's oplog entry.
StatementOutcome outcomeOf(const OplogEntry& entry);

// Creates config.transactions and config.image_collection if missing (takes the DDL lock;
// the creation is replicated). For the primary, before a retryable write takes its locks.
void ensureSessionCollections(OperationContext* opCtx);

// Upserts the session's record in the caller's unit (unreplicated). A record of a newer
// txnNum is left alone. Returns false when config.transactions does not exist.
bool writeSessionRecord(OperationContext* opCtx, const SessionTxnRecord& record);
// The same for the session's findAndModify image.
bool writeRetryImage(OperationContext* opCtx, const RetryImage& image);

std::optional<RetryImage> readRetryImage(OperationContext* opCtx, const BSONObj& sessionId);
// The oplog entry at opTime (a reverse scan from the newest: retries concern recent ones).
std::optional<BSONObj> readOplogEntry(OperationContext* opCtx, const OpTime& opTime);
// The same for a caller that holds the catalog lock already (a cursor's batch).
std::optional<BSONObj> readOplogEntryUnderCatalogLock(OperationContext* opCtx, const OpTime& opTime);

// A secondary's applier, in the unit of work that applied `entry` (CRUD, collection write lock
// held): a retryable write's entry moves the session's record to it; a findAndModify entry
// whose image the op observer did not record (the document was not there to take it from)
// gets an invalidated image, so that a retry fails with IncompleteTransactionHistory rather
// than answer wrongly.
void onRetryableEntryApplied(OperationContext* opCtx, const OplogEntry& entry);

// The session reaper (MongoDB's, run after each session cache refresh): deletes the
// config.transactions records, and the images, of sessions whose last write is older than
// cutoff and whose config.system.sessions record is gone (they expired or ended), with
// replicated deletes. Returns how many records it removed. On the primary only.
long long reapSessionRecords(OperationContext* opCtx, Date_t cutoff);

}  // namespace repl
}  // namespace mongo
