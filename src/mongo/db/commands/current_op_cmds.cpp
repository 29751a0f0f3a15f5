// currentOp: the operations in progress ({inprog: [...]}), filtered by the request's other
// fields as a query ({currentOp: 1, "command.find": "coll"}), as MongoDB 7.0 answers it: what
// {$currentOp: {idleConnections: $all, allUsers: !$ownOps, truncateOps: true}} gives
// (commands/server_source_stages.h). killOp: {killOp: 1, op: <opid>}: the operation stops with
// Interrupted (11601) at its next interrupt check.
#include <limits>
#include <set>

#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/query/matcher.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// currentOp's own options and the arguments every command may carry: not part of the filter.
bool isCurrentOpArgument(std::string_view name) {
    static const std::set<std::string_view> kArgs = {"currentOp", "$all", "$ownOps", "$truncateOps"};
    return kArgs.count(name) > 0 || isGenericArgument(name);
}

class CurrentOpCmd : public Command {
public:
    CurrentOpCmd() : Command("currentOp") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::inprog}); }
    std::string help() const override { return "report the operations currently running"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        BSONObjBuilder filterB;
        for (auto e : request.body)
            if (!isCurrentOpArgument(e.fieldNameStringData())) filterB.append(e);
        Matcher matcher(filterB.obj());

        // This operation itself is listed even when the dispatcher does not register operations.
        std::optional<ScopedCurrentOp> self;
        if (!CurrentOpRegistry::get().contains(opCtx->opId())) self.emplace(opCtx, request.body, "admin.$cmd");

        // $ownOps: without authentication every operation is the caller's own.
        CurrentOpReportOptions options;
        options.idleConnections = request.body["$all"].trueValue();
        options.truncateOps = true;
        BSONArrayBuilder& inprog = result.subarrayStart("inprog");
        for (auto& op : CurrentOpRegistry::get().report(options))
            if (matcher.matchesEverything() || matcher.matches(op)) inprog.append(op);
        inprog.doneFast();
    }
} currentOpCmd;

class KillOpCmd : public Command {
public:
    KillOpCmd() : Command("killOp") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::killop}); }
    std::string help() const override { return "kill an operation: { killOp : 1, op : <opid> }"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        // MongoDB 7.0's checks and codes; its operation ids are 32-bit.
        long long opId = extractIntegerField(request.body, "op");
        uassert(26823, "invalid op : " + std::to_string(opId) + ". Op ID cannot be represented with 32 bits",
                opId >= std::numeric_limits<int>::min() && opId <= std::numeric_limits<int>::max());
        LOGV2(20482, Command, "Going to kill op", logv2::attrs("opId", opId));
        CurrentOpRegistry::get().kill(opId);
        result.append("info", "attempting to kill op");
    }
} killOpCmd;

}  // namespace
}  // namespace mongo
