#pragma once
// The parts of an explain reply that explain (of every command) and aggregate's explain: true
// share, in MongoDB 7.0's shape: queryPlanner for one plan executor, serverInfo and
// serverParameters. Stateless; thread safe.
#include <functional>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {

// serverInfo: {host, port, version, gitVersion}.
void appendServerInfo(BSONObjBuilder& result);
// serverParameters: the query memory limits MongoDB 7.0 lists, with this server's values where
// it has the knob and MongoDB's defaults where it has none.
void appendServerParameters(BSONObjBuilder& result);

// 8 hex digits of a hash of the query's shape (the filter with its values replaced by their
// types, the sort, the projection): queries differing only in constants share it.
std::string queryShapeHash(const CanonicalQuery& cq);

// queryPlanner: {namespace, indexFilterSet, parsedQuery[, collation], queryHash, <extra's
// fields>, maxIndexed..., winningPlan, rejectedPlans}. wrap (optional) puts the command's own
// stage (COUNT, UPDATE, ...) over each plan.
void appendQueryPlanner(BSONObjBuilder& result, const NamespaceString& nss, const PlanExecutor& exec,
                        const BSONObj& extra = BSONObj(),
                        const std::function<BSONObj(const BSONObj&)>& wrap = nullptr);

}  // namespace mongo
