#pragma once
// TransactionScope: one command of a multi-document transaction (lsid + txnNumber +
// autocommit: false on a replica-set member), from the dispatcher to the commit.
//
// The transaction lives in its session (repl/session_txn_table.h: MultiDocumentTransaction):
// a recovery unit whose WiredTiger transaction stays open from the first command to the
// commit or abort, inside one outer unit of work (RecoveryUnit::setMultiStatement). For the
// duration of each command of the transaction the scope
//   - checks the session out (one command of a session at a time, as for retryable writes),
//   - lends the transaction's recovery unit to the command's OperationContext and to every
//     OperationContext made for the connection meanwhile (queries' own contexts), so the
//     command reads the transaction's snapshot and its own writes, and its writes join the
//     transaction (their units of work nest inside the outer one);
//   - collects the transaction's writes from the op observer (addOperation), instead of
//     their oplog entries.
// commitTransaction writes those operations as one applyOps oplog entry (MongoDB 7.0's format:
// {lsid, txnNumber, op: "c", ns: "admin.$cmd", o: {applyOps: [...]}, prevOpTime}) and the
// session's config.transactions record ({state: "committed"}) in the transaction's own
// WiredTiger transaction, under the write lock, then commits it: the writes and their entry
// become visible together, in oplog order. abortTransaction (or any failed command of the
// transaction, the lifetime limit, a new term, killSessions) rolls the WiredTiger transaction
// back: nothing of it was logged or seen by anyone.
//
// Concurrency is WiredTiger's: a write to a document another open transaction changed is a
// WriteConflict (the transaction's command fails with TransientTransactionError; a write
// outside a transaction waits and retries, ops/write_ops.cpp).
// Thread safety: used by the command's own thread only.
#include <functional>
#include <memory>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/session_txn_table.h"

namespace mongo {
namespace txn {

// The commands MongoDB 7.0 runs inside a transaction (others: OperationNotSupportedInTransaction).
bool isAllowedInTransaction(const std::string& commandName);
bool isCommitOrAbort(const std::string& commandName);

class TransactionScope {
public:
    // For a command carrying autocommit, on a replica-set member, before it runs. Checks the
    // request as MongoDB does (InvalidOptions, TypeMismatch, OperationNotSupportedInTransaction),
    // checks the session out, starts (startTransaction: true) or continues the transaction
    // (TransactionTooOld, NoSuchTransaction, TransactionCommitted, ConflictingOperationInProgress)
    // and lends it to opCtx. Waits for the first command's readConcern afterClusterTime.
    static std::unique_ptr<TransactionScope> begin(OperationContext* opCtx, const std::string& commandName,
                                                   const BSONObj& body);
    // Returns the recovery unit to the transaction (or destroys an ended transaction's, which
    // rolls back what was not committed) and checks the session in.
    ~TransactionScope();
    TransactionScope(const TransactionScope&) = delete;
    TransactionScope& operator=(const TransactionScope&) = delete;

    const BSONObj& sessionId() const { return _session->sessionId(); }
    long long txnNumber() const { return _txnNumber; }

    // The op observer: one write of the transaction, as its applyOps element ({op, ns, ui, o,
    // o2?}). The commit writes them in as many applyOps entries as they need.
    void addOperation(const BSONObj& op);

    // commitTransaction: commits, or answers the retry of a committed transaction (then
    // answeredFromHistory()). Throws (and aborts) when the commit fails.
    void commit(OperationContext* opCtx);
    // abortTransaction, and the dispatcher when a command of the transaction failed (it threw,
    // or its reply holds writeErrors), as MongoDB aborts the transaction then. No-op once the
    // transaction ended.
    void abort();
    // A commit that was answered from the session's record: the reply waits for the write
    // concern of everything this node holds.
    bool answeredFromHistory() const { return _answeredFromHistory; }
    // Whether the transaction committed with no write: the write concern waits as for a retry.
    bool committedReadOnly() const { return _committedReadOnly; }

private:
    TransactionScope(OperationContext* opCtx, std::unique_ptr<repl::SessionTxnTable::CheckedOut> session,
                     long long txnNumber);
    void lend();
    // Gives the command its own recovery unit back (if this scope lent the transaction's).
    void unlend();
    // Ends the transaction in progress (kCommitted / kAborted) and counts it.
    void end(repl::TxnPhase how);

    OperationContext* _opCtx;
    std::unique_ptr<repl::SessionTxnTable::CheckedOut> _session;
    long long _txnNumber;
    repl::MultiDocumentTransaction* _txn = nullptr;  // in progress and lent to _opCtx
    std::unique_ptr<repl::MultiDocumentTransaction> _ended;  // destroyed after un-lending
    std::string _cursorKey;  // ClientCursor::transaction of the cursors it opens
    bool _answeredFromHistory = false;
    bool _committedReadOnly = false;
};

// Aborts the session's transaction in progress, if any, with its cursors: before the session
// takes a newer txnNumber (a transaction or a retryable write, as MongoDB), or when the
// transaction began in an older term.
void abortInProgress(repl::SessionTxnTable::CheckedOut& session);

// Aborts, now, the transactions in progress that no command uses and shouldAbort(sessionId,
// txnNumber, transaction) selects (the reaper), with the cursors they opened. Returns how many.
size_t abortIdleTransactions(
    const std::function<bool(const BSONObj&, long long, const repl::MultiDocumentTransaction&)>& shouldAbort);
// The same for every transaction of the sessions pred selects (killSessions, killAllSessions).
size_t abortIdleTransactionsOfSessions(const std::function<bool(const BSONObj& sessionId)>& pred);

}  // namespace txn
}  // namespace mongo
