#include "mongo/db/catalog/collection_impl.h"

#include "mongo/db/auth/auth_store.h"
#include "mongo/db/repl/op_observer.h"
#include "mongo/db/repl/oplog.h"

namespace mongo {
namespace {

// The collection-level cursor: documents as BSON over the record store's byte cursor.
class CollectionRecordCursor : public RecordCursor {
public:
    CollectionRecordCursor(const CollectionImpl* coll, std::unique_ptr<SeekableRecordCursor> cursor)
        : _coll(coll), _cursor(std::move(cursor)) {}

    std::optional<Record> next() override { return toRecord(_cursor->next()); }
    std::optional<Record> seekExact(RecordId id) override { return toRecord(_cursor->seekExact(id)); }
    void save() override { _cursor->save(); }
    bool restore() override { return !_coll->isDropped() && _cursor->restore(); }

private:
    static std::optional<Record> toRecord(std::optional<RecordEntry> e) {
        if (!e) return std::nullopt;
        return Record{e->id, e->data.toBson()};
    }
    const CollectionImpl* _coll;
    std::unique_ptr<SeekableRecordCursor> _cursor;
};

}  // namespace

CollectionImpl::CollectionImpl(StorageEngine* engine, DurableCatalog* catalog, RecordId catalogId,
                               CollectionMetaData md, CollectionOptions options)
    : _engine(engine),
      _catalog(catalog),
      _catalogId(catalogId),
      _md(std::move(md)),
      _uuid(_md.uuid),
      _options(std::move(options)),
      _ns(NamespaceString::parse(_md.ns)) {
    CollectionStorageInfo info;
    info.ns = _md.ns;
    info.ident = _md.ident;
    info.options = _md.options;
    info.dedup = _md.dedup;
    _rs = engine->openCollectionRecordStore(info);
    _indexes = std::make_unique<IndexCatalogImpl>(this);
    for (const auto& idx : _md.indexes) _indexes->openIndex(idx);
}

void CollectionImpl::setMetaData(OperationContext* opCtx, CollectionMetaData md) {
    _catalog->update(opCtx, _catalogId, md);
    auto old = std::make_shared<CollectionMetaData>(_md);
    _md = std::move(md);
    opCtx->recoveryUnit()->onRollback([this, old] { _md = *old; });
}

void CollectionImpl::updateOptions(OperationContext* opCtx, const CollectionOptions& options) {
    CollectionMetaData md = _md;
    md.options = options.raw.getOwned();
    setMetaData(opCtx, std::move(md));
    auto old = std::make_shared<CollectionOptions>(_options);
    _options = options;
    opCtx->recoveryUnit()->onRollback([this, old] { _options = *old; });
}

RecordId CollectionImpl::insertDocument(OperationContext* opCtx, const BSONObj& doc) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    if (_options.capped && _options.cappedSize > 0 && doc.objsize() > _options.cappedSize)
        uasserted(ErrorCodes::BSONObjectTooLarge, "document is larger than capped size " +
                                                      std::to_string(doc.objsize()) + " > " +
                                                      std::to_string(_options.cappedSize));
    RecordId id = _rs->insertRecord(opCtx, doc.objdata(), doc.objsize());
    _indexes->indexDocument(opCtx, doc, id);
    repl::OpObserver::get()->onInsert(opCtx, *this, doc);
    auth::noteWriteToAuthCollection(opCtx, _ns);
    if (_options.capped) {
        enforceCappedLimits(opCtx, id);
        // Tailing cursors may read it once it is visible: wake those awaiting data.
        opCtx->recoveryUnit()->onCommit([n = _cappedNotifier] { n->notifyAll(); });
    }
    return id;
}

// Capped collections keep their newest documents: the oldest go once the size or count limit
// is passed (never the document just inserted).
void CollectionImpl::enforceCappedLimits(OperationContext* opCtx, RecordId justInserted) {
    auto over = [&] {
        if (_options.cappedSize > 0 && _rs->dataSize(opCtx) > _options.cappedSize) return true;
        return _options.cappedMaxDocs > 0 && _rs->numRecords(opCtx) > _options.cappedMaxDocs;
    };
    if (!over()) return;
    // The oplog keeps entries younger than replSetResizeOplog's minRetentionHours.
    const bool isOplog = _ns == repl::LocalOplog::nss();
    auto cursor = _rs->getCursor(opCtx, true);
    while (over()) {
        auto r = cursor->next();
        if (!r || r->id == justInserted) break;
        BSONObj doc = r->data.toBson();
        if (isOplog && !repl::LocalOplog::get()->mayTruncate(doc)) break;
        _indexes->unindexDocument(opCtx, doc, r->id);
        _rs->deleteRecord(opCtx, r->id);
    }
}

void CollectionImpl::updateDocument(OperationContext* opCtx, RecordId id, const BSONObj& oldDoc,
                                    const BSONObj& newDoc) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    _indexes->updateDocument(opCtx, oldDoc, newDoc, id);
    _rs->updateRecord(opCtx, id, newDoc.objdata(), newDoc.objsize());
    repl::OpObserver::get()->onUpdate(opCtx, *this, oldDoc, newDoc);
    auth::noteWriteToAuthCollection(opCtx, _ns);
}

void CollectionImpl::deleteDocument(OperationContext* opCtx, RecordId id) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    auto data = _rs->findRecord(opCtx, id);
    if (!data) return;  // already gone
    BSONObj doc = data->toBson();
    _indexes->unindexDocument(opCtx, doc, id);
    _rs->deleteRecord(opCtx, id);
    repl::OpObserver::get()->onDelete(opCtx, *this, doc);
    auth::noteWriteToAuthCollection(opCtx, _ns);
}

std::optional<BSONObj> CollectionImpl::findDoc(OperationContext* opCtx, RecordId id) const {
    auto data = _rs->findRecord(opCtx, id);
    if (!data) return std::nullopt;
    return data->toBson();
}

std::unique_ptr<RecordCursor> CollectionImpl::getCursor(OperationContext* opCtx, bool forward) const {
    return std::make_unique<CollectionRecordCursor>(this, _rs->getCursor(opCtx, forward));
}

void CollectionImpl::truncate(OperationContext* opCtx) {
    WriteUnitOfWork wuow(opCtx);
    _rs->truncate(opCtx);
    _indexes->truncateAll(opCtx);
    wuow.commit();
}

long long CollectionImpl::numRecords(OperationContext* opCtx) const { return _rs->numRecords(opCtx); }
long long CollectionImpl::dataSize(OperationContext* opCtx) const { return _rs->dataSize(opCtx); }
long long CollectionImpl::storageSize(OperationContext* opCtx) const { return _rs->storageSize(opCtx); }

}  // namespace mongo
