// The replica-set commands (repl/coordinator.h): replSetInitiate, replSetReconfig,
// replSetGetStatus, replSetGetConfig, replSetStepDown, replSetStepUp, replSetFreeze,
// replSetGetRBID, and the member-to-member ones: replSetHeartbeat, replSetRequestVotes,
// replSetUpdatePosition. Admin-only, as in MongoDB.
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
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

class ReplSetReconfigCmd : public Command {
public:
    ReplSetReconfigCmd() : Command("replSetReconfig") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetConfigure}); }
    std::string help() const override {
        return "Adjust configuration of a replica set\n{ replSetReconfig : config_object }\n"
               "http://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement cfg = req.body.firstElement();
        if (cfg.type() != Object)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'replSetReconfig.replSetReconfig' is the wrong type '" +
                                                    typeName(cfg.type()) + "', expected type 'object'");
        bool force = false;
        if (BSONElement f = req.body["force"]; !f.eoo()) {
            if (f.type() != Bool)
                uasserted(ErrorCodes::TypeMismatch, "BSON field 'replSetReconfig.force' is the wrong type '" +
                                                        typeName(f.type()) + "', expected type 'bool'");
            force = f.boolean();
        }
        repl::ReplicationCoordinator::get()->reconfig(opCtx, cfg.embeddedObject().getOwned(), force, &result);
    }
} replSetReconfigCmd;

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

long long integerArg(const BSONElement& e, const char* cmd, long long dflt) {
    return e.eoo() ? dflt : parseIntegerArg(e, cmd);
}

class ReplSetStepDownCmd : public Command {
public:
    ReplSetStepDownCmd() : Command("replSetStepDown") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetStateChange}); }
    std::string help() const override {
        return "{ replSetStepDown : <seconds> }\nStep down as primary.  Will not try to reelect self for the "
               "specified time period (1 minute if no numeric secs value specified, or secs is 0).\n"
               "(If another member with same priority takes over in the meantime, it will stay primary.)\n"
               "http://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        long long secs = integerArg(req.body.firstElement(), "replSetStepDown", 60);
        if (secs == 0) secs = 60;
        const long long catchUp = integerArg(req.body["secondaryCatchUpPeriodSecs"], "replSetStepDown", 10);
        bool force = false;
        if (BSONElement f = req.body["force"]; !f.eoo()) force = f.trueValue();
        uassert(ErrorCodes::BadValue, "stepdown period must be a positive integer", secs > 0);
        uassert(ErrorCodes::BadValue, "secondaryCatchUpPeriodSecs must be a non-negative integer", catchUp >= 0);
        uassert(ErrorCodes::BadValue, "stepdown period must be longer than secondaryCatchUpPeriodSecs", secs > catchUp || force);
        repl::ReplicationCoordinator::get()->stepDown(opCtx, secs, catchUp, force);
    }
} replSetStepDownCmd;

class ReplSetStepUpCmd : public Command {
public:
    ReplSetStepUpCmd() : Command("replSetStepUp") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetStateChange}); }
    std::string help() const override { return "Step up as primary."; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest&, BSONObjBuilder&) override {
        repl::ReplicationCoordinator::get()->stepUp(opCtx);
    }
} replSetStepUpCmd;

// MongoDB's: a new primary in catch-up mode stops catching up and takes writes at once.
class ReplSetAbortPrimaryCatchUpCmd : public Command {
public:
    ReplSetAbortPrimaryCatchUpCmd() : Command("replSetAbortPrimaryCatchUp") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetStateChange}); }
    std::string help() const override { return "{ replSetAbortPrimaryCatchUp: 1 } stops the primary's catch-up."; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder&) override {
        repl::ReplicationCoordinator::get()->abortPrimaryCatchUp();
    }
} replSetAbortPrimaryCatchUpCmd;

class ReplSetFreezeCmd : public Command {
public:
    ReplSetFreezeCmd() : Command("replSetFreeze") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::replSetStateChange}); }
    std::string help() const override {
        return "{ replSetFreeze : <seconds> }'freeze' state of member to the extent we can do that.  What this "
               "really means is that\nthis node will not attempt to become primary until the time period "
               "specified expires.\nYou can call again with {replSetFreeze:0} to unfreeze sooner.\nA process "
               "restart unfreezes the member also.\n\nhttp://dochub.mongodb.org/core/replicasetcommands";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& req, BSONObjBuilder& result) override {
        const long long secs = integerArg(req.body.firstElement(), "replSetFreeze", 0);
        uassert(ErrorCodes::BadValue, "replSetFreeze's seconds must not be negative", secs >= 0);
        repl::ReplicationCoordinator::get()->freeze(secs, &result);
    }
} replSetFreezeCmd;

class ReplSetGetRBIDCmd : public Command {
public:
    ReplSetGetRBIDCmd() : Command("replSetGetRBID") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::internal}); }
    std::string help() const override { return "internal"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        auto* c = repl::ReplicationCoordinator::get();
        uassert(ErrorCodes::NoReplicationEnabled, "not running with --replSet", c->isReplSet());
        result.append("rbid", c->rbid());
    }
} replSetGetRBIDCmd;

class ReplSetHeartbeatCmd : public Command {
public:
    ReplSetHeartbeatCmd() : Command("replSetHeartbeat") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::internal}); }
    std::string help() const override { return "internal"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& req, BSONObjBuilder& result) override {
        repl::ReplicationCoordinator::get()->processHeartbeat(req.body, &result);
    }
} replSetHeartbeatCmd;

class ReplSetRequestVotesCmd : public Command {
public:
    ReplSetRequestVotesCmd() : Command("replSetRequestVotes") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::internal}); }
    std::string help() const override { return "internal"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        repl::ReplicationCoordinator::get()->processRequestVotes(opCtx, req.body, &result);
    }
} replSetRequestVotesCmd;

class ReplSetUpdatePositionCmd : public Command {
public:
    ReplSetUpdatePositionCmd() : Command("replSetUpdatePosition") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::internal}); }
    std::string help() const override { return "internal"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& req, BSONObjBuilder& result) override {
        repl::ReplicationCoordinator::get()->processUpdatePosition(req.body, &result);
    }
} replSetUpdatePositionCmd;

}  // namespace
}  // namespace mongo
