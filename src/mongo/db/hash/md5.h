#pragma once
// MD5 (RFC 1321) over OpenSSL's libcrypto, for what MongoDB defines in terms of MD5: dbHash's
// per-collection and database digests and the 64-bit keys of hashed indexes. Not for security.
// Thread safety: an Md5 object is not thread safe; separate objects may be used concurrently.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mongo {

class Md5 {
public:
    using Digest = std::array<uint8_t, 16>;

    Md5();
    ~Md5();
    Md5(const Md5&) = delete;
    Md5& operator=(const Md5&) = delete;

    void append(const void* data, size_t len);
    void append(std::string_view s) { append(s.data(), s.size()); }
    // Ends the computation; the object may not be appended to afterwards.
    Digest finish();

    // 32 lowercase hex digits, as MongoDB's digestToString prints a digest.
    static std::string toHex(const Digest& d);
    static Digest of(const void* data, size_t len);

private:
    void* _ctx;  // EVP_MD_CTX*
    bool _finished = false;
};

}  // namespace mongo
