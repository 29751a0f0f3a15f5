// getDefaultRWConcern / setDefaultRWConcern: the cluster-wide default read and write concerns
// (repl/rw_concern_defaults.h). As in MongoDB they exist for replica set members only; a
// standalone answers 51300 / 51300.
#include "mongo/db/commands/command.h"
#include "mongo/db/repl/rw_concern_defaults.h"
#include "mongo/db/server_options.h"

namespace mongo {
namespace {

void checkReplicaSet(const char* name) {
    uassert(51300, std::string("'") + name + "' is not supported on standalone nodes.",
            !serverGlobalParams().replSetName.empty());
}

class GetDefaultRWConcernCmd : public Command {
public:
    GetDefaultRWConcernCmd() : Command("getDefaultRWConcern") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::getDefaultRWConcern}); }
    std::string help() const override { return "Gets the default read or write concern for a cluster"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        checkReplicaSet("getDefaultRWConcern");
        repl::RWConcernDefaults::appendReply(repl::RWConcernDefaults::get().current(opCtx), &result);
        if (request.body["inMemory"].trueValue()) result.append("inMemory", true);
    }
} getDefaultRWConcernCmd;

class SetDefaultRWConcernCmd : public Command {
public:
    SetDefaultRWConcernCmd() : Command("setDefaultRWConcern") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::setDefaultRWConcern}); }
    std::string help() const override { return "Sets the default read or write concern for a cluster"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        checkReplicaSet("setDefaultRWConcern");  // (primary only: a write to config.settings)
        auto& defaults = repl::RWConcernDefaults::get();
        defaults.set(opCtx, request.body);
        repl::RWConcernDefaults::appendReply(defaults.current(opCtx), &result);
    }
} setDefaultRWConcernCmd;

}  // namespace
}  // namespace mongo
