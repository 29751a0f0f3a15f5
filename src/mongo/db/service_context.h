#pragma once
// Process-wide services main() installs at startup: how to make an OperationContext (with a
// RecoveryUnit of the storage engine), and how to ask the server to shut down.
#include <functional>
#include <memory>

#include "mongo/db/operation_context.h"

namespace mongo {

using RecoveryUnitFactory = std::function<std::unique_ptr<RecoveryUnit>()>;
void setRecoveryUnitFactory(RecoveryUnitFactory f);
// A new OperationContext for client with a fresh RecoveryUnit of the storage engine; while a
// command of a multi-document transaction runs on client, one sharing the transaction's
// recovery unit instead (Client::transactionRecoveryUnit).
std::unique_ptr<OperationContext> makeOperationContext(Client* client);
// Always a fresh RecoveryUnit: work a transaction's command does outside the transaction
// (creating a collection, which commits at once).
std::unique_ptr<OperationContext> makeOperationContextOutsideTransaction(Client* client);
// A fresh RecoveryUnit of the storage engine (a multi-document transaction's).
std::unique_ptr<RecoveryUnit> makeRecoveryUnit();

// Asks main() to shut down (the shutdown command, signals). Returns immediately.
void setShutdownHandler(std::function<void()> f);
void requestShutdown();

// Flushes all data files to disk (fsync command): installed by main over the storage engine.
void setFsyncHandler(std::function<void()> f);
void fsyncAllFiles();

// A Client for internal work (TTL, background jobs), connection id 0.
Client* internalClient();

}  // namespace mongo
