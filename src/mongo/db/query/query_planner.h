#pragma once
// Chooses how to answer a query: collection scan, _id lookup, or an index scan with bounds,
// and whether a blocking sort is needed. Rule-based (MongoDB races candidate plans; with the
// planner's preference order below the winner is the same in the common cases).
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/index_bounds.h"

namespace mongo {

struct QueryRequest {
    BSONObj filter;
    BSONObj sort;
    BSONObj projection;
    BSONObj hint;  // {} none, {$natural: 1}, key pattern, or {"$hint": name} from a string hint
    long long skip = 0;
    long long limit = 0;  // 0: no limit
    // A blocking sort past its memory limit: false fails (292), true keeps sorting in memory up
    // to a hard cap (this server cannot spill; see blocking_memory_tracker.h).
    bool allowDiskUse = true;
    // find's min/max (index bounds, need a hint), returnKey and showRecordId.
    BSONObj min, max;
    bool returnKey = false, showRecordId = false;
};

struct QuerySolution {
    enum class Kind { kEOF, kCollScan, kIdHack, kIndexScan };
    Kind kind = Kind::kCollScan;
    bool forward = true;
    const IndexDescriptor* index = nullptr;
    bool multikey = false;
    // Per index field: intervals (all values for unbounded trailing fields).
    std::vector<std::vector<Interval>> bounds;
    bool blockingSort = false;  // the index order does not give the requested sort
};

// REQUIRES: coll may be null (the collection does not exist: EOF plan).
// Throws BadValue (2) for a hint that names no index.
QuerySolution planQuery(OperationContext* opCtx, const Collection* coll, const QueryRequest& qr);

// The "indexBounds" field of explain: {a: ["[1, 1]"], b: ["[MinKey, MaxKey]"]}.
BSONObj indexBoundsToBSON(const QuerySolution& s);

}  // namespace mongo
