// Collection validators on the catalog: what collMod changes (options, index specs) is durable
// and undone with its unit of work; DocumentValidator applies validationLevel/Action.
#include "mongo/db/catalog/collection_validator.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog_impl.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

class ValidatorCatalogTest : public ::testing::Test {
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
    static CollectionOptions options(const char* json) {
        auto o = CollectionOptions::parse(fromjson(json));
        EXPECT_TRUE(o.isOK()) << o.getStatus().toString();
        return o.getValue();
    }
    Collection* create(const char* ns, const char* json = "{}") {
        return catalog->createCollection(opCtx.get(), NamespaceString::parse(ns), options(json));
    }
    Collection* get(const char* ns) { return catalog->lookupCollection(opCtx.get(), NamespaceString::parse(ns)); }

    TempDir dir;
    std::unique_ptr<StorageEngine> engine;
    std::unique_ptr<OperationContext> opCtx;
    std::unique_ptr<CollectionCatalogImpl> catalog;
};

TEST_F(ValidatorCatalogTest, UpdateOptionsIsDurableAndUndoneOnAbort) {
    Collection* c = create("test.c");
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->updateOptions(opCtx.get(), options(R"({"validator": {"a": {"$gt": 1}}, "validationAction": "warn"})"));
        wuow.commit();
    }
    {
        WriteUnitOfWork wuow(opCtx.get());  // aborted
        c->updateOptions(opCtx.get(), options(R"({"validationLevel": "off"})"));
        EXPECT_EQ(c->options().validationLevel, "off");
    }
    EXPECT_EQ(c->options().validationLevel, "strict");
    EXPECT_EQ(c->options().validationAction, "warn");
    restart();
    c = get("test.c");
    EXPECT_EQ(c->options().validator.jsonString(), fromjson(R"({"a": {"$gt": 1}})").jsonString());
    EXPECT_EQ(c->options().validationAction, "warn");
    EXPECT_EQ(c->options().validationLevel, "strict");
}

TEST_F(ValidatorCatalogTest, UpdateIndexSpecIsDurableAndUndoneOnAbort) {
    Collection* c = create("test.c");
    ASSERT_TRUE(c->getIndexCatalog()->createIndex(opCtx.get(), fromjson(R"({"key": {"a": 1}, "name": "a_1"})")));
    BSONObj hidden = fromjson(R"({"v": 2, "key": {"a": 1}, "name": "a_1", "hidden": true})");
    {
        WriteUnitOfWork wuow(opCtx.get());
        c->getIndexCatalog()->updateIndexSpec(opCtx.get(), "a_1", hidden);
        wuow.commit();
    }
    EXPECT_TRUE(c->getIndexCatalog()->findIndexByName("a_1")->hidden);
    {
        WriteUnitOfWork wuow(opCtx.get());  // aborted
        c->getIndexCatalog()->updateIndexSpec(opCtx.get(), "a_1", fromjson(R"({"v": 2, "key": {"a": 1}, "name": "a_1"})"));
        EXPECT_FALSE(c->getIndexCatalog()->findIndexByName("a_1")->hidden);
    }
    EXPECT_TRUE(c->getIndexCatalog()->findIndexByName("a_1")->hidden);
    restart();
    const IndexDescriptor* d = get("test.c")->getIndexCatalog()->findIndexByName("a_1");
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->hidden);
    EXPECT_EQ(d->infoObj.jsonString(), hidden.jsonString());
}

TEST_F(ValidatorCatalogTest, DocumentValidatorLevelsAndActions) {
    BSONObj good = fromjson(R"({"_id": 1, "a": 5})"), bad = fromjson(R"({"_id": 2, "a": 0})");
    Collection* strict = create("test.strict", R"({"validator": {"a": {"$gt": 1}}})");
    DocumentValidator v(strict, false);
    EXPECT_NO_THROW(v.check(good, nullptr));
    try {
        v.check(bad, nullptr);
        FAIL() << "no DocumentValidationFailure";
    } catch (const DocumentValidationException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::DocumentValidationFailure));
        EXPECT_EQ(e.reason(), "Document failed validation");
        EXPECT_EQ(e.errInfo()["failingDocumentId"].numberInt(), 2);
        EXPECT_EQ(e.errInfo()["details"].Obj()["operatorName"].str(), "$gt");
    }
    EXPECT_NO_THROW(DocumentValidator(strict, true).check(bad, nullptr));  // bypassDocumentValidation

    Collection* moderate = create("test.moderate", R"({"validator": {"a": {"$gt": 1}}, "validationLevel": "moderate"})");
    DocumentValidator m(moderate, false);
    EXPECT_NO_THROW(m.check(bad, &bad));  // the stored document did not pass either
    EXPECT_THROW(m.check(bad, &good), DocumentValidationException);
    EXPECT_THROW(m.check(bad, nullptr), DocumentValidationException);

    EXPECT_FALSE(DocumentValidator(create("test.off", R"({"validator": {"a": 1}, "validationLevel": "off"})"), false).active());
    Collection* warn = create("test.warn", R"({"validator": {"a": {"$gt": 1}}, "validationAction": "warn"})");
    EXPECT_NO_THROW(DocumentValidator(warn, false).check(bad, nullptr));
    EXPECT_TRUE(DocumentValidator(warn, false).violation(bad, nullptr).has_value());
}

TEST_F(ValidatorCatalogTest, ValidatorExpressionsAndNamespaces) {
    EXPECT_TRUE(validateValidatorExpression(fromjson(R"({"$jsonSchema": {"required": ["a"]}})")).isOK());
    EXPECT_EQ(validateValidatorExpression(fromjson(R"({"$where": "1"})")).reason(), "$where is not allowed in this context");
    EXPECT_EQ(validateValidatorExpression(fromjson(R"({"$and": [{"$text": {"$search": "x"}}]})")).code(),
              int(ErrorCodes::BadValue));
    EXPECT_EQ(validateValidatorExpression(fromjson(R"({"a": {"$not": {"$nearSphere": [0, 0]}}})")).reason(),
              "$geoNear, $near, and $nearSphere are not allowed in this context");
    EXPECT_EQ(validateValidatorExpression(fromjson(R"({"a": {"$bogus": 1}})")).code(), int(ErrorCodes::BadValue));
    EXPECT_TRUE(checkValidatorAllowedOn(NamespaceString::parse("test.c")).isOK());
    EXPECT_EQ(checkValidatorAllowedOn(NamespaceString::parse("admin.c")).code(), int(ErrorCodes::InvalidOptions));
    EXPECT_EQ(checkValidatorAllowedOn(NamespaceString::parse("test.system.x")).code(), int(ErrorCodes::InvalidOptions));
    EXPECT_FALSE(CollectionOptions::parse(fromjson(R"({"create": "c", "validator": {"$where": "1"}})")).isOK());
}

}  // namespace
}  // namespace mongo
