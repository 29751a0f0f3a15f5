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
size_t Engine::collectGarbage(size_t maxRecords) { return _impl->collectGarbage(maxRecords); }
WriteBackBacklog Engine::writeBackBacklog() const { return _impl->writeBackBacklog(); }
RecordInfo Engine::describe(std::string_view ns, int64_t id) const { return _impl->describe(ns, id); }

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
    // Chains: the records that decode to the same raw record, oldest first, so the head is
    // the newest as the chain schemes expect.
    std::unordered_map<uint32_t, uint32_t> chainOfRoot;
    for (const Restored& r : recs) {
        uint32_t root = r.ptr;
        for (size_t steps = 0; p.table.at(root).base != kNoRecord && steps <= recs.size(); ++steps)
            root = p.table.at(root).base;
        auto [cit, fresh] = chainOfRoot.emplace(root, uint32_t(p.chains.size()));
        if (fresh)
            p.chains.emplace_back();
        Chain& chain = p.chains[cit->second];
        RecordMeta& m = p.table.at(r.ptr);
        m.chain = cit->second;
        m.pos = static_cast<uint32_t>(chain.members.size());
        chain.members.push_back(r.ptr);
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

RecordInfo Engine::Impl::describe(std::string_view ns, int64_t id) const {
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
    return info;
}

}  // namespace dedup
}  // namespace mongo
