#pragma once
// The writing stages of aggregation: $out (replace a collection with the results, keeping its
// indexes) and $merge (merge the results into a collection document by document).
// REQUIRES: the caller holds no catalog or write lock (these take their own).
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collator.h"

namespace mongo {

// stage: {$out: ...} or {$merge: ...}; db: the aggregate's database (the default target db).
// collator: the pipeline's collation (null: simple), under which $merge matches its 'on' fields
// and applies its whenMatched update.
void writeAggregationOutput(OperationContext* opCtx, const std::string& db, const BSONObj& stage,
                            const std::vector<BSONObj>& docs, const CollatorPtr& collator = nullptr);

}  // namespace mongo
