#include "mongo/db/dedup/delta_encoder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "mongo/db/dedup/delta_format.h"

namespace mongo {
namespace dedup {
namespace {

const uint8_t* u8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string words(size_t n, uint64_t seed) {
    static const char* w[] = {"alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta\n",
                              "eta ", "theta, ", "iota ", "kappa. ", "lambda ", "mu "};
    std::mt19937_64 rng(seed);
    std::string s;
    while (s.size() < n)
        s += w[rng() % 12];
    s.resize(n);
    return s;
}

std::string roundTrip(const std::string& src, const std::string& tgt, uint32_t interval = 64,
                      size_t* deltaSize = nullptr) {
    DeltaEncoder enc(interval);
    std::string d = enc.encode(u8(src), src.size(), u8(tgt), tgt.size());
    if (deltaSize)
        *deltaSize = d.size();
    std::string out;
    Status st = applyDelta(u8(src), src.size(), u8(d), d.size(), &out);
    EXPECT_TRUE(st.isOK()) << st.toString();
    return out;
}

TEST(DeltaEncoder, RoundTripsEdgeCases) {
    std::string a = words(5000, 1);
    EXPECT_EQ(roundTrip("", ""), "");
    EXPECT_EQ(roundTrip("", a), a);
    EXPECT_EQ(roundTrip(a, ""), "");
    EXPECT_EQ(roundTrip(a, a), a);
    EXPECT_EQ(roundTrip("x", "y"), "y");
    EXPECT_EQ(roundTrip(a, words(5000, 2)), words(5000, 2));
    std::string zeros(100000, '\0');
    EXPECT_EQ(roundTrip(zeros, zeros + "tail"), zeros + "tail");
    for (uint32_t iv : {1u, 16u, 64u, 128u, 1024u})
        EXPECT_EQ(roundTrip(a, a.substr(100) + "end"), a.substr(100) + "end") << iv;
}

TEST(DeltaEncoder, SmallEditGivesSmallDelta) {
    std::string a = words(30000, 5);
    std::string b = a;
    b.replace(15000, 20, "an edited sentence of about forty bytes");
    b.insert(2000, "added words ");
    b.erase(25000, 300);
    size_t size = 0;
    EXPECT_EQ(roundTrip(a, b, 64, &size), b);
    EXPECT_LT(size, 120u);  // ~50 literal bytes, a few instructions and the 9-byte header
    size_t size16 = 0;
    EXPECT_EQ(roundTrip(a, b, 16, &size16), b);
    EXPECT_LE(size16, size);
}

TEST(DeltaEncoder, IdenticalRecordIsOneCopy) {
    std::string a = words(20000, 9);
    DeltaEncoder enc;
    std::vector<DeltaInst> insts;
    enc.computeInstructions(u8(a), a.size(), u8(a), a.size(), &insts);
    ASSERT_EQ(insts.size(), 1u);
    EXPECT_TRUE(insts[0].copy);
    EXPECT_EQ(insts[0].off, 0u);
    EXPECT_EQ(insts[0].len, a.size());
}

TEST(DeltaEncoder, ReencodeBackwardRebuildsTheOldRecord) {
    std::mt19937_64 rng(42);
    for (int trial = 0; trial < 50; ++trial) {
        std::string oldRec = words(2000 + rng() % 20000, rng());
        std::string newRec = oldRec;
        for (int e = 0; e < 5; ++e) {
            size_t at = rng() % newRec.size();
            switch (rng() % 3) {
                case 0: newRec.insert(at, words(rng() % 200, rng())); break;
                case 1: newRec.erase(at, rng() % 300); break;
                default: newRec.replace(at, rng() % 50, words(rng() % 80, rng())); break;
            }
        }
        // Moved block: copies out of source order exercise the sort in Algorithm 2.
        if (trial % 3 == 0 && newRec.size() > 4000)
            newRec = newRec.substr(newRec.size() / 2) + newRec.substr(0, newRec.size() / 2);
        DeltaEncoder enc;
        std::vector<DeltaInst> fwd, bwd;
        enc.computeInstructions(u8(oldRec), oldRec.size(), u8(newRec), newRec.size(), &fwd);
        reencodeBackward(fwd, oldRec.size(), &bwd);
        std::string delta;
        serializeDelta(bwd, u8(oldRec), oldRec.size(), &delta, /*allowCompression=*/false);
        std::string back;
        ASSERT_TRUE(applyDelta(u8(newRec), newRec.size(), u8(delta), delta.size(), &back).isOK());
        EXPECT_EQ(back, oldRec);
        EXPECT_EQ(serializedDeltaSize(bwd, oldRec.size()), delta.size());
    }
}

TEST(DeltaEncoder, NormalizeCoalescesAndDropsShortCopies) {
    std::vector<DeltaInst> v = {makeCopy(0, 10), makeCopy(10, 20), makeInsert(30, 3),
                                makeCopy(500, 3), makeInsert(36, 4), makeCopy(100, 50)};
    normalizeInstructions(&v);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_TRUE(v[0].copy);
    EXPECT_EQ(v[0].len, 30u);
    EXPECT_FALSE(v[1].copy);
    EXPECT_EQ(v[1].off, 30u);
    EXPECT_EQ(v[1].len, 10u);
    EXPECT_TRUE(v[2].copy);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
