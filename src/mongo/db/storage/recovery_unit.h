#pragma once
// RecoveryUnit: one operation's view of the storage engine: a snapshot for reads and a
// transaction for writes (for WiredTiger: one WT_SESSION and its transaction).
// Not thread safe: belongs to one OperationContext.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mongo/base/status.h"

namespace mongo {

class OperationContext;

class RecoveryUnit {
public:
    virtual ~RecoveryUnit() = default;

    // Writes between begin and commit are atomic. Nesting is counted: only the outermost
    // commit commits. REQUIRES: not inside a unit of work for the first begin.
    virtual void beginUnitOfWork() = 0;
    virtual void commitUnitOfWork() = 0;
    virtual void abortUnitOfWork() = 0;
    virtual bool inUnitOfWork() const = 0;

    // Ends the read snapshot so the next read sees newer data (between getMore batches).
    // REQUIRES: not in a unit of work.
    virtual void abandonSnapshot() = 0;

    // Opens the read snapshot now rather than at the first read (a planner that must not see
    // older catalog state than the data it will read opens it first). No-op if already open.
    virtual void preallocateSnapshot() {}

    // The process-wide change epoch as it was just before the open read snapshot began (0: no
    // snapshot open, or the unit does not track it). Every change whose epoch bump happened
    // after its commit and is <= this value is visible in the snapshot. Caches of derived data
    // (dedup/decoded_record_cache.h) use it to tell snapshots apart. A unit that reads at an
    // older point in time than "latest" (a read timestamp) must return 0.
    virtual uint64_t snapshotEpoch() const { return 0; }
    // The counter (starts at 1): bumped by whoever must tell snapshots apart after a change.
    static std::atomic<uint64_t>& changeEpoch() {
        static std::atomic<uint64_t> epoch{1};
        return epoch;
    }

    // Makes every commit so far durable in the journal (j: true): a write command waits once,
    // after all of its statements committed. REQUIRES: not in a unit of work.
    virtual void waitUntilDurable() = 0;

    // Storage-engine timestamps (replica set members; WiredTiger's timestamps). A timestamp is
    // a uint64_t: a BSON Timestamp's seconds in the high 32 bits, its increment in the low
    // ones, so that both orders agree. 0 means "none".
    //
    // The commit timestamp of the current unit of work: every write in it becomes visible at
    // ts to readers at a read timestamp, and the stable timestamp decides what a checkpoint of
    // an unlogged table holds. Cleared when the unit of work ends. REQUIRES: inside a unit of
    // work; ts newer than the stable timestamp and not older than the oldest timestamp (the
    // engine refuses otherwise: throws DBException). This default throws CommandNotSupported.
    virtual void setCommitTimestamp(uint64_t ts);
    virtual uint64_t commitTimestamp() const { return 0; }
    // Reads at a point in time: every snapshot this unit opens from now on sees exactly the
    // writes committed at or before ts (plus writes made without a timestamp); 0 returns to
    // reading the latest data. Such a unit reports snapshotEpoch() 0. REQUIRES: no snapshot
    // open (call abandonSnapshot first) and not in a unit of work. Opening a snapshot at a ts
    // older than the oldest timestamp throws SnapshotTooOld. This default throws
    // CommandNotSupported for a non-zero ts.
    virtual void setReadTimestamp(uint64_t ts);
    virtual uint64_t readTimestamp() const { return 0; }

    // A multi-document transaction's unit (transaction/README.md): one WiredTiger transaction
    // kept open across the commands of the transaction, inside one outer unit of work begun
    // when it starts. While set: abandonSnapshot() keeps the snapshot (a cursor saved between
    // batches must not end the transaction), snapshotEpoch() is 0 (the unit reads an old
    // snapshot plus its own uncommitted writes, which no shared cache of derived data may
    // serve), and the process-wide count below includes it.
    void setMultiStatement(bool on) {
        if (on == _multiStatement) return;
        _multiStatement = on;
        openMultiStatementUnits().fetch_add(on ? 1 : -1);
    }
    bool isMultiStatement() const { return _multiStatement; }
    // How many multi-statement units are open: while any is, writers whose uniqueness checks
    // read a snapshot must also look for other transactions' uncommitted keys.
    static std::atomic<long long>& openMultiStatementUnits() {
        static std::atomic<long long> n{0};
        return n;
    }

    // Callbacks a multi-statement unit's owner runs just before its outermost commit, inside
    // the unit (runPreCommitHooks): every kCheck one, then every kApply one, each kind in
    // registration order; dropped at commit and abort. Checks change nothing outside the unit
    // (a failure then needs no undoing elsewhere).
    enum class PreCommitPhase { kCheck, kApply };
    void onPreCommit(std::function<void(OperationContext*)> f, PreCommitPhase phase = PreCommitPhase::kApply) {
        _preCommit.emplace_back(phase, std::move(f));
    }
    void runPreCommitHooks(OperationContext* opCtx) {
        auto fs = std::move(_preCommit);
        _preCommit.clear();
        for (PreCommitPhase phase : {PreCommitPhase::kCheck, PreCommitPhase::kApply})
            for (auto& [p, f] : fs)
                if (p == phase) f(opCtx);
    }

    // Callbacks run after the outermost commit / abort, in registration order.
    void onCommit(std::function<void()> f) { _onCommit.push_back(std::move(f)); }
    void onRollback(std::function<void()> f) { _onRollback.push_back(std::move(f)); }

protected:
    // After the commit: the unit's writes are durable whatever a handler does, so a handler
    // that throws is logged and the others still run; the commit is not reported as failed
    // (a client told so would run it again).
    void runCommitHandlers();
    // Newest first. They also run from destructors (a transaction's unit destroyed when it
    // ends): a handler that throws is logged and the others still run.
    void runRollbackHandlers();

protected:
    // Subclasses' destructors end a multi-statement unit (its count) before they release it.
    void endMultiStatement() { setMultiStatement(false); }

private:
    std::vector<std::function<void()>> _onCommit, _onRollback;
    std::vector<std::pair<PreCommitPhase, std::function<void(OperationContext*)>>> _preCommit;
    bool _multiStatement = false;
};

inline void RecoveryUnit::setCommitTimestamp(uint64_t) {
    throw DBException(Status(ErrorCodes::CommandNotSupported, "this storage engine has no timestamps"));
}
inline void RecoveryUnit::setReadTimestamp(uint64_t ts) {
    if (ts != 0)
        throw DBException(Status(ErrorCodes::CommandNotSupported, "this storage engine has no timestamps"));
}

}  // namespace mongo
