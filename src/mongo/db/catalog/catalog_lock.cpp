#include "mongo/db/catalog/catalog_lock.h"

#include "mongo/db/operation_context.h"

namespace mongo {

std::shared_mutex& catalogMutex() {
    static std::shared_mutex m;
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

void lockReportingWait(std::shared_lock<std::shared_mutex>& l) { lockNoting(l); }
void lockReportingWait(std::unique_lock<std::shared_mutex>& l) { lockNoting(l); }
void lockReportingWait(std::unique_lock<std::mutex>& l) { lockNoting(l); }
}  // namespace catalog_lock_detail

}  // namespace mongo
