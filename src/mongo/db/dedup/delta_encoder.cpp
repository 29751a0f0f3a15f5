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

}  // namespace

DeltaEncoder::DeltaEncoder(uint32_t anchorInterval)
    : _interval(std::max<uint32_t>(1, anchorInterval)),
      _anchorThreshold(_interval <= 1 ? ~0ull : ~0ull / _interval) {}

void DeltaEncoder::buildSourceIndex(const uint8_t* src, size_t srcLen) {
    size_t expected = srcLen / _interval + 16;
    size_t size = 64;
    while (size < expected * 2)
        size <<= 1;
    _table.assign(size, 0);
    _tableMask = size - 1;
    if (srcLen < kDeltaWindow)
        return;
    const uint64_t* g = gearTable();
    uint64_t h = 0;
    const uint64_t thr = _anchorThreshold;
    // Content can make far more anchors than expected (a repeated pattern that passes the
    // test everywhere); the table stays at most half full so probes always end.
    size_t room = size / 2;
    for (size_t i = 0; i < srcLen && room > 0; ++i) {
        h = (h << 1) + g[src[i]];
        if (h < thr && i + 1 >= kDeltaWindow) {
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
        }
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
    const uint64_t thr = _anchorThreshold;
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
    normalizeInstructions(out);
}

std::string DeltaEncoder::encode(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                                 size_t tgtLen) {
    std::vector<DeltaInst> insts;
    computeInstructions(src, srcLen, tgt, tgtLen, &insts);
    std::string out;
    serializeDelta(insts, tgt, tgtLen, &out);
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
