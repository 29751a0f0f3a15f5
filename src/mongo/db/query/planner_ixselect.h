#pragma once
// Which predicates of a query an index can use, and the bounds they give it.
//
// The rules that keep index scans from losing documents (MongoDB's, with path-level
// multikey tracking):
//   - Two predicates on one key field are intersected only if the field's path holds no array,
//     or both sit in one $elemMatch whose path covers every array component of the field:
//     otherwise each may be satisfied by a different array element ({a: {$gt: 3, $lt: 5}}
//     matches {a: [1, 9]}).
//   - Bounds on two key fields are compounded only if the array components their paths share
//     are covered the same way: with an index on {"a.b": 1, "a.c": 1} and "a" an array,
//     {"a.b": 1, "a.c": 2} may be satisfied by two different elements of "a", so the second
//     field stays unbounded unless both predicates are in one {a: {$elemMatch: ...}}.
// A predicate that cannot be used stays in the plan's filter; nothing here changes an answer.
// Thread safety: stateless functions over immutable inputs.
#include <set>
#include <string>
#include <vector>

#include "mongo/db/query/index_bounds.h"
#include "mongo/db/query/index_entry.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {

// One indexable predicate of the query, with where it sits.
struct PredicateRef {
    const MatchExpression* expr = nullptr;      // the leaf, or a $not of a leaf
    std::string path;                            // full dotted path, $elemMatch prefixes included
    const MatchExpression* conjunct = nullptr;   // the top-level conjunct holding it
    std::vector<const MatchExpression*> elemMatches;  // enclosing $elemMatch nodes, outermost first
    std::vector<size_t> elemMatchDepths;         // path components of each of them
    bool topLevel() const { return elemMatches.empty(); }
};

// The clauses of a filter's top-level $and, nested $ands flattened.
void collectConjuncts(const MatchExpression* root, std::vector<const MatchExpression*>* out);

// The predicates an index could use, from the conjuncts (including those inside $elemMatch).
std::vector<PredicateRef> collectPredicates(const std::vector<const MatchExpression*>& conjuncts);

struct IndexAssignment {
    IndexBounds bounds;
    std::vector<std::vector<const PredicateRef*>> used;  // per key field
    // Top-level conjuncts the bounds answer exactly (no need to evaluate them again).
    std::set<const MatchExpression*> answered;
    int pointPrefix = 0;    // leading fields bounded to points
    int boundedFields = 0;  // fields whose bounds are narrower than [MinKey, MaxKey]
    bool relevant = false;  // the leading field is bounded: the index narrows the scan
};

// Does the predicate (a PredicateRef's expr: a leaf, or a $not of leaves) compare with a
// string, symbol, object or array? Only such comparisons depend on the collation: an index
// under another collation than the query's orders those values another way (its keys may be
// collation keys), so it must not bound them. Numbers, dates, ObjectIds, booleans, null,
// MinKey/MaxKey, and $exists, $type, $mod and regexes (which ignore collations) compare alike
// under every collation. Also answers for a whole filter (any node of it; $expr and opaque
// nodes count as comparing collatable values).
bool comparesCollatableValues(const MatchExpression& pred);

// Bounds of every key field from the predicates, under the multikey rules above.
// sameCollation: the index's collation is the query's; if not, only predicates that compare no
// collatable value give bounds (MongoDB 7.0's rule), the others stay in the filter.
IndexAssignment assignPredicates(const IndexEntry& index, const std::vector<PredicateRef>& preds,
                                 bool sameCollation = true);

// A sparse index holds only documents with some key field present: it may answer the query
// only if some predicate on a key field fails for a missing field.
bool sparseIndexEligible(const IndexEntry& index, const std::vector<PredicateRef>& preds);

// The conjunct can be evaluated on a document rebuilt from this index's key: it reads only key
// fields that hold no arrays (keys keep values' exact types and mark missing fields, so
// $exists and $type answer as on the document). REQUIRES: index.keyFieldsIndependent().
bool coverableByKey(const IndexEntry& index, const MatchExpression& conjunct);

}  // namespace mongo
