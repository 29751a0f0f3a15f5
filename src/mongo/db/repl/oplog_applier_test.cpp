// The applier over two real catalogs on WiredTiger: the entries a "primary" writes, applied on
// a "secondary", give the same documents and indexes and the same oplog (entries verbatim, at
// their timestamps); applying them all a second time changes nothing (idempotency); an update
// of a missing document is an error, not a silent divergence.
#include "mongo/db/repl/oplog_applier.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog_impl.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace repl {
namespace {

struct Node {
    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    std::unique_ptr<OperationContext> opCtx;
    std::unique_ptr<CollectionCatalogImpl> catalog;
    Node() {
        engine = StorageEngine::open(testEngineOptions(dir.path()));
        opCtx = makeTestOpCtx(engine.get());
        catalog = std::make_unique<CollectionCatalogImpl>(opCtx.get(), engine.get());
    }
    ~Node() {
        catalog.reset();
        opCtx.reset();
        engine->cleanShutdown();
    }
    void use() { CollectionCatalog::set(catalog.get()); }
    std::vector<BSONObj> scan(const char* ns) {
        std::vector<BSONObj> out;
        opCtx->recoveryUnit()->abandonSnapshot();
        Collection* c = catalog->lookupCollection(opCtx.get(), NamespaceString::parse(ns));
        if (!c) return out;
        auto cur = c->getCursor(opCtx.get(), true);
        while (auto r = cur->next()) out.push_back(r->doc.getOwned());
        return out;
    }
};

class OplogApplierTest : public ::testing::Test {
protected:
    void SetUp() override {
        OpObserver::set(std::make_unique<OpObserverImpl>());
        primary.use();
        LocalOplog::get()->create(primary.opCtx.get(), 1024 * 1024);
        LocalOplog::get()->setTerm(1);
        LocalOplog::get()->setEnabled(true);
    }
    void TearDown() override {
        LocalOplog::get()->setEnabled(false);
        OpObserver::set(nullptr);
        CollectionCatalog::set(nullptr);
    }
    // The primary's writes: DDL and documents, several per unit of work.
    void writeOnPrimary() {
        primary.use();
        OperationContext* op = primary.opCtx.get();
        auto opts = CollectionOptions::parse(fromjson("{}"));
        Collection* c = primary.catalog->createCollection(op, NamespaceString::parse("test.c"), opts.getValue());
        c->getIndexCatalog()->createIndex(op, fromjson(R"({"v": 2, "key": {"a": 1}, "name": "a_1"})"));
        std::vector<RecordId> ids;
        {
            WriteUnitOfWork wuow(op);
            for (int i = 0; i < 5; ++i)
                ids.push_back(c->insertDocument(op, fromjson("{\"_id\": " + std::to_string(i) + ", \"a\": " + std::to_string(i) + ", \"s\": {\"x\": 1}}")));
            wuow.commit();
        }
        {
            WriteUnitOfWork wuow(op);
            c->updateDocument(op, ids[1], fromjson(R"({"_id": 1, "a": 1, "s": {"x": 1}})"),
                              fromjson(R"({"_id": 1, "a": 1, "s": {"x": 2, "y": [1, 2]}})"));
            c->deleteDocument(op, ids[2]);
            wuow.commit();
        }
        primary.catalog->createCollection(op, NamespaceString::parse("test.d"), opts.getValue());
        primary.catalog->renameCollection(op, NamespaceString::parse("test.d"), NamespaceString::parse("test.e"), false);
        primary.catalog->dropCollection(op, NamespaceString::parse("test.e"));
    }
    std::vector<BSONObj> oplogOf(Node& n) { return n.scan("local.oplog.rs"); }

    Node primary, secondary;
};

Status applyAll(Node& n, const std::vector<BSONObj>& entries) {
    n.use();
    for (const BSONObj& doc : entries) {
        auto e = OplogEntry::parse(doc);
        if (!e.isOK()) return e.getStatus();
        Status s = OplogApplier::apply(n.opCtx.get(), e.getValue(), doc);
        if (!s.isOK()) return s;
        n.opCtx->recoveryUnit()->abandonSnapshot();
    }
    return Status::OK();
}

TEST_F(OplogApplierTest, SecondaryEndsWithThePrimarysDataAndOplog) {
    writeOnPrimary();
    std::vector<BSONObj> entries = oplogOf(primary);
    ASSERT_GE(entries.size(), 11u);
    secondary.use();
    LocalOplog::get()->create(secondary.opCtx.get(), 1024 * 1024);
    ASSERT_TRUE(applyAll(secondary, entries).isOK());
    auto want = primary.scan("test.c"), got = secondary.scan("test.c");
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].binaryEqual(want[i])) << got[i].jsonString();
    EXPECT_TRUE(secondary.catalog->lookupCollection(secondary.opCtx.get(), NamespaceString::parse("test.c"))
                    ->getIndexCatalog()->findIndexByName("a_1"));
    EXPECT_FALSE(secondary.catalog->lookupCollection(secondary.opCtx.get(), NamespaceString::parse("test.e")));
    // Its oplog is the primary's, entry for entry.
    auto theirs = oplogOf(secondary);
    ASSERT_EQ(theirs.size(), entries.size());
    for (size_t i = 0; i < entries.size(); ++i) EXPECT_TRUE(theirs[i].binaryEqual(entries[i])) << theirs[i].jsonString();

    // Applied again (a restart between a batch and its progress record): the same data.
    ASSERT_TRUE(applyAll(secondary, entries).isOK());
    got = secondary.scan("test.c");
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].binaryEqual(want[i])) << got[i].jsonString();
}

TEST_F(OplogApplierTest, UpdateOfAMissingDocumentIsAnError) {
    writeOnPrimary();
    std::vector<BSONObj> entries = oplogOf(primary);
    secondary.use();
    LocalOplog::get()->create(secondary.opCtx.get(), 1024 * 1024);
    // Skip the inserts: the update then finds no document.
    std::vector<BSONObj> skipped;
    for (const BSONObj& e : entries)
        if (e["op"].str() != "i") skipped.push_back(e);
    Status s = applyAll(secondary, skipped);
    EXPECT_FALSE(s.isOK());
    EXPECT_NE(s.reason().find("no document"), std::string::npos) << s.toString();
}

// --- isync: initial sync's application mode
// Initial sync replays entries over a clone that is already past some of them: the update of a
// document the clone never saw, a rename onto a collection the clone already holds, are
// skipped or resolved, and every entry still reaches the oplog.
TEST_F(OplogApplierTest, InitialSyncModeSkipsWhatTheCloneIsPast) {
    writeOnPrimary();
    std::vector<BSONObj> entries = oplogOf(primary);
    secondary.use();
    LocalOplog::get()->create(secondary.opCtx.get(), 1024 * 1024);
    auto opts = CollectionOptions::parse(fromjson("{}"));
    // The clone read test.e (the rename's target) before the entries drop it again; cloned
    // without an oplog entry.
    {
        UnreplicatedWritesBlock unreplicated;
        secondary.catalog->createCollection(secondary.opCtx.get(), NamespaceString::parse("test.e"), opts.getValue());
    }
    std::vector<BSONObj> skipped;
    for (const BSONObj& e : entries)
        if (e["op"].str() != "i") skipped.push_back(e);
    for (const BSONObj& doc : skipped) {
        auto e = OplogEntry::parse(doc);
        ASSERT_TRUE(e.isOK());
        Status s = OplogApplier::apply(secondary.opCtx.get(), e.getValue(), doc, OplogApplier::Mode::kInitialSync);
        ASSERT_TRUE(s.isOK()) << s.toString() << " " << doc.jsonString();
        secondary.opCtx->recoveryUnit()->abandonSnapshot();
    }
    EXPECT_TRUE(secondary.scan("test.c").empty());
    EXPECT_FALSE(secondary.catalog->lookupCollection(secondary.opCtx.get(), NamespaceString::parse("test.e")));
    auto theirs = oplogOf(secondary);
    ASSERT_EQ(theirs.size(), skipped.size());
    for (size_t i = 0; i < skipped.size(); ++i) EXPECT_TRUE(theirs[i].binaryEqual(skipped[i])) << theirs[i].jsonString();
}
// --- end isync

}  // namespace
}  // namespace repl
}  // namespace mongo
