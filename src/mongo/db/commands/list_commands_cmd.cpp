// listCommands: {commands: {<name>: {help, requiresAuth, secondaryOk, adminOnly, apiVersions,
// deprecatedApiVersions}}}, one entry per registered name (aliases included), sorted.
#include <set>

#include "mongo/db/commands/api_parameters.h"
#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

// Commands that run without authentication in MongoDB (the handshake and its helpers).
const std::set<std::string>& noAuthCommands() {
    static const std::set<std::string> s = {"hello", "isMaster", "ismaster", "ping", "buildInfo", "buildinfo",
                                            "saslStart", "saslContinue", "authenticate", "logout", "getnonce",
                                            "connectionStatus", "configureFailPoint", "waitForFailPoint"};
    return s;
}

// Commands that only a primary may run (secondaryOk: false).
const std::set<std::string>& primaryOnlyCommands() {
    static const std::set<std::string> s = {
        "insert", "update", "delete", "findAndModify", "findandmodify", "create", "drop", "dropDatabase",
        "createIndexes", "dropIndexes", "deleteIndexes", "renameCollection", "collMod", "applyOps",
        "cloneCollectionAsCapped", "convertToCapped", "emptycapped", "godinsert", "createUser", "dropUser",
        "updateUser", "createRole", "dropRole", "updateRole", "setDefaultRWConcern", "abortTransaction",
        "commitTransaction", "bulkWrite"};
    return s;
}

class ListCommandsCmd : public Command {
public:
    ListCommandsCmd() : Command("listCommands") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "get a list of all db commands"; }

    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        BSONObjBuilder& cmds = result.subobjStart("commands");
        for (auto& [name, cmd] : allCommands()) {
            BSONObjBuilder& c = cmds.subobjStart(name);
            c.append("help", cmd->help());
            c.append("requiresAuth", noAuthCommands().count(name) == 0);
            c.append("secondaryOk", primaryOnlyCommands().count(name) == 0);
            c.append("adminOnly", cmd->adminOnly());
            BSONArrayBuilder& api = c.subarrayStart("apiVersions");
            if (apiVersion1Commands().count(name)) api.append("1");
            api.doneFast();
            BSONArrayBuilder& deprecated = c.subarrayStart("deprecatedApiVersions");
            if (apiVersion1DeprecatedCommands().count(name)) deprecated.append("1");
            deprecated.doneFast();
            c.doneFast();
        }
        cmds.doneFast();
    }
} listCommandsCmd;

}  // namespace
}  // namespace mongo
