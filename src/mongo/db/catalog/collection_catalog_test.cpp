// The catalog over WiredTiger: collections, indexes, DDL, and what survives a restart or a
// kill -9 (open engine, write, close or kill, reopen in the same temporary dbpath, check).
#include "mongo/db/catalog/collection_catalog_impl.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/storage/duplicate_key_error.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

class CatalogTest : public ::testing::Test {
protected:
    void SetUp() override { open(); }
    void TearDown() override { close(); }
    void open() {
        engine = StorageEngine::open(testEngineOptions(dir.path()));
        opCtx = makeTestOpCtx(engine.get());
        catalog = std::make_unique<CollectionCatalogImpl>(opCtx.get(), engine.get());
    }
    void close() {
        catalog.reset();
        opCtx.reset();
        if (engine) engine->cleanShutdown();
        engine.reset();
    }
    void restart() {
        close();
        open();
    }
    Collection* create(const char* ns, const char* options = "{}") {
        auto o = CollectionOptions::parse(fromjson(options));
        EXPECT_TRUE(o.isOK()) << o.getStatus().toString();
        return catalog->createCollection(opCtx.get(), NamespaceString::parse(ns), o.getValue());
    }
    Collection* get(const char* ns) { return catalog->lookupCollection(opCtx.get(), NamespaceString::parse(ns)); }
    RecordId insert(Collection* c, const char* json) {
        WriteUnitOfWork wuow(opCtx.get());
        RecordId id = c->insertDocument(opCtx.get(), fromjson(json));
        wuow.commit();
        return id;
    }
    int errorCode(const std::function<void()>& f) {
        try {
            f();
        } catch (const DBException& e) {
            return e.code();
        }
        return 0;
    }
    // Index keys of the named index, as "value@recordId" strings, in index order.
    std::vector<std::string> indexEntries(Collection* c, const char* name) {
        auto* ic = c->getIndexCatalog();
        auto cur = ic->newCursor(opCtx.get(), ic->findIndexByName(name), true);
        BSONObjBuilder min;
        for (int i = 0; i < ic->findIndexByName(name)->keyPattern.nFields(); ++i) min.appendMinKey("");
        std::vector<std::string> out;
        for (auto e = cur->seek(min.obj(), true); e; e = cur->next())
            out.push_back(e->key.firstElement().toString(false) + "@" + e->loc.toString());
        return out;
    }

    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    std::unique_ptr<OperationContext> opCtx;
    std::unique_ptr<CollectionCatalogImpl> catalog;
};

TEST_F(CatalogTest, CreateCollectionHasIdIndexAndIsListed) {
    Collection* c = create("test.c");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->ns().ns(), "test.c");
    EXPECT_EQ(c->uuid().size(), 32u);
    auto idx = c->getIndexCatalog()->getAllIndexes();
    ASSERT_EQ(idx.size(), 1u);
    EXPECT_EQ(idx[0]->name, "_id_");
    EXPECT_TRUE(idx[0]->unique);
    EXPECT_EQ(catalog->listDatabases(opCtx.get()), std::vector<std::string>({"test"}));
    EXPECT_EQ(catalog->listCollections(opCtx.get(), "test").size(), 1u);
    EXPECT_EQ(errorCode([&] { create("test.c"); }), int(ErrorCodes::NamespaceExists));
    EXPECT_EQ(errorCode([&] { create("test.$bad"); }), int(ErrorCodes::InvalidNamespace));
}

TEST_F(CatalogTest, WritesMaintainEveryIndex) {
    Collection* c = create("test.c");
    ASSERT_TRUE(c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1"})")));
    RecordId r1 = insert(c, R"({"_id": 1, "a": 10})");
    RecordId r2 = insert(c, R"({"_id": 2, "a": [20, 30]})");
    EXPECT_EQ(indexEntries(c, "a_1"), std::vector<std::string>({"10@" + r1.toString(), "20@" + r2.toString(),
                                                                "30@" + r2.toString()}));
    EXPECT_TRUE(c->getIndexCatalog()->isMultikey(opCtx.get(), c->getIndexCatalog()->findIndexByName("a_1")));
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->updateDocument(opCtx.get(), r2, *c->findDoc(opCtx.get(), r2), fromjson(R"({"_id": 2, "a": 25})"));
        c->deleteDocument(opCtx.get(), r1);
        wuow.commit();
    }
    EXPECT_EQ(indexEntries(c, "a_1"), std::vector<std::string>({"25@" + r2.toString()}));
    EXPECT_EQ(indexEntries(c, "_id_"), std::vector<std::string>({"2@" + r2.toString()}));
    EXPECT_EQ(c->numRecords(opCtx.get()), 1);
    EXPECT_EQ(c->dataSize(opCtx.get()), fromjson(R"({"_id": 2, "a": 25})").objsize());
}

TEST_F(CatalogTest, DuplicateKeyHasMongoDBMessageAndDetails) {
    Collection* c = create("test.c");
    insert(c, R"({"_id": 1, "a": 1})");
    try {
        insert(c, R"({"_id": 1, "a": 2})");
        FAIL();
    } catch (const DuplicateKeyException& e) {
        EXPECT_EQ(e.code(), 11000);
        EXPECT_EQ(e.reason(), "E11000 duplicate key error collection: test.c index: _id_ dup key: { _id: 1 }");
        EXPECT_EQ(e.keyPattern().toString(), fromjson(R"({"_id": 1})").toString());
        EXPECT_EQ(e.keyValue().toString(), fromjson(R"({"_id": 1})").toString());
    }
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1", "unique": true})"));
    try {
        insert(c, R"({"_id": 2, "a": 1.0})");
        FAIL();
    } catch (const DuplicateKeyException& e) {
        EXPECT_EQ(e.reason(), "E11000 duplicate key error collection: test.c index: a_1 dup key: { a: 1.0 }");
    }
    EXPECT_EQ(c->numRecords(opCtx.get()), 1);  // the failed inserts left nothing behind
    EXPECT_EQ(indexEntries(c, "_id_").size(), 1u);
}

// Collation keys are bytes and strings may be invalid UTF-8: MongoDB 7.0 reports both in hex
// (keyValue and the message), says which fields it encoded, and names the index's collation.
TEST_F(CatalogTest, DuplicateKeyHexEncodesCollationKeysAndInvalidUtf8) {
    Collection* c = create("test.h");
    c->getIndexCatalog()->createIndex(
        opCtx.get(), fromjson(R"({"key": {"s": 1, "n": 1}, "name": "sn", "unique": true, "collation": {"locale": "en"}})"));
    insert(c, R"({"_id": 1, "s": "abc", "n": 1})");
    try {
        insert(c, R"({"_id": 2, "s": "abc", "n": 1})");
        FAIL();
    } catch (const DuplicateKeyException& e) {
        const BSONObj& info = e.info();
        std::string hex = info["keyValue"].Obj()["s"].str();
        EXPECT_FALSE(hex.empty());
        EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos) << hex;
        EXPECT_EQ(info["keyValue"].Obj()["n"].numberInt(), 1);
        EXPECT_EQ(info["hexEncoded"].toString(false), "[ true, false ]");
        EXPECT_EQ(info["collation"].Obj()["locale"].str(), "en");
        EXPECT_EQ(info["collation"].Obj()["version"].str(), "57.1");
        EXPECT_EQ(e.reason(), "E11000 duplicate key error collection: test.h index: sn collation: { locale: \"en\", "
                              "caseLevel: false, caseFirst: \"off\", strength: 3, numericOrdering: false, alternate: "
                              "\"non-ignorable\", maxVariable: \"punct\", normalization: false, backwards: false, "
                              "version: \"57.1\" } dup key: { s: \"0x" + hex + "\", n: 1 }");
    }
    c = create("test.h2");
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"b": 1}, "name": "b_1", "unique": true})"));
    BSONObjBuilder doc;
    doc.append("_id", 3);
    doc.append("b", std::string("x\xff"));
    WriteUnitOfWork wuow(opCtx.get());
    c->insertDocument(opCtx.get(), doc.obj());
    BSONObjBuilder dup;
    dup.append("_id", 4);
    dup.append("b", std::string("x\xff"));
    try {
        c->insertDocument(opCtx.get(), dup.obj());
        FAIL();
    } catch (const DuplicateKeyException& e) {
        EXPECT_EQ(e.reason(), "E11000 duplicate key error collection: test.h2 index: b_1 dup key: { b: \"0x78ff\" }");
        EXPECT_EQ(e.info()["keyValue"].Obj()["b"].str(), "78ff");
        EXPECT_EQ(e.info()["hexEncoded"].toString(false), "[ true ]");
        EXPECT_TRUE(e.info()["collation"].eoo());
    }
}

TEST_F(CatalogTest, IndexBuildOverDuplicatesFailsAndLeavesNoIndex) {
    Collection* c = create("test.c");
    insert(c, R"({"_id": 1, "a": 5})");
    insert(c, R"({"_id": 2, "a": 5})");
    EXPECT_EQ(errorCode([&] {
                  c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1", "unique": true})"));
              }),
              11000);
    EXPECT_EQ(c->getIndexCatalog()->getAllIndexes().size(), 1u);
    restart();
    EXPECT_EQ(get("test.c")->getIndexCatalog()->getAllIndexes().size(), 1u);
}

TEST_F(CatalogTest, IndexSpecValidationAndConflicts) {
    Collection* c = create("test.c");
    IndexCatalog* ic = c->getIndexCatalog();
    EXPECT_TRUE(ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1, "b": -1}})")));
    EXPECT_TRUE(ic->findIndexByName("a_1_b_-1"));
    EXPECT_FALSE(ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1, "b": -1}, "name": "a_1_b_-1"})")));
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": -1}, "name": "a_1_b_-1"})")); }),
              int(ErrorCodes::IndexKeySpecsConflict));
    EXPECT_EQ(errorCode([&] {
                  ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1, "b": -1}, "name": "a_1_b_-1", "unique": true})"));
              }),
              int(ErrorCodes::IndexKeySpecsConflict));  // unique is part of the index signature
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1, "b": -1}, "name": "other"})")); }),
              int(ErrorCodes::IndexOptionsConflict));
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"h": "text"}})")); }),
              int(ErrorCodes::CannotCreateIndex));
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"h": "hashed"}, "unique": true})")); }),
              16764);  // hashed indexes are supported, never unique
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"h": "bogus"}})")); }),
              int(ErrorCodes::CannotCreateIndex));
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"h": 1}, "foo": 1})")); }),
              int(ErrorCodes::InvalidIndexSpecificationOption));
    EXPECT_EQ(errorCode([&] { ic->createIndex(opCtx.get(), fromjson(R"({"key": {"h": 0}})")); }),
              int(ErrorCodes::CannotCreateIndex));
    const IndexDescriptor* d = ic->findIndexByName("a_1_b_-1");
    EXPECT_EQ(d->infoObj.toString(), fromjson(R"({"v": 2, "key": {"a": 1, "b": -1}, "name": "a_1_b_-1"})").toString());
}

TEST_F(CatalogTest, DropIndexRules) {
    Collection* c = create("test.c");
    IndexCatalog* ic = c->getIndexCatalog();
    ic->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1"})"));
    EXPECT_EQ(errorCode([&] { ic->dropIndex(opCtx.get(), "_id_"); }), int(ErrorCodes::InvalidOptions));
    EXPECT_EQ(errorCode([&] { ic->dropIndex(opCtx.get(), "nope"); }), int(ErrorCodes::IndexNotFound));
    ic->dropIndex(opCtx.get(), "a_1");
    EXPECT_FALSE(ic->findIndexByName("a_1"));
    restart();
    EXPECT_FALSE(get("test.c")->getIndexCatalog()->findIndexByName("a_1"));
}

TEST_F(CatalogTest, RestartKeepsCollectionsIndexesMultikeyAndCounts) {
    Collection* c = create("test.c", R"({"capped": false, "validationLevel": "moderate"})");
    std::string uuid = c->uuid();
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1"})"));
    insert(c, R"({"_id": 1, "a": [1, 2]})");
    insert(c, R"({"_id": 2, "a": 3})");
    long long size = c->dataSize(opCtx.get());
    restart();
    c = get("test.c");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uuid(), uuid);
    EXPECT_EQ(c->options().validationLevel, "moderate");
    EXPECT_EQ(c->numRecords(opCtx.get()), 2);
    EXPECT_EQ(c->dataSize(opCtx.get()), size);
    const IndexDescriptor* a = c->getIndexCatalog()->findIndexByName("a_1");
    ASSERT_TRUE(a);
    EXPECT_TRUE(c->getIndexCatalog()->isMultikey(opCtx.get(), a));
    EXPECT_EQ(c->getIndexCatalog()->numKeys(opCtx.get(), a), 3);
    EXPECT_GT(catalog->databaseSizeOnDisk(opCtx.get(), "test"), 0);
}

TEST_F(CatalogTest, RenameWithinAndAcrossDatabases) {
    Collection* c = create("a.x");
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"v": 1}, "name": "v_1"})"));
    for (int i = 0; i < 1500; ++i) insert(c, ("{\"_id\": " + std::to_string(i) + ", \"v\": " + std::to_string(i % 7) + "}").c_str());
    catalog->renameCollection(opCtx.get(), NamespaceString::parse("a.x"), NamespaceString::parse("a.y"), false);
    EXPECT_FALSE(get("a.x"));
    ASSERT_TRUE(get("a.y"));
    EXPECT_EQ(get("a.y")->ns().ns(), "a.y");
    catalog->renameCollection(opCtx.get(), NamespaceString::parse("a.y"), NamespaceString::parse("b.z"), false);
    EXPECT_FALSE(get("a.y"));
    Collection* z = get("b.z");
    ASSERT_TRUE(z);
    EXPECT_EQ(z->numRecords(opCtx.get()), 1500);
    EXPECT_TRUE(z->getIndexCatalog()->findIndexByName("v_1"));
    EXPECT_EQ(z->getIndexCatalog()->numKeys(opCtx.get(), z->getIndexCatalog()->findIndexByName("v_1")), 1500);
    create("b.w");
    EXPECT_EQ(errorCode([&] {
                  catalog->renameCollection(opCtx.get(), NamespaceString::parse("b.z"), NamespaceString::parse("b.w"), false);
              }),
              int(ErrorCodes::NamespaceExists));
    catalog->renameCollection(opCtx.get(), NamespaceString::parse("b.z"), NamespaceString::parse("b.w"), true);
    EXPECT_EQ(get("b.w")->numRecords(opCtx.get()), 1500);
    EXPECT_EQ(errorCode([&] {
                  catalog->renameCollection(opCtx.get(), NamespaceString::parse("b.nope"), NamespaceString::parse("b.q"), false);
              }),
              int(ErrorCodes::NamespaceNotFound));
    restart();
    EXPECT_FALSE(get("a.x"));
    EXPECT_FALSE(get("b.z"));
    EXPECT_EQ(get("b.w")->numRecords(opCtx.get()), 1500);
}

TEST_F(CatalogTest, DropCollectionAndDatabaseRemoveTables) {
    Collection* c = create("d.one");
    create("d.two");
    create("e.three");
    insert(c, R"({"_id": 1})");
    auto cursor = c->getCursor(opCtx.get(), true);
    ASSERT_TRUE(cursor->next());
    cursor->save();
    catalog->dropCollection(opCtx.get(), NamespaceString::parse("d.one"));
    EXPECT_FALSE(cursor->restore());  // a saved cursor learns that its collection is gone
    cursor.reset();
    EXPECT_FALSE(get("d.one"));
    catalog->dropDatabase(opCtx.get(), "d");
    EXPECT_EQ(catalog->listDatabases(opCtx.get()), std::vector<std::string>({"e"}));
    restart();
    EXPECT_EQ(catalog->listDatabases(opCtx.get()), std::vector<std::string>({"e"}));
    int tables = 0;
    for (auto& ident : engine->kvEngine()->getAllIdents())
        if (DurableCatalog::isCollectionOrIndexIdent(ident)) ++tables;
    EXPECT_EQ(tables, 2);  // e.three and its _id index
}

TEST_F(CatalogTest, TruncateEmptiesCollectionAndIndexes) {
    Collection* c = create("test.c");
    for (int i = 0; i < 10; ++i) insert(c, ("{\"_id\": " + std::to_string(i) + "}").c_str());
    c->truncate(opCtx.get());
    EXPECT_EQ(c->numRecords(opCtx.get()), 0);
    EXPECT_EQ(c->dataSize(opCtx.get()), 0);
    EXPECT_TRUE(indexEntries(c, "_id_").empty());
    insert(c, R"({"_id": 1})");
}

TEST_F(CatalogTest, CappedCollectionKeepsNewestDocuments) {
    Collection* c = create("test.cap", R"({"capped": true, "size": 100000, "max": 3})");
    EXPECT_EQ(c->options().cappedSize, 100096);
    for (int i = 0; i < 5; ++i) insert(c, ("{\"_id\": " + std::to_string(i) + "}").c_str());
    EXPECT_EQ(c->numRecords(opCtx.get()), 3);
    auto cur = c->getCursor(opCtx.get(), true);
    EXPECT_EQ(cur->next()->doc["_id"].numberInt(), 2);
    EXPECT_EQ(indexEntries(c, "_id_").size(), 3u);
}

TEST_F(CatalogTest, CollectionOptionsParse) {
    EXPECT_EQ(CollectionOptions::parse(fromjson(R"({"create": "c", "capped": true})")).getStatus().code(),
              int(ErrorCodes::InvalidOptions));
    EXPECT_EQ(CollectionOptions::parse(fromjson(R"({"create": "c", "bogus": 1})")).getStatus().code(), 40415);
    EXPECT_EQ(CollectionOptions::parse(fromjson(R"({"create": "c", "validationLevel": "x"})")).getStatus().code(),
              int(ErrorCodes::BadValue));
    auto o = CollectionOptions::parse(fromjson(R"({"create": "c", "capped": true, "size": 1000, "$db": "x", "dedup": false})"));
    ASSERT_TRUE(o.isOK());
    EXPECT_EQ(o.getValue().cappedSize, 4096);
    EXPECT_FALSE(o.getValue().dedup);
    EXPECT_EQ(o.getValue().raw.toString(), fromjson(R"({"capped": true, "size": 1000, "dedup": false})").toString());
}

// Writers serialised by the write lock (as the server does) and concurrent readers on
// snapshots: every reader sees a consistent count, and nothing is lost.
TEST_F(CatalogTest, ConcurrentReadersAndSerialisedWriters) {
    Collection* c = create("test.conc");
    c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"v": 1}, "name": "v_1"})"));
    std::atomic<bool> done{false};
    std::atomic<int> inconsistencies{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < 2; ++w)
        threads.emplace_back([&, w] {
            auto op = makeTestOpCtx(engine.get());
            for (int i = 0; i < 300; ++i) {
                CollectionWriteLock lk;
                WriteUnitOfWork wuow(op.get());
                c->insertDocument(op.get(), fromjson(("{\"_id\": " + std::to_string(w * 1000 + i) + ", \"v\": " +
                                                      std::to_string(i % 10) + "}").c_str()));
                wuow.commit();
            }
        });
    for (int r = 0; r < 2; ++r)
        threads.emplace_back([&] {
            auto op = makeTestOpCtx(engine.get());
            while (!done) {
                CatalogReadLock lk;
                long long scanned = 0;
                auto cur = c->getCursor(op.get(), true);
                while (cur->next()) ++scanned;
                auto* ic = c->getIndexCatalog();
                auto icur = ic->newCursor(op.get(), ic->findIndexByName("v_1"), true);
                BSONObjBuilder min;
                min.appendMinKey("");
                long long keys = 0;
                for (auto e = icur->seek(min.obj(), true); e; e = icur->next()) ++keys;
                if (keys != scanned) ++inconsistencies;  // one snapshot: index and records agree
                cur.reset();
                icur.reset();
                op->recoveryUnit()->abandonSnapshot();
            }
        });
    threads[0].join();
    threads[1].join();
    done = true;
    threads[2].join();
    threads[3].join();
    EXPECT_EQ(inconsistencies.load(), 0);
    EXPECT_EQ(c->numRecords(opCtx.get()), 600);
    EXPECT_EQ(c->getIndexCatalog()->numKeys(opCtx.get(), c->getIndexCatalog()->findIndexByName("v_1")), 600);
}

// A child process creates a collection, inserts and is killed with SIGKILL: after recovery
// the catalog, the documents, the index and the counts are all there.
TEST_F(CatalogTest, EverythingAcknowledgedSurvivesKill9) {
    close();
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        auto o = testEngineOptions(dir.path());
        o.syncDelaySecs = 0;
        auto eng = StorageEngine::open(o);
        auto op = makeTestOpCtx(eng.get());
        CollectionCatalogImpl cat(op.get(), eng.get());
        Collection* c = cat.createCollection(op.get(), NamespaceString::parse("k.c"), CollectionOptions());
        c->getIndexCatalog()->createIndex(op.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1"})"));
        for (int i = 0; i < 300; ++i) {
            WriteUnitOfWork wuow(op.get());
            c->insertDocument(op.get(), fromjson(("{\"_id\": " + std::to_string(i) + ", \"a\": [1, 2]}").c_str()));
            wuow.commit();
        }
        ::kill(::getpid(), SIGKILL);
        _exit(1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    open();
    EXPECT_TRUE(engine->recoveredFromUncleanShutdown());
    Collection* c = get("k.c");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->numRecords(opCtx.get()), 300);
    EXPECT_EQ(c->dataSize(opCtx.get()), 300LL * fromjson(R"({"_id": 0, "a": [1, 2]})").objsize());
    const IndexDescriptor* a = c->getIndexCatalog()->findIndexByName("a_1");
    ASSERT_TRUE(a);
    EXPECT_TRUE(c->getIndexCatalog()->isMultikey(opCtx.get(), a));
    EXPECT_EQ(c->getIndexCatalog()->numKeys(opCtx.get(), a), 600);
}

}  // namespace
}  // namespace mongo
