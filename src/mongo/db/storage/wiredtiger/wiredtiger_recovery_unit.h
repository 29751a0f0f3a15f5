#pragma once
// WiredTigerRecoveryUnit: one operation's WT_SESSION (taken from the pool on first use,
// returned when the unit is destroyed) and its transaction.
//
// A snapshot transaction begins lazily at the first read or write. A unit of work that starts
// while a read snapshot is open continues in that transaction (so a scan can write what it
// reads); its outermost commit commits the transaction. Committing, aborting or abandoning the
// snapshot ends the transaction; the engine's cursors notice (snapshotId changes) and
// reposition themselves after the last entry they returned, so callers may keep iterating.
//
// Timestamps (RecoveryUnit's contract): the commit timestamp is given to WiredTiger at once
// (WT_SESSION::timestamp_transaction_uint, COMMIT), so a refused one fails the caller's write
// rather than its commit; the read timestamp is set on each new transaction right after
// begin_transaction (READ). Versioning is WiredTiger's: nothing here keeps old values.
// Not thread safe: belongs to one OperationContext.
#include <cstdint>
#include <memory>

#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"

namespace mongo {

class WiredTigerKVEngine;

class WiredTigerRecoveryUnit : public RecoveryUnit {
public:
    explicit WiredTigerRecoveryUnit(WiredTigerKVEngine* engine);
    ~WiredTigerRecoveryUnit() override;

    void beginUnitOfWork() override;
    void commitUnitOfWork() override;
    void abortUnitOfWork() override;
    bool inUnitOfWork() const override { return _nesting > 0; }
    void abandonSnapshot() override;
    void preallocateSnapshot() override { getSession(); }
    // A snapshot at a read timestamp misses changes committed before it began: epoch 0.
    // A multi-statement unit reads its own uncommitted writes: epoch 0 as well.
    uint64_t snapshotEpoch() const override {
        return _txnOpen && _readTs == 0 && !isMultiStatement() ? _snapshotEpoch : 0;
    }
    void waitUntilDurable() override;
    void setCommitTimestamp(uint64_t ts) override;
    uint64_t commitTimestamp() const override { return _commitTs; }
    void setReadTimestamp(uint64_t ts) override;
    uint64_t readTimestamp() const override { return _readTs; }

    // The session with a transaction open on it (begun now if needed).
    WiredTigerSession* getSession();
    // Changes every time the transaction ends; cursors compare it to know they must reposition.
    uint64_t snapshotId() const { return _snapshotId; }
    WiredTigerKVEngine* engine() const { return _engine; }

    // REQUIRES: the OperationContext's recovery unit is a WiredTigerRecoveryUnit.
    static WiredTigerRecoveryUnit* get(class OperationContext* opCtx);

private:
    void endTransaction(bool commit);

    WiredTigerKVEngine* _engine;
    std::unique_ptr<WiredTigerSession> _session;
    bool _txnOpen = false;
    int _nesting = 0;
    bool _nestedAborted = false;
    bool _wroteInTxn = false;
    uint64_t _snapshotId = 1;
    uint64_t _snapshotEpoch = 0;  // RecoveryUnit::changeEpoch() just before begin_transaction
    uint64_t _commitTs = 0;       // of the open transaction, 0 = none
    uint64_t _readTs = 0;         // for every transaction begun, 0 = latest
};

}  // namespace mongo
