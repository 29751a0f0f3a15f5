#include "mongo/db/commands/fail_command.h"

#include <chrono>

#include "mongo/db/commands/command_test_fixture.h"
#include "mongo/db/commands/test_commands.h"

namespace mongo {
namespace {

using Clock = std::chrono::steady_clock;

class FailCommandTest : public CommandTest {
protected:
    void TearDown() override { failCommand.setMode(FailPoint::off); }
    void configure(const char* modeAndData) {
        auto opts = FailPoint::parseBSON(fromjson(modeAndData));
        ASSERT_TRUE(opts.isOK()) << opts.getStatus().toString();
        failCommand.setMode(opts.getValue());
    }
};

TEST_F(FailCommandTest, InactiveFailPointLetsCommandsRun) {
    EXPECT_FALSE(checkFailCommand(&opCtx, "insert", "test.c"));
    EXPECT_FALSE(failCommandWriteConcernError(&opCtx, "insert", "test.c"));
}

TEST_F(FailCommandTest, ErrorCodeReplyForListedCommand) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["insert"], "errorCode": 91}})");
    auto outcome = checkFailCommand(&opCtx, "insert", "test.c");
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->closeConnection);
    EXPECT_FALSE(outcome->errorLabelsOverridden);
    EXPECT_EQ(outcome->reply["ok"].numberDouble(), 0.0);
    EXPECT_EQ(outcome->reply["code"].numberInt(), 91);
    EXPECT_EQ(outcome->reply["codeName"].str(), "ShutdownInProgress");
    EXPECT_EQ(outcome->reply["errmsg"].str(), "Failing command via 'failCommand' failpoint");
    EXPECT_FALSE(outcome->reply.hasField("errorLabels"));
}

TEST_F(FailCommandTest, ErrorCodeThatIsNoErrorCodeFailsWithInvalidOptions) {
    // 0 would read as success and 2^40 used to be truncated to 0; a string was silently ignored.
    for (const char* code : {"0", "-5", "1099511627776", "1.5", "\"x\"", "null"}) {
        configure((std::string(R"({"mode": "alwaysOn", "data": {"failCommands": ["find"], "errorCode": )") + code +
                   "}}").c_str());
        try {
            checkFailCommand(&opCtx, "find", "test.c");
            ADD_FAILURE() << "errorCode " << code << " was accepted";
        } catch (const DBException& e) {
            EXPECT_EQ(e.code(), static_cast<int>(ErrorCodes::InvalidOptions)) << code;
        }
        EXPECT_FALSE(checkFailCommand(&opCtx, "insert", "test.c")) << code;
    }
}

TEST_F(FailCommandTest, TimesCountsOnlyMatchingCommands) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["insert"], "errorCode": 91}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "find", "test.c"));
    EXPECT_TRUE(checkFailCommand(&opCtx, "insert", "test.c"));
    EXPECT_FALSE(checkFailCommand(&opCtx, "insert", "test.c"));
}

TEST_F(FailCommandTest, CloseConnection) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["find"], "closeConnection": true}})");
    auto outcome = checkFailCommand(&opCtx, "find", "test.c");
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->closeConnection);
}

TEST_F(FailCommandTest, ErrorLabelsOverride) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["insert"], "errorCode": 112,
                  "errorLabels": ["TransientTransactionError"]}})");
    auto outcome = checkFailCommand(&opCtx, "insert", "");
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->errorLabelsOverridden);
    EXPECT_EQ(outcome->reply["errorLabels"].Obj().firstElement().str(), "TransientTransactionError");
    EXPECT_EQ(outcome->reply["codeName"].str(), "WriteConflict");
}

TEST_F(FailCommandTest, EmptyErrorLabelsOverrideWithNone) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["insert"], "errorCode": 91, "errorLabels": []}})");
    auto outcome = checkFailCommand(&opCtx, "insert", "");
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->errorLabelsOverridden);
    EXPECT_FALSE(outcome->reply.hasField("errorLabels"));
}

TEST_F(FailCommandTest, AppNameMustMatch) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["find"], "errorCode": 2, "appName": "myApp"}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "find", ""));
    client.metadata = fromjson(R"({"application": {"name": "myApp"}})");
    EXPECT_TRUE(checkFailCommand(&opCtx, "find", ""));
    client.metadata = fromjson(R"({"application": {"name": "other"}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "find", ""));
}

TEST_F(FailCommandTest, NamespaceMustMatch) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["find"], "errorCode": 2, "namespace": "db.a"}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "find", "db.b"));
    EXPECT_TRUE(checkFailCommand(&opCtx, "find", "db.a"));
}

TEST_F(FailCommandTest, AliasesOfTheSameCommandMatch) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["isMaster"], "errorCode": 2}})");
    EXPECT_TRUE(checkFailCommand(&opCtx, "ismaster", ""));
    EXPECT_TRUE(checkFailCommand(&opCtx, "isMaster", ""));
    EXPECT_FALSE(checkFailCommand(&opCtx, "hello", ""));
}

TEST_F(FailCommandTest, ConfigureFailPointIsNeverFailed) {
    configure(R"({"mode": "alwaysOn", "data": {"failAllCommands": true, "errorCode": 2}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "configureFailPoint", ""));
    EXPECT_TRUE(checkFailCommand(&opCtx, "ping", ""));
}

TEST_F(FailCommandTest, ThreadNameMustMatch) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["ping"], "errorCode": 2, "threadName": "conn8"}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "ping", ""));
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["ping"], "errorCode": 2, "threadName": "conn7"}})");
    EXPECT_TRUE(checkFailCommand(&opCtx, "ping", ""));
}

TEST_F(FailCommandTest, DataWithoutAnActionDoesNotFire) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["ping"]}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "ping", ""));
    EXPECT_TRUE(failCommand.isActive());
}

TEST_F(FailCommandTest, BlockConnectionDelaysThenRuns) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["ping"], "blockConnection": true, "blockTimeMS": 150}})");
    auto start = Clock::now();
    EXPECT_FALSE(checkFailCommand(&opCtx, "ping", ""));
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(145));
}

TEST_F(FailCommandTest, BlockConnectionThenError) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["ping"], "blockConnection": true, "blockTimeMS": 50,
                  "errorCode": 91}})");
    auto start = Clock::now();
    auto outcome = checkFailCommand(&opCtx, "ping", "");
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(45));
    ASSERT_TRUE(outcome);
    EXPECT_EQ(outcome->reply["code"].numberInt(), 91);
}

TEST_F(FailCommandTest, BlockConnectionWithoutBlockTimeMSIsInvalidOptions) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["ping"], "blockConnection": true}})");
    try {
        checkFailCommand(&opCtx, "ping", "");
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), static_cast<int>(ErrorCodes::InvalidOptions));
    }
}

TEST_F(FailCommandTest, BlockIsInterruptedByMaxTimeMS) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["ping"], "blockConnection": true, "blockTimeMS": 5000}})");
    opCtx.setDeadlineAfterMillis(50);
    auto start = Clock::now();
    try {
        checkFailCommand(&opCtx, "ping", "");
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), static_cast<int>(ErrorCodes::MaxTimeMSExpired));
    }
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2000));
}

TEST_F(FailCommandTest, WriteConcernError) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["insert"],
                  "writeConcernError": {"code": 64, "errmsg": "waiting for replication timed out"},
                  "errorLabels": ["RetryableWriteError"]}})");
    EXPECT_FALSE(checkFailCommand(&opCtx, "insert", ""));  // no errorCode: the command runs
    EXPECT_FALSE(failCommandWriteConcernError(&opCtx, "find", ""));
    auto wce = failCommandWriteConcernError(&opCtx, "insert", "");
    ASSERT_TRUE(wce);
    EXPECT_EQ((*wce)["writeConcernError"].Obj()["code"].numberInt(), 64);
    EXPECT_EQ((*wce)["errorLabels"].Obj().firstElement().str(), "RetryableWriteError");
    EXPECT_FALSE(failCommandWriteConcernError(&opCtx, "insert", ""));
}

TEST_F(FailCommandTest, ConfigureFailPointCommandSetsFailCommand) {
    registerTestCommandsForTesting();
    BSONObj r = run(fromjson(R"({"configureFailPoint": "failCommand", "mode": {"times": 2},
                                 "data": {"failCommands": ["find"], "errorCode": 50}})"));
    EXPECT_TRUE(r.hasField("count"));
    EXPECT_TRUE(checkFailCommand(&opCtx, "find", ""));
    run(fromjson(R"({"configureFailPoint": "failCommand", "mode": "off"})"));
    EXPECT_FALSE(checkFailCommand(&opCtx, "find", ""));
    EXPECT_EQ(errorCode(fromjson(R"({"configureFailPoint": "noSuchPoint", "mode": "off"})")), 266);
    EXPECT_EQ(errorCode(fromjson(R"({"configureFailPoint": "failCommand", "mode": "sometimes"})")), 2);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST_F(FailCommandTest, ClientOnlyOverloadReturnsTheReply) {
    configure(R"({"mode": {"times": 1}, "data": {"failCommands": ["find"], "errorCode": 11600}})");
    EXPECT_FALSE(checkFailCommand("insert", &client));
    auto reply = checkFailCommand("find", &client);
    ASSERT_TRUE(reply);
    EXPECT_EQ((*reply)["code"].numberInt(), 11600);
    EXPECT_EQ((*reply)["codeName"].str(), "InterruptedAtShutdown");
    EXPECT_FALSE(checkFailCommand("find", &client));
}

TEST_F(FailCommandTest, ClientOnlyOverloadSignalsCloseWith50985) {
    configure(R"({"mode": "alwaysOn", "data": {"failCommands": ["find"], "closeConnection": true}})");
    auto reply = checkFailCommand("find", &client);
    ASSERT_TRUE(reply);
    EXPECT_EQ((*reply)["code"].numberInt(), 50985);
}

}  // namespace
}  // namespace mongo
