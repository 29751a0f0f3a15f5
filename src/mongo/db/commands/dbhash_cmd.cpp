// dbHash: an MD5 digest of each collection's documents in _id order and one over those digests,
// as MongoDB 7.0 computes them, so that two servers holding the same data (with or without
// --dedup: documents read back byte-identical) report the same hashes.
//
// What MongoDB 7.0 does, and so this command:
//   - a collection's hash is the MD5 of its documents' BSON bytes, concatenated in _id index
//     order (a capped collection without an _id index in natural order; any other collection
//     without one hashes as the string "no _id _index");
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

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/hash/md5.h"

namespace mongo {
namespace {

bool isReplicatedNamespace(const NamespaceString& nss) {
    if (nss.db() == "local") return false;
    if (nss.coll() == "system.profile") return false;
    return true;
}

std::string hashCollection(OperationContext* opCtx, const Collection* coll) {
    Md5 md5;
    const IndexCatalog* ic = coll->getIndexCatalog();
    const IndexDescriptor* idIndex = nullptr;
    for (const IndexDescriptor* d : ic->getAllIndexes())
        if (d->isIdIndex()) idIndex = d;
    long long n = 0;
    if (idIndex) {
        auto cursor = ic->newCursor(opCtx, idIndex, /*forward=*/true);
        BSONObjBuilder minKey;
        minKey.appendMinKey("");
        for (auto e = cursor->seek(minKey.obj(), true); e; e = cursor->next()) {
            std::optional<BSONObj> doc = coll->findDoc(opCtx, e->loc);
            if (!doc) continue;  // cannot happen under the write lock; a vanished record has no bytes
            md5.append(doc->objdata(), doc->objsize());
            if ((++n & 1023) == 0) opCtx->checkForInterrupt();
        }
    } else if (coll->options().capped) {
        auto cursor = coll->getCursor(opCtx);
        while (auto r = cursor->next()) {
            md5.append(r->doc.objdata(), r->doc.objsize());
            if ((++n & 1023) == 0) opCtx->checkForInterrupt();
        }
    } else {
        return "no _id _index";
    }
    return Md5::toHex(md5.finish());
}

void appendUuid(BSONObjBuilder& b, const std::string& name, const std::string& hex) {
    unsigned char bytes[16] = {};
    for (size_t i = 0; i < 16 && 2 * i + 1 < hex.size(); i++)
        bytes[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    b.appendBinData(name, 16, 4, bytes);
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

        // MongoDB holds the database in S mode: no writes while hashing, so the hashes are of
        // one state of the data.
        CollectionWriteLock lock;
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
        for (const auto& [name, hex] : uuids) appendUuid(uuidObj, name, hex);
        result.append("uuids", uuidObj.obj());
        result.append("md5", Md5::toHex(all.finish()));
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        result.append("timeMillis", static_cast<int>(ms.count()));
    }
};
DbHashCmd dbHashCmd;

}  // namespace
}  // namespace mongo
