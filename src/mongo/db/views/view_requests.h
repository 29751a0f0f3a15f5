#pragma once
// Read commands on views, as MongoDB 7.0 runs them: each becomes an aggregate over the view's
// backing collection whose pipeline is the view's (views on views: innermost first) followed
// by the command's own stages. This is the one place where find, count and distinct are
// translated; aggregate and explain prepend the view's stages through resolveAggregate().
//   find:     filter -> $match, sort -> $sort, skip -> $skip, limit -> $limit,
//             projection -> $project; options aggregation lacks are refused with
//             InvalidPipelineOperator (168) as MongoDB refuses them.
//   count:    query -> $match, then $skip, $limit, {$count: "count"}.
//   distinct: query -> $match; the values are collected from the pipeline's output with the
//             same path rules as a collection's distinct.
// Cursors opened on a view are registered under the view's namespace (getMore names the view).
// Thread safety: stateless functions; callers must NOT hold the catalog lock (the aggregate
// they run takes it).
#include <optional>
#include <set>

#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {

// If ar names a view: rewrites ar to run over its collection (view stages first) and returns
// the view's namespace (for the reply). Takes the shared catalog lock itself. A pipeline
// starting with $collStats is left on the view, as MongoDB leaves it.
std::optional<NamespaceString> resolveAggregate(OperationContext* opCtx, AggregateRequest& ar);

// The view under nss, if nss names one (takes the shared catalog lock itself).
std::optional<ResolvedView> resolveViewForRead(OperationContext* opCtx, const NamespaceString& nss);

// Whether nss names a view (takes the shared catalog lock itself): write commands refuse
// views with ViewCatalog::notCollectionStatus (166).
bool namesView(OperationContext* opCtx, const NamespaceString& nss);

// A find on a view as the aggregate MongoDB runs (its filter, sort, skip, limit and projection
// as stages after the view's); find options aggregation lacks fail with 168.
AggregateRequest findAsAggregate(const ResolvedView& rv, const OpMsgRequest& req, const FindRequest& fr);
// count's and distinct's parsed query (filter, skip, limit, hint).
AggregateRequest countAsAggregate(const ResolvedView& rv, const QueryRequest& qr);
AggregateRequest distinctAsAggregate(const ResolvedView& rv, const QueryRequest& qr);

// Runs ar to its end under the shared catalog lock, calling f with each result.
void forEachAggregateResult(OperationContext* opCtx, const AggregateRequest& ar,
                            const std::function<void(const BSONObj&)>& f);

// Runs ar (which has no $out/$merge) and appends {cursor: {firstBatch, id, ns: replyNss}};
// singleBatch closes the cursor after the first batch.
void runAggregateCursor(OperationContext* opCtx, const AggregateRequest& ar, const NamespaceString& replyNss,
                        bool singleBatch, BSONObjBuilder& result);

}  // namespace mongo
