#include "mongo/db/repl/optime_waiters.h"

namespace mongo {
namespace repl {

void OpTimeWaiters::Waiter::waitFor(std::unique_lock<std::mutex>& lk, std::chrono::milliseconds max) {
    // Registered again after each wake, so that the next move of the optime finds it.
    if (!_registered) {
        _it = _list._waiters.emplace(_target, this);
        _registered = true;
    }
    _cv.wait_for(lk, max, [this] { return !_registered; });
}

void OpTimeWaiters::wake(std::multimap<OpTime, Waiter*>::iterator end) {
    for (auto it = _waiters.begin(); it != end;) {
        Waiter* w = it->second;
        w->_registered = false;
        it = _waiters.erase(it);
        w->_cv.notify_one();
    }
}

void OpTimeWaiters::reached(const OpTime& reached) {
    wake(_waiters.upper_bound(reached));
}

void OpTimeWaiters::wakeAll() {
    wake(_waiters.end());
}

}  // namespace repl
}  // namespace mongo
