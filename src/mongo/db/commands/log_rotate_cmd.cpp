// logRotate: starts a new log file. With systemLog.logRotate "rename" (the default) the
// current file is renamed to <path>.<UTC time> and a new one opened at <path>; with
// "reopen" the file is closed and reopened (for an external logrotate that moved it).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "mongo/db/commands/command.h"
#include "mongo/db/server_options.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

std::string rotationSuffix() {
    std::time_t t = std::time(nullptr);
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[32];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H-%M-%S", &tm);
    return buf;
}

class LogRotateCmd : public Command {
public:
    LogRotateCmd() : Command("logRotate") {}
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
        const ServerGlobalParams& p = serverGlobalParams();
        LOGV2(23166, Control, "Log rotation initiated");
        if (p.logPath.empty()) return;  // logging to stdout: nothing to rotate
        if (p.logRotate == "rename") {
            std::string target = p.logPath + "." + rotationSuffix();
            if (std::rename(p.logPath.c_str(), target.c_str()) != 0 && errno != ENOENT)
                uasserted(ErrorCodes::OperationFailed,
                          "Failed to rename '" + p.logPath + "' to '" + target + "': " + std::strerror(errno));
        }
        uassert(ErrorCodes::FileStreamFailed, "Failed to open log file '" + p.logPath + "' after rotation",
                logv2::setLogFile(p.logPath));
    }
} logRotateCmd;

}  // namespace
}  // namespace mongo
