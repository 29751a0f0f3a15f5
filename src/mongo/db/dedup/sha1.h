#pragma once
// SHA-1 (FIPS 180-4), the chunk fingerprint of the traditional dedup baseline. Written here
// to keep the dedup library free of crypto dependencies; not for security use.
// Thread-safety: a Sha1 object is not shared; sha1() is stateless.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mongo {
namespace dedup {

using Sha1Digest = std::array<uint8_t, 20>;

class Sha1 {
public:
    Sha1();
    void update(const void* data, size_t n);
    Sha1Digest finish();

private:
    void block(const uint8_t* p);
    uint32_t _h[5];
    uint8_t _buf[64];
    size_t _bufLen = 0;
    uint64_t _total = 0;
};

Sha1Digest sha1(const void* data, size_t n);
std::string toHex(const Sha1Digest& d);

}  // namespace dedup
}  // namespace mongo
