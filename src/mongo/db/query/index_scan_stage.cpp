#include "mongo/db/query/index_scan_stage.h"

#include <algorithm>

#include "mongo/db/query/index_entry.h"
#include "mongo/db/storage/key_string.h"

namespace mongo {
namespace {

// One interval per field: points, then at most one other interval, then unbounded fields.
bool isSingleRange(const IndexBounds& b) {
    size_t n = b.fields.size(), p = 0;
    while (p < n && b.fields[p].size() == 1 && b.fields[p][0].isPoint()) p++;
    if (p < n) {
        if (b.fields[p].size() != 1) return false;
        p++;
    }
    for (; p < n; p++)
        if (!oil::isFullRange(b.fields[p])) return false;
    return true;
}

}  // namespace

IndexScanStage::IndexScanStage(const SolutionNode* node, StageContext* ctx, Mode mode)
    : PlanStage(node, ctx), _mode(mode), _index(node->index), _dedup(node->dedup) {
    if (node->rangeScan) {
        _range = true;
        _startKey = node->startKey;
        _endKey = node->endKey;
        _startInclusive = true;
        _endInclusive = node->endKeyInclusive;
        return;
    }
    if (node->bounds.empty()) {
        _eof = true;
        return;
    }
    if (_mode == Mode::kDistinct || !isSingleRange(node->bounds)) return;
    // Start and end keys of the one range, in scan order.
    _range = true;
    size_t n = _index.fields.size();
    size_t rangeField = 0;
    while (rangeField < n && node->bounds.fields[rangeField][0].isPoint()) rangeField++;
    bool haveRange = rangeField < n && !oil::isFullRange(node->bounds.fields[rangeField]);
    BSONObjBuilder s, e;
    for (size_t f = 0; f < n; f++) {
        const Interval& iv = node->bounds.fields[f][0];
        bool up = effectiveDirection(f) > 0;
        if (haveRange && f > rangeField) {
            // Past the range field: exclusive ends skip every key with the range's end value.
            if (_startInclusive) appendFirst(s, f);
            else appendLast(s, f);
            if (_endInclusive) appendLast(e, f);
            else appendFirst(e, f);
            continue;
        }
        s.appendAs(up ? iv.lo() : iv.hi(), "");
        e.appendAs(up ? iv.hi() : iv.lo(), "");
        if (haveRange && f == rangeField) {
            _startInclusive = up ? iv.loInclusive : iv.hiInclusive;
            _endInclusive = up ? iv.hiInclusive : iv.loInclusive;
        }
    }
    _startKey = s.obj();
    _endKey = e.obj();
}

int IndexScanStage::effectiveDirection(size_t f) const {
    return _index.directions[f] * (_node->forward ? 1 : -1);
}

void IndexScanStage::appendFirst(BSONObjBuilder& b, size_t f) const {
    if (effectiveDirection(f) > 0) b.appendMinKey("");
    else b.appendMaxKey("");
}

void IndexScanStage::appendLast(BSONObjBuilder& b, size_t f) const {
    if (effectiveDirection(f) > 0) b.appendMaxKey("");
    else b.appendMinKey("");
}

bool IndexScanStage::pastEnd(const BSONObj& key) const {
    int c = key.woCompare(_endKey, _index.keyPattern, false);
    if (!_node->forward) c = -c;
    return c > 0 || (c == 0 && !_endInclusive);
}

IndexScanStage::Seek IndexScanStage::startSeek() const {
    if (_range) return {_startKey, _startInclusive};
    // The first interval of each field, in scan order, up to the first exclusive start; the
    // bounds check takes care of the rest.
    BSONObjBuilder b;
    size_t n = _index.fields.size();
    bool inclusive = true;
    size_t f = 0;
    for (; f < n && inclusive; f++) {
        const OrderedIntervalList& l = _node->bounds.fields[f];
        const Interval& iv = effectiveDirection(f) > 0 ? l.front() : l.back();
        bool up = effectiveDirection(f) > 0;
        b.appendAs(up ? iv.lo() : iv.hi(), "");
        inclusive = up ? iv.loInclusive : iv.hiInclusive;
    }
    for (; f < n; f++) {
        if (inclusive) appendFirst(b, f);
        else appendLast(b, f);
    }
    return {b.obj(), inclusive};
}

IndexScanStage::Check IndexScanStage::checkKey(const BSONObj& key, Seek* seek) const {
    std::vector<BSONElement> vals;
    for (BSONElement v : key) vals.push_back(v);
    size_t n = _index.fields.size();
    auto prefix = [&](BSONObjBuilder& b, size_t upTo) {
        for (size_t k = 0; k < upTo; k++) b.appendAs(vals[k], "");
    };
    for (size_t i = 0; i < n; i++) {
        const OrderedIntervalList& l = _node->bounds.fields[i];
        bool up = effectiveDirection(i) > 0;
        // The next interval of field i, in scan order, that the value has not passed.
        // Along the (sorted, disjoint) intervals the value's position runs 1, ..., 1 (after
        // them), then at most one 0 (inside), then -1, ..., -1 (before them): binary searches.
        long j = -1;
        int pos = 1;
        const BSONElement& v = vals[i];
        if (up) {
            auto it = std::partition_point(l.begin(), l.end(), [&](const Interval& iv) { return iv.position(v) > 0; });
            if (it != l.end()) {
                j = it - l.begin();
                pos = it->position(v);
            }
        } else {
            auto it = std::partition_point(l.begin(), l.end(), [&](const Interval& iv) { return iv.position(v) >= 0; });
            if (it != l.begin()) {
                j = (it - l.begin()) - 1;
                pos = -l[static_cast<size_t>(j)].position(v);
            }
        }
        if (j < 0) {
            // Past every interval of field i: move on to the next value of field i - 1.
            if (i == 0) return Check::kDone;
            BSONObjBuilder b;
            prefix(b, i);
            for (size_t k = i; k < n; k++) appendLast(b, k);
            *seek = {b.obj(), false};
            return Check::kSeek;
        }
        if (pos == 0) continue;
        const Interval& iv = l[static_cast<size_t>(j)];
        bool inclusive = up ? iv.loInclusive : iv.hiInclusive;
        BSONObjBuilder b;
        prefix(b, i);
        b.appendAs(up ? iv.lo() : iv.hi(), "");
        for (size_t k = i + 1; k < n; k++) {
            if (inclusive) appendFirst(b, k);
            else appendLast(b, k);
        }
        *seek = {b.obj(), inclusive};
        return Check::kSeek;
    }
    return Check::kIn;
}

std::optional<WorkingMember> IndexScanStage::doNext() {
    if (_eof) return std::nullopt;
    if (!_cursor) _cursor = _ctx->coll->getIndexCatalog()->newCursor(_ctx->opCtx, _index.desc, _node->forward);
    while (true) {
        _ctx->checkForInterrupt();
        _ctx->spendWork();
        std::optional<IndexKeyEntry> e;
        if (!_started) {
            Seek s = startSeek();
            e = _cursor->seek(s.key, s.inclusive);
            _stats.seeks++;
            _started = true;
        } else if (_pendingSeek) {
            e = _cursor->seek(_pendingSeek->key, _pendingSeek->inclusive);
            _stats.seeks++;
            _pendingSeek.reset();
        } else {
            e = _cursor->next();
        }
        if (!e || (_range && pastEnd(e->key))) {
            _eof = true;
            return std::nullopt;
        }
        _stats.keysExamined++;
        if (!_range) {
            Seek s;
            Check c = checkKey(e->key, &s);
            if (c == Check::kDone) {
                _eof = true;
                return std::nullopt;
            }
            if (c == Check::kSeek) {
                _pendingSeek = std::move(s);
                _stats.needTime++;
                continue;
            }
        }
        if (_dedup) {
            _stats.dupsTested++;
            if (!_seen.insert(e->loc.repr()).second) {
                _stats.dupsDropped++;
                _stats.needTime++;
                continue;
            }
        }
        if (_keyFilterValid && !_node->filter.empty() && !matchesAll(_node->filter, keyToDocument(_index, e->key))) {
            _stats.needTime++;
            continue;
        }
        std::optional<BSONObj> doc;
        if (_fetchDocuments) {
            _ctx->spendWork();
            doc = _ctx->coll->findDoc(_ctx->opCtx, e->loc);
            if (doc) _stats.docsExamined++;
            if (!doc || !matchesAll(_node->fullFilter, *doc)) {
                _stats.needTime++;
                continue;
            }
        }
        if (_mode == Mode::kDistinct) {
            // A document without the field adds nothing to distinct (its key is a marked null).
            BSONElement v = e->key.firstElement();
            if (key_string::isMissingKeyValue(v)) {
                _stats.needTime++;
                continue;
            }
            // The next distinct value: past every key with this one.
            BSONObjBuilder b;
            b.appendAs(v, "");
            for (size_t k = 1; k < _index.fields.size(); k++) appendLast(b, k);
            _pendingSeek = Seek{b.obj(), false};
        }
        WorkingMember m;
        m.id = e->loc;
        m.key = e->key.getOwned();
        m.keyIndex = &_index;
        m.doc = std::move(doc);
        return m;
    }
}

void IndexScanStage::adaptToMultikey(bool planFetches) {
    PlanStage::adaptToMultikey(planFetches);
    _dedup = true;
    _keyFilterValid = false;
    _fetchDocuments = !planFetches && _mode == Mode::kScan;
}

void IndexScanStage::save() {
    PlanStage::save();
    if (_cursor) _cursor->save();
}

void IndexScanStage::restore() {
    PlanStage::restore();
    if (_cursor && !_cursor->restore())
        uasserted(ErrorCodes::QueryPlanKilled, "index scan lost its position: " + _ctx->coll->ns().ns());
}

void IndexScanStage::appendStageStats(BSONObjBuilder& b) const {
    b.appendNumber("keysExamined", _stats.keysExamined);
    if (_mode == Mode::kScan) {
        b.appendNumber("seeks", _stats.seeks);
        b.appendNumber("dupsTested", _stats.dupsTested);
        b.appendNumber("dupsDropped", _stats.dupsDropped);
    }
    if (_mode == Mode::kDistinct) b.appendNumber("docsExamined", _stats.docsExamined);
}

}  // namespace mongo
