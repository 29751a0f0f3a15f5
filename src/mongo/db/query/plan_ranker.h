#pragma once
// Chooses among candidate plans by running each for a while, as MongoDB's multi-planner does:
// the plan that produces results for the least work wins. A trial stops at
// internalQueryPlanEvaluationMaxResults (101) results, at the end of the plan, or when its work
// budget (max(internalQueryPlanEvaluationWorks = 10000, 29% of the collection's documents))
// runs out; once one plan finished, the others get no more work than it needed. Ties go to
// plans that fetch nothing and sort nothing, then to the planner's order.
// A plan that fails during its trial is discarded unless all fail (the first error is thrown).
// The trial's stages are thrown away: the winner then runs from the start in the same snapshot.
#include <memory>
#include <vector>

#include "mongo/db/query/plan_stage.h"

namespace mongo {

struct TrialResult {
    long long results = 0;
    long long works = 0;
    bool eof = false;
    bool failed = false;
    double score = 0;
    BSONObj executionStages;  // the trial's statistics, for explain's allPlansExecution
    long long keysExamined = 0;
    long long docsExamined = 0;
};

// Index of the best of candidates (size >= 2). REQUIRES: ctx is a fresh context for the plan
// (its trialBudget is used and reset).
size_t pickBestPlan(const std::vector<std::unique_ptr<SolutionNode>>& candidates, const StageContext& ctx,
                    long long numRecords, std::vector<TrialResult>* trials);

}  // namespace mongo
