// connectionStatus: who is authenticated on this connection (auth/authorization_session.h):
// {authInfo: {authenticatedUsers: [{user, db}], authenticatedUserRoles: [{role, db}],
// authenticatedUserPrivileges (with showPrivileges: true)}}. Roles are every role the users
// hold, directly or through other roles.
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

class ConnectionStatusCmd : public Command {
public:
    ConnectionStatusCmd() : Command("connectionStatus") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override {
        return "Returns connection-specific information such as logged-in users and their roles";
    }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        BSONElement show = request.body["showPrivileges"];
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'connectionStatus.showPrivileges' is the wrong type '" + typeName(show.type()) +
                    "', expected type 'bool'",
                show.eoo() || show.type() == Bool || show.isNumber());
        BSONArrayBuilder users;
        std::vector<auth::RoleName> roles;
        PrivilegeVector privileges;
        if (Client* c = opCtx->getClient()) {
            auth::AuthorizationSession* as = auth::AuthorizationSession::get(c);
            as->privileges(opCtx);  // re-resolved first: users logged out meanwhile are not listed
            for (auto& u : as->users()) users.append(u.toBSON());
            if (as->isAuthenticated()) {
                roles = as->roles(opCtx);
                privileges = as->privileges(opCtx);
            }
        }
        BSONObjBuilder& auth = result.subobjStart("authInfo");
        auth.append("authenticatedUsers", users.arr());
        auth.append("authenticatedUserRoles", auth::roleNamesToBSON(roles));
        if (show.trueValue()) auth.append("authenticatedUserPrivileges", privilegesToBSON(privileges));
        auth.doneFast();
    }
} connectionStatusCmd;

}  // namespace
}  // namespace mongo
