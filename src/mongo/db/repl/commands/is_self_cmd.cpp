// _isSelf: {id: <ObjectId of this process>}. A member that does not recognise a config host as
// one of its own names asks that host, and it is this member when the ids match (is_self.h):
// this is how a member finds itself behind a proxy such as the test bridge. Internal, as in
// MongoDB: members run it as __system when key-file authentication is on.
#include "mongo/db/commands/command.h"
#include "mongo/db/repl/is_self.h"

namespace mongo {
namespace {

class IsSelfCmd : public Command {
public:
    IsSelfCmd() : Command("_isSelf") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override {
        return RequiredPrivileges::onCluster({ActionType::internal});
    }
    std::string help() const override { return "{ _isSelf : 1 } INTERNAL ONLY"; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        result.append("id", repl::processInstanceId());
    }
} isSelfCmd;

}  // namespace
}  // namespace mongo
