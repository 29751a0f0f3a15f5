#include "mongo/db/query/query_planner.h"

#include <algorithm>
#include <tuple>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/canonical_query_string.h"
#include "mongo/db/query/expression_implication.h"
#include "mongo/db/query/path_traversal.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

CanonicalQuery::CanonicalQuery(QueryRequest qr, PlanPurpose purpose, std::string distinctKey)
    : _qr(std::move(qr)),
      _purpose(purpose),
      _distinctKey(std::move(distinctKey)),
      _matcher(_qr.filter, _qr.collation.collator) {
    BSONElement natural = _qr.sort["$natural"];
    _naturalSort = !natural.eoo() && _qr.sort.nFields() == 1;
    if (!_qr.sort.isEmpty() && !_naturalSort) SortPattern check(_qr.sort);  // throws MongoDB's sort errors
    if (!_qr.projection.isEmpty()) Projection check(_qr.projection);
    collectConjuncts(_matcher.root(), &_conjuncts);
    _preds = collectPredicates(_conjuncts);
}

namespace {

bool isHintNatural(const BSONObj& hint) { return !hint["$natural"].eoo(); }

bool directionOf(const BSONElement& e) { return !(e.isNumber() && e.numberDouble() < 0); }

bool hasNumericComponent(std::string_view path) {
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        std::string_view part = path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (isAllDigits(part)) return true;
        if (dot == std::string_view::npos) return false;
        start = dot + 1;
    }
}

// ---- sort ----

// Does a scan of idx within bounds return documents in the sort order? Sets *forward.
// Leading fields bounded to one point do not affect the order and may be skipped. A field
// holding arrays gives the order of its smallest (ascending) or largest (descending) element,
// which is the sort's rule, only when every field up to the sorted ones is unbounded: a
// bounded scan may meet a document first at an element other than the one it sorts by.
// An index under another collation than the query's orders strings, objects and arrays its
// own way: it gives the order only of sorted fields whose bounds hold none (MongoDB 7.0's rule).
bool providesSort(const IndexEntry& idx, const IndexBounds& bounds, const BSONObj& sort, bool sameCollation,
                  bool* forward) {
    if (sort.isEmpty()) {
        *forward = true;
        return true;
    }
    size_t k = 0, n = idx.fields.size();
    int dir = 0;
    for (BSONElement s : sort) {
        while (k < n && idx.fields[k] != s.fieldNameStringData() && bounds.fields[k].size() == 1 &&
               bounds.fields[k][0].isPoint())
            k++;
        if (k >= n || idx.fields[k] != s.fieldNameStringData() || !s.isNumber() || idx.fieldHashed(k)) return false;
        if (!sameCollation && oil::mayHoldCollatableValues(bounds.fields[k])) return false;
        int d = (directionOf(s) ? 1 : -1) * idx.directions[k];
        if (dir == 0) dir = d;
        else if (dir != d) return false;
        k++;
    }
    bool anyMultikey = false;
    for (size_t f = 0; f < k; f++) {
        anyMultikey |= idx.fieldMultikey(f);
        // A positional path ("a.0") holding an array is indexed whole, while a sort orders by
        // its elements.
        if (hasNumericComponent(idx.fields[f])) return false;
    }
    if (anyMultikey) {
        // A document is met at its first key within the bounds. That is the key it sorts by
        // only if the bounds accept all of its keys alike: no bounded field may hold arrays
        // (a field without arrays has one value for all of a document's keys). A sparse index
        // lacks the keys of array elements without the field, which a sort counts as null.
        if (idx.sparse) return false;
        for (size_t f = 0; f < idx.fields.size(); f++)
            if (idx.fieldMultikey(f) && !oil::isFullRange(bounds.fields[f])) return false;
    }
    *forward = dir >= 0;
    return true;
}

// ---- projection ----

// A projection that only includes fields ({a: 1, "b.c": 1, _id: 0}): its paths, and whether
// it keeps _id. False for exclusions, expressions, $slice, $elemMatch, positional.
bool inclusionPaths(const BSONObj& proj, std::vector<std::string>* paths, bool* keepsId) {
    *keepsId = true;
    bool any = false;
    for (BSONElement e : proj) {
        std::string_view name = e.fieldNameStringData();
        bool include;
        if (e.type() == Bool) include = e.boolean();
        else if (e.isNumber()) include = e.numberDouble() != 0;
        else return false;
        if (name.find('$') != std::string_view::npos) return false;
        if (name == "_id") {
            *keepsId = include;
            if (include) paths->emplace_back("_id");
            continue;
        }
        if (!include) return false;
        paths->emplace_back(name);
        any = true;
    }
    // _id is kept unless excluded: then it must come from the index as well. {_id: 0} alone is
    // an exclusion (everything but _id); {_id: 1} alone includes only _id.
    bool idIncludedExplicitly = std::find(paths->begin(), paths->end(), "_id") != paths->end();
    if (*keepsId && !idIncludedExplicitly) paths->emplace_back("_id");
    return any || idIncludedExplicitly;
}

StageType projectionStageType(const BSONObj& proj) {
    for (BSONElement e : proj) {
        if (e.fieldNameStringData().find('.') != std::string_view::npos) return StageType::kProjectionDefault;
        if (e.type() != Bool && !e.isNumber()) return StageType::kProjectionDefault;
    }
    return StageType::kProjectionSimple;
}

// ---- candidates ----

struct Candidate {
    const IndexEntry* idx = nullptr;
    IndexAssignment a;
    bool sorts = false;
    bool forward = true;
    std::vector<const MatchExpression*> residual;  // conjuncts the bounds do not answer
    std::vector<const MatchExpression*> keyFilter;  // residual clauses evaluable on keys
    std::vector<const MatchExpression*> fetchFilter;
    bool covered = false;  // no FETCH: the purpose is served by the keys
};

// Whether a partial index holds every document the query (these conjuncts) can match. Its
// filter was applied under the index's collation: under another one, only a filter that
// compares no collatable value is known to select the same documents.
bool partialFilterAllows(const IndexEntry& idx, const CanonicalQuery& cq,
                         const std::vector<const MatchExpression*>& conjuncts) {
    if (!idx.partialFilter) return true;
    if (!sameCollation(idx.collator, cq.collator()) && comparesCollatableValues(*idx.partialFilter)) return false;
    return queryImplies(conjuncts, *idx.partialFilter);
}

// An index under another collation than the query's is eligible too: makeCandidate bounds it
// only with predicates collations cannot affect.
bool indexEligible(const IndexEntry& idx, const CanonicalQuery& cq, const std::vector<const MatchExpression*>& conjuncts,
                   const std::vector<PredicateRef>& preds) {
    if (idx.hidden) return false;
    if (idx.sparse && !sparseIndexEligible(idx, preds)) return false;
    return partialFilterAllows(idx, cq, conjuncts);
}

// Can the keys alone serve what the caller needs (with the residual filter on keys)?
bool coverable(const Candidate& c, const CanonicalQuery& cq) {
    const IndexEntry& idx = *c.idx;
    if (!idx.keyFieldsIndependent()) return false;
    if (c.residual.size() != c.keyFilter.size()) return false;
    const QueryRequest& qr = cq.request();
    auto fieldUsable = [&](const std::string& path) {
        int f = idx.fieldIndex(path);
        return f >= 0 && !idx.fieldMultikey(static_cast<size_t>(f));
    };
    if (cq.hasSort() && !c.sorts) {
        for (BSONElement s : qr.sort)
            if (!fieldUsable(std::string(s.fieldNameStringData()))) return false;
    }
    switch (cq.purpose()) {
        case PlanPurpose::kWrite: return false;
        case PlanPurpose::kCount: return true;
        case PlanPurpose::kDistinct: return fieldUsable(cq.distinctKey());
        case PlanPurpose::kFind: {
            if (qr.returnKey) return true;
            if (qr.projection.isEmpty()) return false;
            std::vector<std::string> paths;
            bool keepsId;
            if (!inclusionPaths(qr.projection, &paths, &keepsId)) return false;
            // Keys tell a missing field from a null one (key_string::kMissingFieldName), so the
            // document rebuilt from a key projects like the document itself.
            for (const std::string& p : paths)
                if (!fieldUsable(p)) return false;
            return true;
        }
    }
    return false;
}

Candidate makeCandidate(const IndexEntry& idx, const CanonicalQuery& cq, const std::vector<const MatchExpression*>& conjuncts,
                        const std::vector<PredicateRef>& preds) {
    Candidate c;
    c.idx = &idx;
    const bool same = sameCollation(idx.collator, cq.collator());
    c.a = assignPredicates(idx, preds, same);
    bool fwd = true;
    c.sorts = cq.hasSort() ? providesSort(idx, c.a.bounds, cq.request().sort, same, &fwd) : false;
    c.forward = fwd;
    bool keysUsable = idx.keyFieldsIndependent();
    for (const MatchExpression* m : conjuncts) {
        if (c.a.answered.count(m)) continue;
        c.residual.push_back(m);
        if (keysUsable && coverableByKey(idx, *m)) c.keyFilter.push_back(m);
        else c.fetchFilter.push_back(m);
    }
    c.covered = coverable(c, cq);
    return c;
}

auto score(const Candidate& c) {
    return std::make_tuple(c.a.pointPrefix, c.a.boundedFields, c.sorts ? 1 : 0, c.covered ? 1 : 0, c.idx->unique ? 1 : 0);
}

std::unique_ptr<SolutionNode> node(StageType t) { return std::make_unique<SolutionNode>(t); }

std::unique_ptr<SolutionNode> withChild(std::unique_ptr<SolutionNode> parent, std::unique_ptr<SolutionNode> child) {
    parent->children.push_back(std::move(child));
    return parent;
}

std::unique_ptr<SolutionNode> indexScanNode(const Candidate& c, bool withKeyFilter) {
    auto ix = node(StageType::kIxScan);
    ix->index = *c.idx;
    ix->bounds = c.a.bounds;
    ix->forward = c.forward;
    ix->dedup = c.idx->multikey;
    if (withKeyFilter) ix->filter = c.keyFilter;
    return ix;
}

// Sort, skip, limit, projection / returnKey over the access path.
std::unique_ptr<SolutionNode> finish(std::unique_ptr<SolutionNode> root, const CanonicalQuery& cq, bool sorted) {
    const QueryRequest& qr = cq.request();
    if (cq.purpose() == PlanPurpose::kCount || cq.purpose() == PlanPurpose::kDistinct) return root;
    bool blockingSort = cq.hasSort() && !sorted;
    if (blockingSort) {
        auto s = node(StageType::kSort);
        s->sortPattern = qr.sort;
        if (qr.limit > 0) {
            long long bound;
            if (!__builtin_add_overflow(qr.skip, qr.limit, &bound)) s->limit = bound;
        }
        root = withChild(std::move(s), std::move(root));
    }
    if (qr.skip > 0) {
        auto s = node(StageType::kSkip);
        s->skip = qr.skip;
        root = withChild(std::move(s), std::move(root));
    }
    // With a blocking sort the SORT keeps only skip + limit documents and SKIP drops the
    // first ones: no LIMIT stage (as MongoDB's plans).
    if (qr.limit > 0 && !blockingSort) {
        auto l = node(StageType::kLimit);
        l->limit = qr.limit;
        root = withChild(std::move(l), std::move(root));
    }
    if (cq.purpose() == PlanPurpose::kWrite) return root;
    if (qr.returnKey) return withChild(node(StageType::kReturnKey), std::move(root));
    if (!qr.projection.isEmpty()) {
        StageType t = root->fetched() ? projectionStageType(qr.projection) : StageType::kProjectionCovered;
        auto p = node(t);
        p->projection = qr.projection;
        root = withChild(std::move(p), std::move(root));
    }
    return root;
}

std::unique_ptr<SolutionNode> collScanPlan(const CanonicalQuery& cq, bool forward, bool tailable = false) {
    auto cs = node(StageType::kCollScan);
    cs->forward = forward;
    cs->tailable = tailable;
    cs->filter = cq.conjuncts();
    return finish(std::move(cs), cq, false);
}

std::unique_ptr<SolutionNode> indexPlan(const Candidate& c, const CanonicalQuery& cq) {
    auto ix = indexScanNode(c, true);
    ix->fullFilter = cq.conjuncts();
    if (c.covered) return finish(std::move(ix), cq, c.sorts);
    auto fetch = node(StageType::kFetch);
    fetch->filter = c.fetchFilter;
    fetch->fullFilter = cq.conjuncts();
    fetch = withChild(std::move(fetch), std::move(ix));
    return finish(std::move(fetch), cq, c.sorts);
}

const IndexEntry* findHinted(const std::vector<IndexEntry>& entries, const BSONObj& hint) {
    BSONElement h = hint.firstElement();
    if (hint.nFields() == 1 && h.fieldNameStringData() == "$hint" && h.type() == String) {
        for (const auto& e : entries)
            if (e.name == h.valueStringData()) return &e;
        return nullptr;
    }
    for (const auto& e : entries)
        if (e.keyPattern.binaryEqual(hint)) return &e;
    for (const auto& e : entries)  // {a: 1.0} names the same index as {a: 1}
        if (e.keyPattern.woCompare(hint) == 0) return &e;
    return nullptr;
}

[[noreturn]] void badHint() {
    uasserted(ErrorCodes::BadValue, "hint provided does not correspond to an existing index");
}

// find's min()/max(): one range of the hinted index.
std::unique_ptr<SolutionNode> minMaxPlan(const IndexEntry& idx, const CanonicalQuery& cq) {
    const QueryRequest& qr = cq.request();
    auto names = [](const BSONObj& o) {
        std::vector<std::string> out;
        for (BSONElement e : o) out.emplace_back(e.fieldNameStringData());
        return out;
    };
    if (!qr.min.isEmpty() && !qr.max.isEmpty() && names(qr.min) != names(qr.max))
        uasserted(51176, "min() and max() must have the same field names");
    for (const BSONObj* b : {&qr.min, &qr.max})
        if (!b->isEmpty() && names(*b) != idx.fields)
            uasserted(51174, "The index chosen is not consistent with min/max");
    auto valuesOf = [](const BSONObj& o) {
        BSONObjBuilder b;
        for (BSONElement e : o) b.appendAs(e, "");
        return b.obj();
    };
    auto extreme = [&](bool low) {
        // The first (low) or last key of the index, in index order.
        BSONObjBuilder b;
        for (int d : idx.directions) {
            if ((d > 0) == low) b.appendMinKey("");
            else b.appendMaxKey("");
        }
        return b.obj();
    };
    // Key values: an index with a collation orders strings by their comparison keys.
    BSONObj lo = qr.min.isEmpty() ? extreme(true) : toComparisonKeys(valuesOf(qr.min), idx.collator);
    BSONObj hi = qr.max.isEmpty() ? extreme(false) : toComparisonKeys(valuesOf(qr.max), idx.collator);
    if (!qr.min.isEmpty() && !qr.max.isEmpty() && lo.woCompare(hi, idx.keyPattern, false) >= 0)
        uasserted(51175, "max() must be greater than min()");
    auto ix = node(StageType::kIxScan);
    ix->index = idx;
    ix->rangeScan = true;
    ix->startKey = lo;
    ix->endKey = hi;
    ix->endKeyInclusive = qr.max.isEmpty();
    ix->dedup = idx.multikey;
    ix->bounds.fields.assign(idx.fields.size(), oil::fullRange());
    auto fetch = node(StageType::kFetch);
    fetch->filter = cq.conjuncts();
    fetch->fullFilter = cq.conjuncts();
    return finish(withChild(std::move(fetch), std::move(ix)), cq, false);
}

std::unique_ptr<SolutionNode> idHackPlan(const IndexEntry& idIndex, const CanonicalQuery& cq) {
    const QueryRequest& qr = cq.request();
    if (!qr.hint.isEmpty() || cq.hasSort() || qr.skip > 0 || qr.returnKey || !qr.min.isEmpty() || !qr.max.isEmpty())
        return nullptr;
    if (cq.purpose() == PlanPurpose::kCount || cq.purpose() == PlanPurpose::kDistinct) return nullptr;
    if (cq.conjuncts().size() != 1 || cq.conjuncts()[0]->matchType() != MatchType::kEq) return nullptr;
    const auto* eq = static_cast<const ComparisonMatchExpression*>(cq.conjuncts()[0]);
    if (eq->path()->dotted() != "_id") return nullptr;
    BSONType t = eq->rhs().type();
    if (t == Array || t == jstNULL || t == Undefined || t == RegEx || t == MinKey || t == MaxKey) return nullptr;
    if (!sameCollation(idIndex.collator, cq.collator())) return nullptr;
    auto id = node(StageType::kIdHack);
    id->index = idIndex;
    // The _id index of a collection with a collation holds comparison keys.
    id->idValue = toComparisonKeys(eq->rhs().wrap(""), idIndex.collator);
    // A limit of 1 or more changes nothing for one document; a projection still applies.
    return finish(std::move(id), cq, true);
}

// One index scan per $or branch, their union fetched and filtered.
std::unique_ptr<SolutionNode> orPlan(const std::vector<IndexEntry>& entries, const CanonicalQuery& cq) {
    const MatchExpression* orNode = nullptr;
    std::vector<const MatchExpression*> others;
    for (const MatchExpression* m : cq.conjuncts()) {
        if (!orNode && m->matchType() == MatchType::kOr) orNode = m;
        else others.push_back(m);
    }
    if (!orNode || orNode->numChildren() == 0) return nullptr;
    // Partial indexes the rest of the query already restricts to (checked once, not per
    // branch: a branch then only needs its own clauses to imply the filter).
    std::vector<bool> impliedByOthers;
    for (const IndexEntry& e : entries) impliedByOthers.push_back(e.partialFilter && partialFilterAllows(e, cq, others));
    auto orStage = node(StageType::kOr);
    for (size_t i = 0; i < orNode->numChildren(); i++) {
        std::vector<const MatchExpression*> branch;
        collectConjuncts(orNode->getChild(i), &branch);
        std::vector<PredicateRef> preds = collectPredicates(branch);
        std::optional<Candidate> best;
        for (size_t k = 0; k < entries.size(); k++) {
            const IndexEntry& e = entries[k];
            if (e.hidden || (e.sparse && !sparseIndexEligible(e, preds))) continue;
            if (e.partialFilter && !impliedByOthers[k] && !partialFilterAllows(e, cq, branch)) continue;
            Candidate c;
            c.idx = &e;
            c.a = assignPredicates(e, preds, sameCollation(e.collator, cq.collator()));
            if (!c.a.relevant) continue;
            if (!best || score(c) > score(*best)) best = std::move(c);
        }
        if (!best) return nullptr;
        auto ix = node(StageType::kIxScan);
        ix->index = *best->idx;
        ix->bounds = best->a.bounds;
        ix->dedup = best->idx->multikey;
        orStage->children.push_back(std::move(ix));
    }
    auto fetch = node(StageType::kFetch);
    fetch->filter = cq.conjuncts();
    fetch->fullFilter = cq.conjuncts();
    return finish(withChild(std::move(fetch), std::move(orStage)), cq, false);
}

// distinct over an index whose leading field is the key: one seek per distinct value.
std::unique_ptr<SolutionNode> distinctScanPlan(const std::vector<Candidate>& candidates, const CanonicalQuery& cq) {
    for (const Candidate& c : candidates) {
        const IndexEntry& idx = *c.idx;
        // A collated index's keys are not the values; and the distinct values of an index are
        // distinct bytewise, not under a query's collation.
        if (idx.fields[0] != cq.distinctKey() || idx.fieldMultikey(0) || idx.fieldHashed(0) || !c.residual.empty() ||
            idx.collator || cq.collator())
            continue;
        auto ds = node(StageType::kDistinctScan);
        ds->index = idx;
        ds->bounds = c.a.bounds;
        ds->forward = true;
        ds->distinctField = 0;
        auto p = node(StageType::kProjectionCovered);
        // {key: 1, _id: 0}, or just {_id: 1} for distinct on _id (both would be a path collision).
        p->projection = cq.distinctKey() == "_id" ? BSONObjBuilder().append("_id", 1).obj()
                                                  : BSONObjBuilder().append(cq.distinctKey(), 1).append("_id", 0).obj();
        return withChild(std::move(p), std::move(ds));
    }
    return nullptr;
}

// count: COUNT_SCAN when the bounds are one contiguous range and nothing is left to filter.
std::unique_ptr<SolutionNode> countScanPlan(const Candidate& c) {
    if (!c.residual.empty() || c.a.bounds.empty()) return nullptr;
    if (c.idx->collator) return nullptr;  // its start/end keys would be sort keys, not values
    const IndexBounds& b = c.a.bounds;
    size_t n = b.fields.size(), p = 0;
    while (p < n && b.fields[p].size() == 1 && b.fields[p][0].isPoint()) p++;
    size_t rangeField = p;
    if (p < n) {
        if (b.fields[p].size() != 1) return nullptr;
        p++;
    }
    for (size_t q = p; q < n; q++)
        if (!oil::isFullRange(b.fields[q])) return nullptr;
    // Start and end keys in index order (COUNT_SCAN runs forward).
    const IndexEntry& idx = *c.idx;
    bool startInc = true, endInc = true;
    if (rangeField < n) {
        const Interval& iv = b.fields[rangeField][0];
        bool up = idx.directions[rangeField] > 0;
        startInc = up ? iv.loInclusive : iv.hiInclusive;
        endInc = up ? iv.hiInclusive : iv.loInclusive;
    }
    if (!startInc) return nullptr;  // COUNT_SCAN's start is inclusive; keep the IXSCAN
    BSONObjBuilder s, e;
    for (size_t f = 0; f < n; f++) {
        const Interval& iv = b.fields[f][0];
        bool up = idx.directions[f] > 0;
        if (f > rangeField && rangeField < n && !oil::isFullRange(b.fields[rangeField])) {
            if (up) s.appendMinKey("");
            else s.appendMaxKey("");
            if (endInc == up) e.appendMaxKey("");
            else e.appendMinKey("");
            continue;
        }
        s.appendAs(up ? iv.lo() : iv.hi(), "");
        e.appendAs(up ? iv.hi() : iv.lo(), "");
    }
    auto cs = node(StageType::kCountScan);
    cs->index = idx;
    cs->rangeScan = true;
    cs->startKey = s.obj();
    cs->endKey = e.obj();
    cs->endKeyInclusive = endInc;
    cs->dedup = idx.multikey;
    cs->bounds = b;
    return cs;
}

std::unique_ptr<SolutionNode> candidatePlan(const Candidate& c, const CanonicalQuery& cq) {
    if (cq.purpose() == PlanPurpose::kCount)
        if (auto cs = countScanPlan(c)) return cs;
    return indexPlan(c, cq);
}

}  // namespace

bool indexScanProvidesSort(const IndexEntry& idx, const IndexBounds& bounds, const BSONObj& sort, bool forward,
                           const Collator* queryCollator) {
    bool fwd = true;
    return providesSort(idx, bounds, sort, sameCollation(idx.collator, queryCollator), &fwd) && fwd == forward;
}

std::unique_ptr<SolutionNode> planQuery(OperationContext* opCtx, const Collection* coll, const CanonicalQuery& cq) {
    return std::move(planQueryCandidates(opCtx, coll, cq).front());
}

std::vector<std::unique_ptr<SolutionNode>> planQueryCandidates(OperationContext* opCtx, const Collection* coll,
                                                               const CanonicalQuery& cq) {
    std::vector<std::unique_ptr<SolutionNode>> out;
    auto one = [&](std::unique_ptr<SolutionNode> s) {
        out.push_back(std::move(s));
        return std::move(out);
    };
    const QueryRequest& qr = cq.request();
    bool minMax = !qr.min.isEmpty() || !qr.max.isEmpty();
    if (minMax && isHintNatural(qr.hint))
        uasserted(ErrorCodes::NoQueryExecutionPlans, "error processing query: planner returned error :: caused by :: "
                                                     "min and max are incompatible with $natural");
    if (minMax && qr.hint.isEmpty())
        uasserted(51173, "When using min()/max() a hint of which index to use must be provided");
    if (!coll) return one(node(StageType::kEOF));

    if (qr.tailable) {
        if (!coll->options().capped)
            uasserted(ErrorCodes::BadValue, "error processing query: " + canonicalQueryString(coll->ns().ns(), cq) +
                                                " tailable cursor requested on non capped collection");
        // Tailable cursors read in natural order and use no index, whatever the hint: MongoDB's
        // planner answers them with a collection scan before it looks at the hint.
        return one(collScanPlan(cq, true, true));
    }
    if (isHintNatural(qr.hint)) return one(collScanPlan(cq, directionOf(qr.hint["$natural"])));
    if (cq.naturalSort()) return one(collScanPlan(cq, directionOf(qr.sort["$natural"])));

    std::vector<IndexEntry> entries = indexEntriesOf(opCtx, coll);
    // The solution keeps copies of the entries it uses; candidates point into 'entries'.
    if (!qr.hint.isEmpty()) {
        const IndexEntry* idx = findHinted(entries, qr.hint);
        if (!idx || idx->hidden) badHint();
        // A partial index holds too few documents unless the query implies its filter; a
        // sparse one is used as hinted, as MongoDB does (and documents).
        if (!partialFilterAllows(*idx, cq, cq.conjuncts())) badHint();
        if (minMax) return one(minMaxPlan(*idx, cq));
        // Under another collation than the index's, only predicates collations cannot affect
        // bound the scan; the others are filtered on the documents (makeCandidate).
        Candidate c = makeCandidate(*idx, cq, cq.conjuncts(), cq.predicates());
        if (cq.purpose() == PlanPurpose::kDistinct)
            if (auto ds = distinctScanPlan({c}, cq)) return one(std::move(ds));
        return one(candidatePlan(c, cq));
    }

    for (const IndexEntry& e : entries)
        if (e.desc->isIdIndex())
            if (auto p = idHackPlan(e, cq)) return one(std::move(p));

    std::vector<Candidate> relevant, sortOnly;
    for (const IndexEntry& e : entries) {
        if (!indexEligible(e, cq, cq.conjuncts(), cq.predicates())) continue;
        Candidate c = makeCandidate(e, cq, cq.conjuncts(), cq.predicates());
        if (c.a.relevant) relevant.push_back(std::move(c));
        else if (c.sorts || (cq.purpose() == PlanPurpose::kDistinct && e.fields[0] == cq.distinctKey()))
            sortOnly.push_back(std::move(c));
    }
    if (cq.purpose() == PlanPurpose::kDistinct) {
        std::vector<Candidate> all = relevant;
        all.insert(all.end(), sortOnly.begin(), sortOnly.end());
        if (auto ds = distinctScanPlan(all, cq)) return one(std::move(ds));
    }
    if (!relevant.empty()) {
        // Every relevant index is a candidate; the rules' favourite first (the executor's trial
        // run decides between them, as MongoDB's multi-planner does).
        std::stable_sort(relevant.begin(), relevant.end(),
                         [](const Candidate& a, const Candidate& b) { return score(a) > score(b); });
        for (const Candidate& c : relevant) out.push_back(candidatePlan(c, cq));
        return out;
    }
    if (auto p = orPlan(entries, cq)) return one(std::move(p));
    for (const Candidate& c : sortOnly)
        if (c.sorts) return one(candidatePlan(c, cq));
    return one(collScanPlan(cq, true));
}

}  // namespace mongo
