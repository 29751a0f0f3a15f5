#include "mongo/db/query/plan_executor.h"

#include <algorithm>
#include <functional>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/blocking_memory_tracker.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/service_context.h"

namespace mongo {

namespace {
constexpr size_t kMaxScans = 4096;  // cap on the cartesian product of $in point bounds

int fieldDirection(const BSONElement& e) { return e.isNumber() && e.numberDouble() < 0 ? -1 : 1; }

// Index key values must lie within every field's intervals.
bool keyInBounds(const BSONObj& key, const std::vector<std::vector<Interval>>& bounds) {
    size_t i = 0;
    for (BSONElement v : key) {
        if (i >= bounds.size()) break;
        bool in = false;
        for (auto& iv : bounds[i])
            if (iv.contains(v)) {
                in = true;
                break;
            }
        if (!in) return false;
        i++;
    }
    return true;
}
}  // namespace

PlanExecutor::PlanExecutor(Client* client, const Collection* coll, const NamespaceString& nss, QueryRequest qr)
    : _opCtx(makeOperationContext(client)),
      _coll(coll),
      _nss(nss),
      _qr(std::move(qr)),
      _matcher(_qr.filter) {
    if (!_qr.projection.isEmpty()) _projection = std::make_unique<Projection>(_qr.projection);
    if (!_qr.sort.isEmpty() && _qr.sort.firstElementFieldName() != "$natural")
        _sort = std::make_unique<SortPattern>(_qr.sort);
    if (coll) _collUuid = coll->uuid();
    _sol = planQuery(_opCtx.get(), coll, _qr);
    if (_sol.index) {
        _indexName = _sol.index->name;
        _indexSpec = _sol.index->infoObj.getOwned();
    }
    if (!_sort) _sol.blockingSort = false;
    if (_sol.kind == QuerySolution::Kind::kEOF) _eof = true;
    if (_sol.kind == QuerySolution::Kind::kIndexScan) buildScans();
}

PlanExecutor::~PlanExecutor() {
    _recCursor.reset();
    _idxCursor.reset();
}

void PlanExecutor::buildScans() {
    // Cartesian product of the point-bounded prefix fields and the first range field; the rest
    // are MinKey..MaxKey fillers checked by keyInBounds.
    std::vector<BSONElement> fields;
    for (BSONElement f : _sol.index->keyPattern) fields.push_back(f);
    std::vector<std::vector<BSONElement>> los(1), his(1);
    for (size_t i = 0; i < fields.size(); i++) {
        const auto& ivs = _sol.bounds[i];
        bool expand = ivs.size() > 1 && los.size() * ivs.size() <= kMaxScans;
        std::vector<std::vector<BSONElement>> nlos, nhis;
        for (size_t c = 0; c < los.size(); c++) {
            if (ivs.empty()) continue;  // contradictory bounds: no scan at all
            if (expand) {
                for (auto& iv : ivs) {
                    nlos.push_back(los[c]);
                    nlos.back().push_back(iv.lo());
                    nhis.push_back(his[c]);
                    nhis.back().push_back(iv.hi());
                }
            } else {
                nlos.push_back(los[c]);
                nlos.back().push_back(ivs.front().lo());
                nhis.push_back(his[c]);
                nhis.back().push_back(ivs.back().hi());
            }
        }
        los.swap(nlos);
        his.swap(nhis);
    }
    for (size_t c = 0; c < los.size(); c++) {
        BSONObjBuilder sb, eb;
        for (size_t i = 0; i < fields.size(); i++) {
            bool asc = fieldDirection(fields[i]) > 0;
            sb.appendAs(asc ? los[c][i] : his[c][i], "");
            eb.appendAs(asc ? his[c][i] : los[c][i], "");
        }
        _scans.push_back({sb.obj(), eb.obj()});
    }
    const BSONObj& kp = _sol.index->keyPattern;
    std::sort(_scans.begin(), _scans.end(), [&](const Scan& a, const Scan& b) { return a.start.woCompare(b.start, kp, false) < 0; });
    if (!_sol.forward) {
        std::reverse(_scans.begin(), _scans.end());
        for (auto& s : _scans) std::swap(s.start, s.end);
    }
    if (_scans.empty()) _eof = true;
}

std::optional<Record> PlanExecutor::nextFromIndex() {
    IndexCatalog* ic = _coll->getIndexCatalog();
    const BSONObj& kp = _sol.index->keyPattern;
    bool dedupe = _sol.multikey || _scans.size() > 1;
    while (_scanIdx < _scans.size()) {
        if (!_idxCursor) _idxCursor = ic->newCursor(_opCtx.get(), _sol.index, _sol.forward);
        std::optional<IndexKeyEntry> e;
        if (!_scanStarted) {
            e = _idxCursor->seek(_scans[_scanIdx].start, true);
            _scanStarted = true;
        } else {
            e = _idxCursor->next();
        }
        if (e) {
            int c = e->key.woCompare(_scans[_scanIdx].end, kp, false);
            if (_sol.forward ? c > 0 : c < 0) e.reset();
        }
        if (!e) {
            _scanIdx++;
            _scanStarted = false;
            continue;
        }
        _stats.keysExamined++;
        if (!keyInBounds(e->key, _sol.bounds)) continue;
        if (dedupe && !_seen.insert(e->loc.repr()).second) continue;
        auto doc = _coll->findDoc(_opCtx.get(), e->loc);
        if (!doc) continue;  // deleted since the key was read
        _stats.docsExamined++;
        return Record{e->loc, *doc};
    }
    return std::nullopt;
}

std::optional<Record> PlanExecutor::nextFromAccessPath() {
    switch (_sol.kind) {
        case QuerySolution::Kind::kEOF: return std::nullopt;
        case QuerySolution::Kind::kCollScan: {
            if (!_recCursor) _recCursor = _coll->getCursor(_opCtx.get(), _sol.forward);
            auto r = _recCursor->next();
            if (r) _stats.docsExamined++;
            return r;
        }
        case QuerySolution::Kind::kIdHack: {
            if (_idHackDone) return std::nullopt;
            _idHackDone = true;
            auto cur = _coll->getIndexCatalog()->newCursor(_opCtx.get(), _sol.index, true);
            auto e = cur->seek(_sol.bounds[0][0].lohi.firstElement().wrap(""), true);
            if (!e) return std::nullopt;
            _stats.keysExamined++;
            if (e->key.firstElement().woCompare(_sol.bounds[0][0].lo()) != 0) return std::nullopt;
            auto doc = _coll->findDoc(_opCtx.get(), e->loc);
            if (!doc) return std::nullopt;
            _stats.docsExamined++;
            return Record{e->loc, *doc};
        }
        case QuerySolution::Kind::kIndexScan: return nextFromIndex();
    }
    return std::nullopt;
}

std::optional<Record> PlanExecutor::nextFiltered(const OperationContext* interruptCtx) {
    while (true) {
        // Every document, not every 128th: one document can take a third of a second to match
        // (a backtracking $regex runs to PCRE2's match limit), and 128 of them ran a count
        // with maxTimeMS 2000 for 40 s. The check is an atomic load and, with maxTimeMS, a
        // steady_clock read.
        if (interruptCtx) interruptCtx->checkForInterrupt();
        auto r = nextFromAccessPath();
        if (!r) return std::nullopt;
        if (_matcher.matches(r->doc)) return r;
    }
}

BSONObj PlanExecutor::project(const BSONObj& doc) const {
    if (!_projection) return doc;
    if (_projection->requiresMatchDetails()) {
        MatchDetails md;
        md.requestElemMatchKey = true;
        _matcher.matches(doc, &md);
        return _projection->apply(doc, &md);
    }
    return _projection->apply(doc);
}

std::optional<BSONObj> PlanExecutor::getNext(const OperationContext* interruptCtx, RecordId* id, BSONObj* raw) {
    if (_eof) return std::nullopt;
    if (interruptCtx) interruptCtx->checkForInterrupt();
    if (_qr.limit > 0 && _stats.nReturned >= _qr.limit) {
        _eof = true;
        return std::nullopt;
    }
    if (_sol.blockingSort && !_sorted) sortAll(interruptCtx);
    while (true) {
        std::optional<Record> r;
        if (_sol.blockingSort) {
            if (_sortedPos < _sortedDocs.size()) r = std::move(_sortedDocs[_sortedPos++]);
        } else {
            r = nextFiltered(interruptCtx);
        }
        if (!r) {
            _eof = true;
            return std::nullopt;
        }
        if (_skipped < _qr.skip) {
            _skipped++;
            continue;
        }
        _stats.nReturned++;
        if (id) *id = r->id;
        if (raw) *raw = r->doc;
        return project(r->doc);
    }
}

void PlanExecutor::sortAll(const OperationContext* interruptCtx) {
    // Sort keys are extracted once per document, not once per comparison; the input order breaks
    // ties (a stable sort).
    struct Keyed {
        BSONObj key;
        size_t seq;
        Record rec;
        long long bytes;  // counted against the memory limit
    };
    const SortPattern& sp = *_sort;
    auto less = [&](const Keyed& a, const Keyed& b) {
        int c = sp.compareKeys(a.key, b.key);
        return c != 0 ? c < 0 : a.seq < b.seq;
    };
    BlockingMemoryTracker memory = BlockingMemoryTracker::forSort(_qr.allowDiskUse, "Sort");
    // With a limit only the first skip + limit documents are kept (a max-heap of them, the worst
    // on top), as MongoDB's top-k sort does: memory then depends on the limit, not the input.
    size_t bound = 0;
    if (_qr.limit > 0) {
        long long b;
        if (!__builtin_add_overflow(_qr.skip, _qr.limit, &b)) bound = static_cast<size_t>(b);
    }
    std::vector<Keyed> keyed;
    size_t seq = 0;
    while (auto r = nextFiltered(interruptCtx)) {
        Keyed k{sp.extractKey(r->doc), seq++, std::move(*r), 0};
        k.bytes = static_cast<long long>(sizeof(Keyed)) + k.key.objsize() + k.rec.doc.objsize();
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
    _sortedDocs.reserve(keyed.size());
    for (auto& k : keyed) _sortedDocs.push_back(std::move(k.rec));
    _sorted = true;
    _recCursor.reset();
    _idxCursor.reset();
}

void PlanExecutor::saveState() {
    if (_recCursor) _recCursor->save();
    if (_idxCursor) _idxCursor->save();
    _opCtx->recoveryUnit()->abandonSnapshot();
}

void PlanExecutor::restoreState(const Collection* coll) {
    if (_sol.kind == QuerySolution::Kind::kEOF || (_sol.blockingSort && _sorted)) {
        _coll = coll;
        return;
    }
    if (!coll || coll->uuid() != _collUuid) {
        _recCursor.reset();
        _idxCursor.reset();
        _eof = true;
        uasserted(175, "collection dropped between getMore calls: " + _nss.ns());
    }
    if (_sol.index) {
        // The index may have been dropped since saveState(): _sol.index then points at a freed
        // descriptor, and the catalog no longer knows it (newCursor's invariant). Look it up by
        // name and require the very same descriptor, as MongoDB kills a plan whose index went away.
        const IndexDescriptor* now = coll->getIndexCatalog()->findIndexByName(_indexName);
        if (now != _sol.index || now->infoObj.woCompare(_indexSpec) != 0) {
            _recCursor.reset();
            _idxCursor.reset();
            _eof = true;
            uasserted(ErrorCodes::QueryPlanKilled, "index '" + _indexName + "' dropped between getMore calls: " +
                                                       _nss.ns());
        }
    }
    _coll = coll;
    if (_recCursor && !_recCursor->restore()) uasserted(175, "collection scan lost its position: " + _nss.ns());
    if (_idxCursor && !_idxCursor->restore()) uasserted(175, "index scan lost its position: " + _nss.ns());
}

namespace {
// {stage: name, <fields added by fill>, inputStage: input}
BSONObj stageDoc(const char* name, const std::function<void(BSONObjBuilder&)>& fill, const BSONObj* input = nullptr) {
    BSONObjBuilder b;
    b.append("stage", name);
    if (fill) fill(b);
    if (input) b.append("inputStage", *input);
    return b.obj();
}
}  // namespace

BSONObj PlanExecutor::winningPlan() const {
    auto withFilter = [&](BSONObjBuilder& b) {
        if (!_qr.filter.isEmpty()) b.append("filter", _qr.filter);
    };
    const char* direction = _sol.forward ? "forward" : "backward";
    BSONObj plan;
    switch (_sol.kind) {
        case QuerySolution::Kind::kEOF: plan = stageDoc("EOF", nullptr); break;
        case QuerySolution::Kind::kIdHack: plan = stageDoc("IDHACK", nullptr); break;
        case QuerySolution::Kind::kCollScan:
            plan = stageDoc("COLLSCAN", [&](BSONObjBuilder& b) {
                withFilter(b);
                b.append("direction", direction);
            });
            break;
        case QuerySolution::Kind::kIndexScan: {
            BSONObj ix = stageDoc("IXSCAN", [&](BSONObjBuilder& b) {
                b.append("keyPattern", _sol.index->keyPattern);
                b.append("indexName", _sol.index->name);
                b.append("isMultiKey", _sol.multikey);
                b.append("isUnique", _sol.index->unique);
                b.append("isSparse", _sol.index->sparse);
                b.append("isPartial", false);
                b.append("indexVersion", 2);
                b.append("direction", direction);
                b.append("indexBounds", indexBoundsToBSON(_sol));
            });
            plan = stageDoc("FETCH", withFilter, &ix);
            break;
        }
    }
    if (_sol.blockingSort)
        plan = stageDoc("SORT", [&](BSONObjBuilder& b) {
            b.append("sortPattern", _qr.sort);
            b.append("memLimit", 104857600);
            if (_qr.limit > 0) b.append("limitAmount", _qr.limit + _qr.skip);
            b.append("type", "simple");
        }, &plan);
    if (_qr.skip > 0) plan = stageDoc("SKIP", [&](BSONObjBuilder& b) { b.append("skipAmount", _qr.skip); }, &plan);
    if (_qr.limit > 0) plan = stageDoc("LIMIT", [&](BSONObjBuilder& b) { b.append("limitAmount", _qr.limit); }, &plan);
    if (_projection)
        plan = stageDoc("PROJECTION_DEFAULT", [&](BSONObjBuilder& b) { b.append("transformBy", _qr.projection); }, &plan);
    return plan;
}

}  // namespace mongo
