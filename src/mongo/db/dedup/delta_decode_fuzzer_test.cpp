// The decoder fed a fixed corpus of random mutations of valid deltas and stored forms, in the
// normal test binary (the libFuzzer target delta_decode_fuzzer.cpp explores further).
// Every input must give an error or a result that is exactly right.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/dedup/stored_form.h"

namespace mongo {
namespace dedup {
namespace {

const uint8_t* u8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string sample(std::mt19937_64& rng, size_t n) {
    static const char* w[] = {"alpha ", "beta ", "gamma\n", "delta ", "0123 ", "{\"k\": 1} "};
    std::string s;
    while (s.size() < n)
        s += w[rng() % 6];
    s.resize(n);
    return s;
}

std::string mutate(std::string d, std::mt19937_64& rng) {
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !d.empty(); ++e) {
        size_t at = rng() % d.size();
        switch (rng() % 6) {
            case 0: d[at] ^= char(1 << (rng() % 8)); break;          // bit flip
            case 1: d[at] = char(rng()); break;                       // byte change
            case 2: d.erase(at, 1 + rng() % 4); break;                // deletion
            case 3: d.insert(at, std::string(1 + rng() % 4, char(rng()))); break;
            case 4: d.resize(at); break;                               // truncation
            default: d[at] = char(0xff); break;                        // varint continuation
        }
    }
    return d;
}

TEST(DeltaDecodeCorpus, RandomMutationsNeverDecodeWrong) {
    std::mt19937_64 rng(20240601);
    DeltaEncoder enc;
    size_t rejected = 0, accepted = 0;
    for (int base = 0; base < 40; ++base) {
        std::string src = sample(rng, 200 + rng() % 3000);
        std::string tgt = src;
        tgt.replace(rng() % tgt.size(), rng() % 50, sample(rng, rng() % 80));
        tgt += sample(rng, rng() % 100);
        std::string delta = enc.encode(u8(src), src.size(), u8(tgt), tgt.size());
        for (int m = 0; m < 250; ++m) {
            std::string bad = mutate(delta, rng);
            std::string out;
            Status st = applyDelta(u8(src), src.size(), u8(bad), bad.size(), &out);
            if (st.isOK()) {
                ASSERT_EQ(out, tgt);  // only a mutation that kept the meaning may decode
                ++accepted;
            } else {
                ASSERT_TRUE(out.empty());
                ASSERT_EQ(st.code(), int(ErrorCodes::DataCorruptionDetected)) << st.toString();
                ++rejected;
            }
        }
    }
    EXPECT_GT(rejected, 9000u);
    (void)accepted;
}

TEST(DeltaDecodeCorpus, RandomBytesAreRejected) {
    std::mt19937_64 rng(7);
    std::string src = sample(rng, 1000);
    for (int i = 0; i < 20000; ++i) {
        std::string junk(rng() % 64, '\0');
        for (auto& c : junk)
            c = char(rng());
        if (!junk.empty() && rng() % 2)
            junk[0] = char(kDeltaFormatV1);
        std::string out;
        Status st = applyDelta(u8(src), src.size(), u8(junk), junk.size(), &out);
        if (st.isOK()) {
            // Possible only if the junk happens to carry a matching length and CRC32C.
            DeltaHeader h;
            ASSERT_TRUE(parseDeltaHeader(u8(junk), junk.size(), &h).isOK());
            ASSERT_EQ(h.targetLen, out.size());
        }
        StoredView v;
        (void)parseStored(5, junk, &v);
    }
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
