#pragma once
// The stages that run a QuerySolution (query_solution.h), pulled one result at a time.
//
// A stage returns WorkingMembers: a record id with the document (once fetched) and/or the
// index key it came from. Each stage keeps MongoDB's execution statistics for explain
// (works, advanced, needTime, keysExamined, docsExamined, ...).
// Not thread safe: a plan runs for one command at a time; between getMores the executor calls
// save() and, under the catalog lock again, restore().
#include <memory>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/query_solution.h"

namespace mongo {

class Matcher;

struct WorkingMember {
    RecordId id;
    std::optional<BSONObj> doc;         // the document (owned), once fetched or projected
    BSONObj key;                        // index key values {"": v, ...} when from an index
    const IndexEntry* keyIndex = nullptr;
    // The document the key stands for (covered plans), or the fetched document.
    BSONObj docOrKeyDoc() const;
};

// Thrown by a stage when a trial run (plan_ranker.h) has used up its work budget.
struct TrialBudgetExhausted {};

// What every stage of one plan shares. coll changes across getMores (restore).
struct StageContext {
    OperationContext* opCtx = nullptr;        // the plan's own storage context
    const Collection* coll = nullptr;
    const OperationContext* interrupt = nullptr;  // the running command: maxTimeMS, kill
    const Matcher* matcher = nullptr;         // the whole filter (positional projection)
    bool allowDiskUse = true;                 // blocking SORT past its memory limit
    // During a trial run: units of work left (a key or document examined is one unit).
    long long* trialBudget = nullptr;
    void checkForInterrupt() const {
        if (interrupt) interrupt->checkForInterrupt();
    }
    // Every loop that examines a key or a document calls this once per item.
    void spendWork() const {
        if (trialBudget && --*trialBudget < 0) throw TrialBudgetExhausted{};
    }
};

struct StageStats {
    long long works = 0;
    long long advanced = 0;
    long long needTime = 0;
    long long saveState = 0;
    long long restoreState = 0;
    bool isEOF = false;
    long long keysExamined = 0;
    long long docsExamined = 0;
    long long seeks = 0;
    long long dupsTested = 0;
    long long dupsDropped = 0;
    long long totalDataSizeSorted = 0;
};

class PlanStage {
public:
    PlanStage(const SolutionNode* node, StageContext* ctx) : _node(node), _ctx(ctx) {}
    virtual ~PlanStage() = default;

    // The next result, or nullopt when the stage is exhausted.
    std::optional<WorkingMember> next();
    // Between batches: release cursors' positions / snapshot-bound state, and take them back.
    virtual void save();
    virtual void restore();
    // An index the plan reads became multikey since planning (plan_executor.cpp says what each
    // stage then does). planFetches: the plan has a FETCH above its index scans.
    virtual void adaptToMultikey(bool planFetches);

    const SolutionNode* node() const { return _node; }
    const StageStats& stats() const { return _stats; }
    std::vector<std::unique_ptr<PlanStage>>& children() { return _children; }
    // explain's executionStages for this subtree.
    BSONObj statsToBSON() const;
    // Sum of keysExamined / docsExamined over the subtree.
    long long totalKeysExamined() const;
    long long totalDocsExamined() const;

protected:
    // One result, or nullopt at the end. Implementations count needTime for work that
    // produced nothing (a key out of bounds, a document failing the filter).
    virtual std::optional<WorkingMember> doNext() = 0;
    virtual void appendStageStats(BSONObjBuilder&) const {}

    const SolutionNode* _node;
    StageContext* _ctx;
    StageStats _stats;
    std::vector<std::unique_ptr<PlanStage>> _children;
};

// Builds the stages of a solution. REQUIRES: ctx outlives them.
std::unique_ptr<PlanStage> buildStages(const SolutionNode* node, StageContext* ctx);

// Does doc satisfy every clause?
bool matchesAll(const std::vector<const MatchExpression*>& clauses, const BSONObj& doc);

}  // namespace mongo
