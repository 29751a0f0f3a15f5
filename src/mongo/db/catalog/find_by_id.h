#pragma once
// Point lookup of a document by _id, the way every internal reader of a small system
// collection needs it (the oplog applier, view definitions, users and roles).
#include <optional>

#include "mongo/db/catalog/collection.h"

namespace mongo {

class OperationContext;

// The document of `coll` whose _id equals `id` (BSON comparison), through the _id index; a
// collection without one (a capped collection may have none) is scanned. nullopt if none.
// The caller holds the catalog lock that keeps `coll` valid.
std::optional<Record> findDocumentById(OperationContext* opCtx, Collection* coll, const BSONElement& id);
// The same, the record id alone: the document is not read (nor decoded) when an _id index has it.
std::optional<RecordId> findRecordIdById(OperationContext* opCtx, Collection* coll, const BSONElement& id);

}  // namespace mongo
