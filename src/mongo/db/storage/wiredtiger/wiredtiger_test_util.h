#pragma once
// Test support (header only, no test framework): a temporary dbpath that removes itself, and
// an OperationContext maker over a StorageEngine. Not thread safe.
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "mongo/db/operation_context.h"
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

class TempDir {
public:
    explicit TempDir(const std::string& prefix = "mdb_test") {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        char* p = ::mkdtemp(tmpl.data());
        invariant(p != nullptr);
        _path = p;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(_path, ec);
    }
    const std::string& path() const { return _path; }

private:
    std::string _path;
};

inline Client* testClient() {
    static Client client(0, "test");
    return &client;
}

inline StorageEngineOptions testEngineOptions(const std::string& dbpath) {
    StorageEngineOptions o;
    o.dbpath = dbpath;
    o.cacheSizeGB = 0.25;
    return o;
}

inline std::unique_ptr<OperationContext> makeTestOpCtx(StorageEngine* engine) {
    return std::make_unique<OperationContext>(testClient(), engine->newRecoveryUnit());
}

}  // namespace mongo
