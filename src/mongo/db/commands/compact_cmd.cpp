// compact: gives the free space inside a collection's table files (its record store and every
// index) back to the file system, as MongoDB 7.0's compact on WiredTiger does.
//   {compact: "<coll>", force: <bool>, freeSpaceTargetMB: <int>}  ->  {bytesFreed: <long>, ok: 1}
// bytesFreed is the total size of the collection's files before minus after (never negative:
// a checkpoint taken by compact can grow a file that had little to give back).
#include <algorithm>
#include <string>
#include <vector>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog_impl.h"
#include "mongo/db/catalog/collection_impl.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/views/view_catalog.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// The compact command's arguments, validated as MongoDB's IDL parser does.
CompactIdentOptions parseCompactOptions(const OpMsgRequest& req) {
    // force only matters on a replica set primary (this server is a standalone), but its type is
    // checked as MongoDB does: strictly a bool.
    BSONElement force = req.body["force"];
    if (!force.eoo() && force.type() != Bool)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'compact.force' is the wrong type '" + typeName(force.type()) +
                                                 "', expected type 'bool'");
    CompactIdentOptions options;
    BSONElement target = req.body["freeSpaceTargetMB"];
    if (!target.eoo()) {
        long long mb = parseIntegerArg(target, "compact");
        if (mb < 1)
            uasserted(ErrorCodes::BadValue, "BSON field 'freeSpaceTargetMB' value must be >= 1, actual value '" +
                                                std::to_string(mb) + "'");
        options.freeSpaceTargetMB = mb;
    }
    return options;
}

class CompactCmd : public Command {
public:
    CompactCmd() : Command("compact") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::compact}); }
    std::string help() const override {
        return "compact collection\n"
               "{ compact : <collection_name>, [force:<bool>], [freeSpaceTargetMB:<int>] }\n"
               "  rewrites the collection's and its indexes' files so that free space inside them\n"
               "  goes back to the operating system; writes wait meanwhile; cancel with killOp()\n"
               "  freeSpaceTargetMB - minimum space (MB) recoverable for a file to be compacted (20)";
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        CompactIdentOptions options = parseCompactOptions(req);

        // The write lock: no document write happens while the files are rewritten, and (through
        // the shared catalog lock it includes) the collection and its indexes cannot be dropped
        // or created meanwhile. Readers go on.
        CollectionWriteLock lock;
        auto* catalog = CollectionCatalog::get();
        Collection* coll = catalog->lookupCollection(opCtx, nss);
        if (!coll) {
            uassert(ErrorCodes::CommandNotSupportedOnView, "can't compact a view", !ViewCatalog::isView(opCtx, nss));
            if (catalog->listCollections(opCtx, nss.db()).empty())
                uasserted(ErrorCodes::NamespaceNotFound, "database does not exist");
            uasserted(ErrorCodes::NamespaceNotFound, "collection does not exist");
        }
        auto* impl = dynamic_cast<CollectionImpl*>(coll);
        if (!impl)
            uasserted(ErrorCodes::CommandNotSupported, "cannot compact collection " + nss.ns() +
                                                           ": its storage does not support compaction");
        KVEngine* kv = impl->engine()->kvEngine();
        std::vector<std::string> idents{impl->metaData().ident};
        for (const std::string& ident : impl->indexCatalogImpl()->idents()) idents.push_back(ident);

        auto totalSize = [&] {
            long long total = 0;
            for (const std::string& ident : idents) total += kv->identSize(ident);
            return total;
        };
        const long long bytesBefore = totalSize();
        LOGV2(20284, Command, "Compact begin",
              logv2::attrs("namespace", nss.ns(), "freeSpaceTargetMB", options.freeSpaceTargetMB));
        for (const std::string& ident : idents) {
            opCtx->checkForInterrupt();
            kv->compactIdent(opCtx, ident, options);
        }
        // Measured over all the files at the end: compacting one table can shrink another's
        // file too (through the checkpoints it takes).
        const long long bytesAfter = totalSize();
        const long long bytesDiff = bytesBefore - bytesAfter;
        LOGV2(7386700, Command, "Compact end",
              logv2::attrs("namespace", nss.ns(), "bytesBefore", bytesBefore, "bytesAfter", bytesAfter,
                           "bytesDiff", bytesDiff));
        result.append("bytesFreed", std::max(0LL, bytesDiff));
    }
};
CompactCmd compactCmd;

// autoCompact (MongoDB 8.0): WiredTiger's background compaction, which compacts in turn every
// table whose file holds at least freeSpaceTargetMB of free space while reads and writes go
// on. On by default under --dedup (--dedupAutoCompact): write-backs free space inside the
// files that later inserts reuse, and what is left after a load goes back to the file system.
//   {autoCompact: <bool>, freeSpaceTargetMB: <int>, runOnce: <bool>}  ->  {ok: 1}
class AutoCompactCmd : public Command {
public:
    AutoCompactCmd() : Command("autoCompact") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::compact}); }
    bool adminOnly() const override { return true; }
    std::string help() const override {
        return "{ autoCompact: <bool>, [freeSpaceTargetMB: <int>], [runOnce: <bool>] }\n"
               "  starts or stops compaction in the background of every collection and index whose file\n"
               "  holds at least freeSpaceTargetMB (20) of free space; stop it before changing its options";
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement on = req.body.firstElement();
        if (on.type() != Bool)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'autoCompact.autoCompact' is the wrong type '" +
                                                     typeName(on.type()) + "', expected type 'bool'");
        AutoCompactOptions options;
        options.enable = on.boolean();
        if (BSONElement t = req.body["freeSpaceTargetMB"]; !t.eoo()) {
            long long mb = parseIntegerArg(t, "autoCompact");
            if (mb < 1)
                uasserted(ErrorCodes::BadValue, "BSON field 'freeSpaceTargetMB' value must be >= 1, actual value '" +
                                                    std::to_string(mb) + "'");
            options.freeSpaceTargetMB = mb;
        }
        if (BSONElement r = req.body["runOnce"]; !r.eoo()) {
            if (r.type() != Bool)
                uasserted(ErrorCodes::TypeMismatch, "BSON field 'autoCompact.runOnce' is the wrong type '" +
                                                         typeName(r.type()) + "', expected type 'bool'");
            options.runOnce = r.boolean();
        }
        auto* catalog = dynamic_cast<CollectionCatalogImpl*>(CollectionCatalog::get());
        if (!catalog)
            uasserted(ErrorCodes::CommandNotSupported, "this storage engine does not support background compaction");
        catalog->engine()->kvEngine()->configureAutoCompact(options);
    }
};
AutoCompactCmd autoCompactCmd;

}  // namespace
}  // namespace mongo
