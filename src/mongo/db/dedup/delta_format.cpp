#include "mongo/db/dedup/delta_format.h"

#include <cstring>

#include "mongo/db/dedup/crc32c.h"
#include "mongo/db/dedup/varint.h"

namespace mongo {
namespace dedup {
namespace {

Status corrupt(const char* what) {
    return Status(ErrorCodes::DataCorruptionDetected, std::string("dedup delta: ") + what);
}

void putFixed32(std::string* out, uint32_t v) {
    char b[4] = {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
    out->append(b, 4);
}

// Copies len bytes; when both buffers have 16 bytes of room, short copies move a fixed 16
// bytes (two register moves instead of a library call: deltas of small records are mostly
// short instructions). Bytes written past len are overwritten by the next instruction or
// lie beyond the target, inside the caller's buffer.
inline void copyBytes(uint8_t* dst, uint64_t dstRoom, const uint8_t* from, uint64_t fromRoom,
                      uint64_t len) {
    if (len <= 16 && dstRoom >= 16 && fromRoom >= 16) {
        std::memcpy(dst, from, 16);
        return;
    }
    std::memcpy(dst, from, len);
}

size_t copyOffsetCost(uint32_t off, uint64_t expected) {
    return varintLength(zigzagEncode(int64_t(off) - int64_t(expected)));
}

}  // namespace

void serializeDelta(const std::vector<DeltaInst>& insts, const uint8_t* target, size_t targetLen,
                    std::string* out) {
    out->reserve(out->size() + serializedDeltaSize(insts, targetLen));
    out->push_back(static_cast<char>(kDeltaFormatV1));
    putVarint(out, targetLen);
    putFixed32(out, crc32c(0, target, targetLen));
    uint64_t expected = 0;
    for (const DeltaInst& in : insts) {
        putVarint(out, (uint64_t(in.len) << 1) | in.copy);
        if (in.copy) {
            putVarint(out, zigzagEncode(int64_t(in.off) - int64_t(expected)));
            expected = uint64_t(in.off) + in.len;
        } else {
            out->append(reinterpret_cast<const char*>(target) + in.off, in.len);
        }
    }
}

size_t serializedDeltaSize(const std::vector<DeltaInst>& insts, size_t targetLen) {
    size_t n = 1 + varintLength(targetLen) + 4;
    uint64_t expected = 0;
    for (const DeltaInst& in : insts) {
        n += varintLength((uint64_t(in.len) << 1) | in.copy);
        if (in.copy) {
            n += copyOffsetCost(in.off, expected);
            expected = uint64_t(in.off) + in.len;
        } else {
            n += in.len;
        }
    }
    return n;
}

Status parseDeltaHeader(const uint8_t* delta, size_t n, DeltaHeader* header) {
    if (n < 1)
        return corrupt("empty");
    if (delta[0] != kDeltaFormatV1)
        return corrupt("unknown format or version byte");
    const uint8_t* p = delta + 1;
    const uint8_t* end = delta + n;
    if (!getVarint(&p, end, &header->targetLen))
        return corrupt("truncated target length");
    if (header->targetLen > kMaxDeltaTarget)
        return corrupt("target length out of range");
    if (end - p < 4)
        return corrupt("truncated checksum");
    header->targetCrc = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    p += 4;
    header->instructionsOffset = static_cast<size_t>(p - delta);
    return Status::OK();
}

StatusWith<size_t> applyDeltaTo(const uint8_t* src, size_t srcLen, const uint8_t* delta,
                                size_t deltaLen, uint8_t* out, size_t outCapacity) {
    DeltaHeader h;
    Status st = parseDeltaHeader(delta, deltaLen, &h);
    if (!st.isOK())
        return st;
    if (h.targetLen > outCapacity)
        return Status(ErrorCodes::InvalidLength, "dedup delta: output buffer too small");
    const uint8_t* p = delta + h.instructionsOffset;
    const uint8_t* end = delta + deltaLen;
    const uint64_t tlen = h.targetLen;
    uint64_t pos = 0;
    uint64_t expected = 0;
    while (p < end) {
        uint64_t v;
        if (!getVarint(&p, end, &v))
            return corrupt("truncated instruction");
        uint64_t len = v >> 1;
        if (len == 0 || len > tlen - pos)
            return corrupt("instruction length out of range");
        if (v & 1) {
            uint64_t z;
            if (!getVarint(&p, end, &z))
                return corrupt("truncated copy offset");
            int64_t off = int64_t(expected) + zigzagDecode(z);
            if (off < 0 || uint64_t(off) > srcLen || len > srcLen - uint64_t(off))
                return corrupt("copy outside the source");
            copyBytes(out + pos, outCapacity - pos, src + off, srcLen - uint64_t(off), len);
            expected = uint64_t(off) + len;
        } else {
            if (len > uint64_t(end - p))
                return corrupt("insert runs past the end");
            copyBytes(out + pos, outCapacity - pos, p, uint64_t(end - p), len);
            p += len;
        }
        pos += len;
    }
    if (pos != tlen)
        return corrupt("instructions do not cover the target");
    if (crc32c(0, out, tlen) != h.targetCrc)
        return corrupt("target checksum mismatch (damaged delta or wrong source)");
    return static_cast<size_t>(tlen);
}

Status applyDelta(const uint8_t* src, size_t srcLen, const uint8_t* delta, size_t deltaLen,
                  std::string* out) {
    out->clear();
    DeltaHeader h;
    Status st = parseDeltaHeader(delta, deltaLen, &h);
    if (!st.isOK())
        return st;
    // The target cannot be longer than what the instructions could produce (each COPY takes
    // at least two bytes and copies at most the whole source): a forged length must not
    // allocate memory the delta could never fill.
    uint64_t maxProducible = uint64_t(deltaLen) + (uint64_t(deltaLen) / 2 + 1) * srcLen;
    if (h.targetLen > maxProducible)
        return corrupt("target length larger than the delta can describe");
    out->resize(h.targetLen);
    auto r = applyDeltaTo(src, srcLen, delta, deltaLen, reinterpret_cast<uint8_t*>(&(*out)[0]),
                          out->size());
    if (!r.isOK()) {
        out->clear();
        return r.getStatus();
    }
    return Status::OK();
}

Status parseDelta(const uint8_t* delta, size_t deltaLen, size_t srcLen, DeltaHeader* header,
                  std::vector<DeltaInst>* insts) {
    insts->clear();
    Status st = parseDeltaHeader(delta, deltaLen, header);
    if (!st.isOK())
        return st;
    const uint8_t* p = delta + header->instructionsOffset;
    const uint8_t* end = delta + deltaLen;
    const uint64_t tlen = header->targetLen;
    uint64_t pos = 0, expected = 0;
    while (p < end) {
        uint64_t v;
        if (!getVarint(&p, end, &v))
            return corrupt("truncated instruction");
        uint64_t len = v >> 1;
        if (len == 0 || len > tlen - pos || len >= (1u << 31))
            return corrupt("instruction length out of range");
        if (v & 1) {
            uint64_t z;
            if (!getVarint(&p, end, &z))
                return corrupt("truncated copy offset");
            int64_t off = int64_t(expected) + zigzagDecode(z);
            if (off < 0 || uint64_t(off) > srcLen || len > srcLen - uint64_t(off))
                return corrupt("copy outside the source");
            insts->push_back(makeCopy(uint32_t(off), uint32_t(len)));
            expected = uint64_t(off) + len;
        } else {
            if (len > uint64_t(end - p))
                return corrupt("insert runs past the end");
            insts->push_back(makeInsert(uint32_t(pos), uint32_t(len)));
            p += len;
        }
        pos += len;
    }
    if (pos != tlen)
        return corrupt("instructions do not cover the target");
    return Status::OK();
}

}  // namespace dedup
}  // namespace mongo
