#pragma once
// Delta compression of dbDedup (SIGMOD'17 section 4.2).
//
// Algorithm 1 (computeInstructions): an xDelta variant that indexes only *anchors*: source
// positions whose rolling hash passes a test that holds at one position in `anchorInterval`
// on average. The target is scanned with the same rolling hash and looked up only at its
// anchors; a hit is verified on the 16-byte window and extended byte-wise in both directions,
// and the matched region is skipped without hashing. Contiguous COPYs are coalesced and COPYs
// that cost more than their bytes become INSERTs. Two cheap passes over the remaining literal
// gaps recover short matches that no anchor can see: an 8-byte-window search against the
// source text between the neighbouring COPYs (or, for a large gap, the whole source), and a
// byte-wise comparison for same-length edits.
//
// Algorithm 2 (reencodeBackward): turns the forward instructions (old -> new) into backward
// ones (new -> old) in one pass over the COPYs sorted by source offset, with no hashing.
//
// Thread-safety: a DeltaEncoder owns scratch memory and must not be shared between threads
// without external locking; the free functions are stateless.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mongo/db/dedup/delta_format.h"

namespace mongo {
namespace dedup {

constexpr uint32_t kDeltaWindow = 16;  // bytes verified at an anchor, as in xDelta

class DeltaEncoder {
public:
    // anchorInterval: mean distance between anchors, 64 default (16 is xDelta-like density).
    // minAnchors: a source shorter than anchorInterval * minAnchors is sampled more densely,
    // so that it still gets about minAnchors anchors (small records have short matching runs
    // that a 1-in-64 sample misses; their cost is small either way). 0 disables it.
    // searchGaps: the second look at literal gaps described above (smaller deltas on
    // rewritten text, slower encoding); off gives the paper's Algorithm 1 alone.
    explicit DeltaEncoder(uint32_t anchorInterval = 64, uint32_t minAnchors = 128,
                          bool searchGaps = true);

    // Algorithm 1. *out receives instructions that build tgt from src (INSERT offsets are
    // target positions).
    void computeInstructions(const uint8_t* src, size_t srcLen, const uint8_t* tgt, size_t tgtLen,
                             std::vector<DeltaInst>* out);

    // computeInstructions + serializeDelta.
    std::string encode(const uint8_t* src, size_t srcLen, const uint8_t* tgt, size_t tgtLen,
                       bool allowCompression = true);

    uint32_t anchorInterval() const { return _interval; }

private:
    void buildSourceIndex(const uint8_t* src, size_t srcLen);
    void matchGapsLocally(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                          std::vector<DeltaInst>* insts);
    void alignGaps(const uint8_t* src, size_t srcLen, const uint8_t* tgt,
                   std::vector<DeltaInst>* insts);
    bool lookup(uint64_t key, uint32_t* srcEnd) const;

    uint32_t _interval;
    uint32_t _minAnchors;
    bool _searchGaps;
    uint64_t _thr = 0;  // anchor test threshold for the current source
    std::vector<uint64_t> _table;  // (key32 << 32) | (source window end + 1); 0 = empty
    uint64_t _tableMask = 0;
    std::vector<uint32_t> _local;   // per-gap window index (source position + 1; 0 = empty)
    std::vector<uint32_t> _global;  // whole-source window index, built on demand
};

// Algorithm 2. `forward` builds the new record from the old one (oldLen bytes); *backward
// receives instructions that build the old record from the new one. Its INSERT offsets are
// positions in the old record, so serialise it with the old record as the target.
void reencodeBackward(const std::vector<DeltaInst>& forward, size_t oldLen,
                      std::vector<DeltaInst>* backward);

// Merges adjacent COPYs that continue each other and adjacent INSERTs, and turns COPYs whose
// encoding costs at least as much as their bytes into INSERTs.
void normalizeInstructions(std::vector<DeltaInst>* insts);

// Total bytes the instructions take from the source (a similarity measure for tools).
uint64_t copiedBytes(const std::vector<DeltaInst>& insts);

}  // namespace dedup
}  // namespace mongo
