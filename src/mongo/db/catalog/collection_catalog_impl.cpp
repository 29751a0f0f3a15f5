#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/given_collection_uuid.h"
#include "mongo/db/catalog/collection_catalog_impl.h"

#include <set>

#include "mongo/db/auth/auth_store.h"
#include "mongo/db/catalog/index_spec.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/service_context.h"
#include "mongo/db/views/view_catalog.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// "block_compressor=zstd" inside {storageEngine: {wiredTiger: {configString: ...}}}.
std::string blockCompressorFromOptions(const BSONObj& options) {
    BSONElement se = options["storageEngine"];
    if (se.type() != Object) return "";
    BSONElement wt = se.Obj()["wiredTiger"];
    if (wt.type() != Object || wt.Obj()["configString"].type() != String) return "";
    std::string cfg = wt.Obj()["configString"].str();
    auto pos = cfg.find("block_compressor=");
    if (pos == std::string::npos) return "";
    std::string v = cfg.substr(pos + 17);
    v = v.substr(0, v.find(','));
    return v.empty() ? "none" : v;
}

// Deduplication is for user data: not the admin, local and config databases, not system.*
// collections, and not capped collections (they delete oldest first, the records every
// newer version's chain starts from, so most deletes would only retain bytes).
bool storesDeduplicated(const StorageEngine* engine, const NamespaceString& nss, const CollectionOptions& o) {
    if (!engine->options().dedup || !o.dedup || o.capped || nss.isSystem()) return false;
    return nss.db() != "admin" && nss.db() != "local" && nss.db() != "config";
}

CollectionOptions optionsFromCatalog(const BSONObj& raw) {
    auto sw = CollectionOptions::parse(raw);
    if (sw.isOK()) return sw.getValue();
    CollectionOptions o;
    o.raw = raw.getOwned();
    return o;
}

}  // namespace

CollectionCatalogImpl::CollectionCatalogImpl(OperationContext* opCtx, StorageEngine* engine) : _engine(engine) {
    KVEngine* kv = engine->kvEngine();
    _durable = std::make_unique<DurableCatalog>(kv);
    std::set<std::string> referenced;
    for (auto& [id, md] : _durable->getAll(opCtx)) {
        referenced.insert(md.ident);
        for (auto& idx : md.indexes) referenced.insert(idx.ident);
        std::string ns = md.ns;
        CollectionOptions options = optionsFromCatalog(md.options);
        _collections[ns] = std::make_unique<CollectionImpl>(engine, _durable.get(), id, std::move(md), std::move(options));
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    for (const std::string& ident : kv->getAllIdents()) {
        if (!DurableCatalog::isCollectionOrIndexIdent(ident) || referenced.count(ident)) continue;
        LOGV2(22251, Storage, "Dropping unknown ident", logv2::attrs("ident", ident));
        kv->dropIdent(ident);
    }
    LOGV2(4615611, Storage, "Collection catalog loaded", logv2::attrs("collections", (long long)_collections.size()));
}

CollectionCatalogImpl::~CollectionCatalogImpl() = default;

CollectionImpl* CollectionCatalogImpl::lookupImpl(const NamespaceString& nss) const {
    std::shared_lock<std::shared_mutex> lk(_mutex);
    auto it = _collections.find(nss.ns());
    return it == _collections.end() ? nullptr : it->second.get();
}

Collection* CollectionCatalogImpl::lookupCollection(OperationContext* opCtx, const NamespaceString& nss) const {
    std::shared_lock<std::shared_mutex> lk(_mutex);
    auto it = _collections.find(nss.ns());
    if (it != _collections.end()) return it->second.get();
    auto u = _uncommitted.find(nss.ns());
    if (u != _uncommitted.end() && opCtx && u->second->creatingTransaction() == opCtx->recoveryUnit())
        return u->second.get();
    return nullptr;
}

void CollectionCatalogImpl::checkNotCreatedUncommitted(OperationContext* opCtx, const NamespaceString& nss) const {
    std::shared_lock<std::shared_mutex> lk(_mutex);
    auto u = _uncommitted.find(nss.ns());
    if (u == _uncommitted.end()) return;
    uassert(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.",
            u->second->creatingTransaction() != opCtx->recoveryUnit());
    // MongoDB: the other transaction's uncommitted catalog change is a write conflict.
    uasserted(ErrorCodes::WriteConflict, "Collection " + nss.ns() +
                                             " is being created by a transaction that has not committed yet");
}

CollectionImpl* CollectionCatalogImpl::addCreated(RecoveryUnit* ru, std::unique_ptr<CollectionImpl> coll,
                                                  bool inTransaction) {
    CollectionImpl* raw = coll.get();
    const std::string ns = raw->ns().ns();
    std::unique_lock<std::shared_mutex> lk(_mutex);
    if (!inTransaction) {
        _collections[ns] = std::move(coll);
        ru->onRollback([this, ns] {
            std::unique_lock<std::shared_mutex> lk(_mutex);
            _collections.erase(ns);
        });
        return raw;
    }
    raw->setCreatingTransaction(ru);
    _uncommitted[ns] = std::move(coll);
    ru->onCommit([this, ns] {
        std::unique_lock<std::shared_mutex> lk(_mutex);
        auto it = _uncommitted.find(ns);
        it->second->setCreatingTransaction(nullptr);
        _collections[ns] = std::move(it->second);
        _uncommitted.erase(it);
    });
    ru->onRollback([this, ns] {
        // Destroyed at once (not kept in _dropped for cursors, which would grow with every
        // aborted transaction): only the transaction saw it, and its cursors were killed before
        // its unit is rolled back.
        std::unique_ptr<CollectionImpl> doomed;
        {
            std::unique_lock<std::shared_mutex> lk(_mutex);
            auto it = _uncommitted.find(ns);
            doomed = std::move(it->second);
            _uncommitted.erase(it);
        }
        doomed->markDropped();
    });
    return raw;
}

Collection* CollectionCatalogImpl::createCollection(OperationContext* opCtx, const NamespaceString& nss,
                                                    const CollectionOptions& options) {
    // The last line of defence: whatever path a name took, nothing invalid is ever created.
    uassertStatusOK(NamespaceString::validateUserCreatable(nss.db(), nss.coll()));
    uassert(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.", !lookupImpl(nss));
    checkNotCreatedUncommitted(opCtx, nss);
    // A command of a multi-document transaction (explicit create or an implicit one) creates
    // the collection in the transaction: its catalog entry commits or rolls back with it.
    const bool inTransaction = opCtx->recoveryUnit()->isMultiStatement();
    uassert(ErrorCodes::OperationNotSupportedInTransaction,
            "Cannot create system collection " + nss.ns() + " within a transaction.", !inTransaction || !nss.isSystem());
    if (inTransaction) {
        // The caller looked for a view of this name in the transaction's snapshot: one created
        // since is a write conflict (the transaction is retried and then sees it).
        auto outside = makeOperationContextOutsideTransaction(opCtx->getClient());
        uassert(ErrorCodes::WriteConflict, "A view " + nss.ns() + " was created after the transaction began",
                !ViewCatalog::isView(outside.get(), nss));
    }
    KVEngine* kv = _engine->kvEngine();

    CollectionMetaData md;
    md.ns = nss.ns();
    // A secondary's or an initial sync's creation keeps the primary's UUID (given_collection_uuid.h).
    const std::string& given = GivenCollectionUuid::current();
    md.uuid = given.empty() ? generateUuidHex() : given;
    md.ident = _durable->newCollectionIdent();
    md.options = options.raw.getOwned();
    md.dedup = storesDeduplicated(_engine, nss, options);
    // The oplog has no _id index (as in MongoDB): its entries have no _id, and it is read in
    // insertion order only.
    const bool withIdIndex = !(nss.db() == "local" && nss.coll() == "oplog.rs");
    IndexMetaData idIndex;
    if (withIdIndex) {
        idIndex.spec = idIndexSpec(options.collator.get());
        idIndex.ident = _durable->newIndexIdent();
        md.indexes.push_back(idIndex);
    }

    RecordStoreOptions rso;
    rso.blockCompressor = blockCompressorFromOptions(options.raw);
    if (md.dedup) {
        // Most records of a deduplicated collection end up as deltas of a few hundred bytes,
        // rewritten after their page was first filled with their raw versions: pages hold few
        // bytes once their write-backs land, and a 4 KB allocation unit then rounds each
        // compressed page up by 2 KB on average. 512-byte units and 64 KB leaf pages (more
        // records, and better compression, per page): peps-history (105 MB) loaded by 1 or 4
        // saturating clients into --dedup + zstd took 4.9-6.0 MB of data files 30 s after the
        // load instead of 7.8-10.4 MB (3 runs each; the collection file 4.3-5.3 MB, not 7.3-8.2).
        rso.allocationSizeBytes = 512;
        rso.leafPageMaxBytes = 64 * 1024;
        rso.firstFitAllocation = true;
    }
    kv->createRecordStore(md.ident, rso);
    if (withIdIndex) {
        SortedDataOptions sdo;
        sdo.ordering = key_string::Ordering::make(idIndex.spec["key"].Obj());
        sdo.unique = true;
        try {
            kv->createSortedDataInterface(idIndex.ident, sdo);
        } catch (...) {
            kv->dropIdent(md.ident);
            throw;
        }
    }

    WriteUnitOfWork wuow(opCtx);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    std::vector<std::string> idents = {md.ident};
    if (withIdIndex) idents.push_back(idIndex.ident);
    ru->onRollback([kv, idents] {
        for (auto& i : idents) kv->dropIdent(i);
    });
    RecordId catalogId = _durable->add(opCtx, md);
    CollectionImpl* raw = addCreated(
        ru, std::make_unique<CollectionImpl>(_engine, _durable.get(), catalogId, std::move(md), options), inTransaction);
    repl::OpObserver::get()->onCreateCollection(opCtx, *raw, idIndex.spec);
    wuow.commit();
    LOGV2(20320, Storage, "createCollection",
          logv2::attrs("namespace", nss.ns(), "uuidDisposition", given.empty() ? "generated" : "provided", "uuid", raw->uuid(), "options",
                       options.raw, "inTransaction", inTransaction));
    return raw;
}

void CollectionCatalogImpl::dropCollection(OperationContext* opCtx, const NamespaceString& nss) {
    dropCollectionImpl(opCtx, nss, true);
}

void CollectionCatalogImpl::dropCollectionImpl(OperationContext* opCtx, const NamespaceString& nss, bool observe) {
    CollectionImpl* coll = lookupImpl(nss);
    uassert(ErrorCodes::NamespaceNotFound, "ns not found", coll);
    KVEngine* kv = _engine->kvEngine();
    std::vector<std::string> idents = coll->indexCatalogImpl()->idents();
    idents.push_back(coll->metaData().ident);

    WriteUnitOfWork wuow(opCtx);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    _durable->remove(opCtx, coll->catalogId());
    coll->recordStore()->onDrop(opCtx);
    kv->sizeStorer()->remove(opCtx, coll->metaData().ident);
    {
        std::unique_lock<std::shared_mutex> lk(_mutex);
        auto it = _collections.find(nss.ns());
        _dropped.push_back(std::move(it->second));
        _collections.erase(it);
    }
    ru->onRollback([this, coll, ns = nss.ns()] {
        std::unique_lock<std::shared_mutex> lk(_mutex);
        for (auto it = _dropped.begin(); it != _dropped.end(); ++it)
            if (it->get() == coll) {
                _collections[ns] = std::move(*it);
                _dropped.erase(it);
                break;
            }
    });
    ru->onCommit([kv, coll, idents] {
        coll->markDropped();
        for (auto& i : idents) kv->dropIdent(i);
    });
    if (observe) repl::OpObserver::get()->onDropCollection(opCtx, nss, coll->uuid());
    auth::noteWriteToAuthCollection(opCtx, nss);
    wuow.commit();
    LOGV2(20318, Storage, "Finishing collection drop", logv2::attrs("namespace", nss.ns(), "uuid", coll->uuid()));
}

void CollectionCatalogImpl::dropDatabase(OperationContext* opCtx, const std::string& db) {
    {
        // A transaction creating a collection in db would bring the database back when it
        // commits: the drop waits for it (MongoDB's drop waits for the transaction's locks).
        std::shared_lock<std::shared_mutex> lk(_mutex);
        for (auto& [ns, coll] : _uncommitted)
            if (coll->ns().db() == db)
                uasserted(ErrorCodes::WriteConflict,
                          "Collection " + ns + " is being created by a transaction that has not committed yet");
    }
    auto colls = listCollections(opCtx, db);
    for (const NamespaceString& nss : colls) dropCollection(opCtx, nss);
    if (colls.empty()) return;
    // As MongoDB: each collection's drop, then the database's.
    WriteUnitOfWork wuow(opCtx);
    repl::OpObserver::get()->onDropDatabase(opCtx, db);
    wuow.commit();
}

void CollectionCatalogImpl::renameCollection(OperationContext* opCtx, const NamespaceString& from,
                                             const NamespaceString& to, bool dropTarget) {
    CollectionImpl* source = lookupImpl(from);
    uassert(ErrorCodes::NamespaceNotFound, "Source collection " + from.ns() + " does not exist", source);
    uassert(ErrorCodes::IllegalOperation, "Can't rename a collection to itself", from != to);
    uassertStatusOK(NamespaceString::validateUserCreatable(to.db(), to.coll()));
    checkNotCreatedUncommitted(opCtx, to);
    if (lookupImpl(to)) {
        uassert(ErrorCodes::NamespaceExists, "target namespace exists", dropTarget);
    }

    if (from.db() != to.db()) {
        // Across databases: copy into the target, then drop the source.
        if (lookupImpl(to)) dropCollection(opCtx, to);
        copyCollection(opCtx, source, to);
        dropCollection(opCtx, from);
        return;
    }

    WriteUnitOfWork wuow(opCtx);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    std::string dropTargetUuid;
    if (CollectionImpl* target = lookupImpl(to)) {
        // One renameCollection entry with dropTarget says it all, as in MongoDB.
        dropTargetUuid = target->uuid();
        dropCollectionImpl(opCtx, to, false);
    }
    CollectionMetaData md = source->metaData();
    md.ns = to.ns();
    source->setMetaData(opCtx, std::move(md));
    {
        std::unique_lock<std::shared_mutex> lk(_mutex);
        auto it = _collections.find(from.ns());
        _collections[to.ns()] = std::move(it->second);
        _collections.erase(from.ns());
        source->setNs(to);
    }
    ru->onRollback([this, source, from, to] {
        std::unique_lock<std::shared_mutex> lk(_mutex);
        auto it = _collections.find(to.ns());
        if (it != _collections.end() && it->second.get() == source) {
            _collections[from.ns()] = std::move(it->second);
            _collections.erase(to.ns());
        }
        source->setNs(from);
    });
    repl::OpObserver::get()->onRenameCollection(opCtx, from, to, source->uuid(), dropTargetUuid);
    auth::noteWriteToAuthCollection(opCtx, from);
    auth::noteWriteToAuthCollection(opCtx, to);
    wuow.commit();
    LOGV2(20319, Storage, "renameCollection", logv2::attrs("fromName", from.ns(), "toName", to.ns()));
}

void CollectionCatalogImpl::copyCollection(OperationContext* opCtx, CollectionImpl* from, const NamespaceString& to) {
    CollectionImpl* target = static_cast<CollectionImpl*>(createCollection(opCtx, to, from->options()));
    try {
        for (const IndexDescriptor* d : from->getIndexCatalog()->getAllIndexes())
            if (!d->isIdIndex()) target->getIndexCatalog()->createIndex(opCtx, d->infoObj);
        auto cursor = from->getCursor(opCtx, true);
        bool more = true;
        while (more) {
            // Batches keep each transaction's footprint in the WiredTiger cache bounded.
            WriteUnitOfWork wuow(opCtx);
            for (int n = 0; n < 1000; ++n) {
                auto r = cursor->next();
                if (!r) {
                    more = false;
                    break;
                }
                target->insertDocument(opCtx, r->doc);
            }
            wuow.commit();
            opCtx->checkForInterrupt();
        }
    } catch (...) {
        dropCollection(opCtx, to);
        throw;
    }
}

std::vector<std::string> CollectionCatalogImpl::listDatabases(OperationContext* opCtx) const {
    std::shared_lock<std::shared_mutex> lk(_mutex);
    std::set<std::string> dbs;
    for (auto& [ns, c] : _collections) dbs.insert(c->ns().db());
    return std::vector<std::string>(dbs.begin(), dbs.end());
}

std::vector<NamespaceString> CollectionCatalogImpl::listCollections(OperationContext* opCtx,
                                                                    const std::string& db) const {
    std::shared_lock<std::shared_mutex> lk(_mutex);
    std::vector<NamespaceString> out;
    for (auto& [ns, c] : _collections)
        if (c->ns().db() == db) out.push_back(c->ns());
    return out;
}

long long CollectionCatalogImpl::databaseSizeOnDisk(OperationContext* opCtx, const std::string& db) const {
    long long total = 0;
    for (const NamespaceString& nss : listCollections(opCtx, db)) {
        if (CollectionImpl* c = lookupImpl(nss))
            total += c->storageSize(opCtx) + c->indexCatalogImpl()->totalIndexSize(opCtx);
    }
    return total;
}

}  // namespace mongo
