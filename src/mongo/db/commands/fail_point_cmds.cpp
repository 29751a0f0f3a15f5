// Test-only commands for fail points (registered only with enableTestCommands=1):
//   configureFailPoint: {configureFailPoint: <name>, mode: ..., data: {...}} -> {count: <times
//   entered before>}
//   waitForFailPoint: {waitForFailPoint: <name>, timesEntered: n, maxTimeMS: ms}
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/test_commands.h"
#include "mongo/util/fail_point.h"

namespace mongo {

namespace {

std::string failPointName(const BSONObj& cmd, const std::string& cmdName) {
    BSONElement e = cmd.firstElement();
    uassert(ErrorCodes::TypeMismatch,
            "BSON field '" + cmdName + "." + cmdName + "' is the wrong type '" + typeName(e.type()) +
                "', expected type 'string'",
            e.type() == String);
    return e.str();
}

class ConfigureFailPointCmd : public Command {
public:
    ConfigureFailPointCmd() : Command("configureFailPoint") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "modifies the settings of a fail point"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        const std::string name = failPointName(request.body, "configureFailPoint");
        result.appendNumber("count", setGlobalFailPoint(name, request.body));
    }
};
MONGO_REGISTER_TEST_COMMAND(ConfigureFailPointCmd);

class WaitForFailPointCmd : public Command {
public:
    WaitForFailPointCmd() : Command("waitForFailPoint") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override {
        return "wait for a fail point to be entered a certain number of times";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        const BSONObj& cmd = request.body;
        const std::string name = failPointName(cmd, "waitForFailPoint");
        uassert(ErrorCodes::FailedToParse, "Missing maxTimeMS", cmd.hasField("maxTimeMS"));
        BSONElement times = cmd["timesEntered"];
        long long target = 0;
        uassert(ErrorCodes::FailedToParse,
                "BSON field 'waitForFailPoint.timesEntered' is missing but a required field", !times.eoo());
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'waitForFailPoint.timesEntered' is the wrong type '" + typeName(times.type()) +
                    "', expected type 'long'",
                times.isNumber() && times.isIntegral64(&target));
        FailPoint* fp = globalFailPointRegistry().find(name);
        if (!fp) uasserted(ErrorCodes::FailPointSetFailed, name + " not found");
        fp->waitForTimesEntered(target, [&] { opCtx->checkForInterrupt(); });
    }
};
MONGO_REGISTER_TEST_COMMAND(WaitForFailPointCmd);

}  // namespace

}  // namespace mongo
