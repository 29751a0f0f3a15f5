#include "mongo/db/dedup/tools/bench_baselines.h"

#include <murmurhash.h>
#include <zstd.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "mongo/db/dedup/tools/block_compress.h"

namespace mongo {
namespace dedup {
namespace {

size_t zstdWithDict(ZSTD_CCtx* cctx, const std::string& data, const std::string* dict, int level,
                    std::string* scratch) {
    scratch->resize(ZSTD_compressBound(data.size()));
    size_t n = dict ? ZSTD_compress_usingDict(cctx, &(*scratch)[0], scratch->size(), data.data(),
                                              data.size(), dict->data(), dict->size(), level)
                    : ZSTD_compressCCtx(cctx, &(*scratch)[0], scratch->size(), data.data(),
                                        data.size(), level);
    if (ZSTD_isError(n))
        return data.size();
    return std::min(n, data.size());
}

}  // namespace

std::vector<uint64_t> lineSketch(const std::string& bytes, size_t k) {
    std::vector<uint64_t> hashes;
    size_t start = 0;
    // JSON-escaped bodies keep their newlines as "\n" inside one BSON string: split on both.
    for (size_t i = 0; i <= bytes.size(); ++i) {
        bool end = i == bytes.size() || bytes[i] == '\n' ||
            (bytes[i] == '\\' && i + 1 < bytes.size() && bytes[i + 1] == 'n');
        if (!end)
            continue;
        if (i > start) {
            uint64_t h[2];
            lmmh_x64_128(bytes.data() + start, static_cast<unsigned>(i - start), 17, h);
            hashes.push_back(h[0]);
        }
        start = i + 1;
    }
    std::sort(hashes.rbegin(), hashes.rend());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    if (hashes.size() > k)
        hashes.resize(k);
    return hashes;
}

BaselineSizes computeBaselines(const std::vector<BenchRecord>& records, int level) {
    BaselineSizes b;
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::string scratch;
    std::unordered_map<std::string, size_t> lastOfKey;
    std::unordered_map<uint64_t, std::vector<uint32_t>> byFeature;
    std::unordered_map<uint32_t, uint32_t> score;
    for (size_t i = 0; i < records.size(); ++i) {
        const std::string& r = records[i].bytes;
        size_t alone = zstdWithDict(cctx, r, nullptr, level, &scratch);
        b.zstdPerRecord += alone;
        b.snappyPerRecord += blockSize(BlockCodec::kSnappy, r);

        auto prev = lastOfKey.find(records[i].key);
        b.zstdPrevKeyDict += prev == lastOfKey.end()
            ? alone
            : zstdWithDict(cctx, r, &records[prev->second].bytes, level, &scratch);
        lastOfKey[records[i].key] = i;

        std::vector<uint64_t> sk = lineSketch(r);
        score.clear();
        for (uint64_t f : sk) {
            auto it = byFeature.find(f);
            if (it == byFeature.end())
                continue;
            for (uint32_t j : it->second)
                ++score[j];
        }
        int64_t best = -1;
        uint32_t bestScore = 0;
        for (const auto& [j, s] : score) {
            if (s > bestScore || (s == bestScore && int64_t(j) > best)) {
                best = j;
                bestScore = s;
            }
        }
        if (best >= 0) {
            ++b.similarFound;
            b.zstdSimilarDict += zstdWithDict(cctx, r, &records[best].bytes, level, &scratch);
        } else {
            b.zstdSimilarDict += alone;
        }
        for (uint64_t f : sk) {
            auto& v = byFeature[f];
            v.push_back(static_cast<uint32_t>(i));
            if (v.size() > 64)  // keep the 64 newest holders of a very common line
                v.erase(v.begin());
        }
    }
    ZSTD_freeCCtx(cctx);
    return b;
}

}  // namespace dedup
}  // namespace mongo
