#pragma once
// RetryableWrite: one write command run as a retryable write (lsid + txnNumber on a
// replica-set member), from the dispatcher to the oplog.
//   - The dispatcher begins it (begin()): the request is checked as MongoDB checks it, the
//     session is checked out (session_txn_table.h) and txnNumber begun or continued. It hangs
//     off the OperationContext (opCtx->retryableWrite) for the command's duration.
//   - The write commands ask, per statement, whether it already executed
//     (checkStatementExecuted: answer from the outcome, apply nothing) and otherwise name the
//     statement their next writes belong to (setCurrentStatement).
//   - The op observer (in each write's unit of work) stamps the statement's oplog entry with
//     lsid, txnNumber, stmtId and prevOpTime (and needsRetryImage for a findAndModify), and
//     records the write: config.transactions (and config.image_collection) in the same unit,
//     the in-memory session when the unit commits.
// Thread safety: used by the command's own thread only.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/session_txn_table.h"

namespace mongo {
namespace repl {

class RetryableWrite {
public:
    // For a command carrying txnNumber on a replica-set member. Errors, as MongoDB: TypeMismatch
    // (txnNumber not a long), InvalidOptions (no lsid), NotARetryableWriteCommand, BadValue
    // (negative), TransactionTooOld; the session wait's interruption.
    static std::unique_ptr<RetryableWrite> begin(OperationContext* opCtx, const std::string& commandName,
                                                 const BSONObj& body);
    ~RetryableWrite();
    RetryableWrite(const RetryableWrite&) = delete;
    RetryableWrite& operator=(const RetryableWrite&) = delete;

    static RetryableWrite* get(OperationContext* opCtx) { return opCtx ? opCtx->retryableWrite : nullptr; }

    const BSONObj& sessionId() const { return _session->sessionId(); }
    long long txnNumber() const { return _txnNumber; }

    // The stmtId of the command's statement at index i: the command's stmtIds[i], else its
    // stmtId + i, else i (what drivers rely on).
    int stmtIdAt(size_t i) const;
    // The statement's outcome if it already executed (counted in serverStatus as retried);
    // IncompleteTransactionHistory when its history is gone.
    std::optional<StatementOutcome> checkStatementExecuted(int stmtId);
    // The statement the following writes belong to. imageKind: for findAndModify, which image
    // ("preImage" / "postImage") a retry must be able to return; "" otherwise.
    void setCurrentStatement(int stmtId, std::string imageKind = std::string());
    bool hasCurrentStatement() const { return _currentStmtId >= 0; }
    // An insert batch: the stmtIds of the documents handed to insertDocuments, in order;
    // setCurrentBatchIndex(j) makes document j's the current statement. From then on the
    // session's record is written once per unit of work (a batch of documents shares one):
    // the insert path calls writeDeferredRecord() before each commit.
    void setBatchStmtIds(std::vector<int> stmtIds) {
        _batchStmtIds = std::move(stmtIds);
        _deferRecord = true;
    }
    void setCurrentBatchIndex(size_t j);
    void writeDeferredRecord(OperationContext* opCtx);
    // Whether some statement was answered from history (the reply then waits for the write
    // concern of everything this node holds, as MongoDB does for retries).
    bool answeredFromHistory() const { return !_retriedStmtIds.empty(); }
    // 6.0+ replies name the statements answered from history: insert/update/delete append
    // retriedStmtIds: [<stmtId>...], findAndModify retriedStmtId: <stmtId> (nothing when none).
    void appendRetriedStmtIds(BSONObjBuilder* reply) const;
    void appendRetriedStmtId(BSONObjBuilder* reply) const;

    // Op observer, in the unit of work of a document write (not for DDL):
    // stamps the entry when a statement is current; image: the findAndModify's document
    // (pre- or post-image as asked; ignored otherwise).
    void decorate(OplogEntry* entry) const;
    void onEntryAppended(OperationContext* opCtx, const OplogEntry& entry, const BSONObj& image);

private:
    RetryableWrite(OperationContext* opCtx, std::unique_ptr<SessionTxnTable::CheckedOut> session, long long txnNumber,
                   std::vector<int> stmtIds, int firstStmtId);

    OperationContext* _opCtx;
    std::unique_ptr<SessionTxnTable::CheckedOut> _session;
    long long _txnNumber;
    std::vector<int> _stmtIds;  // the command's stmtIds array (empty: none)
    int _firstStmtId;   // the command's stmtId (0: none)
    int _currentStmtId = -1;
    std::string _imageKind;
    std::vector<int> _batchStmtIds;
    std::vector<int> _retriedStmtIds;
    // The statements of the open unit of work, applied to the session when it commits.
    std::vector<std::pair<int, StatementOutcome>> _pending;
    OpTime _pendingLast;
    RecoveryUnit* _handlersOn = nullptr;  // the unit the commit/rollback handlers are on
    bool _deferRecord = false;
    std::optional<SessionTxnRecord> _unwrittenRecord;  // deferred: the open unit's newest
};

// A secondary applying a findAndModify's entry (ApplyingEntryScope is set): the op observer
// hands the document's images here; the one the entry's needsRetryImage names goes to
// config.image_collection in the applier's unit of work.
void recordRetryImageWhileApplying(OperationContext* opCtx, const BSONObj& pre, const BSONObj& post);

// RetryableWriteError: the label MongoDB 4.4+ adds to a retryable write's reply (a command
// with txnNumber outside a transaction) when it failed, or its write concern failed, with an
// error a driver may retry (the retryable-writes spec's codes). Appends errorLabels to reply
// when it applies and the reply has none. Pure (unit-tested).
BSONObj withRetryableWriteErrorLabel(const std::string& commandName, const BSONObj& body, const BSONObj& reply);
// Whether code is one of the retryable-writes specification's retryable error codes.
bool isRetryableWriteErrorCode(int code);

}  // namespace repl
}  // namespace mongo
