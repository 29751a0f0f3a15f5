#include "mongo/db/operation_context.h"

#include <atomic>

namespace mongo {

namespace {
std::atomic<bool> gInShutdown{false};
}

bool globalInShutdown() { return gInShutdown; }
void setGlobalInShutdown() { gInShutdown = true; }

void OperationContext::checkForInterrupt() const {
    if (gInShutdown) uasserted(ErrorCodes::InterruptedAtShutdown, "interrupted at shutdown");
    if (_killed) uasserted(ErrorCodes::Interrupted, "operation was interrupted");
    if (hasDeadline() && std::chrono::steady_clock::now() > _deadline)
        uasserted(ErrorCodes::MaxTimeMSExpired, "operation exceeded time limit");
}

}  // namespace mongo
