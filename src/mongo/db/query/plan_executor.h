#pragma once
// Runs a query: parses the request (CanonicalQuery), plans it (query_planner.h), builds the
// stages (plan_stage.h) and returns results one at a time. Owns its own OperationContext for
// storage, so a find's cursor can live on across getMore commands (saveState between
// batches, restoreState before the next).
// Not thread safe: used by one command at a time.
#include <memory>
#include <optional>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/plan_ranker.h"
#include "mongo/db/query/plan_stage.h"
#include "mongo/db/query/query_planner.h"

namespace mongo {

struct PlanStats {
    long long nReturned = 0;
    long long keysExamined = 0;
    long long docsExamined = 0;
};

class PlanExecutor {
public:
    // Parses the request (throws on bad filter/sort/projection/hint/min/max) and plans it.
    // coll may be null (the namespace does not exist: no results). client: owner of the
    // storage context. purpose: what the caller does with the results (query_planner.h);
    // distinctKey: the field of a distinct.
    // REQUIRES: the caller holds at least a shared catalog lock.
    // interruptCtx: the running command, whose maxTimeMS and kill also stop the planner's trial
    // run (may be null).
    PlanExecutor(Client* client, const Collection* coll, const NamespaceString& nss, QueryRequest qr,
                 PlanPurpose purpose = PlanPurpose::kFind, std::string distinctKey = "",
                 const OperationContext* interruptCtx = nullptr);
    ~PlanExecutor();

    // The next result (projected; for count/distinct plans, possibly an index key document),
    // or nullopt at the end. id / raw receive the record's id and its whole document (raw is
    // empty when the plan never fetched it). interruptCtx: the running command (maxTimeMS, kill).
    std::optional<BSONObj> getNext(const OperationContext* interruptCtx, RecordId* id = nullptr,
                                   BSONObj* raw = nullptr);
    bool isEOF() const { return _eof; }

    // Releases storage resources between batches.
    void saveState();
    // REQUIRES: shared catalog lock. Throws QueryPlanKilled (175) if the collection was dropped
    // or replaced, the plan's index dropped, or an index the plan reads keys from became
    // multikey in a way its plan relied on, since saveState().
    void restoreState(const Collection* coll);

    const NamespaceString& nss() const { return _nss; }
    const CanonicalQuery& query() const { return *_cq; }
    const SolutionNode& solution() const { return *_solution; }
    PlanStats stats() const;
    // queryPlanner.winningPlan as explain shows it.
    BSONObj winningPlan() const;
    // The plan in one line, as currentOp's planSummary: "COLLSCAN", "IXSCAN { a: 1 }", ...
    // (also reported to the running command given at construction).
    std::string planSummary() const;
    // executionStats.executionStages.
    BSONObj executionStages() const;
    // queryPlanner.rejectedPlans: the candidates the trial run turned down.
    BSONArray rejectedPlans() const;
    // executionStats.allPlansExecution: each candidate's trial (empty without a trial).
    BSONArray allPlansExecution() const;
    // The storage context (for writes that must read in the same snapshot). Rarely needed.
    OperationContext* storageContext() const { return _opCtx.get(); }

private:
    std::unique_ptr<OperationContext> _opCtx;
    NamespaceString _nss;
    std::string _collUuid;
    std::unique_ptr<CanonicalQuery> _cq;
    std::unique_ptr<SolutionNode> _solution;
    std::vector<std::unique_ptr<SolutionNode>> _rejected;
    std::vector<TrialResult> _trials;  // winner first, when candidates were tried
    StageContext _ctx;
    std::unique_ptr<PlanStage> _root;
    long long _nReturned = 0;
    bool _eof = false;
};

}  // namespace mongo
