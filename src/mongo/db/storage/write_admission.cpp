#include "mongo/db/storage/write_admission.h"

namespace mongo {
namespace {
WriteAdmissionHook gHook;
}  // namespace

void setWriteAdmissionHook(WriteAdmissionHook hook) { gHook = std::move(hook); }

void admitWrite(OperationContext* opCtx) {
    if (gHook) gHook(opCtx);
}

std::atomic<int>& backgroundWriteLockWaiters() {
    static std::atomic<int> waiters{0};
    return waiters;
}

}  // namespace mongo
