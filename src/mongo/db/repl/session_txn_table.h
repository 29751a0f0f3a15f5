#pragma once
// SessionTxnTable: the primary's in-memory view of each session's retryable write (MongoDB's
// session catalog + transaction participant, reduced to retryable writes).
//
// Drivers send lsid + txnNumber with every insert/update/delete/findAndModify once they see a
// replica set; each statement of the command has a stmtId (its index, or the command's
// stmtIds). A statement that already executed under the session's current txnNumber is never
// applied again: the command answers it from its record (the statement's oplog entry).
//   - a txnNumber newer than the session's starts a new retryable write (no statements yet);
//   - an older one fails with TransactionTooOld (225);
//   - the same one continues it: checkStatementExecuted() tells which statements ran; a
//     statement that is not in a history known to be incomplete (the oplog no longer holds
//     the whole chain) fails with IncompleteTransactionHistory (217).
// Durable state is config.transactions plus the oplog chain (session_txn_record.h); this
// table loads a session from there (SessionTxnStore) the first time it is used in a term, so
// a new primary (after a failover, a restart or a step-up) answers retries of writes made
// by the previous one: they reached it through replication.
//
// Check-out: one operation at a time uses a session (as MongoDB's session catalog): a retry
// arriving while the original command still runs waits for it (interruptibly), then finds
// its statements executed.
// Sessions unused for 30 minutes are dropped from memory (they are reloaded on next use),
// from a list ordered by last use (amortized O(1)).
// Thread safety: every member is thread safe; a CheckedOut is used by its one operation.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/optime.h"
#include "mongo/db/repl/session_txn_record.h"

namespace mongo {
namespace repl {

// What a statement did, as far as a retry needs it (from its oplog entry).
struct StatementOutcome {
    OpTime opTime;
    char op = 'n';          // 'i' (an insert or an upsert), 'u', 'd'
    BSONObj upsertedId;     // {_id: <value>} of an 'i'
    std::string imageKind;  // a findAndModify's needsRetryImage ("" = none)
};

// The statements of one txnNumber read back along the oplog chain.
struct TxnHistory {
    std::map<int, StatementOutcome> statements;
    bool complete = true;  // false: the chain is cut (entries gone from the capped oplog)
};

// A multi-document transaction's resources while it is in progress (transaction/README.md):
// the recovery unit holding its WiredTiger transaction, open across its commands, and the
// operations its commit writes as one applyOps oplog entry.
struct MultiDocumentTransaction {
    std::unique_ptr<RecoveryUnit> ru;
    std::vector<BSONObj> ops;  // applyOps elements, in the order they were written
    std::chrono::steady_clock::time_point started;
    // When its last command ended (set at check-in, under the table's lock).
    std::chrono::steady_clock::time_point lastActive;
    Date_t startWallClock;
    long long term = 0;                // the term it began in: a new term ends it
    std::string readConcernLevel;      // of its first command ("" = local)
    // killSessions met it while one of its commands ran: that command's end aborts it.
    std::atomic<bool> abortRequested{false};
};

enum class TxnPhase { kNone, kInProgress, kCommitted, kAborted };

// Where the table loads sessions from (session_txn_storage.h; unit tests fake it).
class SessionTxnStore {
public:
    virtual ~SessionTxnStore() = default;
    virtual std::optional<SessionTxnRecord> readRecord(OperationContext* opCtx, const BSONObj& sessionId) = 0;
    virtual TxnHistory readHistory(OperationContext* opCtx, const OpTime& lastWrite) = 0;
};

class SessionTxnTable {
    struct Session;

public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::minutes kSessionIdleTimeout{30};

    // The process's table, loading from the catalog (session_txn_storage.h).
    static SessionTxnTable* get();
    explicit SessionTxnTable(SessionTxnStore* store) : _store(store) {}

    // One operation's hold on a session; released (and waiters woken) on destruction.
    class CheckedOut {
    public:
        ~CheckedOut();
        CheckedOut(const CheckedOut&) = delete;
        CheckedOut& operator=(const CheckedOut&) = delete;

        const BSONObj& sessionId() const;  // {id, uid}
        // Starts or continues txnNumber (TransactionTooOld for an older one).
        void beginOrContinue(long long txnNumber);
        long long txnNumber() const;
        // The statement's outcome if it executed under the current txnNumber;
        // IncompleteTransactionHistory if it may have but the history is gone.
        std::optional<StatementOutcome> checkStatementExecuted(int stmtId) const;
        // The session's newest entry of the current txnNumber (null before the first): the
        // next entry's prevOpTime.
        OpTime lastWriteOpTime() const;
        // After a unit of work holding these statements committed; last = its newest entry.
        void onStatementsCommitted(const std::vector<std::pair<int, StatementOutcome>>& stmts, const OpTime& last);

        // --- multi-document transactions (transaction/transaction_scope.h)
        // What txnNumber() is: a retryable write (kNone) or a transaction and how it ended.
        TxnPhase phase() const;
        // The transaction in progress (null unless phase() is kInProgress).
        MultiDocumentTransaction* transaction() const;
        // Makes txnNumber n a transaction in progress with these resources. REQUIRES: n newer
        // than txnNumber(), or equal with phase() kNone and no statement executed.
        void startTransaction(long long n, std::unique_ptr<MultiDocumentTransaction> txn);
        // Ends the transaction in progress (kCommitted / kAborted) and hands back its resources
        // (their destruction rolls back whatever was not committed).
        std::unique_ptr<MultiDocumentTransaction> endTransaction(TxnPhase how);
        // Whether the session ran no statement under txnNumber() (a transaction may take it).
        bool noStatementsExecuted() const;

    private:
        friend class SessionTxnTable;
        CheckedOut(SessionTxnTable* table, std::shared_ptr<Session> s, OperationContext* opCtx)
            : _table(table), _s(std::move(s)), _opCtx(opCtx) {}
        SessionTxnTable* _table;
        std::shared_ptr<Session> _s;
        OperationContext* _opCtx;
    };

    // Checks the session out for opCtx (waits while another operation has it; throws the
    // operation's interruption). term: the term writes are made in now; a session last loaded
    // in another term is loaded again from storage. sessionId: {id, uid}.
    std::unique_ptr<CheckedOut> checkOut(OperationContext* opCtx, const BSONObj& sessionId, long long term,
                                         Clock::time_point now = Clock::now());

    // The reaper removed the session's record: forget it (unless an operation holds it).
    void forget(const BSONObj& sessionId);

    // Aborts each transaction in progress that no command uses now and for which
    // shouldAbort(sessionId, txnNumber, transaction) is true; returns their resources, to be
    // destroyed by the caller outside the table's lock (that rolls them back).
    // markActive: in the same pass, a selected transaction that a command uses now is marked
    // (abortRequested) instead: that command, its next one or its commit aborts it (killSessions;
    // one pass under the table's lock, so that no transaction slips between the two).
    std::vector<std::unique_ptr<MultiDocumentTransaction>> abortIdleTransactionsIf(
        const std::function<bool(const BSONObj&, long long, const MultiDocumentTransaction&)>& shouldAbort,
        bool markActive = false);
    // Every transaction in progress (active: one of its commands runs now).
    struct TransactionInfo {
        BSONObj sessionId;
        long long txnNumber;
        Clock::time_point started, lastActive;
        Date_t startWallClock;
        bool active;
        std::string readConcernLevel;
    };
    std::vector<TransactionInfo> transactionsInProgress() const;

    size_t sizeForTest() const;

private:
    struct Session {
        BSONObj sessionId;
        std::string key;
        bool checkedOut = false;
        // Loaded from storage in loadedTerm; txnNum -1: no retryable write yet.
        bool loaded = false;
        long long loadedTerm = 0;
        long long txnNum = -1;
        OpTime lastWrite;
        bool historyLoaded = false;  // statements/complete reflect txnNum's chain
        std::map<int, StatementOutcome> statements;
        bool complete = true;
        std::list<std::pair<std::string, Clock::time_point>>::iterator use;
        TxnPhase phase = TxnPhase::kNone;
        std::unique_ptr<MultiDocumentTransaction> txn;  // while kInProgress
    };
    void checkIn(const std::shared_ptr<Session>& s);
    void expireIdle(Clock::time_point now);  // REQUIRES: _mutex

    SessionTxnStore* _store;
    mutable std::mutex _mutex;
    std::condition_variable _released;
    std::list<std::pair<std::string, Clock::time_point>> _byUse;  // oldest first
    std::unordered_map<std::string, std::shared_ptr<Session>> _sessions;
};

}  // namespace repl
}  // namespace mongo
