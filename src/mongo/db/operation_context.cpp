#include "mongo/db/operation_context.h"

#include <atomic>

#include "mongo/db/interruptible_wait.h"
#include "mongo/util/fail_point.h"

namespace mongo {

// Fail points (test commands): maxTimeAlwaysTimeOut makes every operation with a deadline time
// out at its next check; maxTimeNeverTimeOut makes deadlines never pass (MongoDB's).
MONGO_FAIL_POINT_DEFINE(maxTimeAlwaysTimeOut);
MONGO_FAIL_POINT_DEFINE(maxTimeNeverTimeOut);

namespace {
std::atomic<bool> gInShutdown{false};
thread_local const OperationContext* tlsCurrentOperation = nullptr;
}  // namespace

const OperationContext* currentOperationOnThisThread() { return tlsCurrentOperation; }
void setCurrentOperationOnThisThread(const OperationContext* opCtx) { tlsCurrentOperation = opCtx; }

bool globalInShutdown() { return gInShutdown; }
void setGlobalInShutdown() {
    gInShutdown = true;
    wakeAllInterruptibleWaits();
}

void OperationContext::markKilled(ErrorCodes code) {
    int expected = 0;
    _killCode.compare_exchange_strong(expected, static_cast<int>(code));
    std::lock_guard<std::mutex> lk(_wakerMutex);
    if (_waker) _waker();
}

void OperationContext::setInterruptWaker(std::function<void()> waker) {
    std::lock_guard<std::mutex> lk(_wakerMutex);
    _waker = std::move(waker);
}

void OperationContext::checkForInterrupt() const {
    if (gInShutdown) uasserted(ErrorCodes::InterruptedAtShutdown, "interrupted at shutdown");
    if (int code = _killCode.load()) {
        if (code == static_cast<int>(ErrorCodes::ClientDisconnect))
            uasserted(ErrorCodes::ClientDisconnect, "operation was interrupted because a client disconnected");
        uasserted(static_cast<ErrorCodes>(code), "operation was interrupted");
    }
    if (!hasDeadline()) return;
    if (maxTimeAlwaysTimeOut.shouldFail() ||
        (std::chrono::steady_clock::now() > _deadline && !maxTimeNeverTimeOut.shouldFail()))
        uasserted(ErrorCodes::MaxTimeMSExpired, "operation exceeded time limit");
}

}  // namespace mongo
