#include "mongo/rpc/crc32c.h"

#include <cstring>

namespace mongo {
namespace {

constexpr uint32_t kPoly = 0x82F63B78u;  // reflected Castagnoli polynomial

struct Tables {
    uint32_t t[8][256];
    Tables() {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
            t[0][i] = c;
        }
        for (uint32_t i = 0; i < 256; i++)
            for (int s = 1; s < 8; s++) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    }
};

const Tables& tables() {
    static const Tables tabs;
    return tabs;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MONGO_HAVE_SSE42_PATH 1
__attribute__((target("sse4.2"))) uint32_t hardwareExtend(uint32_t crc, const unsigned char* p, size_t len) {
    uint64_t c = crc;
    while (len >= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8);  // unaligned-safe load; x86 is little-endian like the wire
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        len -= 8;
    }
    uint32_t c32 = static_cast<uint32_t>(c);
    while (len--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return c32;
}

bool cpuHasSse42() {
    static const bool has = __builtin_cpu_supports("sse4.2");
    return has;
}
#endif

}  // namespace

uint32_t crc32cSoftwareExtend(uint32_t crc, const void* data, size_t len) {
    const auto& t = tables().t;
    const unsigned char* p = static_cast<const unsigned char*>(data);
    uint32_t c = ~crc;
    while (len >= 8) {
        // Little-endian assembly of the next 8 bytes, independent of host order.
        uint32_t lo = c ^ (uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
        uint32_t hi = uint32_t(p[4]) | uint32_t(p[5]) << 8 | uint32_t(p[6]) << 16 | uint32_t(p[7]) << 24;
        c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
            t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len--) c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
    return ~c;
}

uint32_t crc32cExtend(uint32_t crc, const void* data, size_t len) {
#ifdef MONGO_HAVE_SSE42_PATH
    if (cpuHasSse42()) return ~hardwareExtend(~crc, static_cast<const unsigned char*>(data), len);
#endif
    return crc32cSoftwareExtend(crc, data, len);
}

uint32_t crc32c(const void* data, size_t len) {
    return crc32cExtend(0, data, len);
}

}  // namespace mongo
