// aggregate: runs a pipeline over a collection scan (or an index scan chosen from a leading
// $match) and returns a cursor.
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/ops/aggregate_output.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/find_request.h"

namespace mongo {


namespace {

class AggregateCmd : public Command {
public:
    AggregateCmd() : Command("aggregate") {}
    std::string help() const override { return "run an aggregation pipeline"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        AggregateRequest ar = parseAggregateRequest(req);
        if (BSONElement b = req.body["bypassDocumentValidation"]; !b.eoo())
            opCtx->bypassDocumentValidation = parseBoolArg(b, "aggregate");  // for $out / $merge
        std::string_view last = ar.stages.empty() ? "" : ar.stages.back().firstElementFieldName();
        if (!ar.explain && (last == "$out" || last == "$merge")) return runWithOutput(opCtx, ar, result);
        CatalogReadLock lock;
        auto source = std::make_unique<AggregateCursorSource>(opCtx, ar);
        if (ar.explain) {
            source->appendExplain(opCtx, "queryPlanner", result);  // explain: true is queryPlanner verbosity
            return;
        }
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = ar.nss;
        cursor->lsid = opCtx->lsid;
        cursor->source = std::move(source);
        BSONArrayBuilder docs;
        bool exhausted = fillBatch(opCtx, *cursor, ar.batchSize, docs);
        long long id = 0;
        if (!exhausted) {
            cursor->source->save();
            id = CursorManager::get().registerCursor(std::move(cursor));
        }
        appendCursorReply(result, "firstBatch", docs.arr(), id, ar.nss.ns());
    }

private:
    // $out/$merge: run the pipeline to its end under the read lock, then write the results
    // without it (the writes take DDL and write locks), and reply with an empty cursor.
    static void runWithOutput(OperationContext* opCtx, const AggregateRequest& ar, BSONObjBuilder& result) {
        std::optional<AggregateCursorSource::PendingOutput> out;
        {
            CatalogReadLock lock;
            AggregateCursorSource source(opCtx, ar);
            while (source.next(opCtx)) {
            }
            out = source.takePendingOutput();
        }
        if (out) writeAggregationOutput(opCtx, ar.nss.db(), out->stage, out->docs);
        appendCursorReply(result, "firstBatch", BSONArray(), 0, ar.nss.ns());
    }
};
AggregateCmd aggregateCmd;

}  // namespace
}  // namespace mongo
