#include "mongo/db/storage/record_store_test_harness.h"

#include <map>

namespace mongo {
namespace {
std::map<std::string, RecordStoreHarnessFactory>& registry() {
    static std::map<std::string, RecordStoreHarnessFactory> r;
    return r;
}
}  // namespace

void registerRecordStoreHarness(const std::string& name, RecordStoreHarnessFactory factory) {
    registry()[name] = std::move(factory);
}

std::vector<std::string> registeredRecordStoreHarnesses() {
    std::vector<std::string> names;
    for (auto& [name, f] : registry()) names.push_back(name);
    return names;
}

std::unique_ptr<RecordStoreHarnessHelper> newRecordStoreHarness(const std::string& name) {
    auto it = registry().find(name);
    invariant(it != registry().end());
    return it->second();
}

}  // namespace mongo
