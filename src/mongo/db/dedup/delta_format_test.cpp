#include "mongo/db/dedup/delta_format.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "mongo/db/dedup/delta_encoder.h"

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

TEST(DeltaFormat, ParseDeltaGivesTheInstructionsBack) {
    std::string a = words(8000, 3), b = a;
    b.insert(4000, "new text here");
    DeltaEncoder enc;
    std::vector<DeltaInst> insts, parsed;
    enc.computeInstructions(u8(a), a.size(), u8(b), b.size(), &insts);
    std::string d;
    serializeDelta(insts, u8(b), b.size(), &d);
    DeltaHeader h;
    ASSERT_TRUE(parseDelta(u8(d), d.size(), a.size(), &h, &parsed).isOK());
    ASSERT_EQ(parsed.size(), insts.size());
    for (size_t i = 0; i < insts.size(); ++i) {
        EXPECT_EQ(parsed[i].copy, insts[i].copy);
        EXPECT_EQ(parsed[i].off, insts[i].off);
        EXPECT_EQ(parsed[i].len, insts[i].len);
    }
    EXPECT_EQ(h.targetLen, b.size());
}

TEST(DeltaFormat, DetectsWrongSourceAndEveryDamagedByte) {
    std::string a = words(3000, 21), b = a;
    b.replace(1000, 10, "0123456789abcdef");
    DeltaEncoder enc;
    std::string d = enc.encode(u8(a), a.size(), u8(b), b.size());
    std::string out;
    // A different source of the same length.
    std::string other = words(3000, 22);
    Status st = applyDelta(u8(other), other.size(), u8(d), d.size(), &out);
    EXPECT_EQ(st.code(), int(ErrorCodes::DataCorruptionDetected));
    EXPECT_TRUE(out.empty());
    // Flip each bit of the delta in turn: never a wrong result.
    for (size_t i = 0; i < d.size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            std::string bad = d;
            bad[i] ^= char(1 << bit);
            Status s = applyDelta(u8(a), a.size(), u8(bad), bad.size(), &out);
            if (s.isOK()) {
                EXPECT_EQ(out, b) << "byte " << i << " bit " << bit;
            }
        }
    }
    // Truncation at every length.
    for (size_t n = 0; n < d.size(); ++n)
        EXPECT_FALSE(applyDelta(u8(a), a.size(), u8(d), n, &out).isOK()) << n;
    // Unknown version.
    std::string v2 = d;
    v2[0] = char(0xD3);
    EXPECT_FALSE(applyDelta(u8(a), a.size(), u8(v2), v2.size(), &out).isOK());
}

TEST(DeltaFormat, LargeLiteralBodiesAreCompressedAndChecked) {
    std::string a = words(20000, 31), b = a;
    std::mt19937_64 rng(32);
    std::string fresh(6000, ' ');
    for (auto& ch : fresh)
        ch = "abcd "[rng() % 5];  // kilobytes of new, compressible text
    b.replace(5000, 3000, fresh);
    DeltaEncoder enc;
    std::vector<DeltaInst> insts;
    enc.computeInstructions(u8(a), a.size(), u8(b), b.size(), &insts);
    std::string plain, packed;
    serializeDelta(insts, u8(b), b.size(), &plain, false);
    serializeDelta(insts, u8(b), b.size(), &packed, true);
    EXPECT_EQ(uint8_t(plain[0]), kDeltaFormatV1);
    EXPECT_EQ(uint8_t(packed[0]), kDeltaFormatV1Compressed);
    EXPECT_LT(packed.size() * 2, plain.size());
    EXPECT_EQ(plain.size(), serializedDeltaSize(insts, b.size()));
    std::string out;
    ASSERT_TRUE(applyDelta(u8(a), a.size(), u8(packed), packed.size(), &out).isOK());
    EXPECT_EQ(out, b);
    DeltaHeader h;
    std::vector<DeltaInst> parsed;
    ASSERT_TRUE(parseDelta(u8(packed), packed.size(), a.size(), &h, &parsed).isOK());
    EXPECT_TRUE(h.compressed);
    EXPECT_EQ(parsed.size(), insts.size());
    // Damage anywhere in the compressed form is detected.
    for (size_t i = 0; i < packed.size(); i += 7) {
        std::string bad = packed;
        bad[i] ^= 0x10;
        Status st = applyDelta(u8(a), a.size(), u8(bad), bad.size(), &out);
        if (st.isOK()) {
            EXPECT_EQ(out, b) << i;
        }
    }
    // Small deltas stay plain: decoding them is a loop of copies.
    std::string small;
    std::string c = a;
    c[100] = '#';
    enc.computeInstructions(u8(a), a.size(), u8(c), c.size(), &insts);
    serializeDelta(insts, u8(c), c.size(), &small, true);
    EXPECT_EQ(uint8_t(small[0]), kDeltaFormatV1);
}

TEST(DeltaFormat, ForgedHugeLengthIsRejectedWithoutAllocating) {
    std::string d;
    d.push_back(char(kDeltaFormatV1));
    d += std::string("\xff\xff\xff\x7f", 4);  // ~268M target
    d += std::string(4, '\0');
    std::string out;
    Status st = applyDelta(nullptr, 0, u8(d), d.size(), &out);
    EXPECT_EQ(st.code(), int(ErrorCodes::DataCorruptionDetected));
    // A compressed body claiming far more bytes than its target could need.
    std::string c;
    c.push_back(char(kDeltaFormatV1Compressed));
    c += std::string("\x05", 1) + std::string(4, '\0') + std::string("\xff\xff\xff\x7f", 4);
    EXPECT_EQ(applyDelta(nullptr, 0, u8(c), c.size(), &out).code(),
              int(ErrorCodes::DataCorruptionDetected));
}

TEST(DeltaFormat, ApplyToChecksCapacity) {
    std::string a = words(1000, 1), b = words(1000, 2);
    DeltaEncoder enc;
    std::string d = enc.encode(u8(a), a.size(), u8(b), b.size());
    std::vector<uint8_t> buf(10);
    auto r = applyDeltaTo(u8(a), a.size(), u8(d), d.size(), buf.data(), buf.size());
    EXPECT_FALSE(r.isOK());
    buf.resize(b.size());
    r = applyDeltaTo(u8(a), a.size(), u8(d), d.size(), buf.data(), buf.size());
    ASSERT_TRUE(r.isOK());
    EXPECT_EQ(std::string(buf.begin(), buf.end()), b);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
