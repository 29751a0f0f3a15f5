#pragma once
// The aggregate command's request and its cursor: a Pipeline fed by a PlanExecutor.
#include <memory>

#include "mongo/db/pipeline/command_let.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/plan_executor.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

struct AggregateRequest {
    NamespaceString nss;
    bool collectionless = false;  // {aggregate: 1}
    std::vector<BSONObj> stages;
    long long batchSize = 101;
    bool explain = false;
    BSONObj hint;
    bool allowDiskUse = false;
    CommandLetVariables let;  // the command's 'let'
    // The command's collation; not given: the collection's default. Every stage compares
    // under it. A view's reads set the view's own (simple when it has none).
    CollationOption collation;
};

// Throws FailedToParse (9) when 'cursor' is missing without explain, TypeMismatch for a bad
// pipeline, InvalidNamespace for a bad collection name.
AggregateRequest parseAggregateRequest(const OpMsgRequest& req);

class AggregateCursorSource : public CursorSource {
public:
    // REQUIRES: shared catalog lock (during construction and every batch).
    AggregateCursorSource(OperationContext* opCtx, const AggregateRequest& ar);
    std::optional<BSONObj> next(const OperationContext* interruptCtx) override;
    void save() override;
    void restore() override;
    // The whole explain reply but ok, as MongoDB 7.0 shapes it: {explainVersion, stages:
    // [{$cursor: {queryPlanner[, executionStats]}}, ...], serverInfo, serverParameters, command}
    // (the leading $match belongs to the $cursor's plan), or, when the plan answers the whole
    // pipeline, {explainVersion, queryPlanner (optimizedPipeline: true)[, executionStats],
    // command, serverInfo, serverParameters}. With executionStats (or allPlansExecution) the
    // pipeline runs to its end first (a $out/$merge writes nothing: the caller never takes its
    // pending output). command: the explained command as the reply shows it.
    void appendExplain(OperationContext* opCtx, const std::string& verbosity, const BSONObj& command,
                       BSONObjBuilder& result);

    // What a final $out/$merge stage produced, once the pipeline has run to its end: written
    // by the command after it releases its read lock.
    struct PendingOutput {
        BSONObj stage;
        std::vector<BSONObj> docs;
        CollatorPtr collator;  // the pipeline's collation ($merge matches under it)
    };
    std::optional<PendingOutput> takePendingOutput() { return std::move(_pendingOutput); }

private:
    Client* _client;
    NamespaceString _nss;
    std::unique_ptr<PlanExecutor> _exec;  // null for collectionless pipelines
    bool _matchPushedDown = false;        // the plan applies the leading $match too
    std::unique_ptr<Pipeline> _pipeline;
    const OperationContext* _interruptCtx = nullptr;
    std::optional<PendingOutput> _pendingOutput;
};

}  // namespace mongo
