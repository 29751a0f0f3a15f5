#include "mongo/db/repl/repl_config.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

int codeOf(const std::string& json) {
    auto sw = ReplSetConfig::parse(fromjson(json), "rs0");
    return sw.isOK() ? 0 : int(sw.getStatus().code());
}

TEST(ReplSetConfigTest, MinimalConfigGetsMongoDBDefaults) {
    auto sw = ReplSetConfig::parse(fromjson(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}]})"), "rs0");
    ASSERT_TRUE(sw.isOK()) << sw.getStatus().reason();
    BSONObj b = sw.getValue().toBSON();
    EXPECT_EQ(b["version"].numberInt(), 1);
    EXPECT_EQ(b["protocolVersion"].type(), NumberLong);
    BSONObj m = b["members"].embeddedObject().firstElement().embeddedObject();
    std::vector<std::string> names;
    for (BSONElement e : m) names.emplace_back(e.fieldNameStringData());
    EXPECT_EQ(names, (std::vector<std::string>{"_id", "host", "arbiterOnly", "buildIndexes", "hidden", "priority",
                                               "tags", "secondaryDelaySecs", "votes"}));
    BSONObj s = b["settings"].embeddedObject();
    EXPECT_EQ(s["electionTimeoutMillis"].numberInt(), 10000);
    EXPECT_EQ(s["heartbeatIntervalMillis"].numberInt(), 2000);
    EXPECT_EQ(s["catchUpTimeoutMillis"].numberInt(), -1);
    EXPECT_EQ(s["replicaSetId"].type(), jstOID);
    // What it writes it reads back identically (the stored config at restart).
    auto again = ReplSetConfig::parse(b, "rs0");
    ASSERT_TRUE(again.isOK()) << again.getStatus().reason();
    EXPECT_TRUE(again.getValue().toBSON().binaryEqual(b));
}

TEST(ReplSetConfigTest, ErrorsAsMongoDB) {
    EXPECT_EQ(codeOf(R"({"_id": "other", "members": [{"_id": 0, "host": "h:1"}]})"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"members": [{"_id": 0, "host": "h:1"}]})"), int(ErrorCodes::NoSuchKey));
    EXPECT_EQ(codeOf(R"({"_id": "rs0"})"), int(ErrorCodes::NoSuchKey));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": []})"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": 1, "members": [{"_id": 0, "host": "h:1"}]})"), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0}]})"), int(ErrorCodes::NoSuchKey));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "votes": 3}]})"), int(ErrorCodes::BadValue));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "priority": 1001}]})"), int(ErrorCodes::BadValue));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "bogus": 1}]})"), int(ErrorCodes::BadValue));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}], "bogus": 1})"), int(ErrorCodes::BadValue));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "protocolVersion": 0, "members": [{"_id": 0, "host": "h:1"}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}, {"_id": 0, "host": "h:2"}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "H:1"}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "hidden": true}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}], "settings": {"getLastErrorDefaults": {"w": 2}}})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}], "settings": {"electionTimeoutMillis": "x"}})"),
              int(ErrorCodes::TypeMismatch));
}

TEST(ReplSetConfigTest, WhatCannotRunYetIsRefused) {
    // Two members need replication between members; a lone member that cannot be primary
    // would leave the set without one.
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2"}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "priority": 0}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "arbiterOnly": true}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "votes": 0}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
}

TEST(ReplSetConfigTest, DefaultConfigAndFindSelf) {
    ReplSetConfig c = ReplSetConfig::makeDefault("rs0", "localhost:27017");
    ASSERT_EQ(c.members.size(), 1u);
    EXPECT_EQ(c.members[0].host, "localhost:27017");
    EXPECT_EQ(c.findSelf({"127.0.0.1:27017", "LOCALHOST:27017"}), 0);
    EXPECT_EQ(c.findSelf({"127.0.0.1:27017"}), -1);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
