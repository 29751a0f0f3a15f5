// The RecordStore contract (record_store.h), run against every registered harness
// (record_store_test_harness.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/record_store_test_harness.h"

namespace mongo {
namespace {

class RecordStoreConformance : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        harness = newRecordStoreHarness(GetParam());
        rs = harness->newRecordStore();
    }
    void TearDown() override {
        rs.reset();
        harness.reset();
    }

    RecordId insert(const std::string& bytes) {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        RecordId id = rs->insertRecord(opCtx.get(), bytes.data(), int(bytes.size()));
        wuow.commit();
        return id;
    }
    std::optional<std::string> find(RecordId id) {
        auto opCtx = harness->newOperationContext();
        auto r = rs->findRecord(opCtx.get(), id);
        if (!r) return std::nullopt;
        return std::string(r->view());
    }
    long long count() { return rs->numRecords(harness->newOperationContext().get()); }
    long long bytes() { return rs->dataSize(harness->newOperationContext().get()); }

    std::unique_ptr<RecordStoreHarnessHelper> harness;
    std::unique_ptr<RecordStore> rs;
};

TEST_P(RecordStoreConformance, InsertThenFindReturnsSameBytes) {
    std::string data("hello\0world", 11);
    RecordId id = insert(data);
    EXPECT_GT(id.repr(), 0);
    EXPECT_EQ(find(id), data);
}

TEST_P(RecordStoreConformance, InsertAssignsIncreasingIds) {
    RecordId a = insert("a"), b = insert("b"), c = insert("c");
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
}

TEST_P(RecordStoreConformance, EmptyAndLargeRecordsRoundTrip) {
    RecordId empty = insert("");
    std::string big(5 * 1024 * 1024, 'x');
    for (size_t i = 0; i < big.size(); i += 4099) big[i] = char(i);
    RecordId large = insert(big);
    EXPECT_EQ(find(empty), std::string());
    EXPECT_EQ(find(large), big);
    EXPECT_EQ(bytes(), (long long)big.size());
}

TEST_P(RecordStoreConformance, FindMissingReturnsNothing) {
    RecordId id = insert("x");
    EXPECT_FALSE(find(RecordId(id.repr() + 1000)).has_value());
}

TEST_P(RecordStoreConformance, UpdateReplacesBytesAndAdjustsDataSize) {
    RecordId id = insert("12345");
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->updateRecord(opCtx.get(), id, "ab", 2);
        wuow.commit();
    }
    EXPECT_EQ(find(id), "ab");
    EXPECT_EQ(count(), 1);
    EXPECT_EQ(bytes(), 2);
}

TEST_P(RecordStoreConformance, DeleteRemovesRecordAndAdjustsCounts) {
    RecordId a = insert("aaa");
    insert("bb");
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->deleteRecord(opCtx.get(), a);
        wuow.commit();
    }
    EXPECT_FALSE(find(a).has_value());
    EXPECT_EQ(count(), 1);
    EXPECT_EQ(bytes(), 2);
}

TEST_P(RecordStoreConformance, AbortUndoesWritesAndCounts) {
    RecordId keep = insert("keep");
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->insertRecord(opCtx.get(), "new", 3);
        rs->updateRecord(opCtx.get(), keep, "changed!", 8);
        EXPECT_EQ(rs->numRecords(opCtx.get()), 2);  // sees its own writes
        EXPECT_EQ(rs->dataSize(opCtx.get()), 11);
        // no commit: aborted by the destructor
    }
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->deleteRecord(opCtx.get(), keep);
    }
    EXPECT_EQ(find(keep), "keep");
    EXPECT_EQ(count(), 1);
    EXPECT_EQ(bytes(), 4);
}

TEST_P(RecordStoreConformance, UncommittedWritesAreInvisibleToOthers) {
    auto writer = harness->newOperationContext();
    auto reader = harness->newOperationContext();
    WriteUnitOfWork wuow(writer.get());
    RecordId id = rs->insertRecord(writer.get(), "x", 1);
    EXPECT_FALSE(rs->findRecord(reader.get(), id).has_value());
    EXPECT_EQ(rs->numRecords(reader.get()), 0);
    wuow.commit();
    reader->recoveryUnit()->abandonSnapshot();
    EXPECT_TRUE(rs->findRecord(reader.get(), id).has_value());
    EXPECT_EQ(rs->numRecords(reader.get()), 1);
}

TEST_P(RecordStoreConformance, CursorIteratesInIdOrderBothWays) {
    std::vector<RecordId> ids;
    for (int i = 0; i < 10; ++i) ids.push_back(insert("r" + std::to_string(i)));
    auto opCtx = harness->newOperationContext();
    auto fwd = rs->getCursor(opCtx.get(), true);
    for (int i = 0; i < 10; ++i) {
        auto r = fwd->next();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->id, ids[i]);
        EXPECT_EQ(std::string(r->data.view()), "r" + std::to_string(i));
    }
    EXPECT_FALSE(fwd->next());
    EXPECT_FALSE(fwd->next());
    auto rev = rs->getCursor(opCtx.get(), false);
    for (int i = 9; i >= 0; --i) {
        auto r = rev->next();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->id, ids[i]);
    }
    EXPECT_FALSE(rev->next());
}

TEST_P(RecordStoreConformance, SeekExactThenNextContinuesAfterIt) {
    std::vector<RecordId> ids;
    for (int i = 0; i < 5; ++i) ids.push_back(insert(std::to_string(i)));
    auto opCtx = harness->newOperationContext();
    auto cur = rs->getCursor(opCtx.get(), true);
    auto r = cur->seekExact(ids[2]);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::string(r->data.view()), "2");
    EXPECT_EQ(cur->next()->id, ids[3]);
    EXPECT_FALSE(cur->seekExact(RecordId(ids[4].repr() + 100)).has_value());
    EXPECT_FALSE(cur->next());
    auto rev = rs->getCursor(opCtx.get(), false);
    ASSERT_TRUE(rev->seekExact(ids[3]));
    EXPECT_EQ(rev->next()->id, ids[2]);
}

TEST_P(RecordStoreConformance, SaveRestoreSeesConcurrentChanges) {
    std::vector<RecordId> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(insert(std::to_string(i)));
    auto opCtx = harness->newOperationContext();
    auto cur = rs->getCursor(opCtx.get(), true);
    EXPECT_EQ(cur->next()->id, ids[0]);
    EXPECT_EQ(cur->next()->id, ids[1]);
    cur->save();
    opCtx->recoveryUnit()->abandonSnapshot();
    {
        auto wop = harness->newOperationContext();
        WriteUnitOfWork wuow(wop.get());
        rs->deleteRecord(wop.get(), ids[2]);
        wuow.commit();
    }
    RecordId added = insert("new");
    ASSERT_TRUE(cur->restore());
    EXPECT_EQ(cur->next()->id, ids[3]);
    EXPECT_EQ(cur->next()->id, added);
    EXPECT_FALSE(cur->next());
}

TEST_P(RecordStoreConformance, CursorContinuesAcrossOwnUnitOfWork) {
    std::vector<RecordId> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(insert(std::to_string(i)));
    auto opCtx = harness->newOperationContext();
    auto cur = rs->getCursor(opCtx.get(), true);
    int seen = 0;
    while (auto r = cur->next()) {
        ++seen;
        WriteUnitOfWork wuow(opCtx.get());  // a scan that updates what it reads
        std::string upd = std::string(r->data.view()) + "!";
        rs->updateRecord(opCtx.get(), r->id, upd.data(), int(upd.size()));
        wuow.commit();
    }
    EXPECT_EQ(seen, 4);
    EXPECT_EQ(find(ids[3]), "3!");
}

TEST_P(RecordStoreConformance, TruncateRemovesEverything) {
    for (int i = 0; i < 20; ++i) insert("0123456789");
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->truncate(opCtx.get());
        wuow.commit();
    }
    EXPECT_EQ(count(), 0);
    EXPECT_EQ(bytes(), 0);
    auto opCtx = harness->newOperationContext();
    EXPECT_FALSE(rs->getCursor(opCtx.get())->next());
    RecordId after = insert("after");
    EXPECT_EQ(find(after), "after");
}

TEST_P(RecordStoreConformance, RecordDataConvertsToBson) {
    BSONObjBuilder b;
    b.append("_id", 1).append("x", "y");
    BSONObj doc = b.obj();
    RecordId id = insert(std::string(doc.objdata(), doc.objsize()));
    auto opCtx = harness->newOperationContext();
    auto r = rs->findRecord(opCtx.get(), id);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->toBson().binaryEqual(doc));
}

TEST_P(RecordStoreConformance, CountsAndRecordsSurviveRestart) {
    if (!harness->supportsRestart()) GTEST_SKIP();
    RecordId a = insert("aaaa");
    insert("bb");
    RecordId c = insert("c");
    {
        auto opCtx = harness->newOperationContext();
        WriteUnitOfWork wuow(opCtx.get());
        rs->deleteRecord(opCtx.get(), a);
        wuow.commit();
    }
    std::string ident = rs->ident();
    rs.reset();
    rs = harness->restartAndReopen(ident);
    ASSERT_TRUE(rs);
    EXPECT_EQ(count(), 2);
    EXPECT_EQ(bytes(), 3);
    EXPECT_EQ(find(c), "c");
    EXPECT_GT(insert("d"), c);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, RecordStoreConformance, ::testing::ValuesIn(registeredRecordStoreHarnesses()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace mongo
