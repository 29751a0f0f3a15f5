#include "mongo/db/catalog/capped_insert_notifier.h"

#include "mongo/db/interruptible_wait.h"

namespace mongo {

uint64_t CappedInsertNotifier::version() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _version;
}

void CappedInsertNotifier::notifyAll() {
    std::lock_guard<std::mutex> lk(_mutex);
    _version++;
    for (InterruptibleWaiter* w : _waiters) w->wake();
}

bool CappedInsertNotifier::waitForChange(OperationContext* opCtx, uint64_t seen,
                                         std::chrono::steady_clock::time_point deadline) {
    InterruptibleWaiter waiter(opCtx);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_version != seen) return true;
        _waiters.insert(&waiter);
    }
    struct Unregister {
        CappedInsertNotifier* n;
        InterruptibleWaiter* w;
        ~Unregister() {
            std::lock_guard<std::mutex> lk(n->_mutex);
            n->_waiters.erase(w);
        }
    } unregister{this, &waiter};
    // Every wake comes with a new version, so one wake is enough; the loop only guards the
    // contract.
    while (waiter.waitUntil(deadline)) {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_version != seen) return true;
    }
    return false;
}

}  // namespace mongo
