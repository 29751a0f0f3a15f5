// The insert path of the dbDedup engine: feature extraction, index lookup, cache-aware
// source selection, delta compression, and the chain bookkeeping that decides which older
// records are rewritten as backward deltas. Updates, deletes, write-backs, reads and
// statistics are in engine_maintenance.cpp.
#include "mongo/db/dedup/dedup_engine.h"

#include <algorithm>

#include "mongo/db/dedup/engine_impl.h"
#include "mongo/db/dedup/source_selection.h"

namespace mongo {
namespace dedup {
namespace {

Options sanitize(Options o) {
    o.avgChunkSize = std::clamp<uint32_t>(o.avgChunkSize, 16, 65536);
    o.sketchSize = std::clamp<uint32_t>(o.sketchSize, 1, 64);
    o.maxCandidatesPerFeature = std::max<uint32_t>(1, o.maxCandidatesPerFeature);
    o.anchorInterval = std::max<uint32_t>(1, o.anchorInterval);
    o.hopDistance = std::max<uint32_t>(2, o.hopDistance);
    // decodeRecord refuses longer chains (a cycle or a runaway chain).
    o.maxDecodeSteps = std::min<uint32_t>(o.maxDecodeSteps, 65535);
    o.maxDeltaFraction = std::clamp(o.maxDeltaFraction, 0.0, 1.0);
    o.sizeFilterPercentile = std::clamp(o.sizeFilterPercentile, 0.0, 1.0);
    return o;
}

GovernorOptions governorOptions(const Options& o) {
    GovernorOptions g;
    g.governorEnabled = o.governor;
    g.minRatio = o.governorMinRatio;
    g.window = std::max<uint64_t>(1, o.governorWindow);
    g.sizeFilterEnabled = o.sizeFilter;
    g.sizePercentile = o.sizeFilterPercentile;
    g.filterUpdateEvery = std::max<uint32_t>(1, o.sizeFilterUpdateEvery);
    return g;
}

}  // namespace

std::string_view dbOfNamespace(std::string_view ns) {
    size_t dot = ns.find('.');
    return dot == std::string_view::npos ? ns : ns.substr(0, dot);
}

const char* outcomeName(InsertDecision::Outcome o) {
    switch (o) {
        case InsertDecision::Outcome::kEncoded: return "encoded";
        case InsertDecision::Outcome::kUnique: return "unique";
        case InsertDecision::Outcome::kFilteredBySize: return "filteredBySize";
        case InsertDecision::Outcome::kDisabled: return "disabled";
        case InsertDecision::Outcome::kSourceUnavailable: return "sourceUnavailable";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------
// Engine: forwards to Impl.

Engine::Engine(const Options& options, RecordStore* store)
    : _impl(std::make_unique<Impl>(options, store)) {}
Engine::~Engine() = default;
const Options& Engine::options() const { return _impl->options(); }
StatusWith<InsertDecision> Engine::onInsert(std::string_view ns, int64_t id, std::string_view bytes) {
    return _impl->onInsert(ns, id, bytes);
}
Status Engine::onReplicatedInsert(std::string_view ns, int64_t id, int64_t sourceId,
                                  std::string_view forwardDelta, std::string* bytes) {
    return _impl->onReplicatedInsert(ns, id, sourceId, forwardDelta, bytes);
}
StatusWith<UpdatePlan> Engine::onUpdate(std::string_view ns, int64_t id, std::string_view newBytes,
                                        int64_t keepOldAs) {
    return _impl->onUpdate(ns, id, newBytes, keepOldAs);
}
Status Engine::onUpdateSettled(std::string_view ns, int64_t id, std::string_view bytes) {
    return _impl->onUpdateSettled(ns, id, bytes);
}
StatusWith<DeletePlan> Engine::onDelete(std::string_view ns, int64_t id) {
    return _impl->onDelete(ns, id);
}
Status Engine::read(std::string_view ns, int64_t id, std::string* out, DecodeInfo* info) {
    return _impl->read(ns, id, out, info);
}
DrainResult Engine::drainWriteBacks(size_t maxEntries, size_t maxBytes) {
    return _impl->drainWriteBacks(maxEntries, maxBytes);
}
Stats Engine::stats(bool computeChains) const { return _impl->stats(computeChains); }

// ---------------------------------------------------------------------------------------
// Impl: construction, namespaces, partitions.

Engine::Impl::Partition::Partition(std::string n, const Options& o, const GovernorOptions& g)
    : name(std::move(n)), table(o.sketchSize), gov(g) {}

Engine::Impl::Impl(const Options& options, RecordStore* store)
    : _o(sanitize(options)),
      _cap(_o.maxDecodeSteps != 0 ? _o.maxDecodeSteps
                                  : static_cast<uint32_t>(schemeDecodeCap(_o.chainScheme, _o.hopDistance))),
      _store(store),
      _fx(_o.avgChunkSize, _o.sketchSize),
      _enc(_o.anchorInterval, _o.minAnchors, _o.deltaGapSearch),
      _srcCache(_o.sourceCacheBytes),
      _wbCache(_o.writeBackCacheBytes) {}

uint32_t Engine::Impl::internNs(std::string_view ns) {
    std::lock_guard<std::mutex> lk(_nsMu);
    auto it = _nsIndex.find(std::string(ns));
    if (it != _nsIndex.end())
        return it->second;
    uint32_t idx = static_cast<uint32_t>(_namespaces.size());
    _namespaces.emplace_back(ns);
    _nsIndex.emplace(std::string(ns), idx);
    return idx;
}

bool Engine::Impl::findNs(std::string_view ns, uint32_t* idx) const {
    std::lock_guard<std::mutex> lk(_nsMu);
    auto it = _nsIndex.find(std::string(ns));
    if (it == _nsIndex.end())
        return false;
    *idx = it->second;
    return true;
}

const std::string& Engine::Impl::nsName(uint32_t idx) const {
    std::lock_guard<std::mutex> lk(_nsMu);
    return _namespaces[idx];  // a deque: references stay valid as it grows
}

Engine::Impl::Partition& Engine::Impl::partitionOfNs(uint32_t nsIdx) {
    if (nsIdx < _partitionOfNs.size() && _partitionOfNs[nsIdx] != SIZE_MAX)
        return *_partitions[_partitionOfNs[nsIdx]];
    std::string db(dbOfNamespace(nsName(nsIdx)));
    auto it = _partitionByDb.find(db);
    size_t pi;
    if (it != _partitionByDb.end()) {
        pi = it->second;
    } else {
        pi = _partitions.size();
        auto part = std::make_unique<Partition>(db, _o, governorOptions(_o));
        part->index = std::make_unique<FeatureIndex>(
            &part->table, _o.maxCandidatesPerFeature, _o.expectedRecordsPerDb * _o.sketchSize);
        _partitions.push_back(std::move(part));
        _partitionByDb.emplace(db, pi);
    }
    if (_partitionOfNs.size() <= nsIdx)
        _partitionOfNs.resize(nsIdx + 1, SIZE_MAX);
    _partitionOfNs[nsIdx] = pi;
    return *_partitions[pi];
}

// ---------------------------------------------------------------------------------------
// Insert path.

uint32_t Engine::Impl::trackRecord(Partition& p, uint32_t nsIdx, int64_t id, size_t size,
                                   const Sketch& sketch, bool index) {
    uint32_t ptr = p.table.add(nsIdx, id, index ? sketch : Sketch{}, ++_seq);
    RecordMeta& m = p.table.at(ptr);
    m.logicalSize = static_cast<uint32_t>(size);
    m.storedSize = static_cast<uint32_t>(rawStoredSize(size));
    p.logicalBytes += m.logicalSize;
    p.storedBytes += m.storedSize;
    p.gov.onInsert(size);
    ++_counters.recordsExamined;
    _counters.insertedBytes += size;
    return ptr;
}

void Engine::Impl::startChain(Partition& p, uint32_t ptr) {
    RecordMeta& m = p.table.at(ptr);
    m.chain = static_cast<uint32_t>(p.chains.size());
    m.pos = 0;
    p.chains.emplace_back();
    p.chains.back().members.push_back(ptr);
}

uint32_t Engine::Impl::selectFor(Partition& p, uint32_t ptr, const Sketch& sketch) {
    RecordMeta& m = p.table.at(ptr);
    std::vector<uint32_t> hits;
    for (Feature f : sketch)
        p.index->lookupAndInsert(f, ptr, &hits);
    m.indexed = true;
    std::vector<SelectionCandidate> cands = tallyCandidates(std::move(hits));
    std::vector<SelectionCandidate> usable;
    usable.reserve(cands.size());
    for (SelectionCandidate c : cands) {
        if (c.ptr == ptr || !p.table.valid(c.ptr))
            continue;
        const RecordMeta& cm = p.table.at(c.ptr);
        // A delta's base must be in the same namespace (the stored form names it by id).
        if (cm.deleted || cm.ns != m.ns)
            continue;
        c.seq = cm.seq;
        c.cached = _srcCache.contains(keyOf(cm));
        usable.push_back(c);
    }
    int best = selectSource(usable, _o.cacheReward);
    return best < 0 ? kNoRecord : usable[best].ptr;
}

uint32_t Engine::Impl::encodeAgainst(Partition& p, uint32_t ptr, const Bytes& newBytes,
                                     uint32_t source, const Bytes& srcBytes,
                                     const std::vector<DeltaInst>& forward) {
    RecordMeta& sm = p.table.at(source);
    sm.lastUsed = _seq;  // the source was just used: it stays a candidate longest
    std::vector<DeltaInst> backward;
    reencodeBackward(forward, srcBytes->size(), &backward);
    std::string bwdDelta;
    serializeDelta(backward, reinterpret_cast<const uint8_t*>(srcBytes->data()), srcBytes->size(),
                   &bwdDelta, _o.compressDeltas);

    uint32_t queued = 0;
    const uint32_t H = _o.hopDistance;
    // The new record normally becomes the newest of its source's chain. When the source is
    // an older member (a revert, or a reply quoting an earlier message), the paper leaves the
    // chain's newest record raw ("overlapped encoding"); here the new record still joins the
    // chain if that newest record is similar to it (shares a feature), so it too is encoded
    // against the new one, and the source gets its own re-encoding against the new record.
    const uint32_t head = sm.chain != kNoChain ? p.chains[sm.chain].members.back() : kNoRecord;
    bool extendsChain = head == source;
    if (!extendsChain && head != kNoRecord && p.table.valid(head) && !p.table.at(head).deleted &&
        sharedFeatures(p.table.sketchOf(head), p.table.sketchOf(ptr)) > 0)
        extendsChain = true;
    bool sourceRewritten = false;
    if (extendsChain) {
        Chain& chain = p.chains[sm.chain];
        RecordMeta& m = p.table.at(ptr);
        m.chain = sm.chain;
        m.pos = static_cast<uint32_t>(chain.members.size());
        chain.members.push_back(ptr);
        for (const Retarget& r : retargetsOnAppend(_o.chainScheme, H, m.pos)) {
            uint32_t rec = chain.members[r.pos];
            if (!p.table.valid(rec) || p.table.at(rec).deleted)
                continue;
            const RecordMeta& rm = p.table.at(rec);
            if (r.target == kRawTarget) {
                Bytes b = fetchLogical(p, rec);
                if (b)
                    queued += queueWriteBack(p, rec, kNoRecord, makeRawStored(*b), true);
                sourceRewritten |= rec == source;
                continue;
            }
            uint32_t tgt = chain.members[size_t(r.target)];
            if (!p.table.valid(tgt) || p.table.at(tgt).deleted)
                continue;
            std::string delta;
            bool plainBackward = r.pos + 1 == m.pos && tgt == ptr;
            if (rec == source && tgt == ptr) {
                delta = bwdDelta;  // Algorithm 2: no second encoding pass
            } else {
                // A hop re-encoding, or the chain's previous newest record when the source
                // was an older member: delta-compress it against its new base.
                Bytes recBytes = fetchLogical(p, rec);
                Bytes tgtBytes = tgt == ptr ? newBytes : fetchLogical(p, tgt);
                if (!recBytes || !tgtBytes)
                    continue;
                delta = _enc.encode(reinterpret_cast<const uint8_t*>(tgtBytes->data()),
                                    tgtBytes->size(),
                                    reinterpret_cast<const uint8_t*>(recBytes->data()),
                                    recBytes->size(), _o.compressDeltas);
            }
            queued += queueWriteBack(p, rec, tgt,
                                     makeDeltaStored(rm.id, p.table.at(tgt).id, delta),
                                     !plainBackward);
            sourceRewritten |= rec == source;
        }
    } else {
        startChain(p, ptr);
    }
    if (!sourceRewritten) {
        // Overlapped encoding: the source is re-encoded against the new record if that makes
        // it smaller than it is stored now.
        ++_counters.overlappedEncodings;
        queued += queueWriteBack(p, source, ptr,
                                 makeDeltaStored(sm.id, p.table.at(ptr).id, bwdDelta), false);
    }

    // Source record cache (Algorithm 3, with hop bases): the new record replaces its source,
    // except that hop bases stay cached for the re-encodings that will need them.
    const RecordMeta& smNow = p.table.at(source);
    bool keepSource = (_o.chainScheme == ChainScheme::kHop ||
                       _o.chainScheme == ChainScheme::kBoundedHop) &&
        smNow.pos % H == 0;
    if (keepSource)
        _srcCache.put(keyOf(p.table.at(ptr)), newBytes);
    else
        _srcCache.replace(keyOf(smNow), keyOf(p.table.at(ptr)), newBytes);
    return queued;
}

void Engine::Impl::afterInsert(Partition& p) {
    if (p.gov.evaluate())
        disablePartition(p);
}

StatusWith<InsertDecision> Engine::Impl::onInsert(std::string_view ns, int64_t id,
                                                  std::string_view bytes) {
    if (bytes.size() > kMaxDeltaTarget)
        return Status(ErrorCodes::BadValue, "dedup: record too large");
    uint32_t nsIdx = internNs(ns);
    bool wantFeatures;
    {
        std::lock_guard<std::mutex> lk(_mu);
        Partition& p = partitionOfNs(nsIdx);
        if (p.table.find(nsIdx, id) != kNoRecord)
            return Status(ErrorCodes::DuplicateKey, "dedup: record already tracked");
        wantFeatures = p.index && p.gov.passesSizeFilter(bytes.size());
    }
    // Chunking and hashing are the expensive part of the lookup and need no shared state.
    Sketch sketch;
    if (wantFeatures)
        sketch = _fx.sketch(bytes.data(), bytes.size());

    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    if (p.table.find(nsIdx, id) != kNoRecord)
        return Status(ErrorCodes::DuplicateKey, "dedup: record already tracked");
    InsertDecision d;
    bool active = p.index != nullptr;
    uint32_t ptr = trackRecord(p, nsIdx, id, bytes.size(), sketch, active && wantFeatures);
    if (!active || !wantFeatures) {
        // Not deduplicated: it still gets bookkeeping (a chain of its own) so that updates,
        // deletes and statistics stay exact.
        startChain(p, ptr);
        if (!active) {
            d.outcome = InsertDecision::Outcome::kDisabled;
            ++_counters.skippedByGovernor;
        } else {
            d.outcome = InsertDecision::Outcome::kFilteredBySize;
            ++_counters.skippedBySizeFilter;
        }
        afterInsert(p);
        return d;
    }

    Bytes newBytes = std::make_shared<const std::string>(bytes);
    uint32_t source = selectFor(p, ptr, sketch);
    Bytes srcBytes;
    if (source != kNoRecord) {
        srcBytes = fetchLogical(p, source);
        if (!srcBytes) {
            d.outcome = InsertDecision::Outcome::kSourceUnavailable;
            ++_counters.sourceUnavailable;
            source = kNoRecord;
        }
    }
    std::vector<DeltaInst> forward;
    if (source != kNoRecord) {
        _enc.computeInstructions(reinterpret_cast<const uint8_t*>(srcBytes->data()),
                                 srcBytes->size(), reinterpret_cast<const uint8_t*>(bytes.data()),
                                 bytes.size(), &forward);
        if (double(serializedDeltaSize(forward, bytes.size())) >
            _o.maxDeltaFraction * double(bytes.size()))
            source = kNoRecord;  // similar features, but not similar enough to pay
    }
    if (source == kNoRecord) {
        startChain(p, ptr);
        _srcCache.put(keyOf(p.table.at(ptr)), newBytes);
        if (d.outcome != InsertDecision::Outcome::kSourceUnavailable) {
            d.outcome = InsertDecision::Outcome::kUnique;
            ++_counters.recordsUnique;
        }
        afterInsert(p);
        return d;
    }
    d.outcome = InsertDecision::Outcome::kEncoded;
    d.sourceId = p.table.at(source).id;
    serializeDelta(forward, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                   &d.forwardDelta, _o.compressDeltas);
    ++_counters.recordsEncoded;
    _counters.forwardDeltaBytes += d.forwardDelta.size();
    d.writeBacksQueued = encodeAgainst(p, ptr, newBytes, source, srcBytes, forward);
    afterInsert(p);
    return d;
}

Status Engine::Impl::onReplicatedInsert(std::string_view ns, int64_t id, int64_t sourceId,
                                        std::string_view forwardDelta, std::string* bytes) {
    uint32_t nsIdx = internNs(ns);
    std::lock_guard<std::mutex> lk(_mu);
    Partition& p = partitionOfNs(nsIdx);
    if (p.table.find(nsIdx, id) != kNoRecord)
        return Status(ErrorCodes::DuplicateKey, "dedup: record already tracked");
    uint32_t source = p.table.find(nsIdx, sourceId);
    if (source == kNoRecord || p.table.at(source).deleted)
        return Status(ErrorCodes::NoSuchKey,
                      "dedup: the source of a replicated delta is not here; fetch the record");
    Bytes srcBytes = fetchLogical(p, source);
    if (!srcBytes)
        return Status(ErrorCodes::NoSuchKey, "dedup: cannot read the source of a replicated delta");
    const uint8_t* d = reinterpret_cast<const uint8_t*>(forwardDelta.data());
    Status st = applyDelta(reinterpret_cast<const uint8_t*>(srcBytes->data()), srcBytes->size(), d,
                           forwardDelta.size(), bytes);
    if (!st.isOK())
        return st;
    DeltaHeader h;
    std::vector<DeltaInst> forward;
    st = parseDelta(d, forwardDelta.size(), srcBytes->size(), &h, &forward);
    if (!st.isOK())
        return st;
    Sketch sketch;
    if (p.index)
        sketch = _fx.sketch(bytes->data(), bytes->size());
    uint32_t ptr = trackRecord(p, nsIdx, id, bytes->size(), sketch, p.index != nullptr);
    if (p.index) {
        std::vector<uint32_t> ignored;
        for (Feature f : sketch)
            p.index->lookupAndInsert(f, ptr, &ignored);
        p.table.at(ptr).indexed = true;
    }
    ++_counters.recordsEncoded;
    _counters.forwardDeltaBytes += forwardDelta.size();
    Bytes newBytes = std::make_shared<const std::string>(*bytes);
    encodeAgainst(p, ptr, newBytes, source, srcBytes, forward);
    afterInsert(p);
    return Status::OK();
}

}  // namespace dedup
}  // namespace mongo
