// whatsmyuri: the client's own address as the server sees it ({you: "127.0.0.1:53212"}).
#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

class WhatsMyUriCmd : public Command {
public:
    WhatsMyUriCmd() : Command("whatsmyuri") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "{whatsmyuri:1}"; }
    void run(OperationContext* opCtx, const OpMsgRequest&, BSONObjBuilder& result) override {
        Client* client = opCtx->getClient();
        result.append("you", client ? client->remote() : std::string());
    }
} whatsMyUriCmd;

}  // namespace
}  // namespace mongo
