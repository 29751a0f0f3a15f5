// dbHash: an MD5 digest of each collection's documents in _id order and one over those digests,
// as MongoDB 7.0 computes them, so that two servers holding the same data (with or without
// --dedup: documents read back byte-identical) report the same hashes.
//
// What MongoDB 7.0 does, and so this command:
//   - a collection's hash is the MD5 of its documents' BSON bytes, concatenated in _id index
//     order (every collection hashed here has an _id index);
//   - the database's md5 is the MD5 of the collections' hex digests concatenated in
//     collection-name (byte) order;
//   - collections that are not replicated are left out: everything in `local`, every
//     `system.profile`, and `tmp.mr.*`; other system collections (system.views, system.js...)
//     are hashed. Views are not collections and have no hash.
//   - {collections: [...]} restricts the result to those names (names that do not exist are
//     simply absent); an entry that is not a string is BadValue; a `collections` that is not an
//     array is ignored. A string as the command's value names a namespace `<db>.<value>`, which
//     is not a valid database name: InvalidNamespace.
#include <chrono>
#include <map>
#include <set>

#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/hash/md5.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {
namespace {

bool isReplicatedNamespace(const NamespaceString& nss) {
    if (nss.db() == "local") return false;
    if (nss.coll() == "system.profile") return false;
    return true;
}

// The MD5 of the collection's documents in _id order, read the way find reads them (a hinted
// scan of the _id index, FETCH), in one storage snapshot, with maxTimeMS and killOp checked as
// it runs. Every collection has an _id index here (the oplog, the one without, is in `local`,
// which is never hashed).
std::string hashCollection(OperationContext* opCtx, const Collection* coll) {
    QueryRequest qr;
    qr.hint = BSONObjBuilder().append("$hint", "_id_").obj();
    PlanExecutor exec(opCtx->getClient(), coll, coll->ns(), qr, PlanPurpose::kFind, "", opCtx);
    Md5 md5;
    while (auto doc = exec.getNext(opCtx)) md5.append(doc->objdata(), doc->objsize());
    return Md5::toHex(md5.finish());
}

class DbHashCmd : public Command {
public:
    DbHashCmd() : Command("dbHash", {"dbhash"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onDatabase(req.db(), {ActionType::dbHash}); }
    std::string help() const override { return "MD5 hashes of a database's collections"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto start = std::chrono::steady_clock::now();
        const std::string db = req.db();
        std::set<std::string> wanted;
        if (BSONElement c = req.body["collections"]; c.type() == Array) {
            for (BSONElement e : c.Obj()) {
                if (e.type() != String) uasserted(ErrorCodes::BadValue, "collections entries have to be strings");
                wanted.insert(e.str());
            }
        }
        if (BSONElement first = req.body.firstElement(); first.type() == String) {
            std::string ns = first.valueStringData().empty() ? db : db + "." + first.str();
            uasserted(ErrorCodes::InvalidNamespace, "Invalid db name: " + ns);
        }

        // A shared catalog lock keeps the collections from being dropped or renamed while
        // they are hashed; writers go on. Each collection is read in one snapshot (its
        // executor's), so its hash is of one state of its data, as MongoDB's per-collection
        // read lock gives.
        CatalogReadLock lock;
        std::map<std::string, std::string> hashes, uuids;
        std::set<std::string> capped;
        auto* cat = CollectionCatalog::get();
        for (const NamespaceString& nss : cat->listCollections(opCtx, db)) {
            if (!isReplicatedNamespace(nss) || nss.coll().rfind("tmp.mr.", 0) == 0) continue;
            if (!wanted.empty() && !wanted.count(nss.coll())) continue;
            const Collection* coll = cat->lookupCollection(opCtx, nss);
            if (!coll) continue;
            if (coll->options().capped) capped.insert(nss.coll());
            uuids[nss.coll()] = coll->uuid();
            hashes[nss.coll()] = hashCollection(opCtx, coll);
        }

        result.append("host", hostAndPort());
        Md5 all;
        BSONObjBuilder collections;
        for (const auto& [name, hash] : hashes) {
            collections.append(name, hash);
            all.append(hash);
        }
        result.append("collections", collections.obj());
        BSONArrayBuilder cappedArr;
        for (const auto& name : capped) cappedArr.append(name);
        result.append("capped", cappedArr.arr());
        BSONObjBuilder uuidObj;
        for (const auto& [name, hex] : uuids) appendUuidHex(uuidObj, name, hex);
        result.append("uuids", uuidObj.obj());
        result.append("md5", Md5::toHex(all.finish()));
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        result.append("timeMillis", static_cast<int>(ms.count()));
    }
};
DbHashCmd dbHashCmd;

}  // namespace
}  // namespace mongo
