#pragma once
// The RecordStore conformance suite's seam (MongoDB's record store test harness): every
// RecordStore implementation registers a harness, and record_store_conformance_test.cpp runs
// every test against every registered harness. A wrapping RecordStore (dedup) registers its
// own harness that builds the wrapper over the engine's store.
// Registration happens during static initialisation; tests are created after main() starts.
// Thread safety: registration is not thread safe (static init only).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mongo/db/operation_context.h"
#include "mongo/db/storage/record_store.h"

namespace mongo {

class RecordStoreHarnessHelper {
public:
    virtual ~RecordStoreHarnessHelper() = default;
    // A new, empty record store. The helper keeps the engine alive until it is destroyed.
    virtual std::unique_ptr<RecordStore> newRecordStore() = 0;
    // An OperationContext with a fresh RecoveryUnit of the engine.
    virtual std::unique_ptr<OperationContext> newOperationContext() = 0;
    // Clean shutdown and reopen of the engine; returns the store with ident, reopened.
    // All record stores, cursors and OperationContexts from before become invalid.
    virtual bool supportsRestart() const { return false; }
    virtual std::unique_ptr<RecordStore> restartAndReopen(const std::string& ident) { return nullptr; }
};

using RecordStoreHarnessFactory = std::function<std::unique_ptr<RecordStoreHarnessHelper>()>;

void registerRecordStoreHarness(const std::string& name, RecordStoreHarnessFactory factory);
std::vector<std::string> registeredRecordStoreHarnesses();
std::unique_ptr<RecordStoreHarnessHelper> newRecordStoreHarness(const std::string& name);

}  // namespace mongo
