// setFeatureCompatibilityVersion: {setFeatureCompatibilityVersion: "7.0" | "6.0", confirm: true}.
// As MongoDB 7.0 it requires confirm: true. Every feature of this server exists in both
// versions, so the change is the recorded version (getParameter featureCompatibilityVersion).
#include "mongo/db/commands/command.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class SetFeatureCompatibilityVersionCmd : public Command {
public:
    SetFeatureCompatibilityVersionCmd() : Command("setFeatureCompatibilityVersion") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::setFeatureCompatibilityVersion}); }
    std::string help() const override {
        return "Set the featureCompatibilityVersion used by this cluster. If set to '6.0', then features "
               "introduced in versions greater than '6.0' will be disabled\n{ setFeatureCompatibilityVersion: "
               "<string version>, confirm: true }";
    }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder&) override {
        const BSONObj& cmd = request.body;
        BSONElement v = cmd.firstElement();
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'setFeatureCompatibilityVersion.setFeatureCompatibilityVersion' is the wrong type '" +
                    typeName(v.type()) + "', expected type 'string'",
                v.type() == String);
        const std::string requested = v.str();
        uassert(ErrorCodes::BadValue,
                "Enumeration value '" + requested + "' for field 'setFeatureCompatibilityVersion' is not a valid value.",
                requested == "6.0" || requested == "7.0");
        BSONElement confirm = cmd["confirm"];
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'setFeatureCompatibilityVersion.confirm' is the wrong type '" + typeName(confirm.type()) +
                    "', expected type 'bool'",
                confirm.eoo() || confirm.type() == Bool);
        const std::string actual = featureCompatibilityVersion();
        uassert(7369100,
                requested > actual
                    ? "Once you have upgraded to " + requested +
                          ", you will not be able to downgrade FCV and binary version without support assistance. "
                          "Please re-run this command with 'confirm: true' to acknowledge this and continue with the "
                          "FCV upgrade."
                    : std::string("Once you have downgraded the FCV, if you choose to downgrade the binary version, it "
                                  "will require support assistance. Please re-run this command with 'confirm: true' "
                                  "to acknowledge this and continue with the FCV downgrade."),
                confirm.trueValue() || cmd["fromConfigServer"].trueValue());
        if (requested == actual) return;
        LOGV2(6744300, Command, "setFeatureCompatibilityVersion command called",
              logv2::attrs("upgradeOrDowngrade", requested > actual ? "upgrade" : "downgrade", "fromVersion", actual,
                           "toVersion", requested));
        setFeatureCompatibilityVersion(requested);
    }
} setFeatureCompatibilityVersionCmd;

}  // namespace
}  // namespace mongo
