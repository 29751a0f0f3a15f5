// SortedDataInterface over WiredTiger: uniqueness, removal, cursor positioning in both
// directions, compound/descending keys, type preservation, save/restore.
#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

BSONObj key(std::initializer_list<int> values) {
    BSONObjBuilder b;
    for (int v : values) b.appendInt("", v);
    return b.obj();
}

class WiredTigerIndexTest : public ::testing::Test {
protected:
    void SetUp() override { engine = StorageEngine::open(testEngineOptions(dir.path())); }
    void TearDown() override {
        idx.reset();
        engine->cleanShutdown();
    }
    void makeIndex(const char* pattern) {
        SortedDataOptions o;
        o.ordering = key_string::Ordering::make(fromjson(pattern));
        engine->kvEngine()->createSortedDataInterface("index-t", o);
        idx = engine->kvEngine()->getSortedDataInterface("index-t", o);
    }
    Status insert(const BSONObj& k, long long loc, bool dupsAllowed = true) {
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        Status s = idx->insert(opCtx.get(), k, RecordId(loc), dupsAllowed);
        if (s.isOK()) wuow.commit();
        return s;
    }

    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    std::unique_ptr<SortedDataInterface> idx;
};

TEST_F(WiredTigerIndexTest, UniqueInsertReportsDuplicateWithExistingRecordId) {
    makeIndex(R"({"a": 1})");
    ASSERT_TRUE(insert(key({1}), 10, false).isOK());
    Status s = insert(key({1}), 11, false);
    EXPECT_EQ(s.code(), int(ErrorCodes::DuplicateKey));
    EXPECT_EQ(s.reason(), "10");
    EXPECT_TRUE(insert(key({1}), 10, false).isOK());  // same entry again: no-op
    BSONObjBuilder asDouble;
    asDouble.append("", 1.0);
    EXPECT_EQ(insert(asDouble.obj(), 12, false).code(), int(ErrorCodes::DuplicateKey));  // 1 == 1.0
    EXPECT_TRUE(insert(key({1}), 11, true).isOK());                                       // dups allowed
    auto opCtx = makeTestOpCtx(engine.get());
    EXPECT_EQ(idx->numEntries(opCtx.get()), 2);
}

TEST_F(WiredTigerIndexTest, UnindexRemovesOnlyThatEntry) {
    makeIndex(R"({"a": 1})");
    insert(key({5}), 1);
    insert(key({5}), 2);
    {
        auto opCtx = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(opCtx.get());
        idx->unindex(opCtx.get(), key({5}), RecordId(1));
        idx->unindex(opCtx.get(), key({6}), RecordId(1));  // absent: no error
        wuow.commit();
    }
    auto opCtx = makeTestOpCtx(engine.get());
    auto c = idx->newCursor(opCtx.get(), true);
    auto e = c->seek(key({0}), true);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->loc, RecordId(2));
    EXPECT_FALSE(c->next());
}

TEST_F(WiredTigerIndexTest, ForwardAndReverseSeekInclusiveExclusive) {
    makeIndex(R"({"a": 1})");
    insert(key({1}), 10);
    insert(key({3}), 30);
    insert(key({3}), 31);
    insert(key({5}), 50);
    auto opCtx = makeTestOpCtx(engine.get());
    auto fwd = idx->newCursor(opCtx.get(), true);
    EXPECT_EQ(fwd->seek(key({3}), true)->key.firstElement().numberInt(), 3);
    EXPECT_EQ(fwd->next()->key.firstElement().numberInt(), 3);
    EXPECT_EQ(fwd->next()->key.firstElement().numberInt(), 5);
    EXPECT_FALSE(fwd->next());
    EXPECT_EQ(fwd->seek(key({3}), false)->key.firstElement().numberInt(), 5);
    EXPECT_EQ(fwd->seek(key({2}), true)->key.firstElement().numberInt(), 3);
    EXPECT_FALSE(fwd->seek(key({6}), true));

    auto rev = idx->newCursor(opCtx.get(), false);
    EXPECT_EQ(rev->seek(key({3}), true)->key.firstElement().numberInt(), 3);
    EXPECT_EQ(rev->next()->key.firstElement().numberInt(), 3);
    EXPECT_EQ(rev->next()->key.firstElement().numberInt(), 1);
    EXPECT_FALSE(rev->next());
    EXPECT_EQ(rev->seek(key({3}), false)->key.firstElement().numberInt(), 1);
    EXPECT_EQ(rev->seek(key({4}), true)->key.firstElement().numberInt(), 3);
    EXPECT_FALSE(rev->seek(key({0}), true));
}

TEST_F(WiredTigerIndexTest, CompoundDescendingOrderAndMinMaxKeySeeks) {
    makeIndex(R"({"a": 1, "b": -1})");
    insert(key({1, 1}), 1);
    insert(key({1, 2}), 2);
    insert(key({2, 1}), 3);
    auto opCtx = makeTestOpCtx(engine.get());
    auto c = idx->newCursor(opCtx.get(), true);
    BSONObjBuilder start;
    start.appendInt("", 1).appendMaxKey("");  // {a: 1, b: MaxKey} is the first a=1 entry for b desc
    auto e = c->seek(start.obj(), true);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->loc, RecordId(2));
    EXPECT_EQ(c->next()->loc, RecordId(1));
    EXPECT_EQ(c->next()->loc, RecordId(3));
}

TEST_F(WiredTigerIndexTest, KeysComeBackWithTheirOriginalTypes) {
    makeIndex(R"({"a": 1})");
    BSONObjBuilder b;
    b.append("", 2.0);
    BSONObj k = b.obj();
    insert(k, 1);
    BSONObjBuilder l;
    l.appendLong("", 3);
    insert(l.obj(), 2);
    auto opCtx = makeTestOpCtx(engine.get());
    auto c = idx->newCursor(opCtx.get(), true);
    auto e = c->seek(key({0}), true);
    EXPECT_EQ(e->key.firstElement().type(), NumberDouble);
    EXPECT_EQ(c->next()->key.firstElement().type(), NumberLong);
}

TEST_F(WiredTigerIndexTest, SaveRestoreContinuesAfterLastEntry) {
    makeIndex(R"({"a": 1})");
    for (int i = 0; i < 5; ++i) insert(key({i}), i + 1);
    auto opCtx = makeTestOpCtx(engine.get());
    auto c = idx->newCursor(opCtx.get(), true);
    EXPECT_EQ(c->seek(key({1}), true)->loc, RecordId(2));
    c->save();
    opCtx->recoveryUnit()->abandonSnapshot();
    {
        auto w = makeTestOpCtx(engine.get());
        WriteUnitOfWork wuow(w.get());
        idx->unindex(w.get(), key({2}), RecordId(3));
        wuow.commit();
    }
    ASSERT_TRUE(c->restore());
    EXPECT_EQ(c->next()->loc, RecordId(4));
}

TEST_F(WiredTigerIndexTest, TruncateEmptiesTheIndex) {
    makeIndex(R"({"a": 1})");
    for (int i = 0; i < 5; ++i) insert(key({i}), i + 1);
    auto opCtx = makeTestOpCtx(engine.get());
    {
        WriteUnitOfWork wuow(opCtx.get());
        idx->truncate(opCtx.get());
        wuow.commit();
    }
    EXPECT_TRUE(idx->isEmpty(opCtx.get()));
    EXPECT_EQ(idx->numEntries(opCtx.get()), 0);
}

}  // namespace
}  // namespace mongo
