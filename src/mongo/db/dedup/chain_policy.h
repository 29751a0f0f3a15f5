#pragma once
// Which record each member of an encoding chain is stored against (section 3.2 of the
// paper). Positions count from 0 (oldest) to `head` (newest, always stored raw: backward
// encoding keeps the latest version free to read). A position's target is a newer position,
// so chains never form cycles.
//
//   kBackward        every record against its successor. Worst decode: N-1 steps.
//   kVersionJumping  clusters of H; the last of each cluster (the reference version) stays
//                    raw, the others chain to it. Worst decode: H-1 steps; N/H raw records.
//   kHop             the paper's hop encoding: a hop base at level L (position multiple of
//                    H^L) is re-encoded against the base H^l ahead as each level l <= L fills
//                    in (levels are skip-list-like, H, H^2, ...). Storage close to backward,
//                    few extra write-backs (N*H/(H-1)^2), but decoding walks along each level,
//                    up to about (H-1) steps per level.
//   kBoundedHop      hop encoding arranged so decoding never takes more than
//                    H + floor(log_H N) + c - 2 steps, c = max(2, H/2). Level-1 bases every c
//                    positions, then H/2 - 1 levels that double the spacing, then a factor H
//                    per level. A base points straight to the next base of a higher level;
//                    bases with no higher base yet point to the newest base; the newest base
//                    and the records after it form a backward chain to the head. Appends
//                    inside a cluster re-encode nothing but the source (its backward delta
//                    comes free with the forward one); a new base re-encodes the few bases
//                    that point to the newest. The price over kHop: somewhat longer deltas
//                    for bases. (The newest base used to point to the head: one decode step
//                    fewer for old versions, but an extra delta computation on almost every
//                    insert, most of the encoder's time under a saturating load.)
// Thread-safety: stateless functions.
#include <cstdint>
#include <vector>

namespace mongo {
namespace dedup {

enum class ChainScheme { kBackward, kVersionJumping, kHop, kBoundedHop };

const char* chainSchemeName(ChainScheme s);
bool parseChainScheme(const char* name, ChainScheme* out);

constexpr int64_t kRawTarget = -1;

// Position `pos` is stored against (kRawTarget: raw) when the chain's newest is `head`.
// H (hop distance / cluster size) is clamped to >= 2.
int64_t chainTarget(ChainScheme s, uint32_t H, uint64_t pos, uint64_t head);

struct Retarget {
    uint64_t pos;
    int64_t target;  // new target position (kRawTarget: becomes raw)
};

// The positions whose target changes when position `newHead` is appended (newHead >= 1),
// i.e. the write-backs the append causes, in increasing position order.
std::vector<Retarget> retargetsOnAppend(ChainScheme s, uint32_t H, uint64_t newHead);

// Deltas applied to decode `pos` (0 for raw) when the newest is `head`.
uint64_t decodeSteps(ChainScheme s, uint32_t H, uint64_t pos, uint64_t head);

// Largest decodeSteps over the chain 0..head (linear time).
uint64_t worstDecodeSteps(ChainScheme s, uint32_t H, uint64_t head);

// The decode bound a scheme guarantees for a chain of n records, or 0 for kHop (whose worst
// case is measured, not bounded by a small formula).
uint64_t guaranteedDecodeBound(ChainScheme s, uint32_t H, uint64_t n);

// The most records one chain can hold: record pointers are 32-bit (record_table.h).
constexpr uint64_t kMaxChainRecords = 0xffffffffull;

// The decode bound a scheme guarantees for every chain the engine can hold (any length up to
// kMaxChainRecords), or 0 if it has none: H + floor(log_H(2^32 - 1)) + c - 2 for kBoundedHop
// (29 at H = 16), H - 1 for kVersionJumping, none for kBackward and kHop (whose worst case grows with
// the chain: about H - 1 steps per level of H^l). The engine's default decode cap: fixed for
// its life, so that no change in the number of records can lower it under existing chains.
uint64_t schemeDecodeCap(ChainScheme s, uint32_t H);

// floor(log_H(n)) for n >= 1.
uint32_t floorLog(uint32_t H, uint64_t n);

}  // namespace dedup
}  // namespace mongo
