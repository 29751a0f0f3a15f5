// The table of accepted fields: every registered command has an entry, and check() refuses
// unknown and duplicated fields with MongoDB's codes and messages.
#include <gtest/gtest.h>

#include "mongo/base/code_of_test_util.h"

#include <set>

#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/commands/test_commands.h"

namespace mongo {
namespace {

TEST(CommandArgsTest, EveryRegisteredCommandIsDeclared) {
    registerTestCommandsForTesting();  // configureFailPoint & co. exist only when enabled
    std::set<std::string> registered;
    for (const auto& [name, cmd] : allCommands()) {
        registered.insert(cmd->name());
        EXPECT_NE(findCommandArgs(cmd->name()), nullptr) << cmd->name() << " has no entry in command_args.cpp";
    }
    // And the table names no command that does not exist.
    for (const std::string& name : commandArgsTableNames())
        EXPECT_TRUE(registered.count(name)) << name << " is in the table but not registered";
}

TEST(CommandArgsTest, StrictRefusesUnknownFieldsWithTheStructName) {
    std::string msg;
    EXPECT_EQ(codeOf([&] { findCommandArgs("find")->check(fromjson(R"({"find": "c", "foo": 1})")); }, &msg), 40415);
    EXPECT_EQ(msg, "BSON field 'FindCommandRequest.foo' is an unknown field.");
    EXPECT_EQ(codeOf([&] { findCommandArgs("insert")->check(fromjson(R"({"insert": "c", "maxScan": 1})")); }, &msg),
              40415);
    EXPECT_EQ(msg, "BSON field 'insert.maxScan' is an unknown field.");
}

TEST(CommandArgsTest, GenericArgumentsPassEverywhere) {
    BSONObj body = fromjson(R"({"find": "c", "filter": {}, "$db": "x", "lsid": {}, "comment": 1, "maxTimeMS": 5,
                               "readConcern": {}, "writeConcern": {}, "apiVersion": "1", "$readPreference": {}})");
    EXPECT_EQ(codeOf([&] { findCommandArgs("find")->check(body); }), 0);
    EXPECT_TRUE(isGenericArgument("stmtId"));
    EXPECT_FALSE(isGenericArgument("readPreference"));  // only $readPreference
}

TEST(CommandArgsTest, DuplicateDeclaredFieldIs40413) {
    BSONObjBuilder b;
    b.append("count", "c");
    b.append("query", BSONObj());
    b.append("query", BSONObj());
    std::string msg;
    EXPECT_EQ(codeOf([&] { findCommandArgs("count")->check(b.obj()); }, &msg), 40413);
    EXPECT_EQ(msg, "BSON field 'count.query' is a duplicate field.");
}

TEST(CommandArgsTest, LenientCommandsReadWhatTheyKnow) {
    EXPECT_FALSE(findCommandArgs("serverStatus")->isStrict());
    EXPECT_EQ(codeOf([&] { findCommandArgs("hello")->check(fromjson(R"({"hello": 1, "newerField": 1})")); }), 0);
}

TEST(CommandArgsTest, StatementFieldsUseTheElementPath) {
    std::string msg;
    EXPECT_EQ(codeOf([&] { checkStrictFields(fromjson(R"({"q": {}, "sort": {}})"), "update.updates", {"q", "u"}); },
                     &msg),
              40415);
    EXPECT_EQ(msg, "BSON field 'update.updates.sort' is an unknown field.");
    // Generic arguments are not statement fields.
    EXPECT_EQ(codeOf([&] { checkStrictFields(fromjson(R"({"q": {}, "comment": 1})"), "delete.deletes", {"q"}); }), 40415);
}

}  // namespace
}  // namespace mongo
