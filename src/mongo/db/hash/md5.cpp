#include "mongo/db/hash/md5.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace mongo {

namespace {
EVP_MD_CTX* ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }
}  // namespace

Md5::Md5() : _ctx(EVP_MD_CTX_new()) {
    // Failure here means libcrypto is out of memory or lacks MD5: nothing sensible to return.
    if (!_ctx || EVP_DigestInit_ex(ctx(_ctx), EVP_md5(), nullptr) != 1) throw std::runtime_error("MD5 unavailable");
}

Md5::~Md5() { EVP_MD_CTX_free(ctx(_ctx)); }

void Md5::append(const void* data, size_t len) {
    if (len) EVP_DigestUpdate(ctx(_ctx), data, len);
}

Md5::Digest Md5::finish() {
    Digest d{};
    unsigned int n = 0;
    if (!_finished) EVP_DigestFinal_ex(ctx(_ctx), d.data(), &n);
    _finished = true;
    return d;
}

std::string Md5::toHex(const Digest& d) {
    static const char* kHex = "0123456789abcdef";
    std::string s;
    s.reserve(32);
    for (uint8_t b : d) {
        s.push_back(kHex[b >> 4]);
        s.push_back(kHex[b & 15]);
    }
    return s;
}

Md5::Digest Md5::of(const void* data, size_t len) {
    Md5 m;
    m.append(data, len);
    return m.finish();
}

}  // namespace mongo
