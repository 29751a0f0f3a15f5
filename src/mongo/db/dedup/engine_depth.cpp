// The decode bound (Options::maxDecodeSteps): reading any record applies at most _cap deltas.
// Write-backs are checked against it before they are applied (drainWriteBacks: the base's
// depth + 1 + the record's height); updates and deletes never lengthen a chain (an updated
// record's old version keeps its place, a deleted one stays as a base until its dependents
// move up its chain). What remains is data that is already deeper when the engine learns it
// from storage: stored under hop or backward chains, under a larger bound, or by a version
// that enforced none. Those records are found here and re-based, a few hundred per garbage
// collection pass, until none is deeper than the bound.
#include <algorithm>
#include <limits>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/engine_impl.h"

namespace mongo {
namespace dedup {

uint32_t Engine::decodeBound() const { return _impl->decodeBound(); }

uint32_t Engine::Impl::depthOf(const Partition& p, uint32_t ptr, uint32_t limit) const {
    uint32_t d = 0;
    for (uint32_t n = p.table.at(ptr).base; n != kNoRecord && d <= limit; n = p.table.at(n).base)
        ++d;
    return d;
}

size_t Engine::Impl::repairDepths(Partition& p, size_t maxRepairs) {
    if (_cap == 0) {
        p.depthCheck = false;
        return 0;
    }
    // Depth of every record, memoised along each walk (linear). Every record deeper than the
    // bound has exactly one record at depth _cap + 1 on its path: re-basing those (the
    // frontier) brings the records below them up, and the next pass finds what is left.
    constexpr uint32_t kUnknown = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> depth(p.table.slots(), kUnknown);
    std::vector<uint32_t> frontier, path;
    bool loop = false;
    p.table.forEachLive([&](uint32_t ptr) {
        path.clear();
        uint32_t n = ptr;
        while (n != kNoRecord && depth[n] == kUnknown && path.size() <= p.table.size()) {
            path.push_back(n);
            n = p.table.at(n).base;
        }
        if (n != kNoRecord && depth[n] == kUnknown) {
            loop = true;  // never formed by the engine (reaches() guards every link)
            return;
        }
        uint32_t d = n == kNoRecord ? 0 : depth[n] + 1;
        for (size_t i = path.size(); i-- > 0; ++d) {
            depth[path[i]] = d;
            if (d == _cap + 1)
                frontier.push_back(path[i]);
        }
    });
    if (frontier.empty() && !loop) {
        p.depthCheck = false;
        return 0;
    }
    size_t queued = 0;
    for (uint32_t c : frontier) {
        if (queued >= maxRepairs)
            break;
        // A rewrite of c is already queued (a repair of an earlier pass, or a chain
        // re-encoding): it is checked against the bound when applied; if it is dropped or
        // skipped, a later pass finds c again.
        if (_wbCache.pending(keyOf(p.table.at(c))))
            continue;
        queued += repairOne(p, c);
    }
    return queued;
}

bool Engine::Impl::repairOne(Partition& p, uint32_t c) {
    // c's ancestors, nearest first: path[i] is at depth _cap - i.
    std::vector<uint32_t> path;
    for (uint32_t n = p.table.at(c).base; n != kNoRecord; n = p.table.at(n).base)
        path.push_back(n);
    // The deepest record below c ends up at depth(new base) + 1 + height(c): the deepest
    // ancestor that keeps it within the bound, else the shallowest (its root, depth 0), which
    // brings c and its dependents as far up as any base can; what is still too deep below it
    // is the frontier of a later pass. Retained ancestors may go at any time (write-backs
    // refuse them as bases): the nearest live one at or above that depth, else below it.
    const int64_t fits = int64_t(_cap) - 1 - int64_t(p.table.at(c).height);
    const size_t from = std::min(path.size() - 1, size_t(int64_t(_cap) - std::max<int64_t>(0, fits)));
    uint32_t base = kNoRecord;
    for (size_t i = from; i < path.size() && base == kNoRecord; ++i)
        if (!p.table.at(path[i]).deleted)
            base = path[i];
    for (size_t i = from; i-- > 1 && base == kNoRecord;)  // path[0] would leave c where it is
        if (!p.table.at(path[i]).deleted)
            base = path[i];
    Bytes bytes = fetchLogical(p, c);
    if (!bytes)
        return false;  // unreadable: validate reports it; nothing to build a rewrite from
    const int64_t cid = p.table.at(c).id;
    std::string stored;
    if (base != kNoRecord) {
        if (Bytes baseBytes = fetchLogical(p, base))
            stored = deltaStoredIfSmaller(cid, *bytes, p.table.at(base).id, *baseBytes, 1.0);
        if (stored.empty())
            base = kNoRecord;
    }
    if (base == kNoRecord)
        stored = makeRawStored(*bytes);
    // Structural: ranked with the re-encodings chains rely on, ahead of mere savings.
    if (!queueWriteBack(p, c, base, std::move(stored), true))
        return false;
    ++_counters.depthRepairs;
    return true;
}

}  // namespace dedup
}  // namespace mongo
