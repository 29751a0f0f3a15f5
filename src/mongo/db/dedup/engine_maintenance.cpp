// The dbDedup engine after the insert: write-backs (queued and applied), client updates and
// deletes with their reference-count bookkeeping and garbage collection, reads, statistics,
// and the helpers the insert path shares.
#include <algorithm>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/engine_impl.h"
#include "mongo/db/dedup/source_selection.h"

namespace mongo {
namespace dedup {

// ---------------------------------------------------------------------------------------
// Helpers.

Engine::Impl::Bytes Engine::Impl::fetchLogical(Partition& p, uint32_t ptr) {
    const RecordMeta& m = p.table.at(ptr);
    const RecordKey k = keyOf(m);
    if (Bytes b = _srcCache.get(k))
        return b;
    const uint32_t nsIdx = m.ns;
    auto known = [this, nsIdx](int64_t id) { return _srcCache.peek(RecordKey{nsIdx, id}); };
    std::string out;
    ++_counters.sourceFetches;
    Status st = decodeRecord(*_store, nsName(nsIdx), m.id, &out, nullptr, known);
    if (!st.isOK())
        return nullptr;
    return std::make_shared<const std::string>(std::move(out));
}

bool Engine::Impl::reaches(const Partition& p, uint32_t from, uint32_t target) const {
    for (size_t steps = 0; from != kNoRecord && steps <= p.table.size(); ++steps, from = p.table.at(from).base)
        if (from == target)
            return true;
    return false;
}

void Engine::Impl::relink(Partition& p, uint32_t rec, uint32_t base) {
    uint32_t old = p.table.at(rec).base;
    if (old == base)
        return;
    p.table.setBase(rec, base);
    if (!tracksHeights())
        return;
    // Heights (longest dependent path below a record) are kept exact: the old base's path may
    // shrink, the new base's path may grow.
    for (uint32_t n = old; n != kNoRecord;) {
        uint32_t h = 0;
        p.table.forEachDependent(n, [&](uint32_t d) { h = std::max(h, p.table.at(d).height + 1); });
        RecordMeta& nm = p.table.at(n);
        if (nm.height == h)
            break;
        nm.height = h;
        n = nm.base;
    }
    uint32_t h = p.table.at(rec).height + 1;
    for (uint32_t n = base; n != kNoRecord && p.table.at(n).height < h; n = p.table.at(n).base) {
        p.table.at(n).height = h;
        ++h;
    }
}

bool Engine::Impl::queueWriteBack(Partition& p, uint32_t rec, uint32_t base, std::string stored,
                                  bool structural, int64_t extraValue, bool required) {
    const RecordMeta& rm = p.table.at(rec);
    WriteBack wb;
    wb.key = keyOf(rm);
    wb.recordSeq = rm.seq;
    wb.recordVersion = rm.version;
    if (base != kNoRecord) {
        const RecordMeta& bm = p.table.at(base);
        wb.hasBase = true;
        wb.base = keyOf(bm);
        wb.baseSeq = bm.seq;
        wb.baseVersion = bm.version;
    }
    wb.bytesSaved = int64_t(rm.storedSize) - int64_t(stored.size()) + extraValue;
    if (!structural && !required && wb.bytesSaved <= 0)
        return false;  // the record is already stored at least as compactly
    wb.structural = structural;
    wb.stored = std::move(stored);
    p.gov.onSavings(wb.bytesSaved - extraValue);
    _wbCache.put(std::move(wb));
    ++_counters.writeBacksQueued;
    return true;
}

void Engine::Impl::unindex(Partition& p, uint32_t ptr) {
    RecordMeta& m = p.table.at(ptr);
    if (m.indexed && p.index)
        for (Feature f : p.table.sketchOf(ptr))
            p.index->remove(f, ptr);
    m.indexed = false;
}

void Engine::Impl::removeRecord(Partition& p, uint32_t ptr, std::vector<int64_t>* removed) {
    while (ptr != kNoRecord) {
        RecordMeta& m = p.table.at(ptr);
        const RecordKey k = keyOf(m);
        uint32_t base = m.base;
        relink(p, ptr, kNoRecord);
        unindex(p, ptr);
        _srcCache.erase(k);
        _wbCache.invalidate(k);
        _wbCache.invalidateBase(k);
        if (m.chain != kNoChain)
            p.chains[m.chain].members[m.pos] = kNoRecord;
        if (!m.deleted)
            p.logicalBytes -= m.logicalSize;
        p.storedBytes -= m.storedSize;
        p.table.erase(ptr);
        ptr = kNoRecord;
        // A retained base that nothing decodes through any more can go as well.
        if (base != kNoRecord && p.table.at(base).deleted && p.table.at(base).refCount == 0) {
            removed->push_back(p.table.at(base).id);
            ptr = base;
        }
    }
}

void Engine::Impl::disablePartition(Partition& p) {
    // The governor's verdict: drop the index partition; encoded data stays as it is and its
    // bookkeeping (bases, reference counts) is kept for updates and deletes.
    p.index.reset();
    p.table.releaseSketches();
    p.table.forEachLive([&](uint32_t ptr) { p.table.at(ptr).indexed = false; });
}

// ---------------------------------------------------------------------------------------
// Client updates and deletes.

StatusWith<uint32_t> Engine::Impl::preserveOldVersion(Partition& p, uint32_t nsIdx, uint32_t x,
                                                      int64_t keepOldAs, UpdatePlan* plan) {
    if (p.table.find(nsIdx, keepOldAs) != kNoRecord)
        return Status(ErrorCodes::DuplicateKey, "dedup: the id for the old version is taken");
    const int64_t xid = p.table.at(x).id;
    std::vector<uint32_t> deps;
    p.table.forEachDependent(x, [&](uint32_t d) { deps.push_back(d); });
    // The dependents' stored forms, re-pointed: read them all before changing anything.
    std::vector<std::string> repointed;
    for (uint32_t d : deps) {
        const int64_t did = p.table.at(d).id;
        std::string stored;
        StoredView v;
        Status st = _store->readStored(nsName(nsIdx), did, &stored);
        if (st.isOK())
            st = parseStored(did, stored, &v);
        if (st.isOK() && (!v.isDelta || v.baseId != xid))
            st = Status(ErrorCodes::DataCorruptionDetected, "dedup: a dependent is not stored against its base");
        if (!st.isOK())
            return st;
        repointed.push_back(makeDeltaStored(did, keepOldAs, v.payload));
    }
    // The old version's stored form, as the storage layer copied it under keepOldAs.
    std::string oldStored;
    Status st = _store->readStored(nsName(nsIdx), xid, &oldStored);
    if (!st.isOK())
        return st;
    const size_t oldStoredSize = readdressStored(xid, keepOldAs, oldStored).size();
    uint32_t xo = p.table.add(nsIdx, keepOldAs, Sketch{}, 0);
    RecordMeta& om = p.table.at(xo);  // (add may move entries: references taken after it)
    const RecordMeta& xm = p.table.at(x);
    om.seq = xm.seq;  // the old version keeps its age and its place in the chain
    om.lastUsed = xm.lastUsed;
    om.logicalSize = xm.logicalSize;
    om.storedSize = static_cast<uint32_t>(oldStoredSize);
    om.deleted = true;
    om.chain = xm.chain;
    om.pos = xm.pos;
    if (om.chain != kNoChain)
        p.chains[om.chain].members[om.pos] = xo;
    p.storedBytes += om.storedSize;
    uint32_t base = xm.base;
    relink(p, x, kNoRecord);
    relink(p, xo, base);
    for (size_t i = 0; i < deps.size(); ++i) {
        RecordMeta& dm = p.table.at(deps[i]);
        p.storedBytes += repointed[i].size();
        p.storedBytes -= dm.storedSize;
        dm.storedSize = static_cast<uint32_t>(repointed[i].size());
        relink(p, deps[i], xo);
        plan->rewrites.push_back(Rewrite{dm.id, std::move(repointed[i])});
    }
    // The record is a new version now: the newest, heading a chain of its own.
    p.table.at(x).seq = ++_seq;
    startChain(p, x);
    return xo;
}

StatusWith<UpdatePlan> Engine::Impl::onUpdate(std::string_view ns, int64_t id,
                                              std::string_view newBytes, int64_t keepOldAs) {
    if (newBytes.size() > kMaxDeltaTarget)
        return Status(ErrorCodes::BadValue, "dedup: record too large");
    UpdatePlan plan;
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return plan;
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    uint32_t x = p.table.find(nsIdx, id);
    if (x == kNoRecord || p.table.at(x).deleted)
        return plan;  // not tracked (inserted before dedup was on): nothing depends on it
    Bytes newX = std::make_shared<const std::string>(newBytes);

    uint32_t preserved = kNoRecord;
    if (keepOldAs != 0 && p.table.at(x).refCount > 0) {
        auto sw = preserveOldVersion(p, nsIdx, x, keepOldAs, &plan);
        if (!sw.isOK())
            return sw.getStatus();
        preserved = sw.getValue();
    }
    // Records stored as deltas against x decode through its current bytes: rebuild them now
    // and store them against the new bytes (or raw), in the update's unit of work.
    std::vector<uint32_t> deps;
    p.table.forEachDependent(x, [&](uint32_t d) { deps.push_back(d); });
    std::vector<std::pair<uint32_t, std::string>> rebuilt;
    for (uint32_t d : deps) {
        Bytes db = fetchLogical(p, d);
        if (!db)
            return Status(ErrorCodes::DataCorruptionDetected,
                          "dedup: cannot rebuild a record stored against the updated one");
        rebuilt.emplace_back(d, *db);
    }
    const int64_t xid = p.table.at(x).id;
    for (auto& [d, bytes] : rebuilt) {
        RecordMeta& dm = p.table.at(d);
        std::string stored = deltaStoredIfSmaller(dm.id, bytes, xid, *newX, 1.0);
        uint32_t newBase = x;
        if (stored.empty()) {
            stored = makeRawStored(bytes);
            newBase = kNoRecord;
        }
        p.storedBytes += stored.size();
        p.storedBytes -= dm.storedSize;
        dm.storedSize = static_cast<uint32_t>(stored.size());
        relink(p, d, newBase);
        plan.rewrites.push_back(Rewrite{dm.id, std::move(stored)});
        ++_counters.requiredRewrites;
    }

    RecordMeta& xm = p.table.at(x);
    const RecordKey xk = keyOf(xm);
    _wbCache.invalidate(xk);
    _wbCache.invalidateBase(xk);
    uint32_t oldBase = xm.base;
    relink(p, x, kNoRecord);  // the client's write stores the new bytes raw
    ++xm.version;
    p.logicalBytes += newX->size();
    p.logicalBytes -= xm.logicalSize;
    p.storedBytes += rawStoredSize(newX->size());
    p.storedBytes -= xm.storedSize;
    xm.logicalSize = static_cast<uint32_t>(newX->size());
    xm.storedSize = static_cast<uint32_t>(rawStoredSize(newX->size()));
    if (oldBase != kNoRecord && p.table.at(oldBase).deleted && p.table.at(oldBase).refCount == 0) {
        plan.alsoRemove.push_back(p.table.at(oldBase).id);
        removeRecord(p, oldBase, &plan.alsoRemove);
    }
    // The record keeps its place in its chain but is found by its new content.
    RecordMeta& xm2 = p.table.at(x);
    if (xm2.indexed && p.index) {
        unindex(p, x);
        Sketch sketch = _fx.sketch(newX->data(), newX->size());
        p.table.setSketch(x, sketch);
        std::vector<uint32_t> ignored;
        for (Feature f : sketch)
            p.index->lookupAndInsert(f, x, &ignored);
        p.table.at(x).indexed = true;
    }
    if (_srcCache.contains(xk))
        _srcCache.put(xk, newX);
    if (preserved != kNoRecord)
        queueDependentRewrites(p, preserved, x, newX);  // onto the new version, later
    return plan;
}

Status Engine::Impl::onUpdateSettled(std::string_view ns, int64_t id, std::string_view bytes) {
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return Status(ErrorCodes::NoSuchKey, "dedup: namespace not tracked");
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    const uint32_t x = p.table.find(nsIdx, id);
    if (x == kNoRecord)
        return Status(ErrorCodes::NoSuchKey, "dedup: record not tracked");
    const RecordMeta& xm = p.table.at(x);
    if (!p.index || xm.deleted || xm.base != kNoRecord || xm.chain == kNoChain ||
        bytes.size() != xm.logicalSize)
        return Status::OK();  // dedup is off here, it is stored against something, or it changed
    // Where the record kept its place in its chain (onUpdate), store it against the record
    // that place points to, as if its new bytes had been that version all along. Where it
    // started a chain of its own (others decoded through its old bytes), against the most
    // similar record, as a new insert's source is chosen.
    uint32_t target = kNoRecord;
    const std::vector<uint32_t>& members = p.chains[xm.chain].members;
    if (xm.pos < members.size()) {
        const int64_t t = chainTarget(_o.chainScheme, _o.hopDistance, xm.pos, members.size() - 1);
        if (t != kRawTarget && static_cast<uint64_t>(t) < members.size() &&
            usableBase(p, members[size_t(t)], x, kNoRecord))
            target = members[size_t(t)];
    }
    if (target == kNoRecord)
        target = similarLiveRecord(p, x, kNoRecord);
    if (target == kNoRecord)
        return Status::OK();
    Bytes tb = fetchLogical(p, target);
    if (!tb)
        return Status::OK();
    std::string stored = deltaStoredIfSmaller(id, bytes, p.table.at(target).id, *tb, _o.maxDeltaFraction);
    if (stored.empty())
        return Status::OK();
    ++_counters.updatesReencoded;
    queueWriteBack(p, x, target, std::move(stored), false);
    return Status::OK();
}

StatusWith<DeletePlan> Engine::Impl::onDelete(std::string_view ns, int64_t id) {
    DeletePlan plan;
    uint32_t nsIdx;
    if (!findNs(ns, &nsIdx))
        return plan;
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    uint32_t x = p.table.find(nsIdx, id);
    if (x == kNoRecord)
        return plan;
    RecordMeta& xm = p.table.at(x);
    if (xm.deleted) {
        plan.retain = true;
        return plan;
    }
    const RecordKey xk = keyOf(xm);
    _wbCache.invalidate(xk);
    _wbCache.invalidateBase(xk);
    _srcCache.erase(xk);
    unindex(p, x);
    if (xm.refCount == 0) {
        removeRecord(p, x, &plan.alsoRemove);
        return plan;
    }
    // Others decode through it: keep its stored form, and queue the rewrites that move its
    // dependents onto its own base (or raw), after which it can be removed.
    xm.deleted = true;
    p.logicalBytes -= xm.logicalSize;
    plan.retain = true;
    queueDependentRewrites(p, x);
    return plan;
}

std::string Engine::Impl::deltaStoredIfSmaller(int64_t id, std::string_view bytes, int64_t baseId,
                                               const std::string& baseBytes, double maxFraction) {
    std::string delta = _enc.encode(reinterpret_cast<const uint8_t*>(baseBytes.data()), baseBytes.size(),
                                    reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), _o.compressDeltas);
    if (static_cast<double>(deltaStoredSize(id, baseId, delta.size())) >=
        maxFraction * static_cast<double>(rawStoredSize(bytes.size())))
        return std::string();
    return makeDeltaStored(id, baseId, delta);
}

bool Engine::Impl::usableBase(const Partition& p, uint32_t c, uint32_t rec, uint32_t avoid) const {
    return c != kNoRecord && c != rec && c != avoid && p.table.valid(c) && !p.table.at(c).deleted &&
        p.table.at(c).ns == p.table.at(rec).ns && !reaches(p, c, rec) &&
        (avoid == kNoRecord || !reaches(p, c, avoid));
}

uint32_t Engine::Impl::similarLiveRecord(Partition& p, uint32_t rec, uint32_t avoid) {
    if (!p.index || !p.table.at(rec).indexed)
        return kNoRecord;
    std::vector<uint32_t> hits;
    for (Feature f : p.table.sketchOf(rec))
        p.index->lookup(f, &hits);
    std::vector<SelectionCandidate> cands;
    for (SelectionCandidate c : tallyCandidates(std::move(hits))) {
        if (!usableBase(p, c.ptr, rec, avoid))
            continue;
        c.seq = p.table.at(c.ptr).seq;
        c.cached = _srcCache.contains(keyOf(p.table.at(c.ptr)));
        cands.push_back(c);
    }
    const int best = selectSource(cands, _o.cacheReward);
    return best < 0 ? kNoRecord : cands[size_t(best)].ptr;
}

uint32_t Engine::Impl::queueDependentRewrites(Partition& p, uint32_t x, uint32_t fallback,
                                              Bytes fallbackBytes) {
    const RecordMeta& xm = p.table.at(x);
    // Dependents move onto x's nearest live ancestor (or raw if x's chain has none left), so
    // that x and the retained records between it and that ancestor can all go.
    uint32_t base = xm.base;
    int64_t cascade = 0;
    bool sole = xm.refCount == 1;
    while (base != kNoRecord && p.table.at(base).deleted) {
        const RecordMeta& am = p.table.at(base);
        sole = sole && am.refCount == 1;
        if (sole)
            cascade += am.storedSize;
        base = am.base;
    }
    Bytes baseBytes;
    if (base != kNoRecord) {
        baseBytes = fetchLogical(p, base);
    } else if (fallback != kNoRecord) {
        base = fallback;
        baseBytes = fallbackBytes;
    }
    std::vector<uint32_t> deps;
    p.table.forEachDependent(x, [&](uint32_t d) { deps.push_back(d); });
    // The retained bytes are freed once every dependent has moved: each rewrite earns a share
    // of them, plus, for x's only dependent, the retained records above x that go with it.
    const int64_t share = int64_t(xm.storedSize / std::max<uint32_t>(1, xm.refCount)) + 1 + cascade;
    uint32_t queued = 0;
    for (uint32_t d : deps) {
        Bytes db = fetchLogical(p, d);
        if (!db)
            continue;
        const int64_t did = p.table.at(d).id;
        // Queued even when it costs bytes (a dependent far along a hop chain may take a larger
        // delta against x's ancestor than against x): x holds a document the client deleted
        // or replaced, and goes only once every dependent has moved.
        // No live ancestor and no fallback (every version above was replaced or deleted, as a
        // sweep of updates leaves them): the most similar live record, rather than raw.
        uint32_t dBase = base;
        Bytes dBaseBytes = baseBytes;
        if (dBase == kNoRecord) {
            dBase = similarLiveRecord(p, d, x);
            if (dBase != kNoRecord)
                dBaseBytes = fetchLogical(p, dBase);
        }
        std::string stored;
        if (dBaseBytes)
            stored = deltaStoredIfSmaller(did, *db, p.table.at(dBase).id, *dBaseBytes, 1.0);
        if (stored.empty()) {
            dBase = kNoRecord;
            stored = makeRawStored(*db);
        }
        queued += queueWriteBack(p, d, dBase, std::move(stored), false, share, true);
    }
    return queued;
}

// ---------------------------------------------------------------------------------------
// Write-backs, reads, statistics.

DrainResult Engine::Impl::drainWriteBacks(size_t maxEntries, size_t maxBytes) {
    DrainResult r;
    std::vector<WriteBack> batch = _wbCache.take(maxEntries, maxBytes);
    if (batch.empty())
        return r;
    std::lock_guard<std::mutex> lk(_mu);
    for (WriteBack& wb : batch) {
        Partition& p = partitionOfNs(wb.key.ns);
        uint32_t rec = p.table.find(wb.key.ns, wb.key.id);
        // The entry was taken out of the cache before the lock: the record (or its base) may
        // have been updated, deleted, or deleted and inserted again since.
        if (rec == kNoRecord || p.table.at(rec).seq != wb.recordSeq ||
            p.table.at(rec).version != wb.recordVersion) {
            ++r.stale;
            continue;
        }
        uint32_t base = kNoRecord;
        if (wb.hasBase) {
            base = p.table.find(wb.base.ns, wb.base.id);
            if (base == kNoRecord || p.table.at(base).seq != wb.baseSeq ||
                p.table.at(base).version != wb.baseVersion || p.table.at(base).deleted) {
                ++r.stale;
                continue;
            }
            // A chain must not loop back to the record. (Bases are normally newer, but after a
            // restart ages come from record ids, and a record updated in place keeps its old
            // id: so the chain itself is checked, not the ages.)
            if (reaches(p, base, rec)) {
                ++r.stale;
                continue;
            }
            // The decode bound: the record's deepest dependent must stay within it, unless the
            // record is already past it (data restored from storage) and this moves it nearer
            // its root, which shortens every decode through it (a repair, engine_depth.cpp).
            if (_cap != 0 && depthOf(p, base, _cap) + 1 + p.table.at(rec).height > _cap &&
                depthOf(p, base, UINT32_MAX - 1) + 1 >= depthOf(p, rec, UINT32_MAX - 1)) {
                ++r.depthLimited;
                ++_counters.writeBacksDepthLimited;
                continue;
            }
        }
        Status st = _store->writeStored(nsName(wb.key.ns), wb.key.id, wb.stored);
        if (!st.isOK()) {
            ++r.failed;
            continue;
        }
        RecordMeta& rm = p.table.at(rec);
        uint32_t oldBase = rm.base;
        p.storedBytes += wb.stored.size();
        p.storedBytes -= rm.storedSize;
        rm.storedSize = static_cast<uint32_t>(wb.stored.size());
        relink(p, rec, base);
        ++r.applied;
        ++_counters.writeBacksApplied;
        if (oldBase != kNoRecord && p.table.at(oldBase).deleted &&
            p.table.at(oldBase).refCount == 0) {
            std::vector<int64_t> gone{p.table.at(oldBase).id};
            removeRecord(p, oldBase, &gone);
            for (int64_t id : gone)
                if (_store->removeRetained(nsName(wb.key.ns), id).isOK())
                    ++r.removed;
        }
    }
    return r;
}

Status Engine::Impl::read(std::string_view ns, int64_t id, std::string* out, DecodeInfo* info) {
    uint32_t nsIdx;
    KnownRecordFn known;
    if (findNs(ns, &nsIdx))
        known = [this, nsIdx](int64_t rid) { return _srcCache.peek(RecordKey{nsIdx, rid}); };
    return decodeRecord(*_store, ns, id, out, info, known);
}

Stats Engine::Impl::stats(bool computeChains) const {
    std::lock_guard<std::mutex> lk(_mu);
    Stats s = _counters;
    for (const auto& pp : _partitions) {
        const Partition& p = *pp;
        DbStats d;
        d.db = p.name;
        d.active = p.index != nullptr;
        d.windowRatio = p.gov.windowRatio();
        d.records = p.table.size();
        d.logicalBytes = p.logicalBytes;
        d.storedBytes = p.storedBytes;
        d.sizeThreshold = p.gov.sizeThreshold();
        d.indexEntries = p.index ? p.index->entries() : 0;
        d.indexBytes = p.index ? p.index->memoryBytes() : 0;
        d.metadataBytes = p.table.memoryBytes();
        for (const Chain& c : p.chains)
            d.metadataBytes += c.members.capacity() * sizeof(uint32_t) + sizeof(Chain);
        s.logicalBytes += d.logicalBytes;
        s.storedBytes += d.storedBytes;
        s.indexEntries += d.indexEntries;
        s.indexBytes += d.indexBytes;
        s.metadataBytes += d.metadataBytes;
        if (computeChains) {
            p.table.forEachLive([&](uint32_t ptr) { s.retainedRecords += p.table.at(ptr).deleted; });
            // Decode steps of every record, memoised along each walk: linear overall.
            std::unordered_map<uint32_t, uint32_t> memo;
            memo.reserve(p.table.size());
            p.table.forEachLive([&](uint32_t ptr) {
                std::vector<uint32_t> path;
                uint32_t n = ptr;
                uint32_t known = 0;
                while (true) {
                    auto it = memo.find(n);
                    if (it != memo.end()) {
                        known = it->second;
                        break;
                    }
                    path.push_back(n);
                    uint32_t b = p.table.at(n).base;
                    if (b == kNoRecord) {
                        known = 0;
                        memo[n] = 0;
                        path.pop_back();
                        break;
                    }
                    n = b;
                }
                for (size_t i = path.size(); i-- > 0;)
                    memo[path[i]] = ++known;
                if (!path.empty())
                    s.longestChain = std::max<uint64_t>(s.longestChain, memo[path.front()]);
            });
        }
        s.dbs.push_back(d);
    }
    SourceRecordCache::Stats cs = _srcCache.stats();
    s.sourceCacheHits = cs.hits;
    s.sourceCacheMisses = cs.misses;
    s.sourceCacheBytes = cs.bytes;
    WriteBackCache::Stats ws = _wbCache.stats();
    s.writeBacksDropped = ws.dropped;
    s.writeBacksInvalidated = ws.invalidated;
    s.writeBacksReplaced = ws.replaced;
    s.writeBacksPending = ws.entries;
    s.writeBackCacheBytes = ws.bytes;
    return s;
}

}  // namespace dedup
}  // namespace mongo
