#include "mongo/db/catalog/catalog_lock.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mongo/db/operation_context.h"
#include "mongo/db/server_parameters.h"

namespace mongo {

std::shared_timed_mutex& catalogMutex() {
    static std::shared_timed_mutex m;
    return m;
}

std::mutex& writeMutex() {
    static std::mutex m;
    return m;
}

namespace catalog_lock_detail {
namespace {
template <typename Lock>
void lockNoting(Lock& l) {
    if (l.try_lock()) return;
    const OperationContext* op = currentOperationOnThisThread();
    if (op) op->setWaitingForLock(true);
    try {
        l.lock();
    } catch (...) {
        if (op) op->setWaitingForLock(false);
        throw;
    }
    if (op) op->setWaitingForLock(false);
}
}  // namespace

void lockReportingWait(std::shared_lock<std::shared_timed_mutex>& l) { lockNoting(l); }
void lockReportingWait(std::unique_lock<std::shared_timed_mutex>& l) { lockNoting(l); }
void lockReportingWait(std::unique_lock<std::mutex>& l) { lockNoting(l); }

void lockForDDL(std::unique_lock<std::shared_timed_mutex>& l) {
    const OperationContext* op = currentOperationOnThisThread();
    const int limit = maxTransactionLockRequestTimeoutMillis();
    if (!op || !op->inMultiDocumentTransaction() || limit < 0) return lockNoting(l);
    if (l.try_lock_for(std::chrono::milliseconds(limit))) return;
    uasserted(ErrorCodes::LockTimeout, "Unable to acquire the catalog lock for a command of a transaction within " +
                                           std::to_string(limit) + "ms (maxTransactionLockRequestTimeoutMillis)");
}

bool waitBeforeDDLRetry(OperationContext* opCtx, const DBException& e, int attempt) {
    if (e.code() != int(ErrorCodes::WriteConflict) || !opCtx || opCtx->recoveryUnit()->isMultiStatement())
        return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt + 1, 100)));
    opCtx->checkForInterrupt();
    return true;
}
}  // namespace catalog_lock_detail

}  // namespace mongo
