// parseWriteConcernIsDurable: which write concerns make a write command wait for the journal,
// on a standalone and on a replica set member (where w: "majority", explicit or the implicit
// default, is journaled as MongoDB's writeConcernMajorityJournalDefault: true does).
#include <gtest/gtest.h>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/commands/command_helpers.h"

namespace mongo {
namespace {

bool durable(const char* json, bool replSet) { return parseWriteConcernIsDurable(fromjson(json), replSet); }

int codeOf(const char* json, bool replSet) {
    try {
        parseWriteConcernIsDurable(fromjson(json), replSet);
        return 0;
    } catch (const DBException& e) {
        return e.code();
    }
}

TEST(WriteConcernDurableTest, ImplicitDefaultIsMajorityOnAReplicaSet) {
    EXPECT_TRUE(durable("{\"insert\": \"c\"}", true));
    EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": null}", true));
    EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {}}", true));
    EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {\"wtimeout\": 100}}", true));
    EXPECT_FALSE(durable("{\"insert\": \"c\"}", false));
    EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {}}", false));
}

TEST(WriteConcernDurableTest, ExplicitMajority) {
    EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": \"majority\"}}", true));
    EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": \"majority\", \"j\": false}}", true));
    EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": \"majority\"}}", false));
}

TEST(WriteConcernDurableTest, JAndFsync) {
    for (bool rs : {false, true}) {
        EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": 1, \"j\": true}}", rs));
        EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {\"j\": true}}", rs));
        EXPECT_TRUE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": 1, \"fsync\": true}}", rs));
        EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": 1}}", rs));
        EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": 0}}", rs));
        EXPECT_FALSE(durable("{\"insert\": \"c\", \"writeConcern\": {\"w\": 1, \"j\": false}}", rs));
    }
}

TEST(WriteConcernDurableTest, BadValues) {
    EXPECT_EQ(codeOf("{\"insert\": \"c\", \"writeConcern\": 1}", true), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(codeOf("{\"insert\": \"c\", \"writeConcern\": {\"w\": -1}}", true), int(ErrorCodes::FailedToParse));
    EXPECT_EQ(codeOf("{\"insert\": \"c\", \"writeConcern\": {\"w\": true}}", true), int(ErrorCodes::FailedToParse));
    EXPECT_EQ(codeOf("{\"insert\": \"c\", \"writeConcern\": {\"w\": 2}}", false), int(ErrorCodes::BadValue));
}

}  // namespace
}  // namespace mongo
