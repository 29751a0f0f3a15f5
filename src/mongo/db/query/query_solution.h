#pragma once
// A query plan as a tree of stages (MongoDB's names): what the planner decides and what the
// executor (plan_stages.h) runs and explain prints.
//
//   PROJECTION_COVERED -> IXSCAN                    answered from index keys alone
//   PROJECTION_SIMPLE -> LIMIT -> SKIP -> SORT -> FETCH(filter) -> IXSCAN(filter) ...
//   FETCH -> OR -> IXSCAN, IXSCAN                   one scan per $or branch
//   COUNT_SCAN / DISTINCT_SCAN                      count and distinct over an index
// Filters are lists of clauses (an implicit $and) pointing into the query's parsed filter,
// which outlives the solution.
// Thread safety: immutable once planned.
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/index_bounds.h"
#include "mongo/db/query/index_entry.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {

enum class StageType {
    kEOF,
    kCollScan,
    kIdHack,
    kIxScan,
    kFetch,
    kOr,
    kSort,
    kSkip,
    kLimit,
    kProjectionSimple,
    kProjectionDefault,
    kProjectionCovered,
    kReturnKey,
    kCountScan,
    kDistinctScan,
};

const char* stageTypeName(StageType t);

struct SolutionNode {
    explicit SolutionNode(StageType t) : type(t) {}
    StageType type;
    std::vector<std::unique_ptr<SolutionNode>> children;

    // COLLSCAN, FETCH, IXSCAN (key filter, evaluated on the rebuilt key document).
    std::vector<const MatchExpression*> filter;
    // FETCH, IXSCAN: every clause of the query, for when an index became multikey after planning
    // and what the bounds answered must be checked again (PlanStage::adaptToMultikey).
    std::vector<const MatchExpression*> fullFilter;

    // IXSCAN, COUNT_SCAN, DISTINCT_SCAN, IDHACK, PROJECTION_COVERED, RETURN_KEY.
    IndexEntry index;
    IndexBounds bounds;
    bool forward = true;
    // COLLSCAN of a tailable cursor: after its end it resumes from the last record it saw.
    bool tailable = false;
    // min()/max(): one range over the whole key instead of per-field bounds.
    bool rangeScan = false;
    BSONObj startKey, endKey;  // {"": v, ...}, in index order
    bool endKeyInclusive = false;
    // The scan may return a document more than once (multikey or several intervals of an $or).
    bool dedup = false;

    // SORT: pattern and optional limit (skip + limit); sorts index-key documents when the
    // input is covered.
    BSONObj sortPattern;
    long long limit = 0;  // SORT and LIMIT
    long long skip = 0;   // SKIP

    // PROJECTION_*: the projection spec.
    BSONObj projection;

    // DISTINCT_SCAN: the key field whose distinct values are produced.
    int distinctField = 0;
    // IDHACK: the _id value.
    BSONObj idValue;  // {"": v}

    // Does this subtree produce whole documents (false: index keys only)?
    bool fetched() const;
    // explain's queryPlanner.winningPlan for this subtree.
    BSONObj toBSON() const;
};

// The filter clauses as one document ({} when none), as explain prints them.
BSONObj filterToBSON(const std::vector<const MatchExpression*>& clauses);

}  // namespace mongo
