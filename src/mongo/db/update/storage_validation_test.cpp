// Document storage rules for inserts and replacements.
#include "mongo/db/update/storage_validation.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(StorageValidation, IdTypes) {
    EXPECT_TRUE(validateIdField(J("{_id: 1}").firstElement()).isOK());
    EXPECT_TRUE(validateIdField(J("{_id: {a: 1}}").firstElement()).isOK());
    Status s = validateIdField(J("{_id: [1]}").firstElement());
    EXPECT_EQ(s.code(), 53);
    EXPECT_EQ(s.reason(), "The '_id' value cannot be of type array");
    EXPECT_EQ(validateIdField(J("{_id: {$regex: 'x'}}").firstElement()).reason(),
              "The '_id' value cannot be of type regex");
    EXPECT_EQ(validateIdField(J("{_id: {$undefined: true}}").firstElement()).code(), 53);
}

TEST(StorageValidation, IdDocumentWithDollarFields) {
    Status s = validateIdField(J("{_id: {$a: 1}}").firstElement());
    EXPECT_EQ(s.code(), 52);
    EXPECT_EQ(s.reason(), "_id fields may not contain '$'-prefixed fields: $a is not valid for storage.");
    EXPECT_TRUE(validateIdField(J("{_id: {x: {$ref: 'c', $id: 1, $db: 'd'}}}").firstElement()).isOK());
}

TEST(StorageValidation, TopLevelDollarFields) {
    // Replacement documents may not have them; inserts (the default) may.
    Status s = validateStorageDocument(J("{_id: 1, $x: 1}"), false);
    EXPECT_EQ(s.code(), 52);
    EXPECT_TRUE(validateStorageDocument(J("{_id: 1, $x: 1}")).isOK());
    EXPECT_TRUE(validateStorageDocument(J("{_id: 1, a: {$x: 1}}"), false).isOK());
    EXPECT_TRUE(validateStorageDocument(J("{$ref: 'c', $id: 1, $db: 'x'}"), false).isOK());
    EXPECT_EQ(validateStorageDocument(J("{$id: 1}"), false).code(), 55);
    EXPECT_EQ(validateStorageDocument(J("{$ref: 1, $id: 1}"), false).code(), 55);
    EXPECT_EQ(validateStorageDocument(J("{$ref: 'c'}"), false).reason(),
              "The DBRef $ref field must be followed by a $id field");
    EXPECT_EQ(validateStorageDocument(J("{_id: [1], $x: 1}")).code(), 53);
}

TEST(StorageValidation, EmptyFieldNamesAreAllowed) {
    EXPECT_TRUE(validateStorageDocument(J("{'': 1, a: {'': 2}}"), false).isOK());
}

TEST(FixDocumentForInsert, MovesIdFirst) {
    auto sw = fixDocumentForInsert(J("{a: 1, _id: 2}"));
    ASSERT_TRUE(sw.isOK());
    EXPECT_TRUE(bsonIdentical(sw.getValue(), "{_id: 2, a: 1}"));
}

TEST(FixDocumentForInsert, GeneratesObjectId) {
    auto sw = fixDocumentForInsert(J("{a: 1}"));
    ASSERT_TRUE(sw.isOK());
    EXPECT_EQ(sw.getValue().firstElement().type(), jstOID);
    EXPECT_EQ(sw.getValue().firstElementFieldName(), "_id");
    EXPECT_EQ(sw.getValue().nFields(), 2);
}

TEST(FixDocumentForInsert, AllowsTopLevelDollarFields) {
    auto sw = fixDocumentForInsert(J("{_id: 1, $price: 5}"));
    ASSERT_TRUE(sw.isOK());
    EXPECT_TRUE(bsonIdentical(sw.getValue(), "{_id: 1, $price: 5}"));
}

TEST(FixDocumentForInsert, RefusesBadIds) {
    EXPECT_EQ(fixDocumentForInsert(J("{_id: [1]}")).getStatus().code(), 53);
    auto dup = fixDocumentForInsert(J("{_id: 1, _id: 2}"));
    EXPECT_EQ(dup.getStatus().code(), 2);
    EXPECT_EQ(dup.getStatus().reason(), "can't have multiple _id fields in one document");
}

TEST(FixDocumentForInsert, FillsZeroTimestamps) {
    auto sw = fixDocumentForInsert(J("{_id: 1, t: {$timestamp: {t: 0, i: 0}}, u: {$timestamp: {t: 5, i: 1}}}"));
    ASSERT_TRUE(sw.isOK());
    EXPECT_FALSE(sw.getValue()["t"].timestamp().isNull());
    EXPECT_EQ(sw.getValue()["u"].timestamp().secs, 5u);
}

TEST(FixDocumentForInsert, RefusesTooDeepDocuments) {
    BSONObj inner = J("{a: 1}");
    for (int i = 0; i < 100; i++) {
        BSONObjBuilder b;
        b.append("a", inner);
        inner = b.obj();
    }
    auto sw = fixDocumentForInsert(inner);
    EXPECT_EQ(sw.getStatus().code(), 15);
    EXPECT_EQ(sw.getStatus().reason(), "cannot insert document because it exceeds 100 levels of nesting");
}

}  // namespace
}  // namespace mongo
