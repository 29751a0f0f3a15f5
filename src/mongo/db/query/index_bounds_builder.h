#pragma once
// Translates one predicate of a filter into the index intervals of the key field it names,
// with MongoDB's type bracketing ({$gt: 5} covers numbers only, {$lt: "m"} strings only).
//
// 'exact' means that a key inside the intervals proves the predicate true for the document
// the key came from, so the predicate need not be evaluated again; inexact bounds are only a
// superset and the predicate stays in the plan's filter. Bounds never lose a matching key.
// Thread safety: stateless functions.
#include <optional>
#include <string>

#include "mongo/db/query/index_bounds.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {

struct LeafBounds {
    OrderedIntervalList oil;
    bool exact = false;
};

// Bounds of a leaf predicate (comparison, $in, $regex, $exists, $type, $mod, $bits, or $not of
// one of these) on a key field whose path may hold arrays (fieldMultikey). nullopt: the
// predicate cannot narrow a scan. A full [MinKey, MaxKey] result is possible ($exists).
// collator: the index's collation (null: simple); see translateLeaf's definition for what
// changes under one (strings translated to comparison keys; regexes and $not give no bounds).
std::optional<LeafBounds> translateLeaf(const MatchExpression& leaf, bool fieldMultikey,
                                        const Collator* collator = nullptr);

// The literal prefix a regex requires of every string it matches ("ab" for /^ab.*c/), or
// nullopt if it has none (unanchored, case-insensitive, multi-line, extended, alternation).
std::optional<std::string> regexLiteralPrefix(const std::string& pattern, const std::string& flags);

}  // namespace mongo
