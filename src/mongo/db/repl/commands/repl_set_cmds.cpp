// replSetInitiate, replSetGetStatus, replSetGetConfig: what a one-member replica set answers
// (repl/coordinator.h). Admin-only, as in MongoDB.
#include "mongo/db/commands/command.h"
#include "mongo/db/repl/coordinator.h"

namespace mongo {
namespace {

class ReplSetInitiateCmd : public Command {
public:
    ReplSetInitiateCmd() : Command("replSetInitiate") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetConfigure}); }
    std::string help() const override {
        return "Initiate/christen a replica set.\nhttp://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement cfg = req.body.firstElement();
        BSONObj config;
        if (cfg.type() == Object)
            config = cfg.embeddedObject().getOwned();
        else if (!cfg.isNull() && cfg.type() != Undefined && !(cfg.isNumber() && cfg.numberLong() == 1))
            uasserted(ErrorCodes::TypeMismatch, "replSetInitiate's argument must be a configuration document");
        repl::ReplicationCoordinator::get()->initiate(opCtx, config, &result);
    }
} replSetInitiateCmd;

class ReplSetGetStatusCmd : public Command {
public:
    ReplSetGetStatusCmd() : Command("replSetGetStatus") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetGetStatus}); }
    std::string help() const override {
        return "Report status of a replica set from the POV of this server\n{ replSetGetStatus : 1 }\n"
               "http://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        repl::ReplicationCoordinator::get()->appendStatus(&result);
    }
} replSetGetStatusCmd;

class ReplSetGetConfigCmd : public Command {
public:
    ReplSetGetConfigCmd() : Command("replSetGetConfig") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetGetConfig}); }
    std::string help() const override {
        return "Returns the current replica set configuration{ replSetGetConfig : 1 }\n"
               "http://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement cs = req.body["commitmentStatus"];
        if (!cs.eoo() && cs.type() != Bool)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'replSetGetConfig.commitmentStatus' is the wrong type '" +
                                                    typeName(cs.type()) + "', expected type 'bool'");
        repl::ReplicationCoordinator::get()->appendConfig(cs.trueValue(), &result);
    }
} replSetGetConfigCmd;

}  // namespace
}  // namespace mongo
