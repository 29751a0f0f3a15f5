#include "mongo/db/catalog/find_by_id.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

std::optional<Record> findDocumentById(OperationContext* opCtx, Collection* coll, const BSONElement& id) {
    IndexCatalog* ic = coll->getIndexCatalog();
    const IndexDescriptor* idIndex = ic->findIndexByName("_id_");
    if (!idIndex) {
        auto cursor = coll->getCursor(opCtx, true);
        while (auto r = cursor->next())
            if (r->doc["_id"].woCompare(id) == 0) return Record{r->id, r->doc.getOwned()};
        return std::nullopt;
    }
    BSONObjBuilder kb;
    kb.appendAs(id, "");
    // The _id index of a collection with a collation holds comparison keys.
    BSONObj key = toComparisonKeys(kb.obj(), idIndex->collator.get());
    auto cursor = ic->newCursor(opCtx, idIndex, true);
    auto e = cursor->seek(key, true);
    if (!e || e->key.firstElement().woCompare(key.firstElement()) != 0) return std::nullopt;
    auto doc = coll->findDoc(opCtx, e->loc);
    if (!doc) return std::nullopt;
    return Record{e->loc, doc->getOwned()};
}

}  // namespace mongo
