// WiredTigerKVEngine / StorageEngine: dbpath locking, unclean-shutdown detection, durability of
// acknowledged writes across kill -9, dropping busy tables, ident listing.
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

TEST(WiredTigerKVEngineTest, SecondOpenOfSameDbpathFailsWithDBPathInUse) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    try {
        StorageEngine::open(testEngineOptions(dir.path()));
        FAIL() << "second open succeeded";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::DBPathInUse));
    }
}

TEST(WiredTigerKVEngineTest, MissingDbpathFailsWithNonExistentPath) {
    try {
        StorageEngine::open(testEngineOptions("/nonexistent/dbpath/for/test"));
        FAIL();
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::NonExistentPath));
    }
}

TEST(WiredTigerKVEngineTest, InvalidCompressorIsBadValue) {
    TempDir dir;
    auto o = testEngineOptions(dir.path());
    o.blockCompressor = "lzma";
    try {
        StorageEngine::open(o);
        FAIL();
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::BadValue));
    }
}

// A child process writes and commits, then is killed with SIGKILL without any shutdown:
// every committed (acknowledged) record and the counts must be there after recovery.
TEST(WiredTigerKVEngineTest, CommittedWritesSurviveKill9) {
    TempDir dir;
    const int kRecords = 500;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        auto o = testEngineOptions(dir.path());
        o.syncDelaySecs = 0;  // no checkpoint: recovery must come from the journal
        auto engine = StorageEngine::open(o);
        engine->kvEngine()->createRecordStore("collection-kill", RecordStoreOptions());
        auto rs = engine->kvEngine()->getRecordStore("collection-kill");
        auto opCtx = makeTestOpCtx(engine.get());
        for (int i = 0; i < kRecords; ++i) {
            WriteUnitOfWork wuow(opCtx.get());
            std::string data = "record-" + std::to_string(i);
            rs->insertRecord(opCtx.get(), data.data(), int(data.size()));
            wuow.commit();
        }
        ::kill(::getpid(), SIGKILL);
        _exit(1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    EXPECT_TRUE(engine->recoveredFromUncleanShutdown());
    auto rs = engine->kvEngine()->getRecordStore("collection-kill");
    auto opCtx = makeTestOpCtx(engine.get());
    EXPECT_EQ(rs->numRecords(opCtx.get()), kRecords);
    int n = 0;
    auto c = rs->getCursor(opCtx.get(), true);
    while (auto r = c->next()) {
        EXPECT_EQ(std::string(r->data.view()), "record-" + std::to_string(n));
        ++n;
    }
    EXPECT_EQ(n, kRecords);
}

TEST(WiredTigerKVEngineTest, CleanShutdownIsDetected) {
    TempDir dir;
    StorageEngine::open(testEngineOptions(dir.path()))->cleanShutdown();
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    EXPECT_FALSE(engine->recoveredFromUncleanShutdown());
}

TEST(WiredTigerKVEngineTest, DropOfBusyTableIsQueuedAndCompletes) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    KVEngine* kv = engine->kvEngine();
    kv->createRecordStore("collection-busy", RecordStoreOptions());
    EXPECT_TRUE(kv->hasIdent("collection-busy"));
    auto rs = kv->getRecordStore("collection-busy");
    auto reader = makeTestOpCtx(engine.get());
    {
        WriteUnitOfWork wuow(reader.get());
        rs->insertRecord(reader.get(), "x", 1);
        wuow.commit();
    }
    auto cursor = rs->getCursor(reader.get(), true);
    ASSERT_TRUE(cursor->next());  // holds an open WT cursor on the table
    kv->dropIdent("collection-busy");  // must not fail
    cursor.reset();
    reader.reset();  // the session goes back to the pool and closes its cursors on the table
    auto* wt = static_cast<WiredTigerKVEngine*>(kv);
    for (int i = 0; i < 50 && wt->numPendingDrops() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(wt->numPendingDrops(), 0u);
    EXPECT_FALSE(kv->hasIdent("collection-busy"));
}

TEST(WiredTigerKVEngineTest, GetAllIdentsListsTables) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    engine->kvEngine()->createRecordStore("collection-a", RecordStoreOptions());
    engine->kvEngine()->createSortedDataInterface("index-b", SortedDataOptions());
    auto idents = engine->kvEngine()->getAllIdents();
    EXPECT_NE(std::find(idents.begin(), idents.end(), "collection-a"), idents.end());
    EXPECT_NE(std::find(idents.begin(), idents.end(), "index-b"), idents.end());
    EXPECT_FALSE(engine->kvEngine()->serverStatusSection().isEmpty());
}

TEST(WiredTigerKVEngineTest, DurableCommitAndFlushWork) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    engine->kvEngine()->createRecordStore("collection-j", RecordStoreOptions());
    auto rs = engine->kvEngine()->getRecordStore("collection-j");
    auto opCtx = makeTestOpCtx(engine.get());
    {
        WriteUnitOfWork wuow(opCtx.get());
        rs->insertRecord(opCtx.get(), "j", 1);
        wuow.commit();
    }
    opCtx->recoveryUnit()->waitUntilDurable();
    engine->flushAllFiles(true);
    EXPECT_EQ(rs->numRecords(opCtx.get()), 1);
}

TEST(WiredTigerKVEngineTest, WorksWithoutJournal) {
    TempDir dir;
    auto o = testEngineOptions(dir.path());
    o.journal = false;
    {
        auto engine = StorageEngine::open(o);
        engine->kvEngine()->createRecordStore("collection-nj", RecordStoreOptions());
        auto rs = engine->kvEngine()->getRecordStore("collection-nj");
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        rs->insertRecord(opCtx.get(), "n", 1);
        wuow.commit();
    }
    auto engine = StorageEngine::open(o);
    auto rs = engine->kvEngine()->getRecordStore("collection-nj");
    EXPECT_EQ(rs->numRecords(makeTestOpCtx(engine.get()).get()), 1);
}

TEST(WiredTigerKVEngineTest, OperationOutlivingShutdownIsHarmless) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    engine->kvEngine()->createRecordStore("collection-late", RecordStoreOptions());
    auto rs = engine->kvEngine()->getRecordStore("collection-late");
    auto opCtx = makeTestOpCtx(engine.get());
    auto wuow = std::make_unique<WriteUnitOfWork>(opCtx.get());
    rs->insertRecord(opCtx.get(), "x", 1);
    engine->cleanShutdown();  // rolls the open transaction back
    wuow.reset();
    opCtx.reset();
    engine = StorageEngine::open(testEngineOptions(dir.path()));
    rs = engine->kvEngine()->getRecordStore("collection-late");
    EXPECT_EQ(rs->numRecords(makeTestOpCtx(engine.get()).get()), 0);
}

// compactIdent: a table holding `records` records of 2 KB of incompressible bytes, checkpointed.
std::vector<RecordId> fillForCompact(StorageEngine* engine, RecordStore* rs, int records) {
    auto opCtx = makeTestOpCtx(engine);
    std::vector<RecordId> ids;
    std::string data(2048, '\0');
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < records; ++i) {
        for (char& ch : data) {  // xorshift: no compressor gets anything out of it
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            ch = char(x);
        }
        data[0] = char(i);
        WriteUnitOfWork wuow(opCtx.get());
        ids.push_back(rs->insertRecord(opCtx.get(), data.data(), int(data.size())));
        wuow.commit();
    }
    engine->flushAllFiles(true);
    return ids;
}

void removeRecords(StorageEngine* engine, RecordStore* rs, const std::vector<RecordId>& ids, int keepEvery) {
    auto opCtx = makeTestOpCtx(engine);
    for (size_t i = 0; i < ids.size(); ++i) {
        if (keepEvery > 0 && i % keepEvery == 0) continue;
        WriteUnitOfWork wuow(opCtx.get());
        rs->deleteRecord(opCtx.get(), ids[i]);
        wuow.commit();
    }
    engine->flushAllFiles(true);
}

TEST(WiredTigerKVEngineTest, CompactIdentGivesBackTheSpaceOfRemovedRecords) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    KVEngine* kv = engine->kvEngine();
    kv->createRecordStore("collection-compact", RecordStoreOptions());
    auto rs = kv->getRecordStore("collection-compact");
    auto ids = fillForCompact(engine.get(), rs.get(), 3000);  // ~6 MB
    long long full = kv->identSize("collection-compact");
    ASSERT_GT(full, 5 * 1024 * 1024);
    removeRecords(engine.get(), rs.get(), ids, 10);
    long long before = kv->identSize("collection-compact");

    auto opCtx = makeTestOpCtx(engine.get());
    // Below the default free space target (20 MB) nothing happens.
    kv->compactIdent(opCtx.get(), "collection-compact");
    EXPECT_GT(kv->identSize("collection-compact"), before * 9 / 10);
    CompactIdentOptions options;
    options.freeSpaceTargetMB = 1;
    long long freed = kv->compactIdent(opCtx.get(), "collection-compact", options);
    long long after = kv->identSize("collection-compact");
    EXPECT_GT(freed, 4 * 1024 * 1024);
    EXPECT_EQ(freed, before - after);
    EXPECT_LT(after, full / 4);
    // The records kept are all there, unchanged.
    EXPECT_EQ(rs->numRecords(opCtx.get()), 300);
    for (size_t i = 0; i < ids.size(); i += 10) {
        auto r = rs->findRecord(opCtx.get(), ids[i]);
        ASSERT_TRUE(r.has_value());
        EXPECT_EQ(r->size(), 2048);
        EXPECT_EQ(r->data()[0], char(i));
    }
}

TEST(WiredTigerKVEngineTest, CompactIdentShrinksAnEmptiedTable) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    KVEngine* kv = engine->kvEngine();
    kv->createRecordStore("collection-emptied", RecordStoreOptions());
    auto rs = kv->getRecordStore("collection-emptied");
    auto ids = fillForCompact(engine.get(), rs.get(), 1500);  // ~3 MB
    removeRecords(engine.get(), rs.get(), ids, 0);
    long long before = kv->identSize("collection-emptied");
    ASSERT_GT(before, 2 * 1024 * 1024);
    auto opCtx = makeTestOpCtx(engine.get());
    CompactIdentOptions options;
    options.freeSpaceTargetMB = 1;
    long long freed = kv->compactIdent(opCtx.get(), "collection-emptied", options);
    EXPECT_GT(freed, before - 64 * 1024);
    EXPECT_LT(kv->identSize("collection-emptied"), 64 * 1024);
    EXPECT_EQ(rs->numRecords(opCtx.get()), 0);
    WriteUnitOfWork wuow(opCtx.get());
    rs->insertRecord(opCtx.get(), "again", 5);
    wuow.commit();
    EXPECT_EQ(rs->numRecords(opCtx.get()), 1);
}

TEST(WiredTigerKVEngineTest, CompactIdentStopsWhenTheOperationIsKilled) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    KVEngine* kv = engine->kvEngine();
    kv->createRecordStore("collection-killed", RecordStoreOptions());
    auto rs = kv->getRecordStore("collection-killed");
    auto ids = fillForCompact(engine.get(), rs.get(), 3000);
    removeRecords(engine.get(), rs.get(), ids, 10);
    long long before = kv->identSize("collection-killed");
    auto opCtx = makeTestOpCtx(engine.get());
    opCtx->markKilled();
    CompactIdentOptions options;
    options.freeSpaceTargetMB = 1;
    try {
        kv->compactIdent(opCtx.get(), "collection-killed", options);
        FAIL() << "compact of a killed operation succeeded";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::Interrupted));
    }
    EXPECT_GT(kv->identSize("collection-killed"), before / 2);
    EXPECT_EQ(rs->numRecords(makeTestOpCtx(engine.get()).get()), 300);
}

TEST(WiredTigerKVEngineTest, CompactIdentOfAMissingTableIsNamespaceNotFound) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    try {
        engine->kvEngine()->compactIdent(nullptr, "collection-nosuch");
        FAIL() << "compact of a missing table succeeded";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::NamespaceNotFound));
    }
}

}  // namespace
}  // namespace mongo
