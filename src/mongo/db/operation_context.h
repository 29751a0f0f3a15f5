#pragma once
// Client: one connection's state. OperationContext: one command's state, passed first to
// every call below the command layer (MongoDB's convention).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/dedup/dedup_read_stats.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

namespace auth {
class AuthorizationSession;
}
namespace repl {
class RetryableWrite;
}
namespace txn {
class TransactionScope;
}

class Client {
public:
    Client(int64_t connectionId, std::string remote) : _id(connectionId), _remote(std::move(remote)) {}
    int64_t id() const { return _id; }
    const std::string& remote() const { return _remote; }
    std::string desc() const { return "conn" + std::to_string(_id); }

    // client metadata sent with the first hello ({driver, os, application, ...}).
    BSONObj metadata;
    // Compressors negotiated for this connection (filled by hello).
    std::vector<std::string> compressors;
    // Set by the connection's first hello/isMaster: client metadata may only come with it.
    bool seenHello = false;
    // The connection is in currentOp's registry with its current metadata (CurrentOpRegistry::
    // noteClient): noted again only after a hello, the one command that can change it.
    bool notedForCurrentOp = false;
    // Set by the dispatcher when the connection must be closed instead of answered
    // (failCommand with closeConnection: true).
    bool closeConnectionWithoutReply = false;
    // The connection's socket (-1 if none), watched by interruptible waits so that a client
    // that hangs up or a server shutting its sockets down ends them (db/interruptible_wait.h).
    // Only the connection's own thread uses it; the transport layer closes it after the session.
    int socketFd = -1;
    // Who is authenticated on this connection, their cached privileges and any SASL
    // conversation in progress (auth/authorization_session.h). Used only by the
    // connection's own thread; created on first use.
    std::shared_ptr<auth::AuthorizationSession> authzSession;
    // While a command of a multi-document transaction runs on this connection: the
    // transaction's recovery unit, which every OperationContext made for this client then
    // shares (makeOperationContext), so that the command's queries read the transaction's
    // snapshot and its own writes. Set and cleared by transaction/transaction_scope.h.
    RecoveryUnit* transactionRecoveryUnit = nullptr;

private:
    int64_t _id;
    std::string _remote;
};

class OperationContext {
public:
    OperationContext(Client* client, std::unique_ptr<RecoveryUnit> ru)
        : _client(client), _ownedRu(std::move(ru)), _ru(_ownedRu.get()), _opId(nextOpId()) {}
    // An operation using a recovery unit it does not own (a multi-document transaction's,
    // which outlives it). REQUIRES: ru outlives the operation.
    OperationContext(Client* client, RecoveryUnit* borrowedRu) : _client(client), _ru(borrowedRu), _opId(nextOpId()) {}
    virtual ~OperationContext() = default;

    Client* getClient() const { return _client; }
    RecoveryUnit* recoveryUnit() const { return _ru; }
    // Runs the operation on another recovery unit (a transaction's) until called with
    // nullptr, which returns it to its own. REQUIRES: not inside a unit of work of its own.
    void lendRecoveryUnit(RecoveryUnit* ru) { _ru = ru ? ru : _ownedRu.get(); }
    int64_t opId() const { return _opId; }

    // maxTimeMS: 0 means no deadline.
    void setDeadlineAfterMillis(int64_t ms) {
        _deadline = ms > 0 ? std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)
                           : std::chrono::steady_clock::time_point::max();
    }
    bool hasDeadline() const { return _deadline != std::chrono::steady_clock::time_point::max(); }
    std::chrono::steady_clock::time_point deadline() const { return _deadline; }
    // Kills the operation: its next checkForInterrupt() throws 'code' (Interrupted for killOp,
    // CursorKilled for killCursors of the cursor it works on, ClientDisconnect). The first kill
    // wins. Wakes the operation if it is blocked in an interruptible wait. Thread safe.
    void markKilled(ErrorCodes code = ErrorCodes::Interrupted);
    // Throws MaxTimeMSExpired / the kill code / InterruptedAtShutdown. Call in long loops.
    void checkForInterrupt() const;
    // While the operation blocks in an interruptible wait (db/interruptible_wait.h), how to
    // wake it: markKilled() calls it. Set and cleared (empty function) by the waiting thread.
    void setInterruptWaker(std::function<void()> waker);

    // Logical session of the command (lsid), empty if none.
    BSONObj lsid;
    // The command, as diagnostics show it (redacted), set by the dispatcher: currentOp's
    // command, and the originatingCommand of a cursor it opens. Empty for internal operations.
    BSONObj command;
    // The retryable write this command runs (lsid + txnNumber on a replica-set member), null
    // if none: set and cleared by repl/retryable_write.h, read by the write path and the op
    // observer.
    repl::RetryableWrite* retryableWrite = nullptr;
    // The multi-document transaction this command is a statement of, null if none (set and
    // cleared by transaction/transaction_scope.h). Its writes are not logged one by one: the
    // op observer adds each to the transaction, whose commit writes them in one applyOps entry.
    txn::TransactionScope* transaction = nullptr;
    bool inMultiDocumentTransaction() const { return transaction != nullptr; }
    // While in one: the key its cursors carry (query/cursor_manager.h ClientCursor::transaction).
    const std::string* transactionCursorKey = nullptr;
    // readConcern majority (or linearizable) on a replica set: the command's reply waits until
    // everything it read is majority-committed (ReplicationCoordinator::awaitReadDurable); a
    // cursor it opens keeps the flag for its getMores (ClientCursor::majorityRead).
    bool readsMajorityCommitted = false;
    // The command's bypassDocumentValidation: its writes skip collection validators.
    bool bypassDocumentValidation = false;
    // What the command's reads of deduplicated collections cost (explain's executionStats).
    OperationReadStats dedupReads;

    // What currentOp reports of the running operation, written by the operation's thread and
    // read by currentOp's (thread safe, hence usable through a const OperationContext*: it is
    // a report on the operation, not part of its state).
    // The plan the operation's query runs ("COLLSCAN", "IXSCAN { a: 1 }"), set when planned.
    void setPlanSummary(std::string summary) const {
        std::lock_guard<std::mutex> lk(_reportMutex);
        _planSummary = std::move(summary);
    }
    std::string planSummary() const {
        std::lock_guard<std::mutex> lk(_reportMutex);
        return _planSummary;
    }
    // True while the operation waits for a lock (db/catalog/catalog_lock.h).
    void setWaitingForLock(bool waiting) const { _waitingForLock.store(waiting); }
    bool waitingForLock() const { return _waitingForLock.load(); }
    // Times the operation let go of the write lock for others between its units of work
    // (currentOp's numYields; write_ops.cpp).
    void noteYield() { _numYields.fetch_add(1, std::memory_order_relaxed); }
    long long numYields() const { return _numYields.load(std::memory_order_relaxed); }

private:
    static int64_t nextOpId() {
        static std::atomic<int64_t> next{1};
        return next++;
    }
    Client* _client;
    std::unique_ptr<RecoveryUnit> _ownedRu;  // null when borrowing
    RecoveryUnit* _ru;
    int64_t _opId;
    std::chrono::steady_clock::time_point _deadline = std::chrono::steady_clock::time_point::max();
    std::atomic<int> _killCode{0};  // 0: not killed
    std::mutex _wakerMutex;          // guards _waker
    std::function<void()> _waker;
    mutable std::mutex _reportMutex;  // guards _planSummary
    mutable std::string _planSummary;
    mutable std::atomic<bool> _waitingForLock{false};
    std::atomic<long long> _numYields{0};
};

// The operation the calling thread runs for a client, if any: set for its duration by the
// dispatcher (ScopedCurrentOp), so that code without an OperationContext (lock acquisition)
// can report on it. Thread-local: each thread sees only its own.
const OperationContext* currentOperationOnThisThread();
void setCurrentOperationOnThisThread(const OperationContext* opCtx);

// Set when the server begins shutting down; long operations stop with InterruptedAtShutdown.
bool globalInShutdown();
void setGlobalInShutdown();

// RAII unit of work: aborts unless commit() was called.
class WriteUnitOfWork {
public:
    explicit WriteUnitOfWork(OperationContext* opCtx) : _ru(opCtx->recoveryUnit()) { _ru->beginUnitOfWork(); }
    ~WriteUnitOfWork() {
        if (!_committed) _ru->abortUnitOfWork();
    }
    void commit() {
        // A commit that throws has still ended the unit (the engine rolled it back): the
        // destructor must not abort it a second time.
        _committed = true;
        _ru->commitUnitOfWork();
    }

private:
    RecoveryUnit* _ru;
    bool _committed = false;
};

}  // namespace mongo
