// Tests of the administrative and diagnostic commands that need no storage.
#include <thread>

#include "mongo/db/commands/command_test_fixture.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/commands/profile_settings.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/db/commands/sessions_cmds.h"
#include "mongo/rpc/op_msg_request.h"
#include "mongo/db/server_options.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class AdminCmdsTest : public CommandTest {};

TEST_F(AdminCmdsTest, PingAnswersNothingButOk) { EXPECT_TRUE(run(fromjson(R"({"ping": 1})")).isEmpty()); }

TEST_F(AdminCmdsTest, UnknownCommandsAreNotRegistered) {
    EXPECT_EQ(findCommand("atlasVersion"), nullptr);
    EXPECT_EQ(findCommand("configureFailPoint") == nullptr || testCommandsEnabled() ||
                  findCommand("configureFailPoint") != nullptr,
              true);
}

TEST_F(AdminCmdsTest, WhatsMyUri) { EXPECT_EQ(run(fromjson(R"({"whatsmyuri": 1})"))["you"].str(), "127.0.0.1:50007"); }

TEST_F(AdminCmdsTest, BuildInfo) {
    for (const char* name : {"buildInfo", "buildinfo"}) {
        BSONObjBuilder b;
        b.append(name, 1);
        BSONObj r = run(b.obj());
        EXPECT_EQ(r["version"].str().substr(0, 4), "7.0.");
        EXPECT_EQ(r["versionArray"].Obj().firstElement().numberInt(), 7);
        EXPECT_EQ(r["bits"].numberInt(), 64);
        EXPECT_EQ(r["maxBsonObjectSize"].numberInt(), 16777216);
        EXPECT_EQ(r["storageEngines"].Obj().firstElement().str(), "wiredTiger");
    }
}

TEST_F(AdminCmdsTest, ConnectionStatusHasNoUsers) {
    BSONObj r = run(fromjson(R"({"connectionStatus": 1, "showPrivileges": true})"));
    BSONObj auth = r["authInfo"].Obj();
    EXPECT_TRUE(auth["authenticatedUsers"].Obj().isEmpty());
    EXPECT_TRUE(auth["authenticatedUserRoles"].Obj().isEmpty());
    EXPECT_EQ(auth["authenticatedUserPrivileges"].type(), Array);
    EXPECT_FALSE(run(fromjson(R"({"connectionStatus": 1})"))["authInfo"].Obj().hasField("authenticatedUserPrivileges"));
}

TEST_F(AdminCmdsTest, GetParameterByName) {
    BSONObj r = run(fromjson(R"({"getParameter": 1, "cursorTimeoutMillis": 1, "notablescan": 1})"));
    EXPECT_EQ(r["cursorTimeoutMillis"].numberLong(), cursorTimeoutMillis());
    EXPECT_EQ(r["notablescan"].type(), Bool);
    EXPECT_EQ(r.nFields(), 2);
}

TEST_F(AdminCmdsTest, GetParameterFeatureCompatibilityVersion) {
    BSONObj r = run(fromjson(R"({"getParameter": 1, "featureCompatibilityVersion": 1})"));
    EXPECT_EQ(r["featureCompatibilityVersion"].Obj()["version"].str(), "7.0");
}

TEST_F(AdminCmdsTest, GetParameterStarReturnsAll) {
    BSONObj r = run(fromjson(R"({"getParameter": "*"})"));
    EXPECT_EQ(r.nFields(), static_cast<int>(ServerParameterSet::global().all().size()));
    EXPECT_TRUE(r.hasField("logLevel"));
    EXPECT_TRUE(r.hasField("enableTestCommands"));
}

TEST_F(AdminCmdsTest, GetParameterShowDetails) {
    BSONObj r = run(fromjson(R"({"getParameter": {"showDetails": true}, "logLevel": 1, "enableTestCommands": 1})"));
    BSONObj ll = r["logLevel"].Obj();
    EXPECT_TRUE(ll.hasField("value"));
    EXPECT_TRUE(ll["settableAtRuntime"].boolean());
    EXPECT_TRUE(ll["settableAtStartup"].boolean());
    EXPECT_FALSE(r["enableTestCommands"].Obj()["settableAtRuntime"].boolean());
    BSONObj all = run(fromjson(R"({"getParameter": {"showDetails": true, "allParameters": true}})"));
    EXPECT_EQ(all.nFields(), static_cast<int>(ServerParameterSet::global().all().size()));
}

TEST_F(AdminCmdsTest, GetParameterUnknownIsInvalidOptions) {
    EXPECT_EQ(errorCode(fromjson(R"({"getParameter": 1, "noSuchParameter": 1})")), 72);
    EXPECT_EQ(lastError, "no option found to get");
    EXPECT_EQ(errorCode(fromjson(R"({"getParameter": 1})")), 72);
}

TEST_F(AdminCmdsTest, SetParameterReturnsWasAndChangesValue) {
    BSONObj r = run(fromjson(R"({"setParameter": 1, "cursorTimeoutMillis": 5000})"));
    EXPECT_EQ(r["was"].numberLong(), 600000);
    EXPECT_EQ(cursorTimeoutMillis(), 5000);
    r = run(fromjson(R"({"setParameter": 1, "cursorTimeoutMillis": 600000, "comment": "x"})"));
    EXPECT_EQ(r["was"].numberLong(), 5000);
}

TEST_F(AdminCmdsTest, SetParameterLogLevelDrivesTheLogger) {
    run(fromjson(R"({"setParameter": 1, "logLevel": 2})"));
    EXPECT_EQ(logv2::verbosity(), 2);
    run(fromjson(R"({"setParameter": 1, "logLevel": 0})"));
    EXPECT_EQ(logv2::verbosity(), 0);
}

TEST_F(AdminCmdsTest, SetParameterErrors) {
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "noSuchParameter": 1})")), 72);
    EXPECT_EQ(lastError, "attempted to set unrecognized parameter [noSuchParameter], use help:true to see options ");
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "enableTestCommands": 1})")), 20);
    EXPECT_EQ(lastError, "not allowed to change [enableTestCommands] at runtime");
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1})")), 72);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "cursorTimeoutMillis": "x"})")), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "logLevel": -1})")), 2);
    // Nothing is changed when one of the parameters is bad.
    long long before = cursorTimeoutMillis();
    EXPECT_EQ(errorCode(fromjson(R"({"setParameter": 1, "cursorTimeoutMillis": 7, "bogus": 1})")), 72);
    EXPECT_EQ(cursorTimeoutMillis(), before);
}

TEST_F(AdminCmdsTest, SetFeatureCompatibilityVersionRequiresConfirm) {
    EXPECT_EQ(errorCode(fromjson(R"({"setFeatureCompatibilityVersion": "7.0"})")), 7369100);
    EXPECT_EQ(errorCode(fromjson(R"({"setFeatureCompatibilityVersion": "5.0", "confirm": true})")), 2);
    EXPECT_EQ(errorCode(fromjson(R"({"setFeatureCompatibilityVersion": "7.0", "confirm": true})")), 0);
    EXPECT_EQ(errorCode(fromjson(R"({"setFeatureCompatibilityVersion": "6.0", "confirm": true})")), 0);
    EXPECT_EQ(featureCompatibilityVersion(), "6.0");
    EXPECT_EQ(errorCode(fromjson(R"({"setFeatureCompatibilityVersion": "7.0", "confirm": true})")), 0);
    EXPECT_EQ(featureCompatibilityVersion(), "7.0");
}

TEST_F(AdminCmdsTest, GetDefaultRWConcernIsNotForStandalones) {
    serverGlobalParams().replSetName.clear();
    EXPECT_EQ(errorCode(fromjson(R"({"getDefaultRWConcern": 1})")), 51300);
    EXPECT_EQ(lastError, "'getDefaultRWConcern' is not supported on standalone nodes.");
    serverGlobalParams().replSetName = "rs0";
    BSONObj r = run(fromjson(R"({"getDefaultRWConcern": 1})"));
    serverGlobalParams().replSetName.clear();
    EXPECT_EQ(r["defaultReadConcern"].Obj()["level"].str(), "local");
    EXPECT_EQ(r["defaultWriteConcern"].Obj()["w"].str(), "majority");
}

TEST_F(AdminCmdsTest, GetCmdLineOpts) {
    auto sw = parseServerOptions({"mongod", "--port", "27999", "--dbpath", "/tmp/x"});
    ASSERT_TRUE(sw.isOK());
    ServerGlobalParams saved = serverGlobalParams();
    serverGlobalParams() = sw.getValue().params;
    BSONObj r = run(fromjson(R"({"getCmdLineOpts": 1})"));
    serverGlobalParams() = saved;
    EXPECT_EQ(r["argv"].Obj().nFields(), 5);
    EXPECT_EQ(r["parsed"].Obj()["net"].Obj()["port"].numberInt(), 27999);
    EXPECT_EQ(r["parsed"].Obj()["storage"].Obj()["dbPath"].str(), "/tmp/x");
}

TEST_F(AdminCmdsTest, GetLog) {
    BSONObj names = run(fromjson(R"({"getLog": "*"})"));
    EXPECT_EQ(names["names"].Obj().woCompare(fromjson(R"({"0": "global", "1": "startupWarnings"})"), false), 0);
    LOGV2(99999, Control, "a line for getLog");
    BSONObj global = run(fromjson(R"({"getLog": "global"})"));
    EXPECT_GE(global["totalLinesWritten"].numberLong(), 1);
    auto lines = global["log"].Obj();
    ASSERT_GE(lines.nFields(), 1);
    std::string last;
    for (auto e : lines) last = e.str();
    EXPECT_NE(last.find("a line for getLog"), std::string::npos);
    EXPECT_EQ(run(fromjson(R"({"getLog": "startupWarnings"})"))["log"].type(), Array);
    EXPECT_EQ(errorCode(fromjson(R"({"getLog": 1})")), 14);
    EXPECT_NE(errorCode(fromjson(R"({"getLog": "nope"})")), 0);
}

TEST_F(AdminCmdsTest, ListCommands) {
    BSONObj reply = run(fromjson(R"({"listCommands": 1})"));
    BSONObj cmds = reply["commands"].Obj();
    ASSERT_TRUE(cmds.hasField("hello"));
    BSONObj hello = cmds["hello"].Obj();
    EXPECT_FALSE(hello["requiresAuth"].boolean());
    EXPECT_FALSE(hello["adminOnly"].boolean());
    EXPECT_EQ(hello["apiVersions"].Obj().firstElement().str(), "1");
    EXPECT_TRUE(hello.hasField("help"));
    EXPECT_TRUE(cmds["getCmdLineOpts"].Obj()["adminOnly"].boolean());
    EXPECT_TRUE(cmds.hasField("isMaster"));
    EXPECT_TRUE(cmds.hasField("buildinfo"));
}

TEST_F(AdminCmdsTest, StartSessionReturnsAUuid) {
    BSONObj r = run(fromjson(R"({"startSession": 1})"));
    BSONElement id = r["id"].Obj()["id"];
    int len = 0, subtype = -1;
    id.binData(&len, &subtype);
    EXPECT_EQ(id.type(), BinData);
    EXPECT_EQ(subtype, 4);
    EXPECT_EQ(len, 16);
    EXPECT_EQ(r["timeoutMinutes"].numberInt(), 30);
    EXPECT_FALSE(run(fromjson(R"({"startSession": 1})"))["id"].Obj()["id"].binaryEqual(id));
}

TEST_F(AdminCmdsTest, SessionCommandsCallHooks) {
    std::vector<BSONObj> ended, killed;
    int killedAll = 0;
    SessionCommandHooks hooks;
    hooks.onEndSessions = [&](OperationContext*, const std::vector<BSONObj>& l) { ended = l; };
    hooks.onKillSessions = [&](OperationContext*, const std::vector<BSONObj>& l) { killed = l; };
    hooks.onKillAllSessions = [&](OperationContext*) { killedAll++; };
    setSessionCommandHooks(hooks);

    BSONObj lsid = makeLogicalSessionId();
    BSONObjBuilder end;
    BSONArrayBuilder& arr = end.subarrayStart("endSessions");
    arr.append(lsid);
    arr.doneFast();
    run(end.obj());
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_TRUE(ended[0]["id"].binaryEqual(lsid["id"]));

    BSONObjBuilder kill;
    BSONArrayBuilder& karr = kill.subarrayStart("killSessions");
    karr.append(lsid);
    karr.doneFast();
    run(kill.obj());
    EXPECT_EQ(killed.size(), 1u);

    run(fromjson(R"({"killAllSessions": []})"));
    run(fromjson(R"({"killAllSessionsByPattern": [{}]})"));
    run(fromjson(R"({"killAllSessions": [{"user": "u", "db": "admin"}]})"));
    EXPECT_EQ(killedAll, 2);
    run(fromjson(R"({"refreshSessions": []})"));
    setSessionCommandHooks({});
}

TEST_F(AdminCmdsTest, SessionCommandsValidateArguments) {
    EXPECT_EQ(errorCode(fromjson(R"({"endSessions": 1})")), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"endSessions": [{"id": "notauuid"}]})")), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"endSessions": [{}]})")), 40414);
    EXPECT_EQ(errorCode(fromjson(R"({"killAllSessionsByPattern": [{"bogus": 1}]})")), 40415);
    EXPECT_EQ(errorCode(fromjson(R"({"killAllSessions": [{"user": "u"}]})")), 40414);
}

TEST_F(AdminCmdsTest, ServerStatusBasics) {
    globalOpCounters().gotInsert(3);
    globalOpCounters().gotCommand();
    BSONObj r = run(fromjson(R"({"serverStatus": 1})"));
    EXPECT_EQ(r["process"].str(), "mongod");
    EXPECT_EQ(r["version"].str().substr(0, 4), "7.0.");
    EXPECT_EQ(r["pid"].type(), NumberLong);
    EXPECT_EQ(r["uptime"].type(), NumberDouble);
    EXPECT_EQ(r["uptimeMillis"].type(), NumberLong);
    EXPECT_EQ(r["uptimeEstimate"].type(), NumberLong);
    EXPECT_EQ(r["localTime"].type(), Date);
    EXPECT_TRUE(r["host"].ok());
    EXPECT_GE(r["opcounters"].Obj()["insert"].numberLong(), 3);
    EXPECT_EQ(r["opcounters"].Obj()["delete"].type(), NumberLong);
    EXPECT_TRUE(r["asserts"].Obj().hasField("user"));
    EXPECT_GT(r["mem"].Obj()["resident"].numberLong(), 0);
    EXPECT_EQ(r["storageEngine"].Obj()["name"].str(), "wiredTiger");
    EXPECT_TRUE(r["storageEngine"].Obj()["persistent"].boolean());
    BSONObj ping = r["metrics"].Obj()["commands"].Obj()["ping"].Obj();
    EXPECT_EQ(ping["total"].type(), NumberLong);
    EXPECT_EQ(ping["failed"].type(), NumberLong);
    EXPECT_FALSE(r["metrics"].Obj()["commands"].Obj().hasField("buildinfo"));  // aliases share buildInfo's
}

TEST_F(AdminCmdsTest, ServerStatusRegisteredSectionsAndExclusion) {
    registerServerStatusSection("testSection", [](OperationContext*) { return fromjson(R"({"x": 1})"); });
    registerServerStatusSection("testOptIn", [](OperationContext*) { return fromjson(R"({"y": 2})"); }, false);
    registerServerStatusMetric("testMetric", [](OperationContext*) { return fromjson(R"({"z": 3})"); });
    BSONObj r = run(fromjson(R"({"serverStatus": 1, "mem": 0})"));
    EXPECT_EQ(r["testSection"].Obj()["x"].numberInt(), 1);
    EXPECT_FALSE(r.hasField("testOptIn"));
    EXPECT_FALSE(r.hasField("mem"));
    EXPECT_EQ(r["metrics"].Obj()["testMetric"].Obj()["z"].numberInt(), 3);
    BSONObj withOptIn = run(fromjson(R"({"serverStatus": 1, "testOptIn": 1})"));
    EXPECT_EQ(withOptIn["testOptIn"].Obj()["y"].numberInt(), 2);
}

TEST_F(AdminCmdsTest, ServerStatusRegisteredSectionReplacesDefault) {
    registerServerStatusSection("opcounters", [](OperationContext*) { return fromjson(R"({"replaced": true})"); });
    EXPECT_TRUE(run(fromjson(R"({"serverStatus": 1})"))["opcounters"].Obj()["replaced"].boolean());
    registerServerStatusSection("opcounters", [](OperationContext*) { return globalOpCounters().toBSON(); });
}

TEST_F(AdminCmdsTest, HostInfo) {
    BSONObj r = run(fromjson(R"({"hostInfo": 1})"));
    EXPECT_GT(r["system"].Obj()["numCores"].numberInt(), 0);
    EXPECT_GT(r["system"].Obj()["memSizeMB"].numberLong(), 0);
    EXPECT_EQ(r["os"].Obj()["type"].str(), "Linux");
    EXPECT_TRUE(r["extra"].Obj().hasField("pageSize"));
}

TEST_F(AdminCmdsTest, ProfileReadsAndSets) {
    BSONObj r = run(fromjson(R"({"profile": -1})"), "profdb");
    EXPECT_EQ(r["was"].numberInt(), 0);
    EXPECT_EQ(r["slowms"].numberInt(), 100);
    EXPECT_DOUBLE_EQ(r["sampleRate"].numberDouble(), 1.0);
    run(fromjson(R"({"profile": 2, "slowms": 20})"), "profdb");
    EXPECT_EQ(profileLevel("profdb"), 2);
    EXPECT_EQ(profileLevel("otherdb"), 0);
    EXPECT_EQ(slowOpThresholdMs(), 20);
    r = run(fromjson(R"({"profile": 0, "slowms": 100})"), "profdb");
    EXPECT_EQ(r["was"].numberInt(), 2);
    EXPECT_EQ(r["slowms"].numberInt(), 20);
    EXPECT_EQ(errorCode(fromjson(R"({"profile": 5})"), "profdb"), 2);
    EXPECT_EQ(errorCode(fromjson(R"({"profile": 1, "sampleRate": 2})"), "profdb"), 2);
    EXPECT_EQ(errorCode(fromjson(R"({"profile": 1, "filter": {"$bogus": 1}})"), "profdb"), 2);
    EXPECT_EQ(profileLevel("profdb"), 0);  // failed commands changed nothing
}

TEST_F(AdminCmdsTest, CurrentOpListsItselfAndRegisteredOps) {
    Client other(9, "10.0.0.9:4000");
    OperationContext otherOp(&other, nullptr);
    ScopedCurrentOp scoped(&otherOp, fromjson(R"({"find": "coll", "filter": {}})"), "test.coll", "query");
    BSONObj r = run(fromjson(R"({"currentOp": 1})"));
    int found = 0;
    for (auto e : r["inprog"].Obj()) {
        BSONObj op = e.Obj();
        if (op["opid"].numberLong() == otherOp.opId()) {
            found++;
            EXPECT_EQ(op["ns"].str(), "test.coll");
            EXPECT_EQ(op["op"].str(), "query");
            EXPECT_EQ(op["desc"].str(), "conn9");
            EXPECT_TRUE(op["active"].boolean());
        }
        if (op["opid"].numberLong() == opCtx.opId()) found++;
    }
    EXPECT_EQ(found, 2);
    BSONObj filtered = run(fromjson(R"({"currentOp": 1, "ns": "test.coll"})"));
    EXPECT_EQ(filtered["inprog"].Obj().nFields(), 1);
}

TEST_F(AdminCmdsTest, CurrentOpDescribesCommandsAsMongoDB) {
    auto describe = [](const char* json) {
        OpMsgRequest req;
        req.body = fromjson(json);
        return CurrentOpRegistry::describeCommand(req.commandName(), req);
    };
    using P = std::pair<std::string, std::string>;
    EXPECT_EQ(describe(R"({"find": "c", "$db": "d"})"), P("query", "d.c"));
    EXPECT_EQ(describe(R"({"getMore": 5, "collection": "c", "$db": "d"})"), P("getmore", "d.c"));
    EXPECT_EQ(describe(R"({"insert": "c", "$db": "d"})"), P("insert", "d.c"));
    EXPECT_EQ(describe(R"({"update": "c", "$db": "d"})"), P("update", "d.c"));
    EXPECT_EQ(describe(R"({"delete": "c", "$db": "d"})"), P("remove", "d.c"));
    EXPECT_EQ(describe(R"({"aggregate": 1, "$db": "admin"})"), P("command", "admin.$cmd.aggregate"));
    EXPECT_EQ(describe(R"({"aggregate": "c", "$db": "d"})"), P("command", "d.c"));
    EXPECT_EQ(describe(R"({"ping": 1, "$db": "admin"})"), P("command", "admin.$cmd"));
}

TEST_F(AdminCmdsTest, CurrentOpReportsPlanAndLockWait) {
    Client other(9, "10.0.0.9:4000");
    OperationContext otherOp(&other, nullptr);
    otherOp.lsid = makeLogicalSessionId();
    ScopedCurrentOp scoped(&otherOp, fromjson(R"({"find": "coll"})"), "test.coll", "query");
    otherOp.setPlanSummary("IXSCAN { a: 1 }");
    otherOp.setWaitingForLock(true);
    bool seen = false;
    for (const BSONObj& op : CurrentOpRegistry::get().report()) {
        if (op["opid"].numberLong() != otherOp.opId()) continue;
        seen = true;
        EXPECT_EQ(op["planSummary"].str(), "IXSCAN { a: 1 }");
        EXPECT_TRUE(op["waitingForLock"].boolean());
        EXPECT_TRUE(op["lsid"].Obj()["id"].binaryEqual(otherOp.lsid["id"]));
        int len = 0, subtype = -1;
        op["lsid"].Obj()["uid"].binData(&len, &subtype);
        EXPECT_EQ(len, 32);
    }
    EXPECT_TRUE(seen);
}

TEST_F(AdminCmdsTest, KillOpInterruptsTheOperation) {
    Client other(9, "10.0.0.9:4000");
    OperationContext otherOp(&other, nullptr);
    ScopedCurrentOp scoped(&otherOp, fromjson(R"({"find": "coll"})"), "test.coll");
    BSONObjBuilder b;
    b.append("killOp", 1);
    b.appendLong("op", otherOp.opId());
    EXPECT_EQ(run(b.obj())["info"].str(), "attempting to kill op");
    try {
        otherOp.checkForInterrupt();
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), static_cast<int>(ErrorCodes::Interrupted));
    }
    // MongoDB 7.0's argument checks (bsonExtractIntegerField, then 32-bit operation ids).
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1})")), static_cast<int>(ErrorCodes::NoSuchKey));
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": "x"})")), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": 1.1})")), static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": 2147483648})")), 26823);
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": -2147483649})")), 26823);
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": 123456789})")), 0);
    EXPECT_EQ(errorCode(fromjson(R"({"killOp": 1, "op": 2.0})")), 0);
}

TEST_F(AdminCmdsTest, LogRotateWithoutLogFileSucceeds) {
    serverGlobalParams().logPath.clear();
    EXPECT_EQ(errorCode(fromjson(R"({"logRotate": 1})")), 0);
    EXPECT_EQ(errorCode(fromjson(R"({"logRotate": "bogus"})")), static_cast<int>(ErrorCodes::NoSuchKey));
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST_F(AdminCmdsTest, OpCountersAccounting) {
    OpCounters& c = globalOpCounters();
    long long q = c.query, g = c.getmore, cmd = c.command, ins = c.insert;
    noteCommandForOpCounters("find");
    noteCommandForOpCounters("getMore");
    noteCommandForOpCounters("aggregate");
    noteCommandForOpCounters("insert");
    EXPECT_EQ(c.query, q + 1);
    EXPECT_EQ(c.getmore, g + 1);
    EXPECT_EQ(c.command, cmd + 1);
    EXPECT_EQ(c.insert, ins);  // counted per document by the insert path
}

}  // namespace
}  // namespace mongo
