#include "mongo/db/query/plan_executor.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/query/index_scan_stage.h"
#include "mongo/db/service_context.h"

namespace mongo {
namespace {

// Every index node of the plan (their entries hold the multikey state planned with).
void collectIndexNodes(const SolutionNode* n, std::vector<const SolutionNode*>* out) {
    if (n->index.desc) out->push_back(n);
    for (const auto& c : n->children) collectIndexNodes(c.get(), out);
}

const SolutionNode* findNode(const SolutionNode* n, StageType t) {
    if (n->type == t) return n;
    for (const auto& c : n->children)
        if (const SolutionNode* f = findNode(c.get(), t)) return f;
    return nullptr;
}

// The leaves of the plan as MongoDB's planSummary names them: "COLLSCAN", "IXSCAN { a: 1 }".
void summarize(const SolutionNode* n, std::string* out) {
    if (!n->children.empty()) {
        for (const auto& c : n->children) summarize(c.get(), out);
        return;
    }
    if (!out->empty()) *out += ", ";
    *out += stageTypeName(n->type);
    if (n->index.desc && std::string_view(stageTypeName(n->type)) != "IDHACK") {
        *out += " { ";
        bool first = true;
        for (BSONElement f : n->index.keyPattern) {
            if (!first) *out += ", ";
            first = false;
            *out += std::string(f.fieldNameStringData()) + ": " + f.toString(false);
        }
        *out += " }";
    }
}

}  // namespace

PlanExecutor::PlanExecutor(Client* client, const Collection* coll, const NamespaceString& nss, QueryRequest qr,
                           PlanPurpose purpose, std::string distinctKey, const OperationContext* interruptCtx)
    : _opCtx(makeOperationContext(client)), _nss(nss) {
    // The query's collation: the one given, else the collection's default.
    qr.collation.collator = resolveCollation(qr.collation, coll);
    qr.collation.given = true;
    _cq = std::make_unique<CanonicalQuery>(std::move(qr), purpose, std::move(distinctKey));
    if (coll) _collUuid = coll->uuid();
    // The snapshot opens before the plan reads the indexes' multikey state, so the plan never
    // assumes less about arrays than the data it will see.
    _opCtx->recoveryUnit()->preallocateSnapshot();
    auto candidates = planQueryCandidates(_opCtx.get(), coll, *_cq);
    _ctx.opCtx = _opCtx.get();
    _ctx.coll = coll;
    _ctx.matcher = &_cq->matcher();
    _ctx.allowDiskUse = _cq->request().allowDiskUse;
    size_t winner = 0;
    if (candidates.size() > 1) {
        std::vector<TrialResult> trials;
        StageContext trialCtx = _ctx;
        trialCtx.interrupt = interruptCtx;
        winner = pickBestPlan(candidates, trialCtx, coll->numRecords(_opCtx.get()), &trials);
        _trials.push_back(trials[winner]);
        for (size_t i = 0; i < trials.size(); i++)
            if (i != winner) _trials.push_back(trials[i]);
    }
    _solution = std::move(candidates[winner]);
    for (size_t i = 0; i < candidates.size(); i++)
        if (i != winner) _rejected.push_back(std::move(candidates[i]));
    _root = buildStages(_solution.get(), &_ctx);
    if (interruptCtx) interruptCtx->setPlanSummary(planSummary());
}

std::string PlanExecutor::planSummary() const {
    std::string s;
    summarize(_solution.get(), &s);
    return s;
}

PlanExecutor::~PlanExecutor() { _root.reset(); }

std::optional<BSONObj> PlanExecutor::getNext(const OperationContext* interruptCtx, RecordId* id, BSONObj* raw) {
    if (_eof) return std::nullopt;
    if (interruptCtx) interruptCtx->checkForInterrupt();
    _ctx.interrupt = interruptCtx;
    // Aggregation expressions the plan evaluates (a projection's {$eq: ...}) compare under the
    // query's collation, as its matcher and sort do.
    ValueComparisonScope collation(_cq->collator());
    auto m = _root->next();
    _ctx.interrupt = nullptr;
    if (!m) {
        _eof = true;
        return std::nullopt;
    }
    _nReturned++;
    if (id) *id = m->id;
    BSONObj out = m->docOrKeyDoc();
    if (raw) *raw = m->doc ? *m->doc : BSONObj();
    // With returnKey the result is the index key alone: showRecordId adds nothing to it
    // (MongoDB 7.0's reply to drivers' command-monitoring test "find with showRecordId and
    // returnKey").
    if (_cq->request().showRecordId && !_cq->request().returnKey && !m->id.isNull()) {
        BSONObjBuilder b;
        b.appendElements(out);
        b.append("$recordId", static_cast<long long>(m->id.repr()));
        out = b.obj();
    }
    return out;
}

void PlanExecutor::saveState() {
    _root->save();
    _opCtx->recoveryUnit()->abandonSnapshot();
}

void PlanExecutor::restoreState(const Collection* coll) {
    // A tailable plan is never done: each batch looks again past the end.
    if (_cq->request().tailable && _solution->type != StageType::kEOF) _eof = false;
    if (_solution->type == StageType::kEOF || _eof) {
        _ctx.coll = coll;
        return;
    }
    if (!coll || coll->uuid() != _collUuid) {
        _eof = true;
        uasserted(ErrorCodes::QueryPlanKilled, "collection dropped between getMore calls: " + _nss.ns());
    }
    _opCtx->recoveryUnit()->preallocateSnapshot();
    std::vector<const SolutionNode*> indexNodes;
    collectIndexNodes(_solution.get(), &indexNodes);
    bool multikeyChanged = false;
    for (const SolutionNode* n : indexNodes) {
        // The index may have been dropped since saveState() (and even recreated, perhaps at the
        // same address): require the very table the plan read, as MongoDB kills a plan whose
        // index went away.
        const IndexDescriptor* now = coll->getIndexCatalog()->findIndexByName(n->index.name);
        if (!now || now->ident != n->index.ident) {
            _eof = true;
            uasserted(ErrorCodes::QueryPlanKilled,
                      "index '" + n->index.name + "' dropped between getMore calls: " + _nss.ns());
        }
        MultikeyPaths paths = coll->getIndexCatalog()->getMultikeyPaths(_opCtx.get(), now);
        if (paths != n->index.multikeyPaths) multikeyChanged = true;
        // An index scan in sort order stays one only if the order still holds with the arrays.
        if (_cq->hasSort() && !findNode(_solution.get(), StageType::kSort) && n->type == StageType::kIxScan) {
            IndexEntry updated = n->index;
            updated.multikeyPaths = paths;
            updated.multikey = anyMultikey(paths);
            if (!indexScanProvidesSort(updated, n->bounds, _cq->request().sort, n->forward, _cq->collator())) {
                _eof = true;
                uasserted(ErrorCodes::QueryPlanKilled, "index '" + n->index.name +
                                                           "' became multikey between getMore calls and no longer "
                                                           "gives the sort order: " + _nss.ns());
            }
        }
    }
    // An index of the plan became multikey since it was planned: bounds may have been
    // compounded or intersected, and clauses dropped as answered by them, on the premise that
    // its fields held no arrays. Documents written since may then be missed (as any concurrent
    // write may be), but nothing may be returned that does not match: scans deduplicate,
    // every document is fetched and checked against the whole filter, covered output comes
    // from the document.
    if (multikeyChanged)
        _root->adaptToMultikey(findNode(_solution.get(), StageType::kFetch) != nullptr);
    _ctx.coll = coll;
    _root->restore();
}

PlanStats PlanExecutor::stats() const {
    PlanStats s;
    s.nReturned = _nReturned;
    s.keysExamined = _root->totalKeysExamined();
    s.docsExamined = _root->totalDocsExamined();
    return s;
}

BSONObj PlanExecutor::winningPlan() const { return _solution->toBSON(); }

BSONObj PlanExecutor::executionStages() const { return _root->statsToBSON(); }

BSONArray PlanExecutor::rejectedPlans() const {
    BSONArrayBuilder arr;
    for (const auto& r : _rejected) arr.append(r->toBSON());
    return arr.arr();
}

BSONArray PlanExecutor::allPlansExecution() const {
    BSONArrayBuilder arr;
    for (const TrialResult& t : _trials) {
        BSONObjBuilder& b = arr.subobjStart();
        b.appendNumber("nReturned", t.results);
        b.appendNumber("executionTimeMillisEstimate", 0);
        b.appendNumber("totalKeysExamined", t.keysExamined);
        b.appendNumber("totalDocsExamined", t.docsExamined);
        b.append("score", t.score);
        b.append("executionStages", t.executionStages);
        b.doneFast();
    }
    return arr.arr();
}

}  // namespace mongo
