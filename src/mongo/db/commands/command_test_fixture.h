#pragma once
// Test fixture for commands that do not touch storage: a Client and an OperationContext
// without a RecoveryUnit, and helpers to run a registered command by its request body.
#include <gtest/gtest.h>

#include "mongo/db/commands/command.h"

namespace mongo {

class CommandTest : public ::testing::Test {
protected:
    CommandTest() : client(7, "127.0.0.1:50007"), opCtx(&client, nullptr) {}

    // Runs the command named by body's first field; throws what the command throws.
    BSONObj run(const BSONObj& body, const char* db = "admin") { return runOn(&opCtx, body, db); }
    static BSONObj runOn(OperationContext* opCtx, const BSONObj& body, const char* db = "admin") {
        BSONObjBuilder withDb;
        withDb.appendElements(body);
        if (!body.hasField("$db")) withDb.append("$db", db);
        OpMsgRequest request;
        request.body = withDb.obj();
        Command* cmd = findCommand(request.commandName());
        if (!cmd) uasserted(ErrorCodes::CommandNotFound, "no such command: '" + request.commandName() + "'");
        BSONObjBuilder result;
        cmd->run(opCtx, request, result);
        return result.obj();
    }
    // The error code the command fails with (0 if it succeeds).
    int errorCode(const BSONObj& body, const char* db = "admin") {
        try {
            run(body, db);
            return 0;
        } catch (const DBException& ex) {
            lastError = ex.reason();
            return ex.code();
        }
    }

    Client client;
    OperationContext opCtx;
    std::string lastError;
};

}  // namespace mongo
