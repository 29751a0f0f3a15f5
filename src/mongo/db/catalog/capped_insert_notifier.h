#pragma once
// Tells awaitData getMores on a capped collection that there may be something new to read:
// the collection signals it when an insert commits, and when it is dropped or renamed (so
// that a waiting getMore finds out at once that its cursor is dead).
//
// A waiter reads version() BEFORE it looks for documents, and after finding none waits for
// the version to change: an insert that commits in between is never missed.
// Thread safety: every member is thread safe.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>

#include "mongo/db/operation_context.h"

namespace mongo {

class InterruptibleWaiter;

class CappedInsertNotifier {
public:
    uint64_t version() const;
    // Bumps the version and wakes every waiter.
    void notifyAll();
    // Blocks, holding no locks, until version() != seen or the deadline passes. Returns true
    // if the version changed. Throws what InterruptibleWaiter::waitUntil throws (killOp,
    // killCursors, shutdown, client disconnect).
    bool waitForChange(OperationContext* opCtx, uint64_t seen, std::chrono::steady_clock::time_point deadline);

private:
    mutable std::mutex _mutex;
    uint64_t _version = 0;
    std::set<InterruptibleWaiter*> _waiters;
};

}  // namespace mongo
