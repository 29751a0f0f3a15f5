// getDefaultRWConcern: the cluster-wide default read and write concerns. As in MongoDB it
// exists for replica set members only; a standalone answers 51300.
#include "mongo/db/commands/command.h"
#include "mongo/db/server_options.h"

namespace mongo {
namespace {

class GetDefaultRWConcernCmd : public Command {
public:
    GetDefaultRWConcernCmd() : Command("getDefaultRWConcern") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::getDefaultRWConcern}); }
    std::string help() const override { return "Gets the default read or write concern for a cluster"; }
    bool adminOnly() const override { return true; }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        uassert(51300, "'getDefaultRWConcern' is not supported on standalone nodes.",
                !serverGlobalParams().replSetName.empty());
        // Nothing was set with setDefaultRWConcern: the implicit defaults of a replica set
        // without arbiters.
        BSONObjBuilder& rc = result.subobjStart("defaultReadConcern");
        rc.append("level", "local");
        rc.doneFast();
        BSONObjBuilder& wc = result.subobjStart("defaultWriteConcern");
        wc.append("w", "majority");
        wc.appendInt("wtimeout", 0);
        wc.doneFast();
        result.append("defaultWriteConcernSource", "implicit");
        result.append("defaultReadConcernSource", "implicit");
        result.append("localUpdateWallClockTime", Date_t::now());
        if (request.body["inMemory"].trueValue()) result.append("inMemory", true);
    }
} getDefaultRWConcernCmd;

}  // namespace
}  // namespace mongo
