#pragma once
// The dbDedup delta: COPY/INSERT instructions that rebuild a target from a source, in a
// compact, versioned, self-checking binary form.
//
//   byte 0          format: 0xD1 (plain body) or 0xD2 (zstd-compressed body)
//   varint          target length
//   4 bytes (LE)    CRC32C of the target
//   0xD2 only:      varint length of the uncompressed body, then one zstd frame holding it
//   body, to the end of the buffer (0xD1) or of the decompressed frame (0xD2):
//     varint        (length << 1) | isCopy           length >= 1
//     COPY:   varint zigzag(sourceOffset - end of the previous COPY in the source)
//     INSERT: `length` literal bytes
//
// Small deltas (a few edits) stay plain: the decoder is a loop of copies. A delta with
// kilobytes of new text gets its body compressed (zstd level 1) when that is smaller, which
// is what makes rewritten paragraphs cost less than their raw literal bytes.
// Decoding checks every length and offset against the buffers before touching memory and
// verifies the target's length and CRC32C at the end, so a damaged delta, or a delta applied
// to the wrong source, yields DataCorruptionDetected and never wrong bytes. (A different
// source whose copied ranges happen to hold the same bytes decodes to the right target, which
// the checksum then confirms.)
// Thread-safety: stateless functions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mongo/base/status.h"

namespace mongo {
namespace dedup {

constexpr uint8_t kDeltaFormatV1 = 0xD1;
constexpr uint8_t kDeltaFormatV1Compressed = 0xD2;

// One instruction in memory. For COPY, `off` is an offset into the source; for INSERT, into
// the target (the literal bytes are the target's own bytes at [off, off+len)).
struct DeltaInst {
    uint32_t off;
    uint32_t len : 31;
    uint32_t copy : 1;
};
static_assert(sizeof(DeltaInst) == 8, "DeltaInst is packed into 8 bytes");

inline DeltaInst makeCopy(uint32_t srcOff, uint32_t len) {
    DeltaInst i;
    i.off = srcOff;
    i.len = len;
    i.copy = 1;
    return i;
}
inline DeltaInst makeInsert(uint32_t tgtOff, uint32_t len) {
    DeltaInst i;
    i.off = tgtOff;
    i.len = len;
    i.copy = 0;
    return i;
}

// Largest target a delta may describe (BSON's 16 MB limit with room to spare).
constexpr size_t kMaxDeltaTarget = size_t(1) << 28;

// Serialises `insts` (which must cover the target exactly, in order). `target` supplies the
// literal bytes and the checksum. Appends to *out. With allowCompression, a body of at least
// kMinCompressedBody bytes is stored zstd-compressed (0xD2) when that is smaller.
constexpr size_t kMinCompressedBody = 128;
void serializeDelta(const std::vector<DeltaInst>& insts, const uint8_t* target, size_t targetLen,
                    std::string* out, bool allowCompression = true);

// Exact size of the plain (0xD1) form, without building it: an upper bound for the output
// of serializeDelta.
size_t serializedDeltaSize(const std::vector<DeltaInst>& insts, size_t targetLen);

struct DeltaHeader {
    uint64_t targetLen = 0;
    uint32_t targetCrc = 0;
    bool compressed = false;        // 0xD2
    uint64_t bodyLen = 0;           // 0xD2: uncompressed body length
    size_t instructionsOffset = 0;  // where the body (or its zstd frame) starts
};

// Reads and checks the header only.
Status parseDeltaHeader(const uint8_t* delta, size_t n, DeltaHeader* header);

// Decodes `delta` against `src` into out[0, header.targetLen). `outCapacity` must be at least
// the target length (parseDeltaHeader tells it). Returns the target length or an error.
StatusWith<size_t> applyDeltaTo(const uint8_t* src, size_t srcLen, const uint8_t* delta,
                                size_t deltaLen, uint8_t* out, size_t outCapacity);

// Convenience form that sizes *out. On error *out is left empty.
Status applyDelta(const uint8_t* src, size_t srcLen, const uint8_t* delta, size_t deltaLen,
                  std::string* out);

// Parses the instruction stream into insts (INSERT offsets are target positions), checking
// it against srcLen, without decoding. Used to re-encode a received forward delta backward.
Status parseDelta(const uint8_t* delta, size_t deltaLen, size_t srcLen, DeltaHeader* header,
                  std::vector<DeltaInst>* insts);

}  // namespace dedup
}  // namespace mongo
