// ping: answers {ok: 1}; drivers use it to check a connection is alive.
#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

class PingCmd : public Command {
public:
    PingCmd() : Command("ping") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "a way to check that the server is alive. responds immediately"; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder&) override {}
} pingCmd;

}  // namespace
}  // namespace mongo
