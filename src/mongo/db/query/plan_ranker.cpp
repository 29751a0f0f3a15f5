#include "mongo/db/query/plan_ranker.h"

#include <algorithm>

namespace mongo {
namespace {

constexpr long long kMaxResults = 101;
constexpr long long kMinWorks = 10000;

bool hasStage(const SolutionNode* n, StageType t) {
    if (n->type == t) return true;
    for (const auto& c : n->children)
        if (hasStage(c.get(), t)) return true;
    return false;
}

}  // namespace

size_t pickBestPlan(const std::vector<std::unique_ptr<SolutionNode>>& candidates, const StageContext& baseCtx,
                    long long numRecords, std::vector<TrialResult>* trials) {
    long long budgetLimit = std::max(kMinWorks, numRecords * 29 / 100);
    trials->assign(candidates.size(), TrialResult());
    std::optional<DBException> firstError;
    for (size_t i = 0; i < candidates.size(); i++) {
        TrialResult& t = (*trials)[i];
        StageContext ctx = baseCtx;
        long long budget = budgetLimit;
        ctx.trialBudget = &budget;
        std::unique_ptr<PlanStage> root = buildStages(candidates[i].get(), &ctx);
        try {
            while (t.results < kMaxResults) {
                if (!root->next()) {
                    t.eof = true;
                    break;
                }
                t.results++;
            }
        } catch (const TrialBudgetExhausted&) {
        } catch (const DBException& e) {
            if (e.code() == int(ErrorCodes::Interrupted) || e.code() == int(ErrorCodes::MaxTimeMSExpired) ||
                e.code() == int(ErrorCodes::InterruptedAtShutdown))
                throw;
            t.failed = true;
            if (!firstError) firstError = e;
        }
        t.works = std::max(1LL, budgetLimit - std::max(0LL, budget));
        if (!t.failed && (t.eof || t.results >= kMaxResults)) budgetLimit = std::min(budgetLimit, t.works);
        // Productivity, with tie-breakers far smaller than any difference in it.
        double eps = std::min(1.0 / (10.0 * static_cast<double>(t.works)), 1e-4);
        const SolutionNode* n = candidates[i].get();
        t.score = 1.0 + static_cast<double>(t.results) / static_cast<double>(t.works) +
                  eps * ((hasStage(n, StageType::kFetch) ? 0 : 1) + (hasStage(n, StageType::kSort) ? 0 : 1) +
                         (t.eof ? 1 : 0));
        t.executionStages = root->statsToBSON();
        t.keysExamined = root->totalKeysExamined();
        t.docsExamined = root->totalDocsExamined();
    }
    size_t best = candidates.size();
    for (size_t i = 0; i < candidates.size(); i++) {
        if ((*trials)[i].failed) continue;
        if (best == candidates.size() || (*trials)[i].score > (*trials)[best].score) best = i;
    }
    if (best == candidates.size()) throw *firstError;
    return best;
}

}  // namespace mongo
