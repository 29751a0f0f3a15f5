#include "mongo/db/dedup/chain_policy.h"

#include <algorithm>
#include <cstring>

namespace mongo {
namespace dedup {
namespace {

constexpr uint32_t kInfiniteLevel = 64;

uint32_t clampH(uint32_t H) { return H < 2 ? 2 : H; }

// Largest L with H^L dividing pos (position 0 divides by everything).
uint32_t levelOf(uint64_t pos, uint32_t H) {
    if (pos == 0)
        return kInfiniteLevel;
    uint32_t L = 0;
    while (pos % H == 0) {
        pos /= H;
        ++L;
    }
    return L;
}

// H^e, or 0 if it overflows 2^62 (treated as "beyond any chain").
uint64_t powH(uint32_t H, uint32_t e) {
    uint64_t r = 1;
    for (uint32_t i = 0; i < e; ++i) {
        if (r > (uint64_t(1) << 62) / H)
            return 0;
        r *= H;
    }
    return r;
}

int64_t hopTarget(uint32_t H, uint64_t pos, uint64_t head) {
    uint32_t L = levelOf(pos, H);
    uint64_t best = pos + 1;
    uint64_t step = 1;
    for (uint32_t l = 1; l <= L; ++l) {
        if (step > (head - pos) / H)
            break;
        step *= H;
        best = pos + step;
    }
    return int64_t(best);
}

// kBoundedHop's levels: level-1 bases every c = H/2 positions, then H/2 - 1 doublings, then a
// factor H per level. Small clusters and doubling levels keep the deltas between bases short;
// the factor H keeps the number of levels within log_H N for long chains. interval(k) is the
// spacing of level-k bases (k >= 1); 0 means beyond any chain.
uint64_t boundedInterval(uint32_t H, uint32_t k) {
    uint64_t iv = std::max<uint32_t>(2, H / 2);
    const uint32_t doublings = H / 2 >= 1 ? H / 2 - 1 : 0;
    for (uint32_t level = 1; level < k; ++level) {
        uint64_t g = level <= doublings ? 2 : H;
        if (iv > (uint64_t(1) << 62) / g)
            return 0;
        iv *= g;
    }
    return iv;
}

uint32_t boundedLevelOf(uint64_t pos, uint32_t H) {
    if (pos == 0)
        return kInfiniteLevel;
    uint32_t L = 0;
    for (uint64_t iv = boundedInterval(H, 1); iv != 0 && pos % iv == 0; iv = boundedInterval(H, L + 1))
        ++L;
    return L;
}

int64_t boundedHopTarget(uint32_t H, uint64_t pos, uint64_t head) {
    uint32_t L = boundedLevelOf(pos, H);
    if (L == 0)
        return int64_t(pos + 1);
    const uint64_t c = boundedInterval(H, 1);
    uint64_t newestBase = head - head % c;
    if (pos == newestBase)  // the cluster being filled: a plain backward chain to the head
        return int64_t(pos + 1);
    if (pos == 0)
        return int64_t(newestBase);
    uint64_t span = boundedInterval(H, L + 1);
    if (span != 0) {
        uint64_t up = (pos / span + 1) * span;
        if (up <= head)
            return int64_t(up);
    }
    return int64_t(newestBase);
}

// Bases with no higher-level base after them yet (plus position 0): under kBoundedHop they
// point to the newest base and move when it changes.
void addFrontier(uint32_t H, uint64_t head, std::vector<uint64_t>* out) {
    out->push_back(0);
    for (uint32_t L = 1;; ++L) {
        uint64_t step = boundedInterval(H, L);
        if (step == 0 || step > head)
            break;
        uint64_t span = boundedInterval(H, L + 1);
        uint64_t start = span == 0 ? 0 : head / span * span;
        for (uint64_t p = start + step; p <= head; p += step)
            if (boundedLevelOf(p, H) == L)
                out->push_back(p);
    }
}

}  // namespace

const char* chainSchemeName(ChainScheme s) {
    switch (s) {
        case ChainScheme::kBackward: return "backward";
        case ChainScheme::kVersionJumping: return "version-jumping";
        case ChainScheme::kHop: return "hop";
        case ChainScheme::kBoundedHop: return "bounded-hop";
    }
    return "?";
}

bool parseChainScheme(const char* name, ChainScheme* out) {
    for (ChainScheme s : {ChainScheme::kBackward, ChainScheme::kVersionJumping, ChainScheme::kHop,
                          ChainScheme::kBoundedHop}) {
        if (std::strcmp(name, chainSchemeName(s)) == 0) {
            *out = s;
            return true;
        }
    }
    return false;
}

uint32_t floorLog(uint32_t H, uint64_t n) {
    H = clampH(H);
    uint32_t L = 0;
    uint64_t x = H;
    while (x <= n) {
        ++L;
        if (x > n / H)
            break;
        x *= H;
    }
    return L;
}

int64_t chainTarget(ChainScheme s, uint32_t H, uint64_t pos, uint64_t head) {
    H = clampH(H);
    if (pos >= head)
        return kRawTarget;
    switch (s) {
        case ChainScheme::kBackward:
            return int64_t(pos + 1);
        case ChainScheme::kVersionJumping:
            return (pos + 1) % H == 0 ? kRawTarget : int64_t(pos + 1);
        case ChainScheme::kHop:
            return hopTarget(H, pos, head);
        case ChainScheme::kBoundedHop:
            return boundedHopTarget(H, pos, head);
    }
    return kRawTarget;
}

std::vector<Retarget> retargetsOnAppend(ChainScheme s, uint32_t H, uint64_t newHead) {
    H = clampH(H);
    std::vector<uint64_t> cand;
    if (newHead == 0)
        return {};
    cand.push_back(newHead - 1);
    if (s == ChainScheme::kHop) {
        for (uint32_t l = 1;; ++l) {
            uint64_t step = powH(H, l);
            if (step == 0 || step > newHead)
                break;
            cand.push_back(newHead - step);
        }
    } else if (s == ChainScheme::kBoundedHop) {
        addFrontier(H, newHead - 1, &cand);
        addFrontier(H, newHead, &cand);
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    std::vector<Retarget> out;
    for (uint64_t p : cand) {
        if (p >= newHead)
            continue;
        int64_t before = chainTarget(s, H, p, newHead - 1);
        int64_t after = chainTarget(s, H, p, newHead);
        if (before != after)
            out.push_back({p, after});
    }
    return out;
}

uint64_t decodeSteps(ChainScheme s, uint32_t H, uint64_t pos, uint64_t head) {
    uint64_t steps = 0;
    for (int64_t t = chainTarget(s, H, pos, head); t != kRawTarget;
         t = chainTarget(s, H, uint64_t(t), head))
        ++steps;
    return steps;
}

uint64_t worstDecodeSteps(ChainScheme s, uint32_t H, uint64_t head) {
    std::vector<uint32_t> depth(head + 1, 0);
    uint64_t worst = 0;
    for (uint64_t p = head + 1; p-- > 0;) {
        int64_t t = chainTarget(s, H, p, head);
        depth[p] = t == kRawTarget ? 0 : depth[uint64_t(t)] + 1;
        worst = std::max<uint64_t>(worst, depth[p]);
    }
    return worst;
}

uint64_t guaranteedDecodeBound(ChainScheme s, uint32_t H, uint64_t n) {
    H = clampH(H);
    if (n == 0)
        return 0;
    switch (s) {
        case ChainScheme::kBackward: return n - 1;
        case ChainScheme::kVersionJumping: return std::min<uint64_t>(H - 1, n - 1);
        case ChainScheme::kHop: return 0;
        case ChainScheme::kBoundedHop: {
            // The newest base decodes through its cluster (at most c - 1 steps) where a layout
            // that points it at the head would take one: c - 2 more than H + floor(log_H n).
            const uint64_t c = boundedInterval(H, 1);
            return H + floorLog(H, n) + (c - 2);
        }
    }
    return 0;
}

uint64_t schemeDecodeCap(ChainScheme s, uint32_t H) {
    switch (s) {
        case ChainScheme::kBoundedHop:
        case ChainScheme::kVersionJumping:
            return guaranteedDecodeBound(s, H, kMaxChainRecords);
        case ChainScheme::kBackward:
        case ChainScheme::kHop:
            return 0;
    }
    return 0;
}

}  // namespace dedup
}  // namespace mongo
