#include "mongo/db/dedup/delta_encoder.h"

#include <algorithm>
#include <cstring>

#include "mongo/db/dedup/gear_chunker.h"
#include "mongo/db/dedup/varint.h"

namespace mongo {
namespace dedup {
namespace {

// Anchors are picked with a Gear hash over the preceding 64 bytes (one shift-add per byte);
// the index key is a separate mix of the 16-byte window ending at the anchor, so that both
// the sampling and the lookup are pure functions of content.
inline uint64_t load64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

inline uint64_t windowKey(const uint8_t* windowStart) {
    uint64_t a = load64(windowStart) * 0x9E3779B97F4A7C15ull;
    uint64_t b = load64(windowStart + 8) * 0xC2B2AE3D27D4EB4Full;
    uint64_t k = a ^ ((b << 31) | (b >> 33));
    return k ^ (k >> 29);
}

// Length of the common prefix of a and b, up to max.
inline size_t matchForward(const uint8_t* a, const uint8_t* b, size_t max) {
    size_t n = 0;
    while (n + 8 <= max) {
        uint64_t x = load64(a + n) ^ load64(b + n);
        if (x)
            return n + (__builtin_ctzll(x) >> 3);
        n += 8;
    }
    while (n < max && a[n] == b[n])
        ++n;
    return n;
}

// Bytes a COPY costs in the encoding beyond the instruction header (an estimate: offsets are
// relative to the previous copy, so most cost one to three bytes).
constexpr uint32_t kCopyOverhead = 4;

// Shortest run of equal bytes worth a COPY inside a literal gap.
constexpr size_t kMinAlignedRun = 6;

// Literal gaps searched densely against the source text they replaced: at least this long,
// and neither the gap nor that source region longer than kLocalMaxGap.
constexpr size_t kLocalMinGap = 24;
constexpr size_t kLocalMaxGap = 4096;
constexpr size_t kLocalMinRun = 10;
// Larger gaps (or gaps whose replaced text is large) are searched against every
// kGlobalStep-th window of the whole source; runs of kGlobalMinRun bytes and more are kept.
constexpr size_t kGlobalMinGap = 64;
constexpr size_t kGlobalStep = 4;
constexpr size_t kGlobalMinRun = 16;

}  // namespace

DeltaEncoder::DeltaEncoder(uint32_t anchorInterval, uint32_t minAnchors, bool searchGaps)
    : _interval(std::max<uint32_t>(1, anchorInterval)), _minAnchors(minAnchors), _searchGaps(searchGaps) {}

void DeltaEncoder::buildSourceIndex(const uint8_t* src, size_t srcLen) {
    size_t interval = _interval;
    if (_minAnchors > 0)
        interval = std::max<size_t>(1, std::min<size_t>(interval, srcLen / _minAnchors));
    _thr = interval <= 1 ? ~0ull : ~0ull / interval;
    size_t expected = srcLen / interval + 16;
    size_t size = 64;
    while (size < expected * 2)
        size <<= 1;
    _table.assign(size, 0);
    _tableMask = size - 1;
    if (srcLen < kDeltaWindow)
        return;
    const uint64_t* g = gearTable();
    uint64_t h = 0;
    const uint64_t thr = _thr;
    // Content can make far more anchors than expected (a repeated pattern that passes the
    // test everywhere); the table stays at most half full so probes always end.
    size_t room = size / 2;
    // The first window ends at byte 15; before that only the hash is warmed.
    for (size_t i = 0; i + 1 < kDeltaWindow; ++i)
        h = (h << 1) + g[src[i]];
    for (size_t i = kDeltaWindow - 1; i < srcLen; ++i) {
        h = (h << 1) + g[src[i]];
        if (__builtin_expect(h >= thr, 1))
            continue;
        uint64_t key = windowKey(src + i + 1 - kDeltaWindow);
        uint64_t tag = key >> 32;
        size_t slot = key & _tableMask;
        // First occurrence wins; linear probing over a half-empty table.
        while (true) {
            uint64_t e = _table[slot];
            if (e == 0) {
                _table[slot] = (tag << 32) | uint64_t(i + 1);
                --room;
                break;
            }
            if ((e >> 32) == tag)
                break;
            slot = (slot + 1) & _tableMask;
        }
        if (room == 0)
            break;
    }
}

bool DeltaEncoder::lookup(uint64_t key, uint32_t* srcEnd) const {
    uint64_t tag = key >> 32;
    size_t slot = key & _tableMask;
    while (true) {
        uint64_t e = _table[slot];
        if (e == 0)
            return false;
        if ((e >> 32) == tag) {
            *srcEnd = static_cast<uint32_t>(e & 0xffffffffu);  // window end (exclusive)
            return true;
        }
        slot = (slot + 1) & _tableMask;
    }
}

void DeltaEncoder::computeInstructions(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                                       size_t tgtLen, std::vector<DeltaInst>* out) {
    out->clear();
    if (tgtLen == 0)
        return;
    buildSourceIndex(src, srcLen);
    const uint64_t* g = gearTable();
    const uint64_t thr = _thr;  // the same density as the source index
    size_t pos = 0;  // target bytes before pos are covered by instructions
    size_t j = 0;    // next target byte to hash
    uint64_t h = 0;
    while (j < tgtLen) {
        h = (h << 1) + g[tgt[j]];
        ++j;  // the window now ends at j (exclusive)
        if (h >= thr || j < kDeltaWindow || j - kDeltaWindow < pos)
            continue;
        uint32_t sEnd;
        if (!lookup(windowKey(tgt + j - kDeltaWindow), &sEnd))
            continue;
        size_t sw = sEnd - kDeltaWindow, tw = j - kDeltaWindow;
        if (load64(src + sw) != load64(tgt + tw) || load64(src + sw + 8) != load64(tgt + tw + 8))
            continue;  // key collision
        // Extend forward past the window and backward into the pending literal bytes.
        size_t fwd = kDeltaWindow + matchForward(src + sEnd, tgt + j,
                                                 std::min(srcLen - sEnd, tgtLen - j));
        size_t back = 0;
        while (back < sw && back < tw - pos && src[sw - back - 1] == tgt[tw - back - 1])
            ++back;
        size_t soff = sw - back, toff = tw - back, len = fwd + back;
        if (pos < toff)
            out->push_back(makeInsert(uint32_t(pos), uint32_t(toff - pos)));
        out->push_back(makeCopy(uint32_t(soff), uint32_t(len)));
        pos = toff + len;
        // Resume after the match; re-warm the rolling hash over the 64 bytes before it so
        // anchors are chosen exactly as they are in the source.
        j = pos;
        h = 0;
        for (size_t w = pos >= 64 ? pos - 64 : 0; w < pos; ++w)
            h = (h << 1) + g[tgt[w]];
    }
    if (pos < tgtLen)
        out->push_back(makeInsert(uint32_t(pos), uint32_t(tgtLen - pos)));
    if (_searchGaps) {
        matchGapsLocally(src, srcLen, tgt, out);
        alignGaps(src, srcLen, tgt, out);
    }
    normalizeInstructions(out);
}

namespace {

// An open-addressing index of 8-byte source windows: slot -> source position + 1 (0 = empty).
struct WindowIndex {
    std::vector<uint32_t>* slots;
    size_t mask = 0;

    static size_t slotOf(uint64_t key, size_t mask) { return (key * 0x9E3779B97F4A7C15ull) >> 40 & mask; }

    // Indexes windows starting at positions in [start, end - 8] that are multiples of step.
    void build(const uint8_t* src, size_t start, size_t end, size_t step) {
        size_t count = end > start + 8 ? (end - start - 8) / step + 1 : 1;
        size_t size = 16;
        while (size < count * 2)
            size <<= 1;
        slots->assign(size, 0);
        mask = size - 1;
        for (size_t p = (start + step - 1) / step * step; p + 8 <= end; p += step) {
            uint64_t key = load64(src + p);
            size_t slot = slotOf(key, mask);
            while ((*slots)[slot] != 0 && load64(src + ((*slots)[slot] - 1)) != key)
                slot = (slot + 1) & mask;
            if ((*slots)[slot] == 0)
                (*slots)[slot] = uint32_t(p + 1);  // first occurrence wins
        }
    }

    // Source position of a window equal to the 8 bytes at t, or SIZE_MAX.
    size_t find(const uint8_t* src, const uint8_t* t) const {
        uint64_t key = load64(t);
        for (size_t slot = slotOf(key, mask); (*slots)[slot] != 0; slot = (slot + 1) & mask)
            if (load64(src + ((*slots)[slot] - 1)) == key)
                return (*slots)[slot] - 1;
        return SIZE_MAX;
    }
};

// Matches the literal bytes tgt[t0, t1) against the index; matches stay inside the source
// range [lo, hi). Appends the resulting INSERTs and COPYs to *out.
void matchGap(const uint8_t* src, size_t lo, size_t hi, const uint8_t* tgt, size_t t0, size_t t1,
              const WindowIndex& index, size_t minRun, std::vector<DeltaInst>* out) {
    size_t lit = t0, t = t0;
    while (t + 8 <= t1) {
        size_t sp = index.find(src, tgt + t);
        if (sp == SIZE_MAX || sp < lo || sp + 8 > hi) {
            ++t;
            continue;
        }
        size_t len = 8 + matchForward(src + sp + 8, tgt + t + 8, std::min(hi - sp - 8, t1 - t - 8));
        size_t back = 0;
        while (back < t - lit && sp - back > lo && src[sp - back - 1] == tgt[t - back - 1])
            ++back;
        if (len + back < minRun) {
            ++t;
            continue;
        }
        if (lit < t - back)
            out->push_back(makeInsert(uint32_t(lit), uint32_t(t - back - lit)));
        out->push_back(makeCopy(uint32_t(sp - back), uint32_t(len + back)));
        t += len;
        lit = t;
    }
    if (lit < t1)
        out->push_back(makeInsert(uint32_t(lit), uint32_t(t1 - lit)));
}

}  // namespace

void DeltaEncoder::matchGapsLocally(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                                    std::vector<DeltaInst>* insts) {
    // Anchors miss matches too short to contain one: a rewritten sentence keeps many short
    // runs of the text it replaced, and reflowed or reordered paragraphs come back in pieces.
    // Each literal gap is searched again: a small gap densely (every 8-byte window) against
    // the source text between its neighbouring COPYs, a large one against an index of every
    // fourth window of the whole source (built once, only when such a gap exists).
    std::vector<DeltaInst>& v = *insts;
    std::vector<DeltaInst> out;
    out.reserve(v.size());
    WindowIndex local{&_local};
    WindowIndex global{&_global};
    bool globalBuilt = false;
    size_t prevSrcEnd = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const DeltaInst in = v[i];
        if (in.copy) {
            out.push_back(in);
            prevSrcEnd = size_t(in.off) + in.len;
            continue;
        }
        size_t regionEnd = i + 1 < v.size() ? v[i + 1].off : srcLen;
        size_t regionStart = prevSrcEnd;
        if (regionEnd < regionStart)
            std::swap(regionStart, regionEnd);  // a moved block: search between them anyway
        size_t regionLen = regionEnd - regionStart;
        const size_t t0 = in.off, t1 = size_t(in.off) + in.len;
        if (in.len >= kLocalMinGap && regionLen >= 8 && in.len <= kLocalMaxGap &&
            regionLen <= kLocalMaxGap) {
            // Every other window suffices: a run of kLocalMinRun (10) bytes always contains
            // an indexed 8-byte window.
            local.build(src, regionStart, regionEnd, 2);
            matchGap(src, regionStart, regionEnd, tgt, t0, t1, local, kLocalMinRun, &out);
        } else if (in.len >= kGlobalMinGap && srcLen >= 8) {
            if (!globalBuilt) {
                global.build(src, 0, srcLen, kGlobalStep);
                globalBuilt = true;
            }
            matchGap(src, 0, srcLen, tgt, t0, t1, global, kGlobalMinRun, &out);
        } else {
            out.push_back(in);
        }
    }
    v.swap(out);
}

void DeltaEncoder::alignGaps(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                             std::vector<DeltaInst>* insts) {
    // An INSERT between two COPYs often replaces source bytes of the same length (a changed
    // date, id, length field or word): compare it byte-wise with the source bytes between the
    // neighbouring COPYs and copy the runs that agree. This costs one pass over the literal
    // bytes and recovers matches too short for any anchor.
    std::vector<DeltaInst>& v = *insts;
    if (v.empty())
        return;
    std::vector<DeltaInst> out;
    out.reserve(v.size());
    size_t prevSrcEnd = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const DeltaInst in = v[i];
        if (in.copy) {
            out.push_back(in);
            prevSrcEnd = size_t(in.off) + in.len;
            continue;
        }
        size_t nextSrcStart = srcLen;
        if (i + 1 < v.size())
            nextSrcStart = v[i + 1].off;  // inserts are never adjacent before normalising
        if (nextSrcStart < prevSrcEnd) {
            out.push_back(in);
            continue;
        }
        size_t n = std::min<size_t>(in.len, nextSrcStart - prevSrcEnd);
        const uint8_t* s = src + prevSrcEnd;
        const uint8_t* t = tgt + in.off;
        size_t litStart = 0, k = 0;
        while (k < n) {
            if (s[k] != t[k]) {
                ++k;
                continue;
            }
            size_t run = k;
            while (run < n && s[run] == t[run])
                ++run;
            if (run - k >= kMinAlignedRun) {
                if (litStart < k)
                    out.push_back(makeInsert(uint32_t(in.off + litStart), uint32_t(k - litStart)));
                out.push_back(makeCopy(uint32_t(prevSrcEnd + k), uint32_t(run - k)));
                litStart = run;
            }
            k = run;
        }
        if (litStart < in.len)
            out.push_back(makeInsert(uint32_t(in.off + litStart), uint32_t(in.len - litStart)));
    }
    v.swap(out);
}

std::string DeltaEncoder::encode(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                                 size_t tgtLen, bool allowCompression) {
    std::vector<DeltaInst> insts;
    computeInstructions(src, srcLen, tgt, tgtLen, &insts);
    std::string out;
    serializeDelta(insts, tgt, tgtLen, &out, allowCompression);
    return out;
}

void normalizeInstructions(std::vector<DeltaInst>* insts) {
    std::vector<DeltaInst>& v = *insts;
    size_t w = 0;
    uint32_t tpos = 0;
    for (size_t r = 0; r < v.size(); ++r) {
        DeltaInst in = v[r];
        if (in.len == 0)
            continue;
        if (in.copy && in.len <= kCopyOverhead + 1) {
            // Too short to pay for itself; needs the target position for the literal.
            in = makeInsert(tpos, in.len);
        }
        if (w > 0) {
            DeltaInst& prev = v[w - 1];
            if (prev.copy && in.copy && prev.off + prev.len == in.off &&
                uint64_t(prev.len) + in.len < (1u << 31)) {
                prev.len += in.len;
                tpos += in.len;
                continue;
            }
            if (!prev.copy && !in.copy && uint64_t(prev.len) + in.len < (1u << 31)) {
                prev.len += in.len;  // inserts are contiguous in the target
                tpos += in.len;
                continue;
            }
        }
        v[w++] = in;
        tpos += in.len;
    }
    v.resize(w);
}

void reencodeBackward(const std::vector<DeltaInst>& forward, size_t oldLen,
                      std::vector<DeltaInst>* backward) {
    struct Seg {
        uint32_t sOff;  // offset in the old record
        uint32_t tOff;  // offset in the new record
        uint32_t len;
    };
    std::vector<Seg> segs;
    segs.reserve(forward.size());
    uint32_t tPos = 0;
    bool sorted = true;
    for (const DeltaInst& in : forward) {
        if (in.copy) {
            if (!segs.empty() && in.off < segs.back().sOff)
                sorted = false;
            segs.push_back({in.off, tPos, in.len});
        }
        tPos += in.len;
    }
    if (!sorted)
        std::sort(segs.begin(), segs.end(),
                  [](const Seg& a, const Seg& b) { return a.sOff < b.sOff || (a.sOff == b.sOff && a.len > b.len); });
    backward->clear();
    uint32_t sPos = 0;
    for (Seg s : segs) {
        if (uint64_t(s.sOff) + s.len <= sPos)
            continue;  // the old bytes are already covered by an earlier copy
        if (s.sOff < sPos) {
            uint32_t skip = sPos - s.sOff;
            s.sOff += skip;
            s.tOff += skip;
            s.len -= skip;
        }
        if (sPos < s.sOff)
            backward->push_back(makeInsert(sPos, s.sOff - sPos));
        backward->push_back(makeCopy(s.tOff, s.len));
        sPos = s.sOff + s.len;
    }
    if (sPos < oldLen)
        backward->push_back(makeInsert(sPos, uint32_t(oldLen - sPos)));
    normalizeInstructions(backward);
}

uint64_t copiedBytes(const std::vector<DeltaInst>& insts) {
    uint64_t n = 0;
    for (const DeltaInst& in : insts)
        if (in.copy)
            n += in.len;
    return n;
}

}  // namespace dedup
}  // namespace mongo
