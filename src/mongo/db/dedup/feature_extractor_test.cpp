#include "mongo/db/dedup/feature_extractor.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace mongo {
namespace dedup {
namespace {

std::string randomText(size_t n, uint64_t seed) {
    static const char* words[] = {"the ", "python ", "language ", "is ", "a ", "record ", "of ",
                                  "revision ", "and ", "with ", "\n", "data, ", "base. "};
    std::mt19937_64 rng(seed);
    std::string s;
    while (s.size() < n)
        s += words[rng() % 13];
    s.resize(n);
    return s;
}

TEST(FeatureExtractor, SketchIsTopKDistinctDescending) {
    FeatureExtractor fx(64, 8);
    std::string s = randomText(10000, 3);
    Sketch sk = fx.sketch(s.data(), s.size());
    ASSERT_EQ(sk.size(), 8u);
    for (size_t i = 1; i < sk.size(); ++i)
        EXPECT_GT(sk[i - 1], sk[i]);
    // Short record: fewer chunks than K gives a shorter sketch.
    Sketch small = fx.sketch("tiny", 4);
    EXPECT_EQ(small.size(), 1u);
    EXPECT_TRUE(fx.sketch("", 0).empty());
    // Duplicate content does not produce duplicate features.
    std::string rep;
    for (int i = 0; i < 50; ++i)
        rep += randomText(64, 9);
    Sketch r = fx.sketch(rep.data(), rep.size());
    for (size_t i = 1; i < r.size(); ++i)
        EXPECT_NE(r[i - 1], r[i]);
}

TEST(FeatureExtractor, SimilarRecordsShareFeaturesAndUnrelatedDoNot) {
    FeatureExtractor fx(64, 8);
    std::string a = randomText(16000, 11);
    std::string b = a;
    b.replace(8000, 40, "a small edit in the middle of the record");
    std::string c = randomText(16000, 12);
    Sketch sa = fx.sketch(a.data(), a.size()), sb = fx.sketch(b.data(), b.size()),
           sc = fx.sketch(c.data(), c.size());
    EXPECT_GE(sharedFeatures(sa, sb), 6u);
    EXPECT_LE(sharedFeatures(sa, sc), 1u);
    // Deterministic across extractor instances.
    FeatureExtractor fx2(64, 8);
    EXPECT_EQ(fx2.sketch(a.data(), a.size()), sa);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
