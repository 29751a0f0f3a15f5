#pragma once
// The server's locking, deliberately simple:
//   - the catalog lock: shared by every command that uses a Collection*, exclusive for DDL
//     (create/drop/rename collection, create/drop index, dropDatabase);
//   - the write lock: serialises document writes, so WiredTiger never reports write conflicts
//     between our own writers, while readers run concurrently on snapshots.
// Lock order: catalog lock, then write lock.
// An operation that has to wait for one of them shows waitingForLock: true in currentOp
// while it waits.
#include <mutex>
#include <shared_mutex>

#include "mongo/base/status.h"

namespace mongo {

class OperationContext;

std::shared_timed_mutex& catalogMutex();
std::mutex& writeMutex();

namespace catalog_lock_detail {
// Takes the (deferred) lock; if it is not free at once, marks the thread's operation
// (operation_context.h) as waiting for a lock until it is.
void lockReportingWait(std::shared_lock<std::shared_timed_mutex>& l);
void lockReportingWait(std::unique_lock<std::shared_timed_mutex>& l);
void lockReportingWait(std::unique_lock<std::mutex>& l);
// The exclusive catalog lock for DDL. A command of a multi-document transaction waits at most
// maxTransactionLockRequestTimeoutMillis (MongoDB's; < 0: no limit), then fails with LockTimeout
// (TransientTransactionError): its transaction may hold what the lock's holder waits for (a
// writer waiting for the transaction's uncommitted key keeps the catalog lock shared).
void lockForDDL(std::unique_lock<std::shared_timed_mutex>& l);
// Whether a DDL attempt that failed with e is to be made again: a WriteConflict outside a
// multi-document transaction, after a short interruptible sleep (throws the interruption).
bool waitBeforeDDLRetry(OperationContext* opCtx, const DBException& e, int attempt);
}  // namespace catalog_lock_detail

// Runs ddl (which takes its locks itself) again while it meets a multi-document transaction's
// uncommitted creation of the same collection (WriteConflict), with no lock held between the
// attempts so that the transaction can end: MongoDB's writeConflictRetry. In a transaction the
// conflict is the command's error (TransientTransactionError).
template <typename F>
auto retryDDLOnWriteConflict(OperationContext* opCtx, F&& ddl) {
    for (int attempt = 0;; ++attempt) {
        try {
            return ddl();
        } catch (const DBException& e) {
            if (!catalog_lock_detail::waitBeforeDDLRetry(opCtx, e, attempt)) throw;
        }
    }
}

// A command reading documents.
class CatalogReadLock {
public:
    CatalogReadLock() : _lk(catalogMutex(), std::defer_lock) { catalog_lock_detail::lockReportingWait(_lk); }

private:
    std::shared_lock<std::shared_timed_mutex> _lk;
};

// A command writing documents (may create a collection implicitly through upgradeToDDL).
class CollectionWriteLock {
public:
    CollectionWriteLock() : _cat(catalogMutex(), std::defer_lock), _w(writeMutex(), std::defer_lock) {
        catalog_lock_detail::lockReportingWait(_cat);
        catalog_lock_detail::lockReportingWait(_w);
    }

    // Between two units of work of a long write: lets others write, keeping the catalog lock
    // (the caller's Collection* stays valid), runs `whileReleased`, takes the write lock again.
    template <typename F>
    void yieldWrites(F&& whileReleased) {
        _w.unlock();
        struct Relock {
            std::unique_lock<std::mutex>& w;
            ~Relock() { w.lock(); }
        } relock{_w};
        whileReleased();
    }

private:
    std::shared_lock<std::shared_timed_mutex> _cat;
    std::unique_lock<std::mutex> _w;
};

// A command changing the catalog.
class CatalogDDLLock {
public:
    CatalogDDLLock() : _cat(catalogMutex(), std::defer_lock), _w(writeMutex(), std::defer_lock) {
        catalog_lock_detail::lockForDDL(_cat);
        catalog_lock_detail::lockReportingWait(_w);
    }

private:
    std::unique_lock<std::shared_timed_mutex> _cat;
    std::unique_lock<std::mutex> _w;
};

}  // namespace mongo
