// getLog: the in-memory log. {getLog: "*"} lists the logs; "global" holds recent lines,
// "startupWarnings" the warnings printed at startup. Lines are mongod's JSON strings.
#include "mongo/db/commands/command.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class GetLogCmd : public Command {
public:
    GetLogCmd() : Command("getLog") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::getLog}); }
    std::string help() const override {
        return "{ getLog : '*' }  OR { getLog : 'global' }";
    }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        BSONElement arg = request.body.firstElement();
        uassert(ErrorCodes::TypeMismatch,
                "Argument to getLog must be of type String; found " + arg.toString(false) + " of type " +
                    typeName(arg.type()),
                arg.type() == String);
        const std::string which = arg.str();
        if (which == "*") {
            BSONArrayBuilder& names = result.subarrayStart("names");
            names.append("global");
            names.append("startupWarnings");
            names.doneFast();
            return;
        }
        std::vector<std::string> lines;
        long long total;
        if (which == "global") {
            lines = logv2::recentLines();
            total = logv2::totalLinesWritten();
        } else if (which == "startupWarnings") {
            lines = logv2::startupWarningLines();
            total = static_cast<long long>(lines.size());
        } else {
            uasserted(ErrorCodes::OperationFailed, "No log named '" + which + "'");
        }
        result.appendNumber("totalLinesWritten", total);
        BSONArrayBuilder& log = result.subarrayStart("log");
        for (auto& l : lines) log.append(l);
        log.doneFast();
    }
} getLogCmd;

}  // namespace
}  // namespace mongo
