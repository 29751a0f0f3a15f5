#include "mongo/db/service_context.h"

#include <mutex>

namespace mongo {
namespace {
RecoveryUnitFactory gRuFactory;
std::function<void()> gShutdown, gFsync;
std::mutex gMutex;
}  // namespace

void setRecoveryUnitFactory(RecoveryUnitFactory f) { gRuFactory = std::move(f); }

std::unique_ptr<OperationContext> makeOperationContext(Client* client) {
    invariant(gRuFactory);
    if (client && client->transactionRecoveryUnit)
        return std::make_unique<OperationContext>(client, client->transactionRecoveryUnit);
    return std::make_unique<OperationContext>(client, gRuFactory());
}

std::unique_ptr<RecoveryUnit> makeRecoveryUnit() {
    invariant(gRuFactory);
    return gRuFactory();
}

std::unique_ptr<OperationContext> makeOperationContextOutsideTransaction(Client* client) {
    invariant(gRuFactory);
    return std::make_unique<OperationContext>(client, gRuFactory());
}

void setShutdownHandler(std::function<void()> f) {
    std::lock_guard<std::mutex> lk(gMutex);
    gShutdown = std::move(f);
}

void requestShutdown() {
    std::function<void()> f;
    {
        std::lock_guard<std::mutex> lk(gMutex);
        f = gShutdown;
    }
    if (f) f();
}

void setFsyncHandler(std::function<void()> f) { gFsync = std::move(f); }
void fsyncAllFiles() {
    if (gFsync) gFsync();
}

Client* internalClient() {
    static Client c(0, "internal");
    return &c;
}

}  // namespace mongo
