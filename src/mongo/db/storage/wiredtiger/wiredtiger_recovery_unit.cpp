#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"

#include <cerrno>

#include "mongo/db/operation_context.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {

WiredTigerRecoveryUnit::WiredTigerRecoveryUnit(WiredTigerKVEngine* engine) : _engine(engine) {}

WiredTigerRecoveryUnit::~WiredTigerRecoveryUnit() {
    endMultiStatement();
    if (_engine->sessionCache()->connectionClosed()) {
        // Outlived the engine's shutdown (which rolled back any open transaction).
        _session.reset();
        return;
    }
    if (_nesting > 0) {
        _nesting = 1;
        abortUnitOfWork();
    }
    if (_txnOpen) endTransaction(false);
    _engine->sessionCache()->releaseSession(std::move(_session));
}

WiredTigerRecoveryUnit* WiredTigerRecoveryUnit::get(OperationContext* opCtx) {
    auto* ru = dynamic_cast<WiredTigerRecoveryUnit*>(opCtx->recoveryUnit());
    invariant(ru);
    return ru;
}

WiredTigerSession* WiredTigerRecoveryUnit::getSession() {
    if (!_session) _session = _engine->sessionCache()->getSession();
    if (!_txnOpen) {
        _snapshotEpoch = changeEpoch().load();
        WT_SESSION* s = _session->get();
        wtCheck(s->begin_transaction(s, nullptr), "begin_transaction");
        if (_readTs != 0) {
            int ret = s->timestamp_transaction_uint(s, WT_TS_TXN_TYPE_READ, _readTs);
            if (ret != 0) {
                invariantWTOK(s->rollback_transaction(s, nullptr));
                // WiredTiger refuses a read timestamp older than the oldest timestamp: that
                // history is gone, which MongoDB reports as SnapshotTooOld.
                if (ret == EINVAL)
                    uasserted(ErrorCodes::SnapshotTooOld,
                              "Read timestamp " + std::to_string(_readTs) + " is older than the oldest available timestamp");
                wtCheck(ret, "timestamp_transaction(read_timestamp)");
            }
        }
        _txnOpen = true;
    }
    return _session.get();
}

void WiredTigerRecoveryUnit::beginUnitOfWork() {
    if (_nesting++ == 0) {
        _nestedAborted = false;
        getSession();
    }
}

void WiredTigerRecoveryUnit::endTransaction(bool commit) {
    invariant(_txnOpen);
    WT_SESSION* s = _session->get();
    _txnOpen = false;
    _commitTs = 0;
    ++_snapshotId;
    if (_engine->sessionCache()->connectionClosed()) {
        // The engine shut down under us: WiredTiger rolled the transaction back.
        uassert(ErrorCodes::InterruptedAtShutdown, "interrupted at shutdown", !commit);
        return;
    }
    int ret = commit ? s->commit_transaction(s, nullptr) : s->rollback_transaction(s, nullptr);
    if (ret != 0 && commit) {
        // A failed commit rolls the transaction back (WiredTiger's contract).
        throw DBException(wtRCToStatus(ret, "commit_transaction"));
    }
    invariantWTOK(ret);
}

void WiredTigerRecoveryUnit::commitUnitOfWork() {
    invariant(_nesting > 0);
    if (--_nesting > 0) return;
    if (_nestedAborted) {
        endTransaction(false);
        runRollbackHandlers();
        uasserted(ErrorCodes::WriteConflict, kWriteConflictMessage);
    }
    try {
        endTransaction(true);
    } catch (...) {
        runRollbackHandlers();
        throw;
    }
    _engine->noteCommit();
    runCommitHandlers();
}

void WiredTigerRecoveryUnit::waitUntilDurable() {
    invariant(_nesting == 0);
    _engine->waitUntilDurable();
}

void WiredTigerRecoveryUnit::abortUnitOfWork() {
    invariant(_nesting > 0);
    if (--_nesting > 0) {
        _nestedAborted = true;  // the outermost unit cannot commit any more
        return;
    }
    if (_txnOpen) endTransaction(false);
    runRollbackHandlers();
}

void WiredTigerRecoveryUnit::setCommitTimestamp(uint64_t ts) {
    invariant(_nesting > 0 && _txnOpen);
    invariant(ts != 0);
    WT_SESSION* s = _session->get();
    wtCheck(s->timestamp_transaction_uint(s, WT_TS_TXN_TYPE_COMMIT, ts), "timestamp_transaction(commit_timestamp)");
    _commitTs = ts;
}

void WiredTigerRecoveryUnit::setReadTimestamp(uint64_t ts) {
    invariant(_nesting == 0 && !_txnOpen);
    _readTs = ts;
}

void WiredTigerRecoveryUnit::abandonSnapshot() {
    if (isMultiStatement()) return;  // the transaction's snapshot lives until it ends
    invariant(_nesting == 0);
    if (_txnOpen) endTransaction(false);  // read-only: nothing to keep
}

}  // namespace mongo
