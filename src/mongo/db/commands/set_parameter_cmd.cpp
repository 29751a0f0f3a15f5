// setParameter: {setParameter: 1, <name>: <value>, ...} -> {was: <first parameter's old value>}.
// Every named parameter is checked before any is changed.
#include <map>
#include <set>

#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class SetParameterCmd : public Command {
public:
    SetParameterCmd() : Command("setParameter") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::setParameter}); }
    std::string help() const override {
        std::string h = "set administrative option(s)\n{ setParameter:1, <param>:<value> }\nsupported:\n";
        for (auto& [name, p] : ServerParameterSet::global().all())
            if (p->allowedToChangeAtRuntime()) h += "  " + name + "\n";
        return h;
    }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        auto& set = ServerParameterSet::global();
        std::vector<std::pair<ServerParameter*, BSONElement>> toSet;
        std::map<std::string, BSONElement> seen;
        bool first = true;
        for (auto e : request.body) {
            if (first) {  // the command name itself
                first = false;
                continue;
            }
            const std::string name(e.fieldNameStringData());
            if (isGenericArgument(name)) continue;
            ServerParameter* p = set.find(name);
            uassert(ErrorCodes::InvalidOptions,
                    "attempted to set unrecognized parameter [" + name + "], use help:true to see options ", p);
            uassert(ErrorCodes::IllegalOperation, "not allowed to change [" + name + "] at runtime",
                    p->allowedToChangeAtRuntime());
            auto [it, inserted] = seen.emplace(name, e);
            uassert(ErrorCodes::InvalidOptions,
                    "attempted to set parameter [" + name + "] twice in the same setParameter command, once to value: [" +
                        it->second.toString(false) + "], and once to value: [" + e.toString(false) + "]",
                    inserted);
            toSet.emplace_back(p, e);
        }
        uassert(ErrorCodes::InvalidOptions, "no option found to set, use help:true to see options ", !toSet.empty());

        bool wasAppended = false;
        for (auto& [p, value] : toSet) {
            BSONObjBuilder old;
            p->append(old, "was");
            BSONObj oldObj = old.obj();
            if (!wasAppended) {
                result.appendElements(oldObj);
                wasAppended = true;
            }
            Status s = p->set(value);
            if (!s.isOK()) {
                LOGV2(20496, Control, "Error setting parameter",
                      logv2::attrs("parameterName", p->name(), "newValue", value.toString(false), "error", s.reason()));
                uassertStatusOK(s);
            }
            LOGV2(23435, Control, "Successfully set parameter",
                  logv2::attrs("parameterName", p->name(), "newValue", value.toString(false), "oldValue",
                               oldObj.firstElement().toString(false)));
        }
    }
} setParameterCmd;

}  // namespace
}  // namespace mongo
