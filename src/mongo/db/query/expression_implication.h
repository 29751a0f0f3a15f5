#pragma once
// Does a query imply an index's partialFilterExpression? A partial index holds only the
// documents matching its filter, so it may answer a query only if every document the query
// can match is among them. Like MongoDB's, the check is conservative: "false" may only cost a
// faster plan, never an answer.
// Thread safety: stateless.
#include <vector>

#include "mongo/db/query/match_expression.h"

namespace mongo {

// True if every document matching all of queryConjuncts (a flattened top-level $and) matches
// filter.
bool queryImplies(const std::vector<const MatchExpression*>& queryConjuncts, const MatchExpression& filter);

}  // namespace mongo
