// Rebuilding the engine's state from storage, and the small queries the storage layer needs
// for scheduling and validation. Nothing of the engine is persisted: a record's stored form
// names its base, which is all that decoding and reference counting need; chains, sketches
// and the feature index are derived again from the records (thesis 5.1.1 keeps the metadata
// on disk; rebuilding trades start-up time for a write path with no metadata I/O).
#include <algorithm>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/engine_impl.h"

namespace mongo {
namespace dedup {

void Engine::forgetNamespace(std::string_view ns) { _impl->forgetNamespace(ns); }
Status Engine::restoreRecord(std::string_view ns, int64_t id, std::string_view bytes,
                             int64_t baseId, size_t storedSize, bool retained) {
    return _impl->restoreRecord(ns, id, bytes, baseId, storedSize, retained);
}
Status Engine::restoreLink(std::string_view ns, int64_t id, size_t logicalSize, int64_t baseId,
                           size_t storedSize, bool retained) {
    return _impl->restoreLink(ns, id, logicalSize, baseId, storedSize, retained);
}
Status Engine::indexRestored(std::string_view ns, int64_t id, std::string_view bytes) {
    return _impl->indexRestored(ns, id, bytes);
}
void Engine::finishRestore(std::string_view ns) { _impl->finishRestore(ns); }
size_t Engine::saveNamespace(std::string_view ns, const std::function<void(const SavedRecord&)>& f) const {
    return _impl->saveNamespace(ns, f);
}
Status Engine::restoreSaved(std::string_view ns, const SavedRecord& r) { return _impl->restoreSaved(ns, r); }
std::string Engine::featureSignature() const {
    // Sketches are comparable only under the same extractor and parameters.
    const Options& o = _impl->options();
    return "gear-topk-v1/chunk=" + std::to_string(o.avgChunkSize) + "/k=" + std::to_string(o.sketchSize);
}
size_t Engine::collectGarbage(size_t maxRecords) { return _impl->collectGarbage(maxRecords); }
WriteBackBacklog Engine::writeBackBacklog() const { return _impl->writeBackBacklog(); }
RecordInfo Engine::describe(std::string_view ns, int64_t id, std::vector<int64_t>* dependents) const {
    return _impl->describe(ns, id, dependents);
}

void Engine::Impl::forgetNamespace(std::string_view ns) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return;
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    std::vector<uint32_t> ptrs;
    p.table.forEachLive([&](uint32_t ptr) {
        if (p.table.at(ptr).ns == nsIdx)
            ptrs.push_back(ptr);
    });
    // Bases are always in the same namespace: once every record is unlinked, each can be
    // removed on its own.
    for (uint32_t ptr : ptrs)
        relink(p, ptr, kNoRecord);
    std::vector<int64_t> ignored;
    for (uint32_t ptr : ptrs)
        removeRecord(p, ptr, &ignored);
    _restoring.erase(nsIdx);
}

Status Engine::Impl::restoreRecord(std::string_view ns, int64_t id, std::string_view bytes,
                                   int64_t baseId, size_t storedSize, bool retained) {
    if (bytes.size() > kMaxDeltaTarget)
        return Status(ErrorCodes::BadValue, "dedup: record too large");
    uint32_t nsIdx = internNs(ns);
    bool wantFeatures;
    {
        std::lock_guard<std::mutex> lk(_mu);
        Partition& p = partitionOfNs(nsIdx);
        wantFeatures = !retained && p.index && p.gov.passesSizeFilter(bytes.size());
    }
    Sketch sketch;
    if (wantFeatures)
        sketch = _fx.sketch(bytes.data(), bytes.size());
    return addRestored(nsIdx, id, bytes.size(), sketch, baseId, storedSize, retained);
}

Status Engine::Impl::restoreLink(std::string_view ns, int64_t id, size_t logicalSize, int64_t baseId,
                                 size_t storedSize, bool retained) {
    if (logicalSize > kMaxDeltaTarget)
        return Status(ErrorCodes::BadValue, "dedup: record too large");
    return addRestored(internNs(ns), id, logicalSize, Sketch(), baseId, storedSize, retained);
}

Status Engine::Impl::addRestored(uint32_t nsIdx, int64_t id, size_t logicalSize, const Sketch& sketch,
                                 int64_t baseId, size_t storedSize, bool retained) {
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    if (p.table.find(nsIdx, id) != kNoRecord)
        return Status(ErrorCodes::DuplicateKey, "dedup: record already tracked");
    uint32_t ptr = p.table.add(nsIdx, id, sketch, 0);  // seq is assigned in finishRestore
    RecordMeta& m = p.table.at(ptr);
    m.logicalSize = static_cast<uint32_t>(logicalSize);
    m.storedSize = static_cast<uint32_t>(storedSize);
    m.deleted = retained;
    if (!retained)
        p.logicalBytes += m.logicalSize;
    p.storedBytes += m.storedSize;
    _restoring[nsIdx].push_back(Restored{ptr, baseId});
    ++_counters.restoredRecords;
    return Status::OK();
}

size_t Engine::Impl::saveNamespace(std::string_view ns,
                                   const std::function<void(const Engine::SavedRecord&)>& f) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return 0;
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    size_t n = 0;
    Engine::SavedRecord r;
    p.table.forEachLive([&](uint32_t ptr) {
        const RecordMeta& m = p.table.at(ptr);
        if (m.ns != nsIdx)
            return;
        r.id = m.id;
        r.logicalSize = m.logicalSize;
        r.baseId = m.base == kNoRecord ? 0 : p.table.at(m.base).id;
        r.storedSize = m.storedSize;
        r.retained = m.deleted;
        // What the rebuild from storage would index: the raw live records (a delta record's
        // old features are not restored either way).
        r.sketch.clear();
        if (m.base == kNoRecord && !m.deleted && m.indexed && m.sketchLen > 0)
            r.sketch = p.table.sketchOf(ptr);
        f(r);
        ++n;
    });
    return n;
}

Status Engine::Impl::restoreSaved(std::string_view ns, const Engine::SavedRecord& r) {
    if (r.logicalSize > kMaxDeltaTarget)
        return Status(ErrorCodes::BadValue, "dedup: record too large");
    if (r.sketch.size() > _o.sketchSize)
        return Status(ErrorCodes::BadValue, "dedup: saved sketch of another size");
    return addRestored(internNs(ns), r.id, r.logicalSize, r.retained ? Sketch() : r.sketch, r.baseId, r.storedSize,
                       r.retained);
}

Status Engine::Impl::indexRestored(std::string_view ns, int64_t id, std::string_view bytes) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return Status::OK();
    {
        std::lock_guard<std::mutex> lk(_mu);
        Partition& p = partitionOfNs(nsIdx);
        uint32_t ptr = p.table.find(nsIdx, id);
        if (!p.index || ptr == kNoRecord || p.table.at(ptr).deleted || p.table.at(ptr).indexed ||
            !p.gov.passesSizeFilter(bytes.size()))
            return Status::OK();
    }
    Sketch sketch = _fx.sketch(bytes.data(), bytes.size());
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    uint32_t ptr = p.table.find(nsIdx, id);
    // Looked up again: the record may have changed while the sketch was computed.
    if (!p.index || ptr == kNoRecord || p.table.at(ptr).deleted || p.table.at(ptr).indexed)
        return Status::OK();
    p.table.setSketch(ptr, sketch);
    std::vector<uint32_t> ignored;
    for (Feature f : p.table.sketchOf(ptr)) {
        ignored.clear();
        p.index->lookupAndInsert(f, ptr, &ignored);
    }
    p.table.at(ptr).indexed = true;
    return Status::OK();
}

void Engine::Impl::finishRestore(std::string_view ns) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return;
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _restoring.find(nsIdx);
    if (it == _restoring.end())
        return;
    std::vector<Restored> recs = std::move(it->second);
    _restoring.erase(it);
    Partition& p = partitionOfNs(nsIdx);
    // Record ids grow with insertion, so id order is the insertion order the chains had.
    std::sort(recs.begin(), recs.end(), [&](const Restored& a, const Restored& b) {
        return p.table.at(a.ptr).id < p.table.at(b.ptr).id;
    });
    for (const Restored& r : recs) {
        RecordMeta& m = p.table.at(r.ptr);
        m.seq = ++_seq;
        m.lastUsed = m.seq;
    }
    for (const Restored& r : recs) {
        if (r.baseId == 0)
            continue;
        uint32_t b = p.table.find(nsIdx, r.baseId);
        // A missing base leaves the record unreadable on disk already (validate reports it);
        // it stays unlinked here, as does a link that would close a loop (damaged data).
        if (b != kNoRecord && !reaches(p, b, r.ptr))
            relink(p, r.ptr, b);
    }
    // The stored links may be deeper than the bound (written under another scheme or bound,
    // or by a version that did not enforce one): the garbage collection pass repairs them.
    if (_cap != 0)
        p.depthCheck = true;
    // Chains: the records that decode to the same raw record (the chain's head, the newest
    // as the chain schemes expect), oldest first. Not all of them belong to the head's chain:
    // when a new record started a chain of its own and its source, an older member of
    // another chain, was re-encoded against it (overlapped encoding), the source and the
    // records decoding through it came along. Positions count from where the head's chain
    // began (restoredChainStart); the records before it belong to no chain, as a chain's
    // positions decide which records later appends re-encode against which.
    std::unordered_map<uint32_t, size_t> groupOfRoot;
    std::vector<std::vector<uint32_t>> groups;
    for (const Restored& r : recs) {
        uint32_t root = r.ptr;
        for (size_t steps = 0; p.table.at(root).base != kNoRecord && steps <= recs.size(); ++steps)
            root = p.table.at(root).base;
        auto [git, fresh] = groupOfRoot.emplace(root, groups.size());
        if (fresh)
            groups.emplace_back();
        groups[git->second].push_back(r.ptr);
    }
    for (const std::vector<uint32_t>& g : groups) {
        const size_t start = restoredChainStart(p, g);
        const uint32_t ci = static_cast<uint32_t>(p.chains.size());
        Chain& chain = p.chains.emplace_back();
        for (size_t i = start; i < g.size(); ++i) {
            RecordMeta& m = p.table.at(g[i]);
            m.chain = ci;
            m.pos = static_cast<uint32_t>(chain.members.size());
            chain.members.push_back(g[i]);
        }
        for (size_t i = 0; i < start; ++i)
            p.table.at(g[i]).chain = kNoChain;
    }
    if (!p.index)
        return;
    std::vector<uint32_t> ignored;
    for (const Restored& r : recs) {
        RecordMeta& m = p.table.at(r.ptr);
        if (m.deleted || m.sketchLen == 0)
            continue;
        for (Feature f : p.table.sketchOf(r.ptr)) {
            ignored.clear();
            p.index->lookupAndInsert(f, r.ptr, &ignored);
        }
        p.table.at(r.ptr).indexed = true;
    }
}

size_t Engine::Impl::restoredChainStart(const Partition& p, const std::vector<uint32_t>& group) const {
    const size_t n = group.size();
    // A root that is not the newest (a record updated in place keeps its old id): id order
    // is all there is to go by.
    if (n < 3 || p.table.at(group.back()).base != kNoRecord)
        return 0;
    std::unordered_map<uint32_t, int64_t> indexOf;
    indexOf.reserve(n);
    for (size_t i = 0; i < n; ++i)
        indexOf.emplace(group[i], int64_t(i));
    // Whether group[i] is stored as position i - k of a chain starting at group[k] would be
    // (its base is the member the scheme names, or it is raw where the scheme says so).
    auto fits = [&](size_t k, size_t i) {
        const int64_t t = chainTarget(_o.chainScheme, _o.hopDistance, i - k, n - 1 - k);
        const uint32_t b = p.table.at(group[i]).base;
        if (t == kRawTarget || b == kNoRecord)
            return t == kRawTarget && b == kNoRecord;
        auto it = indexOf.find(b);
        return it != indexOf.end() && it->second == int64_t(k) + t;
    };
    // Candidates, oldest first: 0, then the records stored as a chain's first position would
    // be (under bounded-hop the chain's start and the bases still pointing to the newest base;
    // near the head, any record). The first whose layout the newest records (the last
    // kWindow) fit is taken: fewer than 1 in 64 of their links differ from what the scheme
    // places there. Write-backs the lossy cache dropped or the decode bound refused leave a
    // few misfits under the right start; a start off by d misplaces every base whose spacing
    // does not divide d (under bounded-hop, c = 8 at H = 16: one record in 8 for most d, and
    // at least one in 64 unless d is a multiple of 64). A later candidate fits a shorter
    // suffix of the chain, laid out from there on as the live chain was, modulo the spacing
    // of its bases.
    constexpr size_t kWindow = 256, kMaxCandidates = 17;
    const size_t lo = n > kWindow + 1 ? n - 1 - kWindow : 0;
    size_t tried = 0;
    for (size_t k = 0; k + 1 < n && tried < kMaxCandidates; ++k) {
        if (k != 0 && !fits(k, k))
            continue;
        ++tried;
        const size_t from = std::max(k, lo);
        size_t misfits = 0;
        for (size_t i = from; i + 1 < n; ++i)
            misfits += !fits(k, i);
        if (misfits * 64 < n - 1 - from)
            return k;
    }
    return 0;  // data laid out under another scheme: id order, as good a guess as any
}

size_t Engine::Impl::collectGarbage(size_t maxRecords) {
    std::lock_guard<std::mutex> lk(_mu);
    // Each repair decodes and encodes one record under the lock: a few hundred per pass.
    constexpr size_t kMaxDepthRepairsPerPass = 256;
    for (auto& pp : _partitions)
        if (pp->depthCheck)
            repairDepths(*pp, kMaxDepthRepairsPerPass);
    size_t removed = 0, visited = 0;
    for (size_t n = 0; n < _partitions.size() && visited < maxRecords; ++n) {
        if (_gcPartition >= _partitions.size())
            _gcPartition = 0;
        Partition& p = *_partitions[_gcPartition];
        std::vector<uint32_t> retained;
        p.table.forEachLive([&](uint32_t ptr) {
            if (ptr >= _gcPtr && p.table.at(ptr).deleted)
                retained.push_back(ptr);
        });
        for (uint32_t x : retained) {
            if (visited++ >= maxRecords) {
                _gcPtr = x;  // resume here next time
                return removed;
            }
            if (!p.table.valid(x) || !p.table.at(x).deleted)
                continue;  // removed by an earlier cascade of this pass
            removed += collectOne(p, x);
        }
        _gcPtr = 0;
        ++_gcPartition;
    }
    return removed;
}

size_t Engine::collectRetained(std::string_view ns, int64_t id) { return _impl->collectRetained(ns, id); }

size_t Engine::Impl::collectRetained(std::string_view ns, int64_t id) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return 0;
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    uint32_t x = p.table.find(nsIdx, id);
    if (x == kNoRecord || !p.table.at(x).deleted)
        return 0;
    return collectOne(p, x);
}

size_t Engine::Impl::collectOne(Partition& p, uint32_t x) {
    if (p.table.at(x).refCount == 0) {
        // Retained with nothing to serve (a failed removal, or dependents that were stored
        // whole): it goes now.
        std::vector<int64_t> gone{p.table.at(x).id};
        const std::string ns = nsName(p.table.at(x).ns);
        removeRecord(p, x, &gone);
        size_t removed = 0;
        for (int64_t id : gone)
            removed += _store->removeRetained(ns, id).isOK();
        return removed;
    }
    bool allPending = true;
    p.table.forEachDependent(x, [&](uint32_t d) {
        allPending = allPending && _wbCache.pending(keyOf(p.table.at(d)));
    });
    if (!allPending)
        _counters.garbageRequeued += queueDependentRewrites(p, x);
    return 0;
}

WriteBackBacklog Engine::Impl::writeBackBacklog() const {
    WriteBackCache::Stats ws = _wbCache.stats();
    WriteBackBacklog b;
    b.entries = ws.entries;
    b.bytes = ws.bytes;
    b.capacityBytes = ws.capacityBytes;
    return b;
}

RecordInfo Engine::Impl::describe(std::string_view ns, int64_t id, std::vector<int64_t>* dependents) const {
    RecordInfo info;
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return info;
    std::lock_guard<std::mutex> lk(_mu);
    if (nsIdx >= _partitionOfNs.size() || _partitionOfNs[nsIdx] == SIZE_MAX)
        return info;
    const Partition& p = *_partitions[_partitionOfNs[nsIdx]];
    uint32_t ptr = p.table.find(nsIdx, id);
    if (ptr == kNoRecord)
        return info;
    const RecordMeta& m = p.table.at(ptr);
    info.tracked = true;
    info.retained = m.deleted;
    info.baseId = m.base == kNoRecord ? 0 : p.table.at(m.base).id;
    info.refCount = m.refCount;
    if (dependents) p.table.forEachDependent(ptr, [&](uint32_t d) { dependents->push_back(p.table.at(d).id); });
    return info;
}

}  // namespace dedup
}  // namespace mongo
