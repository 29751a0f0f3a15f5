// getCmdLineOpts: how the server was started: {argv: [...], parsed: {net: {...}, ...}}.
#include "mongo/db/commands/command.h"
#include "mongo/db/server_options.h"

namespace mongo {
namespace {

class GetCmdLineOptsCmd : public Command {
public:
    GetCmdLineOptsCmd() : Command("getCmdLineOpts") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::getCmdLineOpts}); }
    std::string help() const override { return "get argv"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        const ServerGlobalParams& p = serverGlobalParams();
        BSONArrayBuilder& argv = result.subarrayStart("argv");
        for (auto& a : p.argv) argv.append(a);
        argv.doneFast();
        result.append("parsed", p.parsedOptions);
    }
} getCmdLineOptsCmd;

}  // namespace
}  // namespace mongo
