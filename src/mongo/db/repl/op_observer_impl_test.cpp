// The op observer over a real catalog on WiredTiger: each write and DDL operation leaves one
// oplog entry in MongoDB's format, in the write's unit of work (aborted writes leave none),
// in commit order with increasing timestamps; nothing is written while the oplog is disabled.
#include "mongo/db/repl/op_observer_impl.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace repl {
namespace {

class OpObserverTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = StorageEngine::open(testEngineOptions(dir.path()));
        opCtx = makeTestOpCtx(engine.get());
        catalog = std::make_unique<CollectionCatalogImpl>(opCtx.get(), engine.get());
        CollectionCatalog::set(catalog.get());
        OpObserver::set(std::make_unique<OpObserverImpl>());
        LocalOplog::get()->create(opCtx.get(), 1024 * 1024);
        LocalOplog::get()->setTerm(1);
        LocalOplog::get()->setEnabled(true);
        LocalOplog::get()->setCommitListener([this](const OpTime& t, Date_t) {
            lastCommitted = t;
            ++listenerCalls;
        });
    }
    void TearDown() override {
        LocalOplog::get()->setEnabled(false);
        LocalOplog::get()->setCommitListener(nullptr);
        OpObserver::set(nullptr);
        CollectionCatalog::set(nullptr);
        catalog.reset();
        opCtx.reset();
        engine->cleanShutdown();
    }
    NamespaceString ns(const char* s) { return NamespaceString::parse(s); }
    Collection* create(const char* s) {
        auto o = CollectionOptions::parse(fromjson("{}"));
        return catalog->createCollection(opCtx.get(), ns(s), o.getValue());
    }
    std::vector<OplogEntry> oplog() {
        std::vector<OplogEntry> out;
        opCtx->recoveryUnit()->abandonSnapshot();
        auto c = catalog->lookupCollection(opCtx.get(), LocalOplog::nss())->getCursor(opCtx.get(), true);
        while (auto r = c->next()) {
            auto e = OplogEntry::parse(r->doc);
            EXPECT_TRUE(e.isOK()) << r->doc.jsonString();
            if (e.isOK()) out.push_back(e.getValue());
        }
        return out;
    }

    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    std::unique_ptr<OperationContext> opCtx;
    std::unique_ptr<CollectionCatalogImpl> catalog;
    OpTime lastCommitted;
    int listenerCalls = 0;
};

TEST_F(OpObserverTest, OneCommitNotificationPerUnitWithItsNewestEntry) {
    Collection* c = create("test.c");
    listenerCalls = 0;
    {
        WriteUnitOfWork wuow(opCtx.get());
        for (int i = 0; i < 5; ++i) c->insertDocument(opCtx.get(), fromjson("{\"_id\": " + std::to_string(i) + "}"));
        wuow.commit();
    }
    EXPECT_EQ(listenerCalls, 1);
    EXPECT_EQ(lastCommitted, oplog().back().opTime);
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->insertDocument(opCtx.get(), fromjson("{\"_id\": 10}"));
    }  // aborted: no notification, and the next unit starts afresh
    EXPECT_EQ(listenerCalls, 1);
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->insertDocument(opCtx.get(), fromjson("{\"_id\": 11}"));
        c->insertDocument(opCtx.get(), fromjson("{\"_id\": 12}"));
        wuow.commit();
    }
    EXPECT_EQ(listenerCalls, 2);
    EXPECT_EQ(lastCommitted, oplog().back().opTime);
}

TEST_F(OpObserverTest, DocumentWritesBecomeEntriesInOrder) {
    Collection* c = create("test.c");
    RecordId id;
    {
        WriteUnitOfWork wuow(opCtx.get());
        id = c->insertDocument(opCtx.get(), fromjson("{\"_id\": 1, \"a\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\", \"b\": 1}"));
        wuow.commit();
    }
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->updateDocument(opCtx.get(), id, fromjson("{\"_id\": 1, \"a\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\", \"b\": 1}"),
                          fromjson("{\"_id\": 1, \"a\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\", \"b\": 2}"));
        wuow.commit();
    }
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->deleteDocument(opCtx.get(), id);
        wuow.commit();
    }
    auto entries = oplog();
    ASSERT_EQ(entries.size(), 4u);  // create, insert, update, delete
    EXPECT_EQ(entries[0].op, OpTypeEnum::kCommand);
    EXPECT_EQ(entries[0].ns, "test.$cmd");
    EXPECT_EQ(entries[0].o.firstElementFieldName(), "create");
    EXPECT_EQ(entries[0].o["idIndex"].embeddedObject()["name"].str(), "_id_");
    EXPECT_EQ(entries[1].op, OpTypeEnum::kInsert);
    EXPECT_EQ(entries[1].ns, "test.c");
    EXPECT_EQ(entries[1].uuidHex, c->uuid());
    EXPECT_EQ(entries[1].o["b"].numberInt(), 1);
    EXPECT_EQ(entries[1].o2->jsonString(), fromjson("{\"_id\": 1}").jsonString());
    EXPECT_EQ(entries[2].op, OpTypeEnum::kUpdate);
    EXPECT_TRUE(entries[2].isDiffUpdate());
    EXPECT_EQ(entries[2].o["diff"].embeddedObject().jsonString(), fromjson("{\"u\": {\"b\": 2}}").jsonString());
    EXPECT_EQ(entries[3].op, OpTypeEnum::kDelete);
    EXPECT_EQ(entries[3].o.jsonString(), fromjson("{\"_id\": 1}").jsonString());
    for (size_t i = 1; i < entries.size(); ++i) EXPECT_LT(entries[i - 1].opTime, entries[i].opTime);
    for (auto& e : entries) EXPECT_EQ(e.opTime.getTerm(), 1);
    EXPECT_EQ(lastCommitted, entries.back().opTime);
}

TEST_F(OpObserverTest, AbortedWritesLeaveNoEntry) {
    Collection* c = create("test.c");
    size_t before = oplog().size();
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->insertDocument(opCtx.get(), fromjson("{\"_id\": 1}"));
    }
    EXPECT_EQ(oplog().size(), before);
    EXPECT_EQ(c->numRecords(opCtx.get()), 0);
}

TEST_F(OpObserverTest, NothingIsWrittenWhileDisabledOrForLocal) {
    LocalOplog::get()->setEnabled(false);
    Collection* c = create("test.c");
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->insertDocument(opCtx.get(), fromjson("{\"_id\": 1}"));
        wuow.commit();
    }
    EXPECT_EQ(oplog().size(), 0u);
    LocalOplog::get()->setEnabled(true);
    Collection* l = create("local.other");
    {
        WriteUnitOfWork wuow(opCtx.get());
        l->insertDocument(opCtx.get(), fromjson("{\"_id\": 1}"));
        wuow.commit();
    }
    EXPECT_EQ(oplog().size(), 0u);
}

TEST_F(OpObserverTest, DdlEntries) {
    Collection* c = create("test.c");
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson("{\"key\": {\"a\": 1}, \"name\": \"a_1\"}"));
    c->getIndexCatalog()->dropIndex(opCtx.get(), "a_1");
    create("test.d");
    std::string dUuid = catalog->lookupCollection(opCtx.get(), ns("test.d"))->uuid();
    catalog->renameCollection(opCtx.get(), ns("test.c"), ns("test.d"), true);
    catalog->dropCollection(opCtx.get(), ns("test.d"));
    create("test.e");
    catalog->dropDatabase(opCtx.get(), "test");
    std::vector<std::string> got;
    for (auto& e : oplog()) got.push_back(std::string(e.o.firstElementFieldName()) + " " + e.ns);
    EXPECT_EQ(got, (std::vector<std::string>{"create test.$cmd", "createIndexes test.$cmd", "dropIndexes test.$cmd",
                                             "create test.$cmd", "renameCollection test.$cmd", "drop test.$cmd",
                                             "create test.$cmd", "drop test.$cmd", "dropDatabase test.$cmd"}));
    auto entries = oplog();
    EXPECT_EQ(entries[1].o["key"].embeddedObject().jsonString(), fromjson("{\"a\": 1}").jsonString());
    EXPECT_EQ(entries[2].o["index"].str(), "a_1");
    EXPECT_EQ(entries[2].o2->getField("name").str(), "a_1");
    EXPECT_EQ(entries[4].o["to"].str(), "test.d");
    int len = 0, sub = 0;
    const char* bytes = entries[4].o["dropTarget"].binData(&len, &sub);
    ASSERT_EQ(len, 16);
    EXPECT_EQ(uuidBytesToHex(reinterpret_cast<const unsigned char*>(bytes)), dUuid);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
