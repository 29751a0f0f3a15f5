// logRotate: {logRotate: 1 | "server" | "audit"} starts a new log file (see rotateLogFile in
// server_options.h: rename by default, reopen with systemLog.logRotate: reopen).
#include "mongo/db/commands/command.h"
#include "mongo/db/server_options.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class LogRotateCmd : public Command {
public:
    LogRotateCmd() : Command("logRotate") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::logRotate}); }
    std::string help() const override { return "log rotation"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder&) override {
        BSONElement arg = request.body.firstElement();
        if (arg.type() == String) {
            const std::string which = arg.str();
            uassert(ErrorCodes::NoSuchKey, "Unknown log type for rotate: " + which,
                    which == "server" || which == "audit");
            if (which == "audit") return;  // no audit log in this server
        }
        LOGV2(23166, Control, "Log rotation initiated");
        uassertStatusOK(rotateLogFile(serverGlobalParams()));
    }
} logRotateCmd;

}  // namespace
}  // namespace mongo
