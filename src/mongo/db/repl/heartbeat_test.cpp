// replSetHeartbeat documents: what a member sends and answers, round-tripped, and the
// request's errors.
#include "mongo/db/repl/heartbeat.h"

#include <gtest/gtest.h>

namespace mongo {
namespace repl {
namespace {

TEST(HeartbeatTest, RequestRoundTrip) {
    HeartbeatRequest r;
    r.setName = "rs0";
    r.configVersion = 3;
    r.configTerm = 2;
    r.from = "h:1";
    r.fromId = 4;
    r.term = 7;
    BSONObj b = r.toBSON();
    EXPECT_EQ(b.firstElementFieldName(), "replSetHeartbeat");
    EXPECT_EQ(b["hbv"].numberInt(), 1);
    auto p = HeartbeatRequest::parse(b);
    ASSERT_TRUE(p.isOK());
    EXPECT_EQ(p.getValue().setName, "rs0");
    EXPECT_EQ(p.getValue().configVersion, 3);
    EXPECT_EQ(p.getValue().configTerm, 2);
    EXPECT_EQ(p.getValue().from, "h:1");
    EXPECT_EQ(p.getValue().fromId, 4);
    EXPECT_EQ(p.getValue().term, 7);
    EXPECT_EQ(HeartbeatRequest::parse(fromjson(R"({"replSetHeartbeat": 1, "configVersion": 1})")).getStatus().code(),
              int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(HeartbeatRequest::parse(fromjson(R"({"replSetHeartbeat": "rs0"})")).getStatus().code(),
              int(ErrorCodes::NoSuchKey));
}

TEST(HeartbeatTest, ReplyRoundTripInMongoDBShape) {
    HeartbeatReply r;
    r.setName = "rs0";
    r.state = MemberState::kPrimary;
    r.term = 5;
    r.primaryId = 2;
    r.applied = OpTime(Timestamp{100, 3}, 5);
    r.durable = OpTime(Timestamp{100, 2}, 5);
    r.configVersion = 4;
    r.configTerm = 5;
    r.electionTime = Timestamp{90, 1};
    r.lastCommitted = OpTime(Timestamp{99, 1}, 5);
    BSONObj b = r.toBSON();
    std::vector<std::string> names;
    for (BSONElement e : b) names.emplace_back(e.fieldNameStringData());
    EXPECT_EQ(names, (std::vector<std::string>{"ok", "set", "electionTime", "syncingTo", "term", "primaryId",
                                               "durableOpTime", "durableWallTime", "opTime", "wallTime", "state",
                                               "configVersion", "configTerm", "$replData"}));
    auto p = HeartbeatReply::parse(b);
    ASSERT_TRUE(p.isOK()) << p.getStatus().toString();
    EXPECT_EQ(p.getValue().state, MemberState::kPrimary);
    EXPECT_EQ(p.getValue().applied, r.applied);
    EXPECT_EQ(p.getValue().durable, r.durable);
    EXPECT_EQ(p.getValue().lastCommitted, r.lastCommitted);
    EXPECT_EQ(p.getValue().electionTime.asULL(), r.electionTime.asULL());
    EXPECT_EQ(p.getValue().primaryId, 2);
    EXPECT_TRUE(p.getValue().config.isEmpty());
    EXPECT_FALSE(HeartbeatReply::parse(fromjson(R"({"ok": 1})")).isOK());
}

}  // namespace
}  // namespace repl
}  // namespace mongo
