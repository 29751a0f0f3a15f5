#include "mongo/db/dedup/tools/bench_baselines.h"

#include <gtest/gtest.h>

#include <random>

namespace mongo {
namespace dedup {
namespace {

std::string lines(int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::string s;
    for (int i = 0; i < n; ++i)
        s += "line " + std::to_string(rng() % 100000) + " of some document text\n";
    return s;
}

TEST(BenchBaselines, LineSketchIsTopKDistinctLineHashes) {
    std::string s = "a\nb\nc\na\n";
    auto sk = lineSketch(s, 8);
    EXPECT_EQ(sk.size(), 3u);  // "a" twice counts once
    for (size_t i = 1; i < sk.size(); ++i)
        EXPECT_GT(sk[i - 1], sk[i]);
    EXPECT_EQ(lineSketch(lines(100, 1), 8).size(), 8u);
    // JSON-escaped newlines split lines too.
    EXPECT_EQ(lineSketch("x\\ny\\nz", 8).size(), 3u);
}

TEST(BenchBaselines, DictionaryBaselinesBeatPerRecordCompressionOnVersions) {
    std::vector<BenchRecord> recs;
    std::string doc = lines(300, 2);
    for (int v = 0; v < 20; ++v) {
        doc.insert(doc.size() / 2, "edit " + std::to_string(v) + "\n");
        recs.push_back({"doc", doc});
        recs.push_back({"other" + std::to_string(v), lines(50, 100 + v)});
    }
    BaselineSizes b = computeBaselines(recs);
    EXPECT_LT(b.zstdPrevKeyDict * 2, b.zstdPerRecord);
    EXPECT_LT(b.zstdSimilarDict * 2, b.zstdPerRecord);
    EXPECT_GT(b.similarFound, 15u);
    EXPECT_GT(b.snappyPerRecord, 0u);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
