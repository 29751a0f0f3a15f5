// create, drop, renameCollection, listCollections, dropDatabase, listDatabases.
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_validator.h"
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/catalog/index_spec.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {
namespace {

// The options of a create command, without the command name and generic arguments.
BSONObj userOptions(const BSONObj& createCmd) {
    BSONObjBuilder b;
    bool first = true;
    for (BSONElement e : createCmd) {
        bool skip = first && e.fieldNameStringData() == "create";
        first = false;
        if (skip || isGenericArgument(e.fieldNameStringData())) continue;
        b.append(e);
    }
    return b.obj();
}

// create's options that this server cannot honour beyond their defaults: refused rather than
// ignored (command_args.h). The defaults themselves (an empty storageEngine, autoIndexId: true,
// the usual _id index...) are what every collection gets, so they pass.
void checkSupportedCreateOptions(const BSONObj& cmd) {
    auto refuse = [](const std::string& what) {
        uasserted(ErrorCodes::InvalidOptions, "BSON field 'create." + what + "' is not supported by this server");
    };
    for (const char* f : {"clusteredIndex", "encryptedFields", "expireAfterSeconds"})
        if (!cmd[f].eoo()) refuse(f);
    if (BSONElement e = cmd["autoIndexId"]; !e.eoo() && !e.trueValue()) refuse("autoIndexId: false (collections always have an _id index)");
    for (const char* f : {"storageEngine", "indexOptionDefaults"})
        if (BSONElement e = cmd[f]; e.type() == Object && !e.Obj().isEmpty()) refuse(std::string(f) + " (engine-specific settings)");
    if (BSONElement e = cmd["idIndex"]; e.type() == Object) {
        BSONObj id = e.Obj();
        for (BSONElement f : id) {
            std::string_view n = f.fieldNameStringData();
            bool isDefault = (n == "key" && f.type() == Object && f.Obj().nFields() == 1 && f.Obj()["_id"].isNumber() &&
                              f.Obj()["_id"].numberDouble() == 1) ||
                             (n == "name" && f.type() == String && f.str() == "_id_") ||
                             (n == "v" && f.isNumber() && f.numberInt() == 2) || n == "ns";
            if (n == "collation") {
                // MongoDB: the _id index has the collection's collation, nothing else.
                CollationOption idColl = parseCollationOption(f, "create.idIndex.collation");
                CollationOption collColl = parseCollationOption(cmd["collation"], "create.collation");
                uassert(ErrorCodes::BadValue, "'idIndex' must have the same collation as the collection.",
                        sameCollation(idColl.collator, collColl.collator));
                isDefault = true;
            }
            if (!isDefault) refuse("idIndex other than {key: {_id: 1}, name: \"_id_\"}");
        }
    }
}

// create with viewOn/pipeline: a view (db/views/view_catalog.h). Its only other option is a
// collation, the view's default (absent: simple, never the collection's).
void createViewLocked(OperationContext* opCtx, const NamespaceString& nss, const OpMsgRequest& req,
                      const CollatorPtr& collator);

void createView(OperationContext* opCtx, const NamespaceString& nss, const OpMsgRequest& req) {
    if (req.body["viewOn"].eoo())
        uasserted(ErrorCodes::BadValue, "'pipeline' requires 'viewOn' to also be specified");
    if (nss.isSystem())
        uasserted(ErrorCodes::InvalidNamespace, nss.coll() == "system.views"
                                                    ? "Cannot create a view called '" + nss.ns() + "'"
                                                    : "Invalid system namespace: " + nss.ns());
    uassertStatusOK(NamespaceString::validateUserCreatable(nss.db(), nss.coll()));
    bool first = true;
    for (BSONElement e : req.body) {
        std::string_view n = e.fieldNameStringData();
        bool skip = first || n == "viewOn" || n == "pipeline" || n == "collation" || isGenericArgument(n);
        first = false;
        if (!skip) uasserted(ErrorCodes::InvalidOptions, "option not supported on a view: " + std::string(n));
    }
    CollatorPtr collator = parseCollationOption(req.body["collation"], "create.collation").collator;
    uassert(ErrorCodes::OperationNotSupportedInTransaction, "Cannot create a view in a multi-document transaction.",
            !opCtx->inMultiDocumentTransaction());
    retryDDLOnWriteConflict(opCtx, [&] { createViewLocked(opCtx, nss, req, collator); });
}

void createViewLocked(OperationContext* opCtx, const NamespaceString& nss, const OpMsgRequest& req,
                      const CollatorPtr& collator) {
    CatalogDDLLock lock;
    // An existing name is reported before the definition is checked, as MongoDB does; a
    // collection a transaction is creating under this name is a write conflict (waited out).
    if (CollectionCatalog::get()->lookupCollection(opCtx, nss))
        uasserted(ErrorCodes::NamespaceExists, "Namespace already exists: " + nss.ns());
    CollectionCatalog::get()->uassertNotBeingCreated(opCtx, nss);
    if (auto existing = ViewCatalog::lookup(opCtx, nss)) {
        // As for collections, create is idempotent when the definition is identical.
        BSONElement on = req.body["viewOn"], p = req.body["pipeline"];
        bool same = on.type() == String && on.str() == existing->viewOn &&
                    sameCollation(collator, existing->collator) &&
                    (p.eoo() ? existing->pipeline.empty()
                             : p.type() == Array && existing->pipelineArray().woCompare(p.Obj()) == 0);
        if (same) return;
        uasserted(ErrorCodes::NamespaceExists, "A view already exists. NS: " + nss.ns());
    }
    ViewCatalog::create(opCtx, ViewCatalog::validate(opCtx, nss, req.body["viewOn"], req.body["pipeline"], "create",
                                                     collator));
}

class CreateCmd : public Command {
public:
    CreateCmd() : Command("create") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::createPrivileges(req); }
    std::string help() const override { return "create a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        if (!req.body["viewOn"].eoo() || !req.body["pipeline"].eoo()) return createView(opCtx, nss, req);
        if (!req.body["timeseries"].eoo())
            uasserted(ErrorCodes::CommandNotSupported, "time-series collections are not supported by this server");
        checkSupportedCreateOptions(req.body);
        CollectionOptions opts = uassertStatusOK(CollectionOptions::parse(req.body));
        if (!opts.validator.isEmpty()) uassertStatusOK(checkValidatorAllowedOn(nss));
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            if (Collection* existing = CollectionCatalog::get()->lookupCollection(opCtx, nss)) {
                uassert(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.",
                        !opCtx->inMultiDocumentTransaction());
                // MongoDB 7.0 (SERVER-60064): create is idempotent when the options are identical.
                if (userOptions(existing->options().raw).woCompare(userOptions(opts.raw)) == 0) return;
                uasserted(ErrorCodes::NamespaceExists,
                          "Collection " + nss.ns() + " already exists with different options.");
            }
            if (ViewCatalog::isView(opCtx, nss))
                uasserted(ErrorCodes::NamespaceExists,
                          "Cannot create collection " + nss.ns() + " - a view with that name already exists");
            CollectionCatalog::get()->createCollection(opCtx, nss, opts);
        });
    }
};
CreateCmd createCmd;

class DropCmd : public Command {
public:
    DropCmd() : Command("drop") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::dropCollection}); }
    std::string help() const override { return "drop a collection"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        if (nss.ns() == "local.oplog.rs" && repl::ReplicationCoordinator::get()->isReplSet())
            uasserted(ErrorCodes::IllegalOperation, "can't drop live oplog while replicating");
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
            if (!coll) {
                // A transaction creating it: the drop waits for it (and then drops what it made).
                CollectionCatalog::get()->uassertNotBeingCreated(opCtx, nss);
                ViewCatalog::drop(opCtx, nss);
                return;  // MongoDB 7.0: dropping a missing collection succeeds
            }
            int nIndexes = static_cast<int>(coll->getIndexCatalog()->getAllIndexes().size());
            CollectionCatalog::get()->dropCollection(opCtx, nss);
            result.append("nIndexesWas", nIndexes);
            result.append("ns", nss.ns());
        });
    }
};
DropCmd dropCmd;

class DropDatabaseCmd : public Command {
public:
    DropDatabaseCmd() : Command("dropDatabase") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onDatabase(req.db(), {ActionType::dropDatabase}); }
    std::string help() const override { return "drop a database"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        std::string db = req.db();
        if (db == "admin" || db == "config" || db == "local")
            uasserted(ErrorCodes::IllegalOperation, "Dropping the '" + db + "' database is prohibited.");
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            CollectionCatalog::get()->dropDatabase(opCtx, db);
        });
        result.append("dropped", db);
    }
};
DropDatabaseCmd dropDatabaseCmd;

class RenameCollectionCmd : public Command {
public:
    RenameCollectionCmd() : Command("renameCollection") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::renameCollectionPrivileges(req); }
    std::string help() const override { return "rename a collection"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement from = req.body.firstElement(), to = req.body["to"];
        if (from.type() != String || to.type() != String)
            uasserted(ErrorCodes::TypeMismatch, "renameCollection and to must be strings");
        NamespaceString src = NamespaceString::parse(from.valueStringData());
        NamespaceString dst = NamespaceString::parse(to.valueStringData());
        for (auto* n : {&src, &dst}) {
            if (n->coll().empty()) uasserted(ErrorCodes::InvalidNamespace, "Invalid namespace specified '" + n->ns() + "'");
            uassertStatusOK(NamespaceString::validateNamespace(n->db(), n->coll()));
        }
        bool dropTarget = !req.body["dropTarget"].eoo() && parseBoolArg(req.body["dropTarget"], "renameCollection");
        if (!req.body["stayTemp"].eoo()) parseBoolArg(req.body["stayTemp"], "renameCollection");
        if ((src.ns() == "local.oplog.rs" || dst.ns() == "local.oplog.rs") &&
            repl::ReplicationCoordinator::get()->isReplSet())
            uasserted(ErrorCodes::IllegalOperation, "Cannot rename the oplog while replicating");
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            if (ViewCatalog::isView(opCtx, src))
                uasserted(ErrorCodes::CommandNotSupportedOnView, "cannot rename view: " + src.ns());
            if (ViewCatalog::isView(opCtx, dst))
                uasserted(ErrorCodes::NamespaceExists, "a view already exists with that name: " + dst.ns());
            if (src == dst) uasserted(ErrorCodes::IllegalOperation, "Can't rename a collection to itself");
            if (!CollectionCatalog::get()->lookupCollection(opCtx, src))
                uasserted(ErrorCodes::NamespaceNotFound, "Source collection " + src.ns() + " does not exist");
            if (CollectionCatalog::get()->lookupCollection(opCtx, dst) && !dropTarget)
                uasserted(ErrorCodes::NamespaceExists, "target namespace exists");
            CollectionCatalog::get()->renameCollection(opCtx, src, dst, dropTarget);
        });
    }
};
RenameCollectionCmd renameCollectionCmd;

class ListCollectionsCmd : public Command {
public:
    ListCollectionsCmd() : Command("listCollections") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onDatabase(req.db(), {ActionType::listCollections}); }
    std::string help() const override { return "list the collections of a database"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONObj filter = parseObjectArg(req.body["filter"], "listCollections");
        bool nameOnly = !req.body["nameOnly"].eoo() && parseBoolArg(req.body["nameOnly"], "listCollections");
        Matcher matcher(filter);
        auto authorized = auth::listDatabasesFilter(opCtx);  // nullopt: all of them
        CatalogReadLock lock;
        std::vector<BSONObj> docs;
        auto* cat = CollectionCatalog::get();
        for (const NamespaceString& nss : cat->listCollections(opCtx, req.db())) {
            Collection* c = cat->lookupCollection(opCtx, nss);
            if (!c) continue;
            BSONObjBuilder d;
            d.append("name", nss.coll());
            d.append("type", "collection");
            if (!nameOnly) {
                d.append("options", userOptions(c->options().raw));
                BSONObjBuilder info;
                info.append("readOnly", false);
                appendUuidHex(info, "uuid", c->uuid());
                d.append("info", info.obj());
                // The _id index as created (with the collection's collation, if any).
                const IndexDescriptor* id = c->getIndexCatalog()->findIndexByName("_id_");
                d.append("idIndex", id ? id->infoObj : idIndexSpec(c->options().collator.get()));
            }
            BSONObj doc = d.obj();
            if (matcher.matches(doc)) docs.push_back(doc);
        }
        for (const ViewDefinition& v : ViewCatalog::list(opCtx, req.db())) {
            BSONObjBuilder d;
            d.append("name", v.name.coll());
            d.append("type", "view");
            if (!nameOnly) {
                BSONObjBuilder o;
                o.append("viewOn", v.viewOn);
                o.appendArray("pipeline", v.pipelineArray());
                if (v.collator) o.append("collation", v.collator->spec());
                d.append("options", o.obj());
                BSONObjBuilder info;
                info.append("readOnly", true);
                d.append("info", info.obj());
            }
            BSONObj doc = d.obj();
            if (matcher.matches(doc)) docs.push_back(doc);
        }
        replyWithCursor(opCtx, NamespaceString(req.db(), "$cmd.listCollections"),
                        std::make_unique<VectorCursorSource>(std::move(docs)), req.body, result);
    }
};
ListCollectionsCmd listCollectionsCmd;

class ListDatabasesCmd : public Command {
public:
    ListDatabasesCmd() : Command("listDatabases") {}
    // Without the listDatabases action, a user sees the databases it has privileges on, unless
    // it asks for all of them (authorizedDatabases: false), as in MongoDB.
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        BSONElement a = req.body["authorizedDatabases"];
        if (!a.eoo() && !a.trueValue()) return RequiredPrivileges::onCluster({ActionType::listDatabases});
        return RequiredPrivileges::authenticated();
    }
    std::string help() const override { return "list databases and their sizes"; }
    bool adminOnly() const override { return true; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONObj filter = parseObjectArg(req.body["filter"], "listDatabases");
        bool nameOnly = !req.body["nameOnly"].eoo() && parseBoolArg(req.body["nameOnly"], "listDatabases");
        Matcher matcher(filter);
        BSONElement authorizedArg = req.body["authorizedDatabases"];
        const bool authorizedOnly = !authorizedArg.eoo() && authorizedArg.trueValue();
        auto authorized = auth::listDatabasesFilter(opCtx, authorizedOnly);  // nullopt: all of them
        CatalogReadLock lock;
        auto* cat = CollectionCatalog::get();
        BSONArrayBuilder dbs;
        long long total = 0;
        for (const std::string& db : cat->listDatabases(opCtx)) {
            if (authorized && !(*authorized)(db)) continue;
            BSONObjBuilder d;
            d.append("name", db);
            if (!nameOnly) {
                long long size = cat->databaseSizeOnDisk(opCtx, db);
                total += size;
                d.append("sizeOnDisk", size);
                d.append("empty", cat->listCollections(opCtx, db).empty());
            }
            BSONObj doc = d.obj();
            if (matcher.matches(doc)) dbs.append(doc);
        }
        result.append("databases", dbs.arr());
        if (!nameOnly) {
            result.append("totalSize", total);
            result.append("totalSizeMb", total / (1024 * 1024));
        }
    }
};
ListDatabasesCmd listDatabasesCmd;

}  // namespace
}  // namespace mongo
