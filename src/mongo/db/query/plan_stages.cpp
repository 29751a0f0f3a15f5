// The stages other than the index scan (index_scan_stage.cpp), and the plan-building switch.
#include <algorithm>
#include <set>

#include "mongo/db/query/blocking_memory_tracker.h"
#include "mongo/db/query/index_scan_stage.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

bool matchesAll(const std::vector<const MatchExpression*>& clauses, const BSONObj& doc) {
    for (const MatchExpression* c : clauses)
        if (!c->matches(doc, nullptr)) return false;
    return true;
}

BSONObj WorkingMember::docOrKeyDoc() const {
    if (doc) return *doc;
    if (keyIndex) return keyToDocument(*keyIndex, key);
    return BSONObj();
}

std::optional<WorkingMember> PlanStage::next() {
    auto r = doNext();
    if (r) _stats.advanced++;
    else _stats.isEOF = true;
    _stats.works = _stats.advanced + _stats.needTime + (_stats.isEOF ? 1 : 0);
    return r;
}

void PlanStage::save() {
    _stats.saveState++;
    for (auto& c : _children) c->save();
}

void PlanStage::restore() {
    _stats.restoreState++;
    for (auto& c : _children) c->restore();
}

void PlanStage::adaptToMultikey(bool planFetches) {
    for (auto& c : _children) c->adaptToMultikey(planFetches);
}

long long PlanStage::totalKeysExamined() const {
    long long n = _stats.keysExamined;
    for (const auto& c : _children) n += c->totalKeysExamined();
    return n;
}

long long PlanStage::totalDocsExamined() const {
    long long n = _stats.docsExamined;
    for (const auto& c : _children) n += c->totalDocsExamined();
    return n;
}

BSONObj PlanStage::statsToBSON() const {
    BSONObjBuilder b;
    // The plan's own description (without its inputs), then the counters, then the inputs.
    BSONObj desc = _node->toBSON();
    // MongoDB's order: stage, filter, the counters, the stage's own fields, its inputs.
    b.append(desc["stage"]);
    if (desc.hasField("filter")) b.append(desc["filter"]);
    for (BSONElement e : desc) {
        std::string_view n = e.fieldNameStringData();
        if (n == "inputStage" || n == "inputStages" || n == "filter") continue;
        if (n != "stage") b.append(e);
        if (n == "stage") {
            b.appendNumber("nReturned", _stats.advanced);
            b.append("executionTimeMillisEstimate", 0);
            b.appendNumber("works", _stats.works);
            b.appendNumber("advanced", _stats.advanced);
            b.appendNumber("needTime", _stats.needTime);
            b.append("needYield", 0);
            b.appendNumber("saveState", _stats.saveState);
            b.appendNumber("restoreState", _stats.restoreState);
            b.append("isEOF", _stats.isEOF ? 1 : 0);
        }
    }
    appendStageStats(b);
    if (_children.size() == 1) {
        b.append("inputStage", _children[0]->statsToBSON());
    } else if (_children.size() > 1) {
        BSONArrayBuilder& arr = b.subarrayStart("inputStages");
        for (const auto& c : _children) arr.append(c->statsToBSON());
        arr.doneFast();
    }
    return b.obj();
}

namespace {

class EOFStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override { return std::nullopt; }
};

// A scan of a capped collection resumes exactly where it stopped, as MongoDB's does: when the
// record it last saw was deleted meanwhile (the collection rolled over past it, or the record
// was removed), it fails with CappedPositionLost instead of silently skipping what it missed.
// A tailable scan (a capped collection, forward) also goes on past the end: the next batch
// resumes after the last record it saw, or from the start if it has seen none.
class CollScanStage : public PlanStage {
public:
    using PlanStage::PlanStage;
    void save() override {
        PlanStage::save();
        if (_cursor) _cursor->save();
    }
    void restore() override {
        PlanStage::restore();
        if (!_cursor) return;
        if (!_cursor->restore())
            uasserted(ErrorCodes::QueryPlanKilled, "collection scan lost its position: " + _ctx->coll->ns().ns());
        if (_lastSeen.isNull()) {
            if (_node->tailable) _cursor.reset();  // it met an empty collection: start over
            return;
        }
        if (_ctx->coll->options().capped && !_cursor->seekExact(_lastSeen))
            uasserted(ErrorCodes::CappedPositionLost,
                      "CollectionScan died due to position in capped collection being deleted. Last seen record id: "
                      "RecordId(" + _lastSeen.toString() + ")");
    }

protected:
    std::optional<WorkingMember> doNext() override {
        if (!_cursor) _cursor = _ctx->coll->getCursor(_ctx->opCtx, _node->forward);
        while (true) {
            _ctx->checkForInterrupt();
            _ctx->spendWork();
            auto r = _cursor->next();
            if (!r) return std::nullopt;
            _lastSeen = r->id;
            _stats.docsExamined++;
            if (!matchesAll(_node->filter, r->doc)) {
                _stats.needTime++;
                continue;
            }
            WorkingMember m;
            m.id = r->id;
            m.doc = std::move(r->doc);
            return m;
        }
    }
    void appendStageStats(BSONObjBuilder& b) const override { b.appendNumber("docsExamined", _stats.docsExamined); }

private:
    std::unique_ptr<RecordCursor> _cursor;
    RecordId _lastSeen;  // the last record read (whether or not it matched)
};

class IdHackStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override {
        if (_done) return std::nullopt;
        _done = true;
        auto cur = _ctx->coll->getIndexCatalog()->newCursor(_ctx->opCtx, _node->index.desc, true);
        auto e = cur->seek(_node->idValue, true);
        if (!e) return std::nullopt;
        _stats.keysExamined++;
        if (e->key.firstElement().woCompare(_node->idValue.firstElement()) != 0) return std::nullopt;
        auto doc = _ctx->coll->findDoc(_ctx->opCtx, e->loc);
        if (!doc) return std::nullopt;
        _stats.docsExamined++;
        WorkingMember m;
        m.id = e->loc;
        m.doc = std::move(*doc);
        return m;
    }
    void appendStageStats(BSONObjBuilder& b) const override {
        b.appendNumber("keysExamined", _stats.keysExamined);
        b.appendNumber("docsExamined", _stats.docsExamined);
    }

private:
    bool _done = false;
};

class FetchStage : public PlanStage {
public:
    using PlanStage::PlanStage;
    // Clauses the planner dropped as answered by the bounds are checked again.
    void adaptToMultikey(bool planFetches) override {
        PlanStage::adaptToMultikey(planFetches);
        _fullFilter = true;
    }

protected:
    std::optional<WorkingMember> doNext() override {
        while (true) {
            auto m = _children[0]->next();
            if (!m) return std::nullopt;
            _ctx->checkForInterrupt();
            if (!m->doc) {
                _ctx->spendWork();
                auto doc = _ctx->coll->findDoc(_ctx->opCtx, m->id);
                if (!doc) {  // deleted since its key was read
                    _stats.needTime++;
                    continue;
                }
                _stats.docsExamined++;
                m->doc = std::move(*doc);
            } else {
                _alreadyHasObj++;
            }
            if (!matchesAll(_fullFilter ? _node->fullFilter : _node->filter, *m->doc)) {
                _stats.needTime++;
                continue;
            }
            return m;
        }
    }
    void appendStageStats(BSONObjBuilder& b) const override {
        b.appendNumber("docsExamined", _stats.docsExamined);
        b.appendNumber("alreadyHasObj", _alreadyHasObj);
    }

private:
    long long _alreadyHasObj = 0;
    bool _fullFilter = false;
};

class OrStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override {
        while (_current < _children.size()) {
            auto m = _children[_current]->next();
            if (!m) {
                _current++;
                continue;
            }
            _stats.dupsTested++;
            if (!_seen.insert(m->id.repr()).second) {
                _stats.dupsDropped++;
                _stats.needTime++;
                continue;
            }
            return m;
        }
        return std::nullopt;
    }
    void appendStageStats(BSONObjBuilder& b) const override {
        b.appendNumber("dupsTested", _stats.dupsTested);
        b.appendNumber("dupsDropped", _stats.dupsDropped);
    }

private:
    size_t _current = 0;
    std::set<int64_t> _seen;
};

class SortStage : public PlanStage {
public:
    // Strings sort under the query's collation (the filter's).
    SortStage(const SolutionNode* node, StageContext* ctx)
        : PlanStage(node, ctx), _pattern(node->sortPattern, ctx->matcher ? ctx->matcher->collator() : nullptr) {}

protected:
    std::optional<WorkingMember> doNext() override {
        if (!_sorted) sortAll();
        if (_pos >= _results.size()) return std::nullopt;
        return std::move(_results[_pos++]);
    }
    void appendStageStats(BSONObjBuilder& b) const override {
        b.appendNumber("totalDataSizeSorted", _stats.totalDataSizeSorted);
        b.append("usedDisk", false);
        b.append("spills", 0);
    }

private:
    // Sort keys are extracted once per input; the input order breaks ties (a stable sort).
    // With a limit only the first 'limit' are kept (a max-heap, worst on top), as MongoDB's
    // top-k sort: memory then depends on the limit, not the input.
    void sortAll() {
        struct Keyed {
            BSONObj key;
            size_t seq;
            WorkingMember m;
            long long bytes;
        };
        auto less = [&](const Keyed& a, const Keyed& b) {
            int c = _pattern.compareKeys(a.key, b.key);
            return c != 0 ? c < 0 : a.seq < b.seq;
        };
        BlockingMemoryTracker memory = BlockingMemoryTracker::forSort(_ctx->allowDiskUse, "Sort");
        size_t bound = _node->limit > 0 ? static_cast<size_t>(_node->limit) : 0;
        std::vector<Keyed> keyed;
        size_t seq = 0;
        while (auto m = _children[0]->next()) {
            BSONObj d = m->docOrKeyDoc();
            Keyed k{_pattern.extractKey(d), seq++, std::move(*m), 0};
            k.bytes = static_cast<long long>(sizeof(Keyed)) + k.key.objsize() + d.objsize();
            _stats.totalDataSizeSorted += d.objsize();
            if (bound && keyed.size() == bound) {
                if (!less(k, keyed.front())) continue;
                memory.add(k.bytes - keyed.front().bytes);
                std::pop_heap(keyed.begin(), keyed.end(), less);
                keyed.back() = std::move(k);
                std::push_heap(keyed.begin(), keyed.end(), less);
                continue;
            }
            memory.add(k.bytes);
            keyed.push_back(std::move(k));
            if (bound) std::push_heap(keyed.begin(), keyed.end(), less);
        }
        std::sort(keyed.begin(), keyed.end(), less);
        _results.reserve(keyed.size());
        for (auto& k : keyed) _results.push_back(std::move(k.m));
        _stats.needTime += static_cast<long long>(seq);
        _sorted = true;
    }

    SortPattern _pattern;
    bool _sorted = false;
    std::vector<WorkingMember> _results;
    size_t _pos = 0;
};

class SkipStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override {
        while (_skipped < _node->skip) {
            if (!_children[0]->next()) return std::nullopt;
            _skipped++;
            _stats.needTime++;
        }
        return _children[0]->next();
    }

private:
    long long _skipped = 0;
};

class LimitStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override {
        if (_returned >= _node->limit) return std::nullopt;
        auto m = _children[0]->next();
        if (m) _returned++;
        return m;
    }

private:
    long long _returned = 0;
};

class ProjectionStage : public PlanStage {
public:
    ProjectionStage(const SolutionNode* node, StageContext* ctx) : PlanStage(node, ctx), _projection(node->projection) {}

protected:
    std::optional<WorkingMember> doNext() override {
        auto m = _children[0]->next();
        if (!m) return std::nullopt;
        if (_node->type == StageType::kProjectionCovered) {
            // The document itself once the scan had to fetch it (its index became multikey).
            m->doc = _projection.apply(m->doc ? *m->doc : keyToDocument(*m->keyIndex, m->key));
            return m;
        }
        if (_projection.requiresMatchDetails()) {
            MatchDetails md;
            md.requestElemMatchKey = true;
            _ctx->matcher->matches(*m->doc, &md);
            m->doc = _projection.apply(*m->doc, &md);
        } else {
            m->doc = _projection.apply(*m->doc);
        }
        return m;
    }

private:
    Projection _projection;
};

class ReturnKeyStage : public PlanStage {
public:
    using PlanStage::PlanStage;

protected:
    std::optional<WorkingMember> doNext() override {
        auto m = _children[0]->next();
        if (!m) return std::nullopt;
        m->doc = m->keyIndex ? keyWithFieldNames(m->keyIndex->keyPattern, m->key) : BSONObj();
        return m;
    }
};

}  // namespace

std::unique_ptr<PlanStage> buildStages(const SolutionNode* node, StageContext* ctx) {
    std::unique_ptr<PlanStage> s;
    switch (node->type) {
        case StageType::kEOF: s = std::make_unique<EOFStage>(node, ctx); break;
        case StageType::kCollScan: s = std::make_unique<CollScanStage>(node, ctx); break;
        case StageType::kIdHack: s = std::make_unique<IdHackStage>(node, ctx); break;
        case StageType::kIxScan:
            s = std::make_unique<IndexScanStage>(node, ctx, IndexScanStage::Mode::kScan);
            break;
        case StageType::kCountScan:
            s = std::make_unique<IndexScanStage>(node, ctx, IndexScanStage::Mode::kCount);
            break;
        case StageType::kDistinctScan:
            s = std::make_unique<IndexScanStage>(node, ctx, IndexScanStage::Mode::kDistinct);
            break;
        case StageType::kFetch: s = std::make_unique<FetchStage>(node, ctx); break;
        case StageType::kOr: s = std::make_unique<OrStage>(node, ctx); break;
        case StageType::kSort: s = std::make_unique<SortStage>(node, ctx); break;
        case StageType::kSkip: s = std::make_unique<SkipStage>(node, ctx); break;
        case StageType::kLimit: s = std::make_unique<LimitStage>(node, ctx); break;
        case StageType::kProjectionSimple:
        case StageType::kProjectionDefault:
        case StageType::kProjectionCovered: s = std::make_unique<ProjectionStage>(node, ctx); break;
        case StageType::kReturnKey: s = std::make_unique<ReturnKeyStage>(node, ctx); break;
    }
    for (const auto& c : node->children) s->children().push_back(buildStages(c.get(), ctx));
    return s;
}

}  // namespace mongo
