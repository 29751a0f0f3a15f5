#include "mongo/db/dedup/delta_format.h"

#include <zstd.h>

#include <algorithm>
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

// Per-thread zstd contexts and scratch (contexts are expensive to create, cheap to reuse).
struct ZstdScratch {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    std::string body;
    std::string packed;
    ~ZstdScratch() {
        ZSTD_freeCCtx(cctx);
        ZSTD_freeDCtx(dctx);
    }
};
ZstdScratch& scratch() {
    thread_local ZstdScratch z;
    return z;
}

// Largest body a target of tlen bytes can have: every instruction produces at least one
// target byte and costs at most 20 bytes of header beyond its literal bytes.
uint64_t maxBodyLen(uint64_t tlen) { return tlen * 21 + 16; }

void serializeBody(const std::vector<DeltaInst>& insts, const uint8_t* target, std::string* out) {
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

// The body of a delta: the bytes after the header, decompressed if needed. *body points
// into the delta or into per-thread scratch (valid until the next call on this thread).
Status bodyOf(const uint8_t* delta, size_t n, const DeltaHeader& h, const uint8_t** body,
              size_t* bodyLen) {
    if (!h.compressed) {
        *body = delta + h.instructionsOffset;
        *bodyLen = n - h.instructionsOffset;
        return Status::OK();
    }
    // Stream the frame into a buffer that grows with the bytes actually produced: a forged
    // body length must not allocate memory the frame cannot fill.
    ZstdScratch& z = scratch();
    ZSTD_DCtx_reset(z.dctx, ZSTD_reset_session_only);
    size_t cap = std::min<uint64_t>(h.bodyLen, 1 << 16);
    z.body.resize(cap);
    ZSTD_inBuffer in{delta + h.instructionsOffset, n - h.instructionsOffset, 0};
    ZSTD_outBuffer out{&z.body[0], cap, 0};
    while (true) {
        size_t rc = ZSTD_decompressStream(z.dctx, &out, &in);
        if (ZSTD_isError(rc))
            return corrupt("damaged compressed body");
        if (rc == 0)
            break;  // frame complete
        if (out.pos == out.size) {
            if (out.size == h.bodyLen)
                return corrupt("compressed body longer than declared");
            cap = std::min<uint64_t>(h.bodyLen, uint64_t(cap) * 2);
            z.body.resize(cap);
            out.dst = &z.body[0];
            out.size = cap;
        } else if (in.pos == in.size) {
            return corrupt("truncated compressed body");
        }
    }
    if (out.pos != h.bodyLen || in.pos != in.size)
        return corrupt("compressed body does not match its declared length");
    *body = reinterpret_cast<const uint8_t*>(z.body.data());
    *bodyLen = out.pos;
    return Status::OK();
}

}  // namespace

void serializeDelta(const std::vector<DeltaInst>& insts, const uint8_t* target, size_t targetLen,
                    std::string* out, bool allowCompression) {
    ZstdScratch& z = scratch();
    z.body.clear();
    serializeBody(insts, target, &z.body);
    std::string header;
    putVarint(&header, targetLen);
    putFixed32(&header, crc32c(0, target, targetLen));
    if (allowCompression && z.body.size() >= kMinCompressedBody) {
        z.packed.resize(ZSTD_compressBound(z.body.size()));
        size_t c = ZSTD_compressCCtx(z.cctx, &z.packed[0], z.packed.size(), z.body.data(),
                                     z.body.size(), 1);
        if (!ZSTD_isError(c) && c + varintLength(z.body.size()) < z.body.size()) {
            out->push_back(static_cast<char>(kDeltaFormatV1Compressed));
            out->append(header);
            putVarint(out, z.body.size());
            out->append(z.packed.data(), c);
            return;
        }
    }
    out->push_back(static_cast<char>(kDeltaFormatV1));
    out->append(header);
    out->append(z.body);
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
    if (delta[0] != kDeltaFormatV1 && delta[0] != kDeltaFormatV1Compressed)
        return corrupt("unknown format or version byte");
    header->compressed = delta[0] == kDeltaFormatV1Compressed;
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
    header->bodyLen = 0;
    if (header->compressed) {
        if (!getVarint(&p, end, &header->bodyLen))
            return corrupt("truncated body length");
        if (header->bodyLen > maxBodyLen(header->targetLen))
            return corrupt("body length out of range");
    }
    header->instructionsOffset = static_cast<size_t>(p - delta);
    return Status::OK();
}

namespace {

// Runs the instructions of a body into out[0, h.targetLen) and verifies the result.
StatusWith<size_t> applyBody(const uint8_t* src, size_t srcLen, const DeltaHeader& h,
                             const uint8_t* p, size_t bodyLen, uint8_t* out, size_t outCapacity) {
    const uint8_t* end = p + bodyLen;
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

}  // namespace

StatusWith<size_t> applyDeltaTo(const uint8_t* src, size_t srcLen, const uint8_t* delta,
                                size_t deltaLen, uint8_t* out, size_t outCapacity) {
    DeltaHeader h;
    Status st = parseDeltaHeader(delta, deltaLen, &h);
    if (!st.isOK())
        return st;
    if (h.targetLen > outCapacity)
        return Status(ErrorCodes::InvalidLength, "dedup delta: output buffer too small");
    const uint8_t* body;
    size_t bodyLen;
    st = bodyOf(delta, deltaLen, h, &body, &bodyLen);
    if (!st.isOK())
        return st;
    return applyBody(src, srcLen, h, body, bodyLen, out, outCapacity);
}

Status applyDelta(const uint8_t* src, size_t srcLen, const uint8_t* delta, size_t deltaLen,
                  std::string* out) {
    out->clear();
    DeltaHeader h;
    Status st = parseDeltaHeader(delta, deltaLen, &h);
    if (!st.isOK())
        return st;
    const uint8_t* body;
    size_t bodyLen;
    st = bodyOf(delta, deltaLen, h, &body, &bodyLen);
    if (!st.isOK())
        return st;
    // The target cannot be longer than what the instructions could produce (each COPY takes
    // at least two bytes and copies at most the whole source): a forged length must not
    // allocate memory the delta could never fill.
    uint64_t maxProducible = uint64_t(bodyLen) + (uint64_t(bodyLen) / 2 + 1) * srcLen;
    if (h.targetLen > maxProducible)
        return corrupt("target length larger than the delta can describe");
    out->resize(h.targetLen);
    auto r = applyBody(src, srcLen, h, body, bodyLen, reinterpret_cast<uint8_t*>(&(*out)[0]),
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
    const uint8_t* p;
    size_t bodyLen;
    st = bodyOf(delta, deltaLen, *header, &p, &bodyLen);
    if (!st.isOK())
        return st;
    const uint8_t* end = p + bodyLen;
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
