// replSetSyncFrom and replSetResizeOplog (repl/coordinator.h, repl/oplog.h), admin-only as
// in MongoDB 7.0.
#include <sstream>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class ReplSetSyncFromCmd : public Command {
public:
    ReplSetSyncFromCmd() : Command("replSetSyncFrom") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override {
        return RequiredPrivileges::onCluster({ActionType::replSetStateChange});
    }
    std::string help() const override {
        return "{ replSetSyncFrom : \"host:port\" }\nChange who this member is syncing from. Note: This will "
               "interrupt and restart an in-progress initial sync.";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext*, const OpMsgRequest& req, BSONObjBuilder& result) override {
        // As MongoDB: a value that is not a string reads as an empty host.
        BSONElement e = req.body.firstElement();
        const std::string host = e.type() == String ? e.str() : std::string();
        repl::ReplicationCoordinator::get()->syncFrom(host, &result);
    }
} replSetSyncFromCmd;

// MongoDB's IDL messages for a bound a number does not meet (code 51024 in 7.0).
std::string formatDouble(double d) {
    std::ostringstream os;
    os << d;
    return os.str();
}

double numberField(const BSONElement& e, const char* name) {
    if (!e.isNumber())
        uasserted(ErrorCodes::TypeMismatch, std::string("BSON field 'replSetResizeOplog.") + name +
                                                "' is the wrong type '" + typeName(e.type()) +
                                                "', expected types '[long, int, decimal, double]'");
    return e.numberDouble();
}

void checkBound(bool ok, const char* name, const char* op, double limit, double actual) {
    if (!ok)
        uasserted(51024, std::string("BSON field 'replSetResizeOplog.") + name + "' value must be " + op + " " +
                             formatDouble(limit) + ", actual value '" + formatDouble(actual) + "'");
}

class ReplSetResizeOplogCmd : public Command {
public:
    ReplSetResizeOplogCmd() : Command("replSetResizeOplog") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override {
        return RequiredPrivileges::onCluster({ActionType::replSetResizeOplog});
    }
    std::string help() const override {
        return "Resize oplog using size (in MBs) and optionally, retention (in terms of hours)";
    }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        {
            CatalogReadLock lock;
            Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, repl::LocalOplog::nss());
            uassert(ErrorCodes::NamespaceNotFound, "oplog does not exist", oplog);
            uassert(ErrorCodes::IllegalOperation, "oplog isn't capped", oplog->options().capped);
        }
        double sizeMB = 0, hours = -1;
        if (BSONElement s = req.body["size"]; !s.eoo()) {
            sizeMB = numberField(s, "size");
            // MongoDB 7.0's bounds: 990 MB to 1 PB (1073741824 MB).
            checkBound(sizeMB >= 990, "size", ">=", 990, sizeMB);
            checkBound(sizeMB <= 1073741824.0, "size", "<=", 1073741824.0, sizeMB);
        }
        if (BSONElement h = req.body["minRetentionHours"]; !h.eoo()) {
            hours = numberField(h, "minRetentionHours");
            checkBound(hours >= 0, "minRetentionHours", ">=", 0, hours);
        }
        repl::LocalOplog::get()->resize(opCtx, sizeMB > 0 ? static_cast<long long>(sizeMB * 1024 * 1024) : 0, hours);
        CatalogReadLock lock;
        Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, repl::LocalOplog::nss());
        LOGV2(20497, Replication, "replSetResizeOplog success",
              logv2::attrs("size", oplog ? oplog->options().cappedSize : 0LL, "minRetentionHours",
                           repl::LocalOplog::get()->minRetentionHours()));
    }
} replSetResizeOplogCmd;

}  // namespace
}  // namespace mongo
