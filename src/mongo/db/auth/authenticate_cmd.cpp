// authenticate: {authenticate: 1, mechanism: "MONGODB-X509", user: <subject>} on $external.
// MongoDB 7.0 keeps this command only for MONGODB-X509 (SCRAM goes through saslStart). This
// server has no TLS, so no client ever presents a verified certificate: X.509 always fails,
// with MongoDB's answers (ProtocolError off $external, AuthenticationFailed "auth failed"
// otherwise); another mechanism is BadValue, a missing one too. The command exists so that
// drivers' tests (failCommand on authenticate, command monitoring and log redaction) see it.
#include "mongo/db/commands/command.h"
#include "mongo/util/log.h"

namespace mongo::auth {

namespace {

class AuthenticateCmd : public Command {
public:
    AuthenticateCmd() : Command("authenticate") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "internal"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        BSONElement mech = req.body["mechanism"];
        uassert(ErrorCodes::BadValue, "Auth mechanism not specified", mech.type() == String && !mech.str().empty());
        const std::string mechanism = mech.str();
        uassert(ErrorCodes::BadValue, "Unsupported mechanism: " + mechanism, mechanism == "MONGODB-X509");
        uassert(ErrorCodes::ProtocolError, "X.509 authentication must always use the $external database.",
                req.db() == "$external");
        Client* c = opCtx->getClient();
        LOGV2(20249, Access, "Authentication failed",
              logv2::attrs("mechanism", mechanism, "speculative", false, "principalName", req.body["user"].str(),
                           "authenticationDatabase", req.db(), "remote", c ? c->remote() : std::string(), "error",
                           std::string("no verified subject name: this server has no TLS")));
        uasserted(ErrorCodes::AuthenticationFailed, "auth failed");
    }
} authenticateCmd;

}  // namespace

}  // namespace mongo::auth
