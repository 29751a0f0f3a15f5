// Access control without a server: every registered command declares its privileges,
// built-in roles grant what the manual says, resource patterns match as MongoDB's do,
// messages never show a password, and key files are checked as mongod checks them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/builtin_roles.h"
#include "mongo/db/auth/command_authorization.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/test_commands.h"

namespace mongo::auth {
namespace {

using A = ActionType;
using R = ResourcePattern;

// The shell's relaxed notation ({find: 'c'}) as strict JSON for fromjson.
BSONObj js(std::string s) {
    for (auto& c : s)
        if (c == '\'') c = '"';
    static const std::regex bareKey(R"(([{,]\s*)([A-Za-z_$][A-Za-z0-9_$]*)\s*:)");
    return fromjson(std::regex_replace(s, bareKey, "$1\"$2\":"));
}

OpMsgRequest request(const std::string& json) {
    OpMsgRequest r;
    r.body = js(json);
    return r;
}

TEST(CommandPrivileges, EveryRegisteredCommandDeclaresWhatItNeeds) {
    registerTestCommandsForTesting();
    ASSERT_FALSE(allCommands().empty());
    for (auto& [name, cmd] : allCommands()) {
        for (const char* shape : {"{\"%s\": \"c\", \"$db\": \"test\"}", "{\"%s\": 1, \"$db\": \"admin\"}"}) {
            char buf[256];
            snprintf(buf, sizeof buf, shape, name.c_str());
            RequiredPrivileges rp = cmd->requiredPrivileges(request(buf));
            EXPECT_TRUE(rp.isDeclared()) << name << " declares no privileges for " << buf;
        }
    }
}

TEST(CommandPrivileges, CommandsAnyoneMayRunAreMongoDBs) {
    for (const char* name : {"hello", "isMaster", "ismaster", "ping", "buildInfo", "saslStart", "saslContinue", "logout",
                             "connectionStatus", "listCommands", "whatsmyuri"}) {
        Command* c = findCommand(name);
        ASSERT_TRUE(c) << name;
        EXPECT_FALSE(c->requiredPrivileges(request(std::string("{\"") + name + "\": 1, \"$db\": \"admin\"}"))
                         .requiresAuthentication())
            << name;
    }
    for (const char* name : {"find", "insert", "serverStatus", "createUser", "listDatabases", "getCmdLineOpts"})
        EXPECT_TRUE(findCommand(name)->requiredPrivileges(request(std::string("{\"") + name + "\": 1, \"$db\": \"admin\"}"))
                        .requiresAuthentication())
            << name;
}

TEST(CommandPrivileges, ArgumentsChangeWhatIsNeeded) {
    auto privs = [](const std::string& json) {
        OpMsgRequest r = request(json);
        return findCommand(r.commandName())->requiredPrivileges(r).privileges();
    };
    PrivilegeVector readWriteTest = *builtinRolePrivileges("readWrite", "test");
    PrivilegeVector readTest = *builtinRolePrivileges("read", "test");
    EXPECT_TRUE(privilegesCover(readTest, privs("{find: 'c', $db: 'test'}")));
    EXPECT_FALSE(privilegesCover(readTest, privs("{insert: 'c', $db: 'test'}")));
    EXPECT_TRUE(privilegesCover(readWriteTest, privs("{update: 'c', updates: [{q: {}, u: {}, upsert: true}], $db: 'test'}")));
    EXPECT_FALSE(privilegesCover(readWriteTest, privs("{insert: 'c', bypassDocumentValidation: true, $db: 'test'}")));
    // An aggregate that writes with $out, or reads another database with $lookup.
    EXPECT_TRUE(privilegesCover(readTest, privs("{aggregate: 'c', pipeline: [{$match: {}}], cursor: {}, $db: 'test'}")));
    EXPECT_FALSE(privilegesCover(readTest, privs("{aggregate: 'c', pipeline: [{$out: 'o'}], cursor: {}, $db: 'test'}")));
    EXPECT_TRUE(privilegesCover(readWriteTest, privs("{aggregate: 'c', pipeline: [{$out: 'o'}], cursor: {}, $db: 'test'}")));
    EXPECT_FALSE(privilegesCover(
        readTest, privs("{aggregate: 'c', pipeline: [{$lookup: {from: {db: 'other', coll: 'x'}, as: 'a', pipeline: []}}], "
                        "cursor: {}, $db: 'test'}")));
    // explain needs what the explained command needs.
    EXPECT_TRUE(privilegesCover(readTest, privs("{explain: {find: 'c'}, $db: 'test'}")));
    EXPECT_FALSE(privilegesCover(readTest, privs("{explain: {delete: 'c', deletes: []}, $db: 'test'}")));
    // renameCollection across databases reads and drops the source, writes the target.
    EXPECT_FALSE(privilegesCover(readWriteTest, privs("{renameCollection: 'test.a', to: 'other.b', $db: 'admin'}")));
    EXPECT_TRUE(privilegesCover(readWriteTest, privs("{renameCollection: 'test.a', to: 'test.b', $db: 'admin'}")));
}

TEST(ResourcePatterns, MatchAsMongoDBs) {
    EXPECT_TRUE(R::database("test").covers(R::exact("test", "c")));
    EXPECT_TRUE(R::database("test").covers(R::database("test")));
    EXPECT_FALSE(R::database("test").covers(R::exact("test", "system.users")));
    EXPECT_FALSE(R::database("test").covers(R::exact("other", "c")));
    EXPECT_TRUE(R::anyNormal().covers(R::exact("x", "c")));
    EXPECT_FALSE(R::anyNormal().covers(R::exact("x", "system.js")));
    EXPECT_FALSE(R::anyNormal().covers(R::cluster()));
    EXPECT_TRUE(R::collectionInAnyDb("system.js").covers(R::exact("x", "system.js")));
    EXPECT_TRUE(R::anyResource().covers(R::cluster()));
    EXPECT_TRUE(R::anyResource().covers(R::exact("admin", "system.users")));
    EXPECT_TRUE(R::cluster().covers(R::cluster()));
    for (const char* json : {"{cluster: true}", "{anyResource: true}", "{db: 'a', collection: 'b'}", "{db: 'a', collection: ''}",
                             "{db: '', collection: 'b'}", "{db: '', collection: ''}"}) {
        BSONObj o = js(std::string("{r: ") + json + "}");
        auto p = R::fromBSON(o["r"]);
        ASSERT_TRUE(p.isOK()) << json;
        EXPECT_TRUE(p.getValue().toBSON().woCompare(o["r"].Obj()) == 0) << json;
    }
    for (const char* json : {"{cluster: false}", "{db: 'a'}", "{db: 1, collection: 'b'}", "{cluster: true, db: 'a'}"}) {
        BSONObj o = js(std::string("{r: ") + json + "}");
        EXPECT_FALSE(R::fromBSON(o["r"]).isOK()) << json;
    }
    auto p = Privilege::fromBSON(js("{p: {resource: {db: 'a', collection: ''}, actions: ['fly']}}")["p"]);
    EXPECT_EQ(p.getStatus().reason(), "Unrecognized action privilege string: fly");
}

TEST(BuiltinRoles, GrantWhatTheManualSays) {
    auto has = [](const char* role, const char* roleDb, const R& res, ActionSet acts) {
        return privilegesCover(*builtinRolePrivileges(role, roleDb), {{res, acts}});
    };
    EXPECT_TRUE(has("read", "test", R::exact("test", "c"), {A::find, A::listIndexes, A::collStats}));
    EXPECT_TRUE(has("read", "test", R::exact("test", "system.js"), {A::find}));
    EXPECT_FALSE(has("read", "test", R::exact("test", "c"), {A::insert}));
    EXPECT_FALSE(has("read", "test", R::exact("other", "c"), {A::find}));
    EXPECT_TRUE(has("readWrite", "test", R::exact("test", "c"), {A::insert, A::update, A::remove, A::dropCollection}));
    EXPECT_FALSE(has("readWrite", "test", R::database("test"), {A::dropDatabase}));
    EXPECT_TRUE(has("dbAdmin", "test", R::database("test"), {A::dropDatabase, A::collMod, A::enableProfiler}));
    EXPECT_FALSE(has("dbAdmin", "test", R::exact("test", "c"), {A::find}));
    EXPECT_TRUE(has("userAdmin", "test", R::database("test"), {A::createUser, A::grantRole, A::viewRole}));
    EXPECT_TRUE(has("dbOwner", "test", R::database("test"), {A::createUser, A::dropDatabase, A::insert}));
    EXPECT_TRUE(has("readAnyDatabase", "admin", R::exact("x", "c"), {A::find}));
    EXPECT_TRUE(has("readAnyDatabase", "admin", R::cluster(), {A::listDatabases}));
    EXPECT_FALSE(has("readAnyDatabase", "admin", R::exact("x", "c"), {A::insert}));
    EXPECT_TRUE(has("readWriteAnyDatabase", "admin", R::exact("x", "c"), {A::insert}));
    EXPECT_TRUE(has("userAdminAnyDatabase", "admin", R::database("x"), {A::createUser}));
    EXPECT_TRUE(has("dbAdminAnyDatabase", "admin", R::database("x"), {A::dropDatabase}));
    EXPECT_TRUE(has("clusterMonitor", "admin", R::cluster(), {A::serverStatus, A::getCmdLineOpts, A::inprog}));
    EXPECT_FALSE(has("clusterMonitor", "admin", R::cluster(), {A::shutdown}));
    EXPECT_TRUE(has("hostManager", "admin", R::cluster(), {A::shutdown, A::killop, A::setParameter}));
    EXPECT_TRUE(has("clusterManager", "admin", R::cluster(), {A::replSetConfigure}));
    EXPECT_TRUE(has("clusterAdmin", "admin", R::cluster(), {A::shutdown, A::serverStatus, A::replSetConfigure}));
    EXPECT_TRUE(has("backup", "admin", R::exact("admin", "system.users"), {A::find}));
    EXPECT_TRUE(has("restore", "admin", R::exact("admin", "system.users"), {A::insert}));
    EXPECT_TRUE(has("root", "admin", R::exact("x", "c"), {A::find, A::insert, A::validate}));
    EXPECT_TRUE(has("root", "admin", R::cluster(), {A::shutdown, A::serverStatus}));
    EXPECT_TRUE(has("__system", "admin", R::exact("local", "oplog.rs"), {A::internal, A::find}));
    // Cluster-wide roles exist only in admin.
    EXPECT_FALSE(isBuiltinRole("root", "test"));
    EXPECT_TRUE(isBuiltinRole("read", "anydb"));
    EXPECT_EQ(builtinRoleNames("test").size(), 5u);
}

TEST(CommandMessages, ShellNotationWithoutPasswords) {
    EXPECT_EQ(commandForMessage(js("{find: 'c', filter: {}, limit: 1.0, $db: 'test'}")),
              "{ find: \"c\", filter: {}, limit: 1.0, $db: \"test\" }");
    std::string m = commandForMessage(js("{createUser: 'u', pwd: 'secret', roles: ['read'], $db: 'a'}"));
    EXPECT_EQ(m.find("secret"), std::string::npos) << m;
    EXPECT_NE(m.find("pwd: \"xxx\""), std::string::npos) << m;
    BSONObj r = redactedForDiagnostics(js("{createUser: 'u', pwd: 'secret', roles: []}"));
    EXPECT_EQ(r["pwd"].str(), "xxx");
    EXPECT_EQ(r["createUser"].str(), "u");
    EXPECT_TRUE(isLocalhostAddress("127.0.0.1:5000"));
    EXPECT_TRUE(isLocalhostAddress("[::1]:5000"));
    EXPECT_FALSE(isLocalhostAddress("10.0.0.1:5000"));
}

std::string writeKeyFile(const std::string& content, mode_t mode) {
    char path[] = "/tmp/auth_keyfile_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    close(fd);
    chmod(path, mode);
    return path;
}

TEST(KeyFile, ChecksAsMongod) {
    std::string good = writeKeyFile("abc123+/=\n  def456\n", 0600);
    auto k = readKeyFile(good);
    ASSERT_TRUE(k.isOK()) << k.getStatus().reason();
    EXPECT_EQ(k.getValue(), "abc123+/=def456");
    std::string open = writeKeyFile("abcdefgh", 0644);
    EXPECT_EQ(readKeyFile(open).getStatus().reason(), "permissions on " + open + " are too open");
    std::string badChar = writeKeyFile("abc-defgh", 0400);
    EXPECT_NE(readKeyFile(badChar).getStatus().reason().find("invalid char in key file"), std::string::npos);
    std::string tooShort = writeKeyFile("abc", 0400);
    EXPECT_NE(readKeyFile(tooShort).getStatus().reason().find("must be between 6 and 1024 chars"), std::string::npos);
    std::string tooLong = writeKeyFile(std::string(1025, 'a'), 0400);
    EXPECT_FALSE(readKeyFile(tooLong).isOK());
    EXPECT_FALSE(readKeyFile("/nonexistent/key").isOK());
    for (auto& p : {good, open, badChar, tooShort, tooLong}) unlink(p.c_str());
}

TEST(KeyFile, InternalCredentialsForMembers) {
    setAuthorizationForTest(true, "abcdef123456");
    auto c = internalAuthCredentials();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->user, "__system");
    EXPECT_EQ(c->source, "local");
    EXPECT_EQ(c->uriCredentials(), "__system:abcdef123456@");
    EXPECT_EQ(c->uriOptions(), "authSource=local&authMechanism=SCRAM-SHA-256");
    ASSERT_TRUE(internalUserCredential(HashAlgo::kSha256));
    setAuthorizationForTest(false);
    EXPECT_FALSE(internalAuthCredentials());
}

}  // namespace
}  // namespace mongo::auth
