#include "mongo/db/catalog/find_by_id.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {
// Where id's entry is in the _id index (loc nullopt: not there); indexed false when the
// collection has no _id index and must be scanned.
struct IdLookup {
    bool indexed = false;
    std::optional<RecordId> loc;
};

IdLookup lookUpIdIndex(OperationContext* opCtx, Collection* coll, const BSONElement& id) {
    IndexCatalog* ic = coll->getIndexCatalog();
    const IndexDescriptor* idIndex = ic->findIndexByName("_id_");
    if (!idIndex) return {};
    BSONObjBuilder kb;
    kb.appendAs(id, "");
    // The _id index of a collection with a collation holds comparison keys.
    BSONObj key = toComparisonKeys(kb.obj(), idIndex->collator.get());
    auto cursor = ic->newCursor(opCtx, idIndex, true);
    auto e = cursor->seek(key, true);
    if (!e || e->key.firstElement().woCompare(key.firstElement()) != 0) return {true, std::nullopt};
    return {true, e->loc};
}

std::optional<Record> scanForId(OperationContext* opCtx, Collection* coll, const BSONElement& id) {
    auto cursor = coll->getCursor(opCtx, true);
    while (auto r = cursor->next())
        if (r->doc["_id"].woCompare(id) == 0) return Record{r->id, r->doc.getOwned()};
    return std::nullopt;
}
}  // namespace

std::optional<Record> findDocumentById(OperationContext* opCtx, Collection* coll, const BSONElement& id) {
    IdLookup l = lookUpIdIndex(opCtx, coll, id);
    if (!l.indexed) return scanForId(opCtx, coll, id);
    if (!l.loc) return std::nullopt;
    auto doc = coll->findDoc(opCtx, *l.loc);
    if (!doc) return std::nullopt;
    return Record{*l.loc, doc->getOwned()};
}

std::optional<RecordId> findRecordIdById(OperationContext* opCtx, Collection* coll, const BSONElement& id) {
    IdLookup l = lookUpIdIndex(opCtx, coll, id);
    if (l.indexed) return l.loc;
    auto r = scanForId(opCtx, coll, id);
    return r ? std::optional<RecordId>(r->id) : std::nullopt;
}

}  // namespace mongo
