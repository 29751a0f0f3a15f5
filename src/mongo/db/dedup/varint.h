#pragma once
// LEB128 variable-length integers for the dedup formats (deltas, stored forms).
// Decoding is bounds-checked: it never reads past `end` and rejects encodings longer than
// 10 bytes or values that overflow 64 bits, so it is safe on untrusted bytes.
// Thread-safety: stateless functions.
#include <cstddef>
#include <cstdint>
#include <string>

namespace mongo {
namespace dedup {

inline void putVarint(std::string* out, uint64_t v) {
    char buf[10];
    size_t n = 0;
    while (v >= 0x80) {
        buf[n++] = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    buf[n++] = static_cast<char>(v);
    out->append(buf, n);
}

inline size_t varintLength(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

// Reads one varint at *p (p < end). On success advances *p and returns true.
inline bool getVarint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
    const uint8_t* q = *p;
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && q < end; shift += 7) {
        uint64_t byte = *q++;
        if (shift == 63 && byte > 1)
            return false;  // would overflow 64 bits
        result |= (byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *p = q;
            *v = result;
            return true;
        }
    }
    return false;  // truncated or longer than 10 bytes
}

// ZigZag maps signed to unsigned so small negative offsets stay short.
inline uint64_t zigzagEncode(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t zigzagDecode(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

}  // namespace dedup
}  // namespace mongo
