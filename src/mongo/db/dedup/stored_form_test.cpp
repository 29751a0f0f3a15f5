#include "mongo/db/dedup/stored_form.h"

#include <gtest/gtest.h>

#include <map>

#include "mongo/db/dedup/delta_encoder.h"

namespace mongo {
namespace dedup {
namespace {

class MapReader : public StoredRecordReader {
public:
    Status readStored(std::string_view ns, int64_t id, std::string* out) override {
        auto it = recs.find(id);
        if (it == recs.end())
            return Status(ErrorCodes::NoSuchKey, "no record");
        *out = it->second;
        return Status::OK();
    }
    std::map<int64_t, std::string> recs;
};

std::string deltaOf(const std::string& base, const std::string& target) {
    DeltaEncoder e;
    return e.encode(reinterpret_cast<const uint8_t*>(base.data()), base.size(),
                    reinterpret_cast<const uint8_t*>(target.data()), target.size());
}

TEST(StoredForm, RoundTripsBothForms) {
    StoredView v;
    std::string raw = makeRawStored("hello");
    EXPECT_EQ(raw.size(), rawStoredSize(5));
    ASSERT_TRUE(parseStored(7, raw, &v).isOK());
    EXPECT_FALSE(v.isDelta);
    EXPECT_EQ(v.payload, "hello");
    std::string d = makeDeltaStored(7, 12, "DELTA");
    EXPECT_EQ(d.size(), deltaStoredSize(7, 12, 5));
    ASSERT_TRUE(parseStored(7, d, &v).isOK());
    EXPECT_TRUE(v.isDelta);
    EXPECT_EQ(v.baseId, 12);
    EXPECT_EQ(v.payload, "DELTA");
    ASSERT_TRUE(parseStored(INT64_MAX, makeDeltaStored(INT64_MAX, INT64_MIN, "x"), &v).isOK());
    EXPECT_EQ(v.baseId, INT64_MIN);
    EXPECT_FALSE(parseStored(1, "", &v).isOK());
    EXPECT_FALSE(parseStored(1, std::string("\x07zz"), &v).isOK());
    EXPECT_FALSE(parseStored(1, std::string("\x01\xff"), &v).isOK());
}

TEST(StoredForm, DecodesAChainAndCountsSteps) {
    std::string v0 = std::string(3000, 'a') + "version zero", v1 = std::string(3000, 'a') + "version one!",
                v2 = std::string(3000, 'a') + "version two, the latest";
    MapReader r;
    r.recs[2] = makeRawStored(v2);
    r.recs[1] = makeDeltaStored(1, 2, deltaOf(v2, v1));
    r.recs[0] = makeDeltaStored(0, 1, deltaOf(v1, v0));
    std::string out;
    DecodeInfo info;
    ASSERT_TRUE(decodeRecord(r, "db.c", 0, &out, &info).isOK());
    EXPECT_EQ(out, v0);
    EXPECT_EQ(info.steps, 2u);
    EXPECT_EQ(info.reads, 3u);
    ASSERT_TRUE(decodeRecord(r, "db.c", 2, &out, &info).isOK());
    EXPECT_EQ(out, v2);
    EXPECT_EQ(info.steps, 0u);
    // A cache short-cuts the walk.
    auto known = [&](int64_t id) -> std::shared_ptr<const std::string> {
        return id == 1 ? std::make_shared<const std::string>(v1) : nullptr;
    };
    ASSERT_TRUE(decodeRecord(r, "db.c", 0, &out, &info, known).isOK());
    EXPECT_EQ(out, v0);
    EXPECT_EQ(info.reads, 1u);
    EXPECT_TRUE(info.usedKnown);
}

TEST(StoredForm, DecodesThroughAFetchCallback) {
    std::string v0 = std::string(3000, 'b') + "old", v1 = std::string(3000, 'b') + "new!";
    std::map<int64_t, std::string> stored{{1, makeRawStored(v1)}, {0, makeDeltaStored(0, 1, deltaOf(v1, v0))}};
    FetchStoredFn fetch = [&](int64_t id, std::string* out) {
        auto it = stored.find(id);
        if (it == stored.end())
            return Status(ErrorCodes::NoSuchKey, "absent");
        *out = it->second;
        return Status::OK();
    };
    std::string out;
    DecodeInfo info;
    ASSERT_TRUE(decodeRecord(fetch, 0, &out, &info).isOK());
    EXPECT_EQ(out, v0);
    EXPECT_EQ(info.steps, 1u);
    EXPECT_EQ(decodeRecord(fetch, 9, &out).code(), int(ErrorCodes::NoSuchKey));
}

TEST(StoredForm, DamageMissingBasesAndCyclesAreErrors) {
    std::string a = std::string(2000, 'q') + "A", b = std::string(2000, 'q') + "B";
    MapReader r;
    r.recs[1] = makeRawStored(b);
    r.recs[0] = makeDeltaStored(0, 1, deltaOf(b, a));
    std::string out;
    EXPECT_EQ(decodeRecord(r, "n", 5, &out).code(), int(ErrorCodes::NoSuchKey));
    // The base changed under the delta.
    r.recs[1] = makeRawStored(std::string(2000, 'z') + "B");
    EXPECT_EQ(decodeRecord(r, "n", 0, &out).code(), int(ErrorCodes::DataCorruptionDetected));
    // The base is gone.
    r.recs.erase(1);
    EXPECT_EQ(decodeRecord(r, "n", 0, &out).code(), int(ErrorCodes::DataCorruptionDetected));
    // A cycle.
    r.recs[1] = makeDeltaStored(1, 0, deltaOf(a, b));
    EXPECT_EQ(decodeRecord(r, "n", 0, &out, nullptr, {}, 100).code(),
              int(ErrorCodes::DataCorruptionDetected));
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
