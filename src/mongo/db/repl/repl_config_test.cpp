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

TEST(ReplSetConfigTest, SetWideRules) {
    // A set needs an electable member.
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "priority": 0}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "arbiterOnly": true}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1", "votes": 0}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    // At most 7 voters, at most 50 members.
    std::string eight = R"({"_id": "rs0", "members": [)";
    for (int i = 0; i < 8; ++i) eight += std::string(i ? "," : "") + R"({"_id": )" + std::to_string(i) + R"(, "host": "h:)" + std::to_string(i + 1) + "\"}";
    EXPECT_EQ(codeOf(eight + "]}"), int(ErrorCodes::InvalidReplicaSetConfig));
    std::string fiftyOne = R"({"_id": "rs0", "members": [)";
    for (int i = 0; i < 51; ++i)
        fiftyOne += std::string(i ? "," : "") + R"({"_id": )" + std::to_string(i) + R"(, "host": "h:)" + std::to_string(i + 1) +
                    (i ? R"(", "votes": 0, "priority": 0})" : "\"}");
    EXPECT_EQ(codeOf(fiftyOne + "]}"), int(ErrorCodes::InvalidReplicaSetConfig));
    // localhost everywhere or nowhere.
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "localhost:1"}, {"_id": 1, "host": "h:2"}]})"),
              int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:70000"}]})"), int(ErrorCodes::FailedToParse));
}

TEST(ReplSetConfigTest, MemberRules) {
    auto one = [](const std::string& extra) {
        return codeOf(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2", )" + extra + "}]}");
    };
    EXPECT_EQ(one(R"("priority": 0, "hidden": true, "secondaryDelaySecs": 3600, "tags": {"dc": "east"})"), 0);
    EXPECT_EQ(one(R"("arbiterOnly": true)"), 0);
    EXPECT_EQ(one(R"("priority": 0, "votes": 0)"), 0);
    EXPECT_EQ(one(R"("hidden": true)"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("votes": 0)"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("secondaryDelaySecs": 10)"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("buildIndexes": false)"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("arbiterOnly": true, "votes": 0)"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("arbiterOnly": true, "tags": {"a": "b"})"), int(ErrorCodes::InvalidReplicaSetConfig));
    EXPECT_EQ(one(R"("priority": 0, "secondaryDelaySecs": 99999999)"), int(ErrorCodes::BadValue));
    EXPECT_EQ(one(R"("tags": {"a": 1})"), int(ErrorCodes::TypeMismatch));
    auto sw = ReplSetConfig::parse(fromjson(R"({"_id": "rs0", "members": [{"_id": 0, "host": "h:1"},
        {"_id": 1, "host": "h:2"}, {"_id": 2, "host": "h:3", "arbiterOnly": true}],
        "settings": {"electionTimeoutMillis": 2000, "heartbeatIntervalMillis": 500, "catchUpTimeoutMillis": 0,
                     "chainingAllowed": false}})"), "rs0");
    ASSERT_TRUE(sw.isOK()) << sw.getStatus().reason();
    const ReplSetConfig& c = sw.getValue();
    EXPECT_EQ(c.votingMembers(), 3);
    EXPECT_EQ(c.majorityVoteCount(), 2);
    EXPECT_EQ(c.writeMajorityCount(), 2);
    EXPECT_EQ(c.electionTimeoutMillis, 2000);
    EXPECT_EQ(c.heartbeatIntervalMillis, 500);
    EXPECT_FALSE(c.chainingAllowed);
    EXPECT_EQ(c.members[2].priority, 0);
}

ReplSetConfig parsed(const std::string& json) {
    auto sw = ReplSetConfig::parse(fromjson(json), "rs0", "reconfigure");
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().reason();
    return sw.getValue();
}

TEST(ReplSetConfigTest, ReconfigRules) {
    ReplSetConfig old = parsed(R"({"_id": "rs0", "version": 2, "members": [{"_id": 0, "host": "h:1"}]})");
    auto check = [&](const std::string& json, bool force) {
        ReplSetConfig n = parsed(json);
        if (!n.replicaSetIdGiven) n.replicaSetId = old.replicaSetId;
        Status s = ReplSetConfig::checkReconfig(old, n, force);
        return s.isOK() ? 0 : int(s.code());
    };
    const int incompatible = int(ErrorCodes::NewReplicaSetConfigurationIncompatible);
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"}]})", false), 0);
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 2, "members": [{"_id": 0, "host": "h:1"}]})", false), incompatible);
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 2, "members": [{"_id": 0, "host": "h:1"}]})", true), 0);
    // One voter added: safe; two: only with force; non-voters do not count.
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2"}]})", false), 0);
    const char* two = R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2"},
                         {"_id": 2, "host": "h:3"}]})";
    EXPECT_EQ(check(two, false), incompatible);
    EXPECT_EQ(check(two, true), 0);
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2"},
                       {"_id": 2, "host": "h:3", "votes": 0, "priority": 0}]})", false), 0);
    // A host keeps its _id; a member keeps arbiterOnly; the replicaSetId is fixed.
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 3, "members": [{"_id": 5, "host": "h:1"}]})", true), incompatible);
    EXPECT_EQ(check(R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"}, {"_id": 1, "host": "h:2"}],
                       "settings": {"replicaSetId": {"$oid": "0123456789abcdef01234567"}}})", false), incompatible);
    ReplSetConfig withArb = parsed(R"({"_id": "rs0", "version": 3, "members": [{"_id": 0, "host": "h:1"},
                                      {"_id": 1, "host": "h:2", "arbiterOnly": true}]})");
    withArb.replicaSetId = old.replicaSetId;
    ReplSetConfig noArb = parsed(R"({"_id": "rs0", "version": 4, "members": [{"_id": 0, "host": "h:1"},
                                    {"_id": 1, "host": "h:2"}]})");
    noArb.replicaSetId = old.replicaSetId;
    EXPECT_EQ(int(ReplSetConfig::checkReconfig(withArb, noArb, false).code()), incompatible);
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
