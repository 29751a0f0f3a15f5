// aggregate: runs a pipeline over a collection scan (or an index scan chosen from a leading
// $match) and returns a cursor.
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/change_stream/change_stream_cursor.h"
#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/ops/aggregate_output.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/views/view_requests.h"

namespace mongo {


namespace {

// The command an explain: true reply shows: the request without the driver's session and
// cluster fields (lsid, $clusterTime, $readPreference...), $db kept, as MongoDB 7.0 shows it.
BSONObj explainedCommand(const BSONObj& body) {
    BSONObjBuilder b;
    for (BSONElement e : body) {
        std::string_view name = e.fieldNameStringData();
        if (name == "lsid" || name == "txnNumber" || (name.substr(0, 1) == "$" && name != "$db")) continue;
        b.append(e);
    }
    return b.obj();
}

class AggregateCmd : public Command {
public:
    AggregateCmd() : Command("aggregate") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::aggregatePrivileges(req); }
    std::string help() const override { return "run an aggregation pipeline"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        AggregateRequest ar = parseAggregateRequest(req);
        if (isChangeStreamPipeline(ar)) return runChangeStream(opCtx, ar, result);  // change_stream/
        if (BSONElement b = req.body["bypassDocumentValidation"]; !b.eoo())
            opCtx->bypassDocumentValidation = parseBoolArg(b, "aggregate");  // for $out / $merge
        // On a view: the view's stages run first, over its collection (views/view_requests.h).
        std::optional<NamespaceString> view = resolveAggregate(opCtx, ar);
        const NamespaceString replyNss = view ? *view : ar.nss;
        std::string_view last = ar.stages.empty() ? "" : ar.stages.back().firstElementFieldName();
        if (!ar.explain && (last == "$out" || last == "$merge")) return runWithOutput(opCtx, ar, replyNss, result);
        if (ar.explain) {
            CatalogReadLock lock;
            AggregateCursorSource source(opCtx, ar);
            // explain: true is queryPlanner verbosity; the reply shows the command as sent.
            source.appendExplain(opCtx, "queryPlanner", explainedCommand(req.body), result);
            return;
        }
        runAggregateCursor(opCtx, ar, replyNss, false, result);
    }

private:
    // $out/$merge: run the pipeline to its end under the read lock, then write the results
    // without it (the writes take DDL and write locks), and reply with an empty cursor.
    static void runWithOutput(OperationContext* opCtx, const AggregateRequest& ar, const NamespaceString& replyNss,
                              BSONObjBuilder& result) {
        std::optional<AggregateCursorSource::PendingOutput> out;
        {
            CatalogReadLock lock;
            AggregateCursorSource source(opCtx, ar);
            while (source.next(opCtx)) {
            }
            out = source.takePendingOutput();
        }
        if (out) writeAggregationOutput(opCtx, ar.nss.db(), out->stage, out->docs, out->collator);
        appendCursorReply(result, "firstBatch", BSONArray(), 0, replyNss.ns());
    }
};
AggregateCmd aggregateCmd;

}  // namespace
}  // namespace mongo
