#include "mongo/db/dedup/sha1.h"

#include <cstring>

namespace mongo {
namespace dedup {
namespace {
inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
}  // namespace

Sha1::Sha1() : _h{0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u} {}

void Sha1::block(const uint8_t* p) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i)
        w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 |
            uint32_t(p[4 * i + 2]) << 8 | uint32_t(p[4 * i + 3]);
    for (int i = 16; i < 80; ++i)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = _h[0], b = _h[1], c = _h[2], d = _h[3], e = _h[4];
    for (int i = 0; i < 80; ++i) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999u;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1u;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDCu;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6u;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(b, 30);
        b = a;
        a = t;
    }
    _h[0] += a;
    _h[1] += b;
    _h[2] += c;
    _h[3] += d;
    _h[4] += e;
}

void Sha1::update(const void* data, size_t n) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    _total += n;
    if (_bufLen) {
        size_t take = std::min(n, 64 - _bufLen);
        std::memcpy(_buf + _bufLen, p, take);
        _bufLen += take;
        p += take;
        n -= take;
        if (_bufLen < 64)
            return;  // everything went into the partial block
        block(_buf);
        _bufLen = 0;
    }
    while (n >= 64) {
        block(p);
        p += 64;
        n -= 64;
    }
    std::memcpy(_buf, p, n);
    _bufLen = n;
}

Sha1Digest Sha1::finish() {
    uint64_t bits = _total * 8;
    uint8_t pad = 0x80;
    update(&pad, 1);
    uint8_t zero = 0;
    while (_bufLen != 56)
        update(&zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; ++i)
        len[i] = uint8_t(bits >> (56 - 8 * i));
    update(len, 8);
    Sha1Digest d;
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 4; ++j)
            d[4 * i + j] = uint8_t(_h[i] >> (24 - 8 * j));
    return d;
}

Sha1Digest sha1(const void* data, size_t n) {
    Sha1 s;
    s.update(data, n);
    return s.finish();
}

std::string toHex(const Sha1Digest& d) {
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (uint8_t b : d) {
        s.push_back(hex[b >> 4]);
        s.push_back(hex[b & 15]);
    }
    return s;
}

}  // namespace dedup
}  // namespace mongo
