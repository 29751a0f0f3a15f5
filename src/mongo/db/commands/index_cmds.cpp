// createIndexes, listIndexes, dropIndexes.
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/index_spec.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {
namespace {

class CreateIndexesCmd : public Command {
public:
    CreateIndexesCmd() : Command("createIndexes") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::createIndex}); }
    std::string help() const override { return "create indexes on a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        BSONElement indexes = req.body["indexes"];
        if (indexes.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'createIndexes.indexes' is missing but a required field");
        if (indexes.type() != Array)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'createIndexes.indexes' is the wrong type '" +
                                                    typeName(indexes.type()) + "', expected type 'array'");
        // commitQuorum is about replica set members voting on an index build.
        if (!req.body["commitQuorum"].eoo()) uasserted(ErrorCodes::BadValue, "Standalones can't specify commitQuorum");
        bool ignoreUnknown = !req.body["ignoreUnknownIndexOptions"].eoo() &&
                             parseBoolArg(req.body["ignoreUnknownIndexOptions"], "createIndexes");
        std::vector<BSONObj> specs;
        for (BSONElement e : indexes.Obj()) {
            if (e.type() != Object) uasserted(ErrorCodes::TypeMismatch, "The elements of 'indexes' must be objects");
            if (!ignoreUnknown) {
                specs.push_back(e.Obj());
                continue;
            }
            BSONObjBuilder known;  // ignoreUnknownIndexOptions: unknown spec fields are dropped
            for (BSONElement f : e.Obj())
                if (isKnownIndexSpecField(f.fieldNameStringData())) known.append(f);
            specs.push_back(known.obj());
        }
        if (specs.empty()) uasserted(ErrorCodes::BadValue, "Must specify at least one index to create");
        // Specs are checked before anything is created: a refused createIndexes leaves no
        // implicitly created collection behind, as in MongoDB.
        for (const BSONObj& spec : specs) validateAndNormalizeIndexSpec(spec);
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            auto* cat = CollectionCatalog::get();
            Collection* coll = cat->lookupCollection(opCtx, nss);
            bool created = false;
            if (!coll && ViewCatalog::isView(opCtx, nss)) uassertStatusOK(ViewCatalog::notCollectionStatus(nss));
            if (!coll) {
                coll = cat->createCollection(opCtx, nss, CollectionOptions());
                created = true;
            }
            // MongoDB 7.0 cannot delete from capped collections by TTL.
            for (const BSONObj& spec : specs)
                if (coll->options().capped && spec.hasField("expireAfterSeconds"))
                    uasserted(ErrorCodes::CannotCreateIndex, "Cannot create TTL index on a capped collection");
            int before = static_cast<int>(coll->getIndexCatalog()->getAllIndexes().size());
            int newOnes = 0;
            for (auto& spec : specs)
                if (coll->getIndexCatalog()->createIndex(opCtx, spec)) newOnes++;
            int after = static_cast<int>(coll->getIndexCatalog()->getAllIndexes().size());
            result.append("numIndexesBefore", before);
            result.append("numIndexesAfter", after);
            if (newOnes == 0) result.append("note", "all indexes already exist");
            result.append("createdCollectionAutomatically", created);
        });
    }
};
CreateIndexesCmd createIndexesCmd;

class ListIndexesCmd : public Command {
public:
    ListIndexesCmd() : Command("listIndexes") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::listIndexes}); }
    std::string help() const override { return "list the indexes of a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        // includeIndexBuildInfo: true changes the format of every entry ({spec, ...}).
        if (BSONElement e = req.body["includeIndexBuildInfo"]; !e.eoo() && parseBoolArg(e, "listIndexes"))
            uasserted(ErrorCodes::InvalidOptions, "BSON field 'listIndexes.includeIndexBuildInfo' is not supported by this server");
        CatalogReadLock lock;
        Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll && ViewCatalog::isView(opCtx, nss)) uassertStatusOK(ViewCatalog::notCollectionStatus(nss));
        if (!coll) uasserted(ErrorCodes::NamespaceNotFound, "ns does not exist: " + nss.ns());
        std::vector<BSONObj> docs;
        for (const IndexDescriptor* d : coll->getIndexCatalog()->getAllIndexes()) docs.push_back(d->infoObj);
        replyWithCursor(opCtx, NamespaceString(nss.db(), "$cmd.listIndexes." + nss.coll()),
                        std::make_unique<VectorCursorSource>(std::move(docs)), req.body, result);
    }
};
ListIndexesCmd listIndexesCmd;

class DropIndexesCmd : public Command {
public:
    DropIndexesCmd() : Command("dropIndexes", {"deleteIndexes"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::dropIndex}); }
    std::string help() const override { return "drop indexes of a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        BSONElement index = req.body["index"];
        if (index.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'dropIndexes.index' is missing but a required field");
        CatalogDDLLock lock;
        Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll && ViewCatalog::isView(opCtx, nss)) uassertStatusOK(ViewCatalog::notCollectionStatus(nss));
        if (!coll) uasserted(ErrorCodes::NamespaceNotFound, "ns not found " + nss.ns());
        IndexCatalog* ic = coll->getIndexCatalog();
        int was = static_cast<int>(ic->getAllIndexes().size());
        std::vector<std::string> names;
        if (index.type() == String && index.str() == "*") {
            for (const IndexDescriptor* d : ic->getAllIndexes())
                if (!d->isIdIndex()) names.push_back(d->name);
            result.append("msg", "non-_id indexes dropped for collection");
        } else if (index.type() == String) {
            names.push_back(index.str());
        } else if (index.type() == Array) {
            for (BSONElement e : index.Obj()) {
                if (e.type() != String) uasserted(ErrorCodes::TypeMismatch, "dropIndexes index names must be strings");
                names.push_back(e.str());
            }
        } else if (index.type() == Object) {
            const IndexDescriptor* d = ic->findIndexByKeyPattern(index.Obj());
            if (!d) uasserted(ErrorCodes::IndexNotFound, "can't find index with key: " + index.Obj().jsonString());
            names.push_back(d->name);
        } else {
            uasserted(ErrorCodes::TypeMismatch, "dropIndexes 'index' must be a string, array or object");
        }
        // Check all first: MongoDB drops none if one is missing.
        for (auto& n : names) {
            if (n == "_id_") uasserted(ErrorCodes::InvalidOptions, "cannot drop _id index");
            if (!ic->findIndexByName(n)) uasserted(ErrorCodes::IndexNotFound, "index not found with name [" + n + "]");
        }
        for (auto& n : names) ic->dropIndex(opCtx, n);
        result.append("nIndexesWas", was);
    }
};
DropIndexesCmd dropIndexesCmd;

}  // namespace
}  // namespace mongo
