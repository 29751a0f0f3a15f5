// WiredTigerRecoveryUnit's timestamps: commit timestamps, reads at a timestamp (and their
// snapshot epoch of 0), and the engine's stable/oldest timestamps, all WiredTiger's own.
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"

#include <gtest/gtest.h>

#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

class WiredTigerTimestampTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = StorageEngine::open(testEngineOptions(dir.path()));
        kv = engine->kvEngine();
        RecordStoreOptions o;
        o.logged = false;  // WiredTiger keeps versions by timestamp only in unlogged tables
        kv->createRecordStore("collection-ts", o);
        rs = kv->getRecordStore("collection-ts");
        // WiredTiger keeps history only above a pinned (oldest) timestamp: without one, every
        // committed update counts as visible to all and older versions may be discarded.
        kv->setStableTimestamp(1);
        kv->setOldestTimestamp(1);
    }
    // Inserts (id == 0) or updates the record, committed at ts (0: no timestamp).
    RecordId write(RecordId id, const std::string& value, uint64_t ts) {
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        if (ts) opCtx->recoveryUnit()->setCommitTimestamp(ts);
        if (id == RecordId())
            id = rs->insertRecord(opCtx.get(), value.data(), int(value.size()));
        else
            rs->updateRecord(opCtx.get(), id, value.data(), int(value.size()));
        wuow.commit();
        return id;
    }
    // The record's value read at ts (0: latest), "" if absent.
    std::string readAt(RecordId id, uint64_t ts) {
        auto opCtx = makeTestOpCtx(engine.get());
        opCtx->recoveryUnit()->setReadTimestamp(ts);
        auto r = rs->findRecord(opCtx.get(), id);
        return r ? std::string(r->view()) : std::string();
    }

    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    KVEngine* kv = nullptr;
    std::unique_ptr<RecordStore> rs;
};

TEST_F(WiredTigerTimestampTest, ReadsAtATimestampSeeTheValueCommittedAtOrBeforeIt) {
    RecordId id = write(RecordId(), "v10", 10);
    write(id, "v20", 20);
    write(id, "v30", 30);
    EXPECT_EQ(readAt(id, 20), "v20");
    EXPECT_EQ(readAt(id, 25), "v20");
    EXPECT_EQ(readAt(id, 0), "v30");
    EXPECT_EQ(readAt(id, 9), "");
    EXPECT_EQ(readAt(id, 10), "v10");
    EXPECT_EQ(readAt(id, 19), "v10");
    EXPECT_EQ(readAt(id, 20), "v20");
    EXPECT_EQ(readAt(id, 31), "v30");
}

TEST_F(WiredTigerTimestampTest, CommitTimestampIsClearedWhenTheUnitEnds) {
    auto opCtx = makeTestOpCtx(engine.get());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    {
        WriteUnitOfWork wuow(opCtx.get());
        ru->setCommitTimestamp(5);
        EXPECT_EQ(ru->commitTimestamp(), 5u);
        rs->insertRecord(opCtx.get(), "a", 1);
        wuow.commit();
    }
    EXPECT_EQ(ru->commitTimestamp(), 0u);
    {
        WriteUnitOfWork wuow(opCtx.get());
        ru->setCommitTimestamp(6);
        rs->insertRecord(opCtx.get(), "b", 1);
    }  // aborted
    EXPECT_EQ(ru->commitTimestamp(), 0u);
    EXPECT_EQ(rs->numRecords(opCtx.get()), 1);
}

TEST_F(WiredTigerTimestampTest, ReadAtTimestampReportsSnapshotEpochZero) {
    write(RecordId(), "x", 10);
    auto opCtx = makeTestOpCtx(engine.get());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    ru->preallocateSnapshot();
    EXPECT_NE(ru->snapshotEpoch(), 0u);  // latest: the dedup read cache may use the epoch
    ru->abandonSnapshot();
    ru->setReadTimestamp(10);
    ru->preallocateSnapshot();
    EXPECT_EQ(ru->snapshotEpoch(), 0u);  // an older point in time: the cache must stay out
    EXPECT_EQ(ru->readTimestamp(), 10u);
    ru->abandonSnapshot();
    ru->setReadTimestamp(0);
    ru->preallocateSnapshot();
    EXPECT_NE(ru->snapshotEpoch(), 0u);
}

TEST_F(WiredTigerTimestampTest, CommitAtOrBeforeStableIsRefused) {
    write(RecordId(), "a", 10);
    kv->setStableTimestamp(20);
    EXPECT_EQ(kv->stableTimestamp(), 20u);
    kv->setStableTimestamp(15);  // never moves back
    EXPECT_EQ(kv->stableTimestamp(), 20u);
    {
        // WiredTiger then requires the transaction to roll back.
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        EXPECT_THROW(opCtx->recoveryUnit()->setCommitTimestamp(20), DBException);
    }
    auto opCtx = makeTestOpCtx(engine.get());
    WriteUnitOfWork wuow(opCtx.get());
    opCtx->recoveryUnit()->setCommitTimestamp(21);
    rs->insertRecord(opCtx.get(), "b", 1);
    wuow.commit();
    EXPECT_EQ(kv->allDurableTimestamp(), 21u);
}

TEST_F(WiredTigerTimestampTest, StableAndOldestInOneCall) {
    write(RecordId(), "a", 10);
    kv->setStableAndOldestTimestamp(12);
    EXPECT_EQ(kv->stableTimestamp(), 12u);
    EXPECT_EQ(kv->oldestTimestamp(), 12u);
    kv->setStableAndOldestTimestamp(11);  // never moves back
    EXPECT_EQ(kv->stableTimestamp(), 12u);
    EXPECT_EQ(kv->oldestTimestamp(), 12u);
}

TEST_F(WiredTigerTimestampTest, ReadOlderThanOldestIsSnapshotTooOld) {
    RecordId id = write(RecordId(), "a", 10);
    write(id, "b", 20);
    kv->setStableTimestamp(30);
    kv->setOldestTimestamp(40);  // clamped to stable
    EXPECT_EQ(kv->oldestTimestamp(), 30u);
    EXPECT_EQ(readAt(id, 30), "b");
    try {
        readAt(id, 15);
        FAIL() << "read below the oldest timestamp succeeded";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::SnapshotTooOld));
    }
}

TEST_F(WiredTigerTimestampTest, LoggedTablesIgnoreTimestamps) {
    // WiredTiger's rule, pinned here so that whoever moves replica-set tables to unlogged
    // (and recovery to oplog replay) sees why it is needed: a logged table has no history.
    kv->createRecordStore("collection-logged", RecordStoreOptions());
    auto logged = kv->getRecordStore("collection-logged");
    RecordId id;
    for (uint64_t ts : {10, 20}) {
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        opCtx->recoveryUnit()->setCommitTimestamp(ts);
        std::string v = "v" + std::to_string(ts);
        if (ts == 10)
            id = logged->insertRecord(opCtx.get(), v.data(), int(v.size()));
        else
            logged->updateRecord(opCtx.get(), id, v.data(), int(v.size()));
        wuow.commit();
    }
    auto opCtx = makeTestOpCtx(engine.get());
    opCtx->recoveryUnit()->setReadTimestamp(15);
    auto r = logged->findRecord(opCtx.get(), id);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::string(r->view()), "v20");
}

TEST_F(WiredTigerTimestampTest, UnloggedTableRefusesAnUntimestampedUpdateOfATimestampedKey) {
    // WiredTiger 11's default write_timestamp_usage: once a key was written with a timestamp,
    // later writes of it must have one (the commit fails otherwise). Whatever writes such a
    // table on a replica set member (catalog, dedup write-backs) must then commit at a
    // timestamp too. Logged tables (today's) accept it.
    RecordId id = write(RecordId(), "a", 10);
    EXPECT_THROW(write(id, "b", 0), DBException);
    EXPECT_EQ(readAt(id, 0), "a");
}

// A commit handler runs after WiredTiger committed: one that throws neither undoes the commit
// nor reports it as failed (a client told so would write again), and the later handlers run.
TEST_F(WiredTigerTimestampTest, AThrowingCommitHandlerDoesNotFailTheCommittedUnit) {
    auto opCtx = makeTestOpCtx(engine.get());
    bool laterRan = false;
    RecordId id;
    {
        WriteUnitOfWork wuow(opCtx.get());
        id = rs->insertRecord(opCtx.get(), "kept", 4);
        opCtx->recoveryUnit()->onCommit([] { uasserted(ErrorCodes::InternalError, "handler failed"); });
        opCtx->recoveryUnit()->onCommit([&] { laterRan = true; });
        EXPECT_NO_THROW(wuow.commit());
    }
    EXPECT_TRUE(laterRan);
    EXPECT_EQ(readAt(id, 0), "kept");
}

}  // namespace
}  // namespace mongo
