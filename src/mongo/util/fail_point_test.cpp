#include "mongo/util/fail_point.h"

#include <atomic>
#include <gtest/gtest.h>
#include <thread>

namespace mongo {
namespace {

MONGO_FAIL_POINT_DEFINE(failPointTestPoint);

BSONObj mode(const char* json) { return fromjson(json); }

class FailPointTest : public ::testing::Test {
protected:
    void TearDown() override { failPointTestPoint.setMode(FailPoint::off); }
};

TEST_F(FailPointTest, OffByDefault) {
    FailPoint fp("failPointTestLocal");
    EXPECT_FALSE(fp.isActive());
    EXPECT_FALSE(fp.shouldFail());
    EXPECT_EQ(fp.timesEntered(), 0);
}

TEST_F(FailPointTest, AlwaysOnFiresEveryTimeAndCounts) {
    failPointTestPoint.setMode(FailPoint::alwaysOn);
    for (int i = 0; i < 3; i++) EXPECT_TRUE(failPointTestPoint.shouldFail());
    EXPECT_EQ(failPointTestPoint.timesEntered(), 3);
}

TEST_F(FailPointTest, TimesFiresNTimesThenTurnsOff) {
    failPointTestPoint.setMode(FailPoint::nTimes, 2);
    EXPECT_TRUE(failPointTestPoint.shouldFail());
    EXPECT_TRUE(failPointTestPoint.shouldFail());
    EXPECT_FALSE(failPointTestPoint.shouldFail());
    EXPECT_FALSE(failPointTestPoint.isActive());
}

TEST_F(FailPointTest, SkipPassesNThenFiresForever) {
    failPointTestPoint.setMode(FailPoint::skip, 2);
    EXPECT_FALSE(failPointTestPoint.shouldFail());
    EXPECT_FALSE(failPointTestPoint.shouldFail());
    EXPECT_TRUE(failPointTestPoint.shouldFail());
    EXPECT_TRUE(failPointTestPoint.shouldFail());
}

TEST_F(FailPointTest, NonMatchingPredicateConsumesNoTimes) {
    failPointTestPoint.setMode(FailPoint::nTimes, 1, fromjson(R"({"ns": "a"})"));
    auto isB = [](const BSONObj& d) { return d["ns"].str() == "b"; };
    auto isA = [](const BSONObj& d) { return d["ns"].str() == "a"; };
    EXPECT_FALSE(failPointTestPoint.shouldFail(isB));
    EXPECT_TRUE(failPointTestPoint.shouldFail(isA));
    EXPECT_FALSE(failPointTestPoint.shouldFail(isA));
}

TEST_F(FailPointTest, ExecuteIfPassesData) {
    failPointTestPoint.setMode(FailPoint::alwaysOn, 0, fromjson(R"({"x": 7})"));
    int seen = 0;
    EXPECT_TRUE(failPointTestPoint.executeIf([&](const BSONObj& d) { seen = d["x"].numberInt(); }, nullptr));
    EXPECT_EQ(seen, 7);
}

TEST_F(FailPointTest, SetModeReturnsTimesEnteredBefore) {
    failPointTestPoint.setMode(FailPoint::alwaysOn);
    failPointTestPoint.shouldFail();
    long long before = failPointTestPoint.timesEntered();
    EXPECT_EQ(failPointTestPoint.setMode(FailPoint::off), before);
}

TEST_F(FailPointTest, ParseModes) {
    auto off = FailPoint::parseBSON(mode(R"({"mode": "off"})"));
    ASSERT_TRUE(off.isOK());
    EXPECT_EQ(off.getValue().mode, FailPoint::off);
    auto times = FailPoint::parseBSON(mode(R"({"mode": {"times": 3}, "data": {"a": 1}})"));
    ASSERT_TRUE(times.isOK());
    EXPECT_EQ(times.getValue().mode, FailPoint::nTimes);
    EXPECT_EQ(times.getValue().val, 3);
    EXPECT_EQ(times.getValue().data["a"].numberInt(), 1);
    auto skip = FailPoint::parseBSON(mode(R"({"mode": {"skip": 1}})"));
    ASSERT_TRUE(skip.isOK());
    EXPECT_EQ(skip.getValue().mode, FailPoint::skip);
    auto prob = FailPoint::parseBSON(mode(R"({"mode": {"activationProbability": 0.5}})"));
    ASSERT_TRUE(prob.isOK());
    EXPECT_EQ(prob.getValue().mode, FailPoint::random);
}

TEST_F(FailPointTest, ParseErrors) {
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({})")).getStatus().code(), static_cast<int>(ErrorCodes::IllegalOperation));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": "sometimes"})")).getStatus().reason(), "unknown mode: sometimes");
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": {"times": -1}})")).getStatus().code(),
              static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": {"times": "x"}})")).getStatus().code(),
              static_cast<int>(ErrorCodes::TypeMismatch));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": {"activationProbability": 2}})")).getStatus().code(),
              static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": {"bogus": 1}})")).getStatus().code(),
              static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": 5})")).getStatus().code(), static_cast<int>(ErrorCodes::TypeMismatch));
    EXPECT_EQ(FailPoint::parseBSON(mode(R"({"mode": "alwaysOn", "data": 1})")).getStatus().code(),
              static_cast<int>(ErrorCodes::TypeMismatch));
}

TEST_F(FailPointTest, SetGlobalFailPointUnknownNameThrows266) {
    try {
        setGlobalFailPoint("noSuchFailPoint", mode(R"({"mode": "alwaysOn"})"));
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), 266);
        EXPECT_EQ(ex.reason(), "noSuchFailPoint not found");
    }
}

TEST_F(FailPointTest, PauseWhileSetReturnsWhenTurnedOff) {
    failPointTestPoint.setMode(FailPoint::alwaysOn);
    std::atomic<bool> done{false};
    std::thread t([&] {
        failPointTestPoint.pauseWhileSet();
        done = true;
    });
    failPointTestPoint.waitForTimesEntered(1);
    EXPECT_FALSE(done.load());
    failPointTestPoint.setMode(FailPoint::off);
    t.join();
    EXPECT_TRUE(done.load());
}

}  // namespace
}  // namespace mongo
