#pragma once
// The cryptographic primitives authentication needs, all from OpenSSL's libcrypto (nothing
// here implements cryptography): SHA-1/SHA-256, HMAC, PBKDF2, secure random bytes, base64,
// and a comparison whose time does not depend on where two secrets differ.
// Pure functions: callable from any thread.
#include <string>
#include <string_view>

namespace mongo::auth {

enum class HashAlgo { kSha1, kSha256 };

size_t hashLength(HashAlgo a);  // 20 or 32
std::string hashOf(HashAlgo a, std::string_view data);
std::string hmac(HashAlgo a, std::string_view key, std::string_view data);
// PBKDF2-HMAC with one output block (the hash's length): SCRAM's Hi().
std::string pbkdf2(HashAlgo a, std::string_view password, std::string_view salt, int iterations);
// n cryptographically secure random bytes (RAND_bytes); aborts if the generator fails.
std::string secureRandomBytes(size_t n);

std::string base64Encode(std::string_view raw);
// False if s is not canonical padded base64.
bool base64Decode(std::string_view s, std::string* out);

// Lowercase hex MD5 of s (MongoDB's password digest uses it).
std::string md5Hex(std::string_view s);

// Equality of two byte strings in time independent of their contents.
bool constantTimeEquals(std::string_view a, std::string_view b);

}  // namespace mongo::auth
