#pragma once
// Chooses how to answer a query: a plan tree (query_solution.h) over a collection scan, the
// _id index, one index scan, or one index scan per $or branch, with what it must still filter,
// sort, skip, limit and project.
//
// Plans are chosen by rules, not MongoDB's trial runs: a hinted index, else IDHACK for an _id
// equality, else the eligible index with the most equality-bound leading fields (then the most
// bounded fields, then one giving the sort order or the projection without fetching, then a
// unique one). An index is eligible only if it can return every document the query matches:
// not hidden, sparse only when a predicate on a key field rules out a missing field, partial
// only when the query implies its filter. Bounds follow planner_ixselect.h; whatever the bounds
// do not prove stays in a filter, so a plan can be slower than another but never answer
// differently.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/planner_ixselect.h"
#include "mongo/db/query/query_solution.h"

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
    // find's min()/max(): index bounds over the hinted index's whole key, in index order.
    BSONObj min, max;
    bool returnKey = false;     // return the index keys instead of the documents
    bool showRecordId = false;  // add each document's $recordId
    // find's tailable: a forward collection scan of a capped collection that goes on past
    // its end (BadValue on other collections); no index is used, whatever the hint.
    bool tailable = false;
    // find's batchSize as given: only shown in error messages (canonical_query_string.h).
    std::optional<long long> batchSize;
    // The collation option; PlanExecutor resolves it against the collection's default before
    // planning (collation_spec.h). The filter, sort and distinct compare strings under it, and
    // an index is used only if its collation is the same (a hinted one with another collation
    // is scanned whole, as MongoDB does).
    CollationOption collation;
};

// What the caller will do with the results: writes and explain-of-writes need whole
// documents; count needs nothing but their number; distinct needs one field.
enum class PlanPurpose { kFind, kWrite, kCount, kDistinct };

// A parsed request (filter tree, validated sort and projection) and its indexable predicates.
class CanonicalQuery {
public:
    // Throws the parse errors of the filter, sort and projection, and MongoDB's errors for
    // invalid option combinations (min/max shapes).
    CanonicalQuery(QueryRequest qr, PlanPurpose purpose, std::string distinctKey = "");

    const QueryRequest& request() const { return _qr; }
    PlanPurpose purpose() const { return _purpose; }
    const std::string& distinctKey() const { return _distinctKey; }
    const Matcher& matcher() const { return _matcher; }
    // The collation the query runs with (null: simple).
    const Collator* collator() const { return _qr.collation.collator.get(); }
    const std::vector<const MatchExpression*>& conjuncts() const { return _conjuncts; }
    const std::vector<PredicateRef>& predicates() const { return _preds; }
    // {$natural: 1} / {$natural: -1} as the sort.
    bool naturalSort() const { return _naturalSort; }
    bool hasSort() const { return !_qr.sort.isEmpty() && !_naturalSort; }

private:
    QueryRequest _qr;
    PlanPurpose _purpose;
    std::string _distinctKey;
    Matcher _matcher;
    std::vector<const MatchExpression*> _conjuncts;
    std::vector<PredicateRef> _preds;
    bool _naturalSort = false;
};

// REQUIRES: coll may be null (the collection does not exist: an EOF plan); the caller holds the
// catalog lock and has opened the storage snapshot the plan will read (the multikey state read
// here must be at least as new as the data). Throws BadValue (2) for a hint naming no usable
// index, 51173/51174/51175/51176/NoQueryExecutionPlans for bad min()/max().
std::unique_ptr<SolutionNode> planQuery(OperationContext* opCtx, const Collection* coll, const CanonicalQuery& cq);
// Does a scan of idx within bounds, in that direction, return documents in sort order (with
// the multikey state in idx) as the query's collation orders them?
bool indexScanProvidesSort(const IndexEntry& idx, const IndexBounds& bounds, const BSONObj& sort, bool forward,
                           const Collator* queryCollator);

// Every plan worth a trial run (plan_ranker.h), the rules' favourite first; at least one.
// Several only when more than one index could narrow the scan and nothing (a hint, IDHACK,
// min/max, DISTINCT_SCAN) fixes the choice.
std::vector<std::unique_ptr<SolutionNode>> planQueryCandidates(OperationContext* opCtx, const Collection* coll,
                                                               const CanonicalQuery& cq);

}  // namespace mongo
