// Registers the WiredTiger record store with the RecordStore conformance suite, plus tests
// specific to the WiredTiger implementation.
#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"

#include <gtest/gtest.h>

#include "mongo/db/storage/record_store_test_harness.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

class WiredTigerHarness : public RecordStoreHarnessHelper {
public:
    WiredTigerHarness() { _engine = StorageEngine::open(testEngineOptions(_dir.path())); }
    ~WiredTigerHarness() override { _engine->cleanShutdown(); }

    std::unique_ptr<RecordStore> newRecordStore() override {
        std::string ident = "collection-test-" + std::to_string(_next++);
        _engine->kvEngine()->createRecordStore(ident, RecordStoreOptions());
        return _engine->kvEngine()->getRecordStore(ident);
    }
    std::unique_ptr<OperationContext> newOperationContext() override { return makeTestOpCtx(_engine.get()); }
    bool supportsRestart() const override { return true; }
    std::unique_ptr<RecordStore> restartAndReopen(const std::string& ident) override {
        _engine->cleanShutdown();
        _engine.reset();
        _engine = StorageEngine::open(testEngineOptions(_dir.path()));
        return _engine->kvEngine()->getRecordStore(ident);
    }

private:
    TempDir _dir;
    std::unique_ptr<StorageEngine> _engine;
    int _next = 0;
};

const bool registered = [] {
    registerRecordStoreHarness("WiredTiger", [] { return std::make_unique<WiredTigerHarness>(); });
    return true;
}();

TEST(WiredTigerRecordStoreTest, CompressorsAreAccepted) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    for (const char* c : {"none", "snappy", "zlib", "zstd"}) {
        RecordStoreOptions o;
        o.blockCompressor = c;
        std::string ident = std::string("collection-") + c;
        engine->kvEngine()->createRecordStore(ident, o);
        auto rs = engine->kvEngine()->getRecordStore(ident);
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        RecordId id = rs->insertRecord(opCtx.get(), "abc", 3);
        wuow.commit();
        EXPECT_EQ(std::string(rs->findRecord(opCtx.get(), id)->view()), "abc");
    }
    RecordStoreOptions bad;
    bad.blockCompressor = "lzma";
    EXPECT_THROW(engine->kvEngine()->createRecordStore("collection-bad", bad), DBException);
}

TEST(WiredTigerRecordStoreTest, StorageSizeReflectsFileAfterCheckpoint) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    engine->kvEngine()->createRecordStore("collection-size", RecordStoreOptions());
    auto rs = engine->kvEngine()->getRecordStore("collection-size");
    auto opCtx = makeTestOpCtx(engine.get());
    std::string data(1000, 'q');
    for (int i = 0; i < 200; ++i) {
        WriteUnitOfWork wuow(opCtx.get());
        data[i % 1000] = char(i);
        rs->insertRecord(opCtx.get(), data.data(), int(data.size()));
        wuow.commit();
    }
    engine->flushAllFiles(true);
    EXPECT_GT(rs->storageSize(opCtx.get()), 0);
}

}  // namespace
}  // namespace mongo
