#include "mongo/db/dedup/decoded_record_cache.h"

#include <gtest/gtest.h>

namespace mongo {
namespace dedup {
namespace {

DecodedRecordCache::Bytes bytes(const std::string& s) { return std::make_shared<const std::string>(s); }

struct Fixture {
    std::atomic<uint64_t> epoch{1};
    // A snapshot begins: the epoch it records.
    uint64_t snapshot() { return epoch.load(); }
};

TEST(DecodedRecordCache, HitAfterFillAndStatistics) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    const uint64_t s = f.snapshot();
    EXPECT_EQ(c.get({0, 1}, s), nullptr);
    c.offer({0, 1}, bytes("one"), s);
    auto b = c.get({0, 1}, s);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(*b, "one");
    auto st = c.stats();
    EXPECT_EQ(st.hits, 1u);
    EXPECT_EQ(st.misses, 1u);
    EXPECT_EQ(st.entries, 1u);
    EXPECT_EQ(st.fills, 1u);
}

TEST(DecodedRecordCache, BoundedByBytesWithLruEviction) {
    Fixture f;
    const std::string kb(1000, 'x');
    DecodedRecordCache c(3 * 1200, &f.epoch);
    const uint64_t s = f.snapshot();
    for (int64_t id = 1; id <= 3; ++id) c.offer({0, id}, bytes(kb), s);
    ASSERT_NE(c.get({0, 1}, s), nullptr);  // 1 becomes the most recent
    c.offer({0, 4}, bytes(kb), s);           // evicts 2
    EXPECT_EQ(c.probe({0, 2}, s), nullptr);
    EXPECT_NE(c.probe({0, 1}, s), nullptr);
    auto st = c.stats();
    EXPECT_LE(st.bytes, st.capacityBytes);
    EXPECT_EQ(st.evictions, 1u);
    c.offer({0, 9}, bytes(std::string(5000, 'y')), s);  // larger than the whole cache
    EXPECT_EQ(c.probe({0, 9}, s), nullptr);
}

TEST(DecodedRecordCache, DisabledAtZeroBytes) {
    Fixture f;
    DecodedRecordCache c(0, &f.epoch);
    c.offer({0, 1}, bytes("one"), f.snapshot());
    EXPECT_EQ(c.get({0, 1}, f.snapshot()), nullptr);
    EXPECT_FALSE(c.enabled());
}

TEST(DecodedRecordCache, UnknownSnapshotNeverHitsNorFills) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    c.offer({0, 1}, bytes("one"), 0);
    EXPECT_EQ(c.probe({0, 1}, f.snapshot()), nullptr);
    c.offer({0, 1}, bytes("one"), f.snapshot());
    EXPECT_EQ(c.get({0, 1}, 0), nullptr);
}

TEST(DecodedRecordCache, ChangeInFlightDropsAndRefuses) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    const uint64_t old = f.snapshot();
    c.offer({0, 1}, bytes("v1"), old);
    c.beginChange({0, 1});
    EXPECT_EQ(c.get({0, 1}, old), nullptr);
    c.offer({0, 1}, bytes("v1"), old);  // a reader still on the old snapshot
    EXPECT_EQ(c.probe({0, 1}, f.snapshot()), nullptr);
    c.endChange({0, 1});
    EXPECT_GT(f.snapshot(), old);
}

TEST(DecodedRecordCache, OldSnapshotCannotFillOverNewerChange) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    const uint64_t old = f.snapshot();  // sees v1
    c.beginChange({0, 1});
    c.endChange({0, 1});                // v2 committed
    c.offer({0, 1}, bytes("v1"), old);  // stale: refused
    const uint64_t fresh = f.snapshot();
    EXPECT_EQ(c.get({0, 1}, fresh), nullptr);
    c.offer({0, 1}, bytes("v2"), fresh);
    auto b = c.get({0, 1}, fresh);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(*b, "v2");
    // The old snapshot must not be served v2.
    EXPECT_EQ(c.get({0, 1}, old), nullptr);
    EXPECT_GE(c.stats().refusedFills, 1u);
}

TEST(DecodedRecordCache, OtherRecordsUnaffectedByAChange) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    const uint64_t s = f.snapshot();
    c.offer({0, 2}, bytes("two"), s);
    c.beginChange({0, 1});
    c.endChange({0, 1});
    EXPECT_NE(c.get({0, 2}, s), nullptr);
    c.offer({0, 3}, bytes("three"), s);  // no change of 3 since the floor
    EXPECT_NE(c.get({0, 3}, s), nullptr);
}

TEST(DecodedRecordCache, ForgottenTombstonesStayConservative) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch, /*maxTombstones=*/2);
    const uint64_t old = f.snapshot();
    for (int64_t id = 1; id <= 5; ++id) {
        c.beginChange({0, id});
        c.endChange({0, id});
    }
    // Record 1's tombstone is forgotten; the floor still refuses the old snapshot's bytes.
    c.offer({0, 1}, bytes("stale"), old);
    EXPECT_EQ(c.probe({0, 1}, f.snapshot()), nullptr);
    c.offer({0, 1}, bytes("fresh"), f.snapshot());
    EXPECT_NE(c.probe({0, 1}, f.snapshot()), nullptr);
}

TEST(DecodedRecordCache, TruncateChangesTheWholeNamespace) {
    Fixture f;
    DecodedRecordCache c(1 << 20, &f.epoch);
    const uint64_t old = f.snapshot();
    c.offer({7, 1}, bytes("a"), old);
    c.offer({8, 1}, bytes("b"), old);
    c.beginChangeAll(7);
    EXPECT_EQ(c.probe({7, 1}, old), nullptr);
    c.offer({7, 2}, bytes("c"), old);
    EXPECT_EQ(c.probe({7, 2}, old), nullptr);
    c.endChangeAll(7);
    c.offer({7, 2}, bytes("c"), old);  // from before the truncate: refused
    EXPECT_EQ(c.probe({7, 2}, f.snapshot()), nullptr);
    EXPECT_NE(c.probe({8, 1}, old), nullptr);
    c.eraseNamespace(8);
    EXPECT_EQ(c.probe({8, 1}, old), nullptr);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
