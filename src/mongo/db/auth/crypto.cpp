#include "mongo/db/auth/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>

#include "mongo/db/hash/md5.h"

namespace mongo::auth {

namespace {
const EVP_MD* md(HashAlgo a) { return a == HashAlgo::kSha1 ? EVP_sha1() : EVP_sha256(); }
}  // namespace

size_t hashLength(HashAlgo a) { return a == HashAlgo::kSha1 ? 20 : 32; }

std::string hashOf(HashAlgo a, std::string_view data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), out, &len, md(a), nullptr) != 1) std::abort();
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string hmac(HashAlgo a, std::string_view key, std::string_view data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(md(a), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
              data.size(), out, &len))
        std::abort();
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string pbkdf2(HashAlgo a, std::string_view password, std::string_view salt, int iterations) {
    std::string out(hashLength(a), '\0');
    if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                          reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()),
                          iterations, md(a), static_cast<int>(out.size()),
                          reinterpret_cast<unsigned char*>(out.data())) != 1)
        std::abort();
    return out;
}

std::string secureRandomBytes(size_t n) {
    std::string out(n, '\0');
    if (n && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) std::abort();
    return out;
}

std::string base64Encode(std::string_view raw) {
    std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(raw.data()), static_cast<int>(raw.size()));
    out.resize(n);
    return out;
}

bool base64Decode(std::string_view s, std::string* out) {
    if (s.size() % 4 != 0) return false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
        // '=' only as the last one or two characters.
        if (c == '=') ok = i + 2 >= s.size() && (i + 1 == s.size() || s[i + 1] == '=');
        if (!ok) return false;
    }
    std::string buf(s.size() / 4 * 3 + 1, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(buf.data()),
                            reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
    if (n < 0) return false;
    // EVP_DecodeBlock counts padding as zero bytes.
    size_t pad = 0;
    if (!s.empty() && s.back() == '=') pad = (s.size() >= 2 && s[s.size() - 2] == '=') ? 2 : 1;
    buf.resize(static_cast<size_t>(n) - pad);
    *out = std::move(buf);
    return true;
}

std::string md5Hex(std::string_view s) { return Md5::toHex(Md5::of(s.data(), s.size())); }

bool constantTimeEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace mongo::auth
