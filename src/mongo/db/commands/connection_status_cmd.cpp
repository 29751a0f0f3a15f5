// connectionStatus: who is authenticated on this connection. This server has no
// authentication, so nobody is: {authInfo: {authenticatedUsers: [], authenticatedUserRoles: []}}.
#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

class ConnectionStatusCmd : public Command {
public:
    ConnectionStatusCmd() : Command("connectionStatus") {}
    std::string help() const override {
        return "Returns connection-specific information such as logged-in users and their roles";
    }
    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        BSONElement show = request.body["showPrivileges"];
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'connectionStatus.showPrivileges' is the wrong type '" + typeName(show.type()) +
                    "', expected type 'bool'",
                show.eoo() || show.type() == Bool || show.isNumber());
        BSONObjBuilder& auth = result.subobjStart("authInfo");
        auth.append("authenticatedUsers", BSONArray());
        auth.append("authenticatedUserRoles", BSONArray());
        if (show.trueValue()) auth.append("authenticatedUserPrivileges", BSONArray());
        auth.doneFast();
    }
} connectionStatusCmd;

}  // namespace
}  // namespace mongo
