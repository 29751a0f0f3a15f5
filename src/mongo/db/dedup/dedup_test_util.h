#pragma once
// Test data shared by the engine's unit tests: versioned text, as a database of revisions
// would hold it. Deterministic for a seed.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mongo {
namespace dedup {
namespace test {

// n bytes of word-like text.
inline std::string text(size_t n, uint64_t seed) {
    static const char* w[] = {"storage ", "engine ", "record ", "version ", "delta ", "chain\n",
                              "index ", "feature, ", "sketch ", "cache. ", "hop ", "base "};
    std::mt19937_64 rng(seed);
    std::string s;
    while (s.size() < n)
        s += w[rng() % 12];
    s.resize(n);
    return s;
}

// Revisions of one document: each a small edit of the previous one. REQUIRES: size > 100.
inline std::vector<std::string> revisions(size_t n, size_t size, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::string> out{text(size, seed)};
    for (size_t i = 1; i < n; ++i) {
        std::string s = out.back();
        size_t at = rng() % (s.size() - 100);
        s.replace(at, rng() % 40, "edit " + std::to_string(i) + " ");
        out.push_back(s);
    }
    return out;
}

}  // namespace test
}  // namespace dedup
}  // namespace mongo
