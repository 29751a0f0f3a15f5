#include "mongo/db/catalog/index_catalog_impl.h"
#include "mongo/db/service_context.h"
#include "mongo/db/catalog/index_constraints.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_impl.h"
#include "mongo/db/catalog/index_spec.h"
#include "mongo/db/query/index_entry.h"
#include "mongo/db/query/match_expression.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/storage/duplicate_key_error.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

class IndexCursorImpl : public IndexCursor {
public:
    IndexCursorImpl(const CollectionImpl* coll, std::unique_ptr<SortedDataInterface::Cursor> cursor)
        : _coll(coll), _cursor(std::move(cursor)) {}
    std::optional<IndexKeyEntry> seek(const BSONObj& key, bool inclusive) override {
        return convert(_cursor->seek(key, inclusive));
    }
    std::optional<IndexKeyEntry> next() override { return convert(_cursor->next()); }
    void save() override { _cursor->save(); }
    bool restore() override { return !_coll->isDropped() && _cursor->restore(); }

private:
    static std::optional<IndexKeyEntry> convert(std::optional<KeyEntry> e) {
        if (!e) return std::nullopt;
        return IndexKeyEntry{std::move(e->key), e->loc};
    }
    const CollectionImpl* _coll;
    std::unique_ptr<SortedDataInterface::Cursor> _cursor;
};

// MongoDB 7.0 accepts in a partialFilterExpression only equality, $exists: true, $gt/$gte/$lt/
// $lte, $type, $in, $and and $or; the first node that is anything else, or null.
const MatchExpression* unsupportedInPartialFilter(const MatchExpression* e) {
    switch (e->matchType()) {
        case MatchType::kAnd:
        case MatchType::kOr:
            for (size_t i = 0; i < e->numChildren(); i++)
                if (const MatchExpression* bad = unsupportedInPartialFilter(e->getChild(i))) return bad;
            return nullptr;
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte:
        case MatchType::kExists:
        case MatchType::kType:
        case MatchType::kIn: return nullptr;
        default: return e;
    }
}

}  // namespace

std::unique_ptr<IndexCatalogImpl::Entry> IndexCatalogImpl::makeEntry(const IndexMetaData& md) const {
    auto e = std::make_unique<Entry>();
    e->desc.infoObj = md.spec.getOwned();
    e->desc.name = md.spec["name"].str();
    e->desc.keyPattern = md.spec["key"].Obj().getOwned();
    e->desc.unique = e->desc.isIdIndex() || md.spec["unique"].trueValue();
    e->desc.sparse = md.spec["sparse"].trueValue();
    e->desc.hidden = md.spec["hidden"].trueValue();
    e->ident = md.ident;
    e->desc.ident = md.ident;
    e->mkCommitted = md.multikeyPaths;
    e->mkCommitted.resize(static_cast<size_t>(e->desc.keyPattern.nFields()));
    e->mkVisible = e->mkCommitted;
    SortedDataOptions opts;
    opts.ordering = key_string::Ordering::make(e->desc.keyPattern);
    opts.unique = e->desc.unique;
    e->sdi = _coll->engine()->kvEngine()->getSortedDataInterface(md.ident, opts);
    if (BSONElement c = md.spec["collation"]; c.type() == Object) e->desc.collator = Collator::make(c.Obj());
    e->keyGen = std::make_unique<IndexKeyGenerator>(e->desc.keyPattern, e->desc.sparse, e->desc.collator);
    BSONElement pfe = md.spec["partialFilterExpression"];
    // The partial filter compares strings under the index's collation, as MongoDB does.
    if (pfe.type() == Object)
        e->partialFilter = std::make_unique<Matcher>(pfe.Obj().getOwned(), e->desc.collator);
    e->desc.partial = e->partialFilter != nullptr;
    return e;
}

void IndexCatalogImpl::openIndex(const IndexMetaData& md) { _entries.push_back(makeEntry(md)); }

std::vector<const IndexDescriptor*> IndexCatalogImpl::getAllIndexes() const {
    std::vector<const IndexDescriptor*> out;
    for (auto& e : _entries) out.push_back(&e->desc);
    return out;
}

const IndexDescriptor* IndexCatalogImpl::findIndexByName(const std::string& name) const {
    for (auto& e : _entries)
        if (e->desc.name == name) return &e->desc;
    return nullptr;
}

const IndexDescriptor* IndexCatalogImpl::findIndexByKeyPattern(const BSONObj& keyPattern) const {
    for (auto& e : _entries)
        if (e->desc.keyPattern.binaryEqual(keyPattern)) return &e->desc;
    for (auto& e : _entries)  // {a: 1.0} names the same index as {a: 1}
        if (e->desc.keyPattern.woCompare(keyPattern) == 0) return &e->desc;
    return nullptr;
}

IndexCatalogImpl::Entry* IndexCatalogImpl::findEntry(const IndexDescriptor* desc) const {
    for (auto& e : _entries)
        if (&e->desc == desc) return e.get();
    invariant(false);
    return nullptr;
}

bool IndexCatalogImpl::createIndex(OperationContext* opCtx, const BSONObj& rawSpec) {
    BSONObj spec = validateAndNormalizeIndexSpec(rawSpec, _coll->options().collator.get());
    std::string name = spec["name"].str();
    BSONObj kp = spec["key"].Obj();
    if (const IndexDescriptor* same = findIndexByName(name)) {
        if (same->keyPattern.woCompare(kp) != 0 || indexesMayCoexist(spec, same->infoObj))
            uasserted(ErrorCodes::IndexKeySpecsConflict,
                      "An existing index has the same name as the requested index. When index names are not "
                      "specified, they are auto generated and can cause conflicts. Please refer to our "
                      "documentation. Requested index: " + specForMessage(spec) +
                          ", existing index: " + specForMessage(same->infoObj));
        if (!indexOptionsEquivalent(spec, same->infoObj))
            uasserted(ErrorCodes::IndexOptionsConflict,
                      "An equivalent index already exists with the same name but different options. Requested "
                      "index: " + specForMessage(spec) + ", existing index: " + specForMessage(same->infoObj));
        return false;
    }
    for (auto& e : _entries) {
        if (e->desc.keyPattern.woCompare(kp) != 0 || indexesMayCoexist(spec, e->desc.infoObj)) continue;
        if (indexOptionsEquivalent(spec, e->desc.infoObj))
            uasserted(ErrorCodes::IndexOptionsConflict, "Index already exists with a different name: " + e->desc.name);
        uasserted(ErrorCodes::IndexOptionsConflict,
                  "An equivalent index already exists with a different name and options. Requested index: " +
                      specForMessage(spec) + ", existing index: " + specForMessage(e->desc.infoObj));
    }
    if (opCtx->recoveryUnit()->isMultiStatement()) {
        // MongoDB 7.0: a new index only on a collection the transaction created, still empty
        // (an index that exists already is answered above); it is part of that uncommitted
        // collection and commits or rolls back with it.
        uassert(ErrorCodes::OperationNotSupportedInTransaction,
                "Cannot create new indexes on existing collection " + _coll->ns().ns() +
                    " in a multi-document transaction.",
                _coll->creatingTransaction() == opCtx->recoveryUnit());
        uassert(ErrorCodes::OperationNotSupportedInTransaction,
                "Cannot create new indexes on non-empty collection " + _coll->ns().ns() +
                    " in a multi-document transaction.",
                !_coll->recordStore()->getCursor(opCtx, true)->next());
    }
    if (BSONElement pfe = spec["partialFilterExpression"]; pfe.type() == Object) {
        Matcher check(pfe.Obj());
        if (const MatchExpression* bad = unsupportedInPartialFilter(check.root()))
            uasserted(ErrorCodes::CannotCreateIndex, "Error in specification " + specForMessage(spec) +
                                                         " :: caused by :: Expression not supported in partial index: " +
                                                         serializeMatchExpression(*bad).toString());
    }
    // MongoDB's limit of 64 indexes per collection, the _id index included: every index is
    // maintained on every write, so an unbounded number is a cost no client should be able to impose.
    constexpr size_t kMaxIndexes = 64;
    if (_entries.size() >= kMaxIndexes)
        uasserted(ErrorCodes::CannotCreateIndex,
                  "add index fails, too many indexes for " + _coll->ns().ns() + " key:" + kp.toString());

    IndexMetaData md;
    md.spec = spec;
    md.ident = _coll->durableCatalog()->newIndexIdent();
    KVEngine* kv = _coll->engine()->kvEngine();
    SortedDataOptions opts;
    opts.ordering = key_string::Ordering::make(kp);
    kv->createSortedDataInterface(md.ident, opts);
    std::unique_ptr<Entry> entry = makeEntry(md);
    try {
        buildIndex(opCtx, *entry);
    } catch (...) {
        entry.reset();
        kv->dropIdent(md.ident);
        throw;
    }

    // The index becomes part of the collection only now, in one unit of work with its
    // catalog entry.
    WriteUnitOfWork wuow(opCtx);
    std::string ident = md.ident;
    opCtx->recoveryUnit()->onRollback([kv, ident] { kv->dropIdent(ident); });
    {
        std::lock_guard<std::mutex> lk(entry->mkMutex);
        md.multikeyPaths = entry->mkVisible;
    }
    md.multikey = anyMultikey(md.multikeyPaths);
    CollectionMetaData cmd = _coll->metaData();
    cmd.indexes.push_back(md);
    _coll->setMetaData(opCtx, std::move(cmd));
    Entry* added = entry.get();
    _entries.push_back(std::move(entry));
    opCtx->recoveryUnit()->onRollback([this] { _entries.pop_back(); });
    opCtx->recoveryUnit()->onCommit([added] {
        std::lock_guard<std::mutex> lk(added->mkMutex);
        added->mkCommitted = added->mkVisible;
    });
    repl::OpObserver::get()->onCreateIndex(opCtx, *_coll, spec);
    wuow.commit();
    LOGV2(20345, Index, "Index build: done building",
          logv2::attrs("namespace", _coll->ns().ns(), "index", name, "ident", md.ident));
    return true;
}

// Scans the collection in batches, each its own unit of work, so that a large build does not
// hold everything in one transaction. The index is not visible to anyone until createIndex
// commits its catalog entry; on failure its table is dropped.
void IndexCatalogImpl::buildIndex(OperationContext* opCtx, Entry& e) {
    auto cursor = _coll->recordStore()->getCursor(opCtx, true);
    bool more = true;
    while (more) {
        WriteUnitOfWork wuow(opCtx);
        for (int n = 0; n < 1000; ++n) {
            auto r = cursor->next();
            if (!r) {
                more = false;
                break;
            }
            KeyStringSet keys;
            MultikeyPaths paths;
            getKeys(e, r->data.toBson(), &keys, &paths);
            if (anyMultikey(paths)) {
                // Not yet visible to anyone: createIndex persists these with the catalog entry.
                std::lock_guard<std::mutex> lk(e.mkMutex);
                mergeMultikeyPaths(&e.mkVisible, paths);
            }
            insertKeys(opCtx, e, keys, r->id);
        }
        wuow.commit();
        opCtx->checkForInterrupt();
    }
}

void IndexCatalogImpl::dropIndex(OperationContext* opCtx, const std::string& name) {
    const IndexDescriptor* desc = findIndexByName(name);
    uassert(ErrorCodes::IndexNotFound, "index not found with name [" + name + "]", desc);
    uassert(ErrorCodes::InvalidOptions, "cannot drop _id index", !desc->isIdIndex());
    size_t pos = 0;
    while (&_entries[pos]->desc != desc) ++pos;
    std::string ident = _entries[pos]->ident;
    BSONObj spec = desc->infoObj.getOwned();
    {
        WriteUnitOfWork wuow(opCtx);
        CollectionMetaData cmd = _coll->metaData();
        for (auto it = cmd.indexes.begin(); it != cmd.indexes.end(); ++it)
            if (it->spec["name"].str() == name) {
                cmd.indexes.erase(it);
                break;
            }
        _coll->setMetaData(opCtx, std::move(cmd));
        repl::OpObserver::get()->onDropIndex(opCtx, *_coll, name, spec);
        wuow.commit();
    }
    _entries.erase(_entries.begin() + pos);
    _coll->engine()->kvEngine()->dropIdent(ident);
}

void IndexCatalogImpl::updateIndexSpec(OperationContext* opCtx, const std::string& name, const BSONObj& spec) {
    const IndexDescriptor* desc = findIndexByName(name);
    uassert(ErrorCodes::IndexNotFound, "index not found with name [" + name + "]", desc);
    Entry* e = findEntry(desc);
    CollectionMetaData cmd = _coll->metaData();
    IndexMetaData* md = cmd.findIndex(name);
    invariant(md);
    md->spec = spec.getOwned();
    _coll->setMetaData(opCtx, std::move(cmd));
    BSONObj oldSpec = e->desc.infoObj;
    e->desc.infoObj = spec.getOwned();
    e->desc.hidden = spec["hidden"].trueValue();
    opCtx->recoveryUnit()->onRollback([e, oldSpec] {
        e->desc.infoObj = oldSpec;
        e->desc.hidden = oldSpec["hidden"].trueValue();
    });
}

std::unique_ptr<IndexCursor> IndexCatalogImpl::newCursor(OperationContext* opCtx, const IndexDescriptor* desc,
                                                         bool forward) const {
    return std::make_unique<IndexCursorImpl>(_coll, findEntry(desc)->sdi->newCursor(opCtx, forward));
}

bool IndexCatalogImpl::isMultikey(OperationContext* opCtx, const IndexDescriptor* desc) const {
    return anyMultikey(getMultikeyPaths(opCtx, desc));
}

MultikeyPaths IndexCatalogImpl::getMultikeyPaths(OperationContext* opCtx, const IndexDescriptor* desc) const {
    Entry* e = findEntry(desc);
    std::lock_guard<std::mutex> lk(e->mkMutex);
    return e->mkVisible;
}

const Matcher* IndexCatalogImpl::partialFilter(const IndexDescriptor* desc) const {
    return findEntry(desc)->partialFilter.get();
}

long long IndexCatalogImpl::indexSize(OperationContext* opCtx, const IndexDescriptor* desc) const {
    return findEntry(desc)->sdi->sizeBytes(opCtx);
}

long long IndexCatalogImpl::numKeys(OperationContext* opCtx, const IndexDescriptor* desc) const {
    return findEntry(desc)->sdi->numEntries(opCtx);
}

void IndexCatalogImpl::getKeys(const Entry& e, const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* paths) const {
    if (e.partialFilter && !e.partialFilter->matches(doc)) return;
    e.keyGen->getKeys(doc, keys, paths);
}

void IndexCatalogImpl::insertKeys(OperationContext* opCtx, Entry& e, const KeyStringSet& keys, RecordId id) {
    for (const BSONObj& key : keys) {
        // Initial sync relaxes unique secondary indexes (index_constraints.h); _id stays unique.
        const bool dupsAllowed = !e.desc.unique || (RelaxedUniqueIndexScope::active() && !e.desc.isIdIndex());
        Status s = e.sdi->insert(opCtx, key, id, dupsAllowed);
        if (s.code() == int(ErrorCodes::DuplicateKey))
            throw DuplicateKeyException(_coll->ns(), e.desc.name, e.desc.keyPattern,
                                        keyWithFieldNames(e.desc.keyPattern, key),
                                        e.desc.collator ? e.desc.collator->spec() : BSONObj());
        uassertStatusOK(s);
    }
}

// A document with arrays along new key-path components records them in the catalog entry, in
// the same unit of work as the document itself.
void IndexCatalogImpl::noteMultikey(OperationContext* opCtx, Entry& e, const MultikeyPaths& paths) {
    if (opCtx->recoveryUnit()->isMultiStatement() && _coll->creatingTransaction() != opCtx->recoveryUnit()) {
        // (A collection the transaction created is its own until it commits: its flags are
        // written in the transaction like the rest of its catalog entry.)
        // A transaction's unit stays open while others write, and an abort would set the
        // visible paths back over what they added meanwhile: the flags are recorded in a unit
        // of their own, committed now (under the write lock the caller holds). Multikey only
        // grows, so a flag left by an aborted transaction costs nothing but tighter plans
        // (MongoDB records it outside the transaction too).
        auto own = makeOperationContextOutsideTransaction(opCtx->getClient());
        WriteUnitOfWork wuow(own.get());
        noteMultikey(own.get(), e, paths);
        wuow.commit();
        return;
    }
    MultikeyPaths merged;
    {
        std::lock_guard<std::mutex> lk(e.mkMutex);
        merged = e.mkVisible;
    }
    if (!mergeMultikeyPaths(&merged, paths)) return;
    CollectionMetaData cmd = _coll->metaData();
    if (IndexMetaData* md = cmd.findIndex(e.desc.name)) {
        md->multikey = true;
        md->multikeyPaths = merged;
    }
    _coll->setMetaData(opCtx, std::move(cmd));
    {
        std::lock_guard<std::mutex> lk(e.mkMutex);
        e.mkVisible = merged;
    }
    Entry* p = &e;
    opCtx->recoveryUnit()->onCommit([p, merged] {
        std::lock_guard<std::mutex> lk(p->mkMutex);
        mergeMultikeyPaths(&p->mkCommitted, merged);
    });
    opCtx->recoveryUnit()->onRollback([p] {
        std::lock_guard<std::mutex> lk(p->mkMutex);
        p->mkVisible = p->mkCommitted;
    });
}

void IndexCatalogImpl::indexDocument(OperationContext* opCtx, const BSONObj& doc, RecordId id) {
    for (auto& e : _entries) {
        KeyStringSet keys;
        MultikeyPaths paths;
        getKeys(*e, doc, &keys, &paths);
        if (anyMultikey(paths)) noteMultikey(opCtx, *e, paths);
        insertKeys(opCtx, *e, keys, id);
    }
}

void IndexCatalogImpl::unindexDocument(OperationContext* opCtx, const BSONObj& doc, RecordId id) {
    for (auto& e : _entries) {
        KeyStringSet keys;
        MultikeyPaths paths;
        try {
            getKeys(*e, doc, &keys, &paths);
        } catch (const DBException&) {
            continue;  // a document that could not have been indexed has no keys to remove
        }
        for (const BSONObj& key : keys) e->sdi->unindex(opCtx, key, id);
    }
}

void IndexCatalogImpl::updateDocument(OperationContext* opCtx, const BSONObj& oldDoc, const BSONObj& newDoc,
                                      RecordId id) {
    for (auto& e : _entries) {
        KeyStringSet oldKeys, newKeys;
        MultikeyPaths oldPaths, newPaths;
        getKeys(*e, oldDoc, &oldKeys, &oldPaths);
        getKeys(*e, newDoc, &newKeys, &newPaths);
        if (anyMultikey(newPaths)) noteMultikey(opCtx, *e, newPaths);
        // Keys equal in value but not in type (1 vs 1.0) are rewritten so the index returns
        // the new type.
        auto sameKey = [](const KeyStringSet& set, const BSONObj& k) {
            auto it = set.find(k);
            return it != set.end() && it->binaryEqual(k);
        };
        KeyStringSet added;
        for (const BSONObj& k : oldKeys)
            if (!sameKey(newKeys, k)) e->sdi->unindex(opCtx, k, id);
        for (const BSONObj& k : newKeys)
            if (!sameKey(oldKeys, k)) added.insert(k);
        insertKeys(opCtx, *e, added, id);
    }
}

void IndexCatalogImpl::truncateAll(OperationContext* opCtx) {
    for (auto& e : _entries) e->sdi->truncate(opCtx);
}

std::vector<std::string> IndexCatalogImpl::idents() const {
    std::vector<std::string> out;
    for (auto& e : _entries) out.push_back(e->ident);
    return out;
}

long long IndexCatalogImpl::totalIndexSize(OperationContext* opCtx) const {
    long long n = 0;
    for (auto& e : _entries) n += e->sdi->sizeBytes(opCtx);
    return n;
}

}  // namespace mongo
