// getParameter: {getParameter: 1, <name>: 1, ...} -> {<name>: <value>, ...};
// {getParameter: "*"} -> every parameter; {getParameter: {showDetails: true[, allParameters:
// true]}, ...} -> {<name>: {value, settableAtRuntime, settableAtStartup}}.
#include "mongo/db/commands/command.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

class GetParameterCmd : public Command {
public:
    GetParameterCmd() : Command("getParameter") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::getParameter}); }
    std::string help() const override {
        std::string h = "get administrative option(s)\nexample:\n{ getParameter:1, notablescan:1 }\nsupported:\n";
        for (auto& [name, p] : ServerParameterSet::global().all()) h += "  " + name + "\n";
        return h + "{ getParameter:'*' } to get everything\n";
    }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        const BSONObj& cmd = request.body;
        BSONElement arg = cmd.firstElement();
        bool all = arg.type() == String && arg.str() == "*";
        bool showDetails = false;
        if (arg.type() == Object) {
            for (auto e : arg.Obj()) {
                auto n = e.fieldNameStringData();
                if (n == "showDetails") {
                    showDetails = e.trueValue();
                } else if (n == "allParameters") {
                    all = all || e.trueValue();
                } else {
                    uasserted(40415, "BSON field 'getParameter." + std::string(n) + "' is an unknown field.");
                }
            }
        }
        bool found = false;
        for (auto& [name, p] : ServerParameterSet::global().all()) {
            if (!all && !cmd.hasField(name)) continue;
            found = true;
            if (!showDetails) {
                p->append(result, name);
                continue;
            }
            BSONObjBuilder v;
            p->append(v, "value");
            BSONObjBuilder& d = result.subobjStart(name);
            d.appendElements(v.obj());
            d.append("settableAtRuntime", p->allowedToChangeAtRuntime());
            d.append("settableAtStartup", p->allowedToChangeAtStartup());
            d.doneFast();
        }
        uassert(ErrorCodes::InvalidOptions, "no option found to get", found);
    }
} getParameterCmd;

}  // namespace
}  // namespace mongo
