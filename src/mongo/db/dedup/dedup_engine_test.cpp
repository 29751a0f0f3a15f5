#include "mongo/db/dedup/dedup_engine.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "mongo/db/dedup/dedup_test_util.h"
#include "mongo/db/dedup/memory_record_store.h"

namespace mongo {
namespace dedup {
namespace {

using test::revisions;
using test::text;

Options testOptions(ChainScheme scheme = ChainScheme::kBoundedHop, uint32_t H = 4) {
    Options o;
    o.chainScheme = scheme;
    o.hopDistance = H;
    o.sizeFilter = false;  // small test records
    o.governor = false;
    return o;
}

class EngineTest : public ::testing::Test {
protected:
    void insert(Engine& e, const std::string& ns, int64_t id, const std::string& bytes,
                InsertDecision* out = nullptr) {
        store.putRaw(ns, id, bytes);
        auto r = e.onInsert(ns, id, bytes);
        ASSERT_TRUE(r.isOK()) << r.getStatus().toString();
        if (out)
            *out = r.getValue();
        truth[{ns, id}] = bytes;
    }
    void expectAllReadBack(Engine& e) {
        for (const auto& [k, v] : truth) {
            std::string got;
            Status st = e.read(k.first, k.second, &got);
            ASSERT_TRUE(st.isOK()) << k.first << " " << k.second << ": " << st.toString();
            ASSERT_EQ(got, v) << k.first << " " << k.second;
        }
    }
    MemoryRecordStore store;
    std::map<std::pair<std::string, int64_t>, std::string> truth;
};

TEST_F(EngineTest, EncodesRevisionsAndCompressesAfterWriteBacks) {
    Engine e(testOptions(), &store);
    auto revs = revisions(50, 8000, 1);
    for (size_t i = 0; i < revs.size(); ++i) {
        InsertDecision d;
        insert(e, "db.c", int64_t(i), revs[i], &d);
        if (i == 0) {
            EXPECT_EQ(d.outcome, InsertDecision::Outcome::kUnique);
        } else {
            EXPECT_EQ(d.outcome, InsertDecision::Outcome::kEncoded) << i;
            EXPECT_EQ(d.sourceId, int64_t(i - 1));
            EXPECT_LT(d.forwardDelta.size(), 200u);
            EXPECT_GE(d.writeBacksQueued, 1u);
        }
    }
    expectAllReadBack(e);  // before any write-back: everything raw
    uint64_t rawBytes = store.storedBytes();
    DrainResult dr = e.drainWriteBacks();
    EXPECT_GT(dr.applied, 0u);
    EXPECT_EQ(dr.failed, 0u);
    EXPECT_LT(store.storedBytes() * 10, rawBytes);
    expectAllReadBack(e);
    Stats s = e.stats(true);
    EXPECT_EQ(s.recordsExamined, 50u);
    EXPECT_EQ(s.recordsEncoded, 49u);
    EXPECT_EQ(s.storedBytes, store.storedBytes());
    EXPECT_EQ(s.logicalBytes, [&] { uint64_t n = 0; for (auto& r : revs) n += r.size(); return n; }());
    EXPECT_LE(s.longestChain, guaranteedDecodeBound(ChainScheme::kBoundedHop, 4, 50));
    EXPECT_GT(s.indexEntries, 0u);
    ASSERT_EQ(s.dbs.size(), 1u);
    EXPECT_EQ(s.dbs[0].db, "db");
    // The latest version is stored raw: reading it decodes nothing.
    DecodeInfo info;
    std::string latest;
    ASSERT_TRUE(e.read("db.c", 49, &latest, &info).isOK());
    EXPECT_EQ(info.steps, 0u);
}

TEST_F(EngineTest, EverySchemeRoundTripsAndRespectsItsBound) {
    for (ChainScheme scheme : {ChainScheme::kBackward, ChainScheme::kVersionJumping,
                               ChainScheme::kHop, ChainScheme::kBoundedHop}) {
        MemoryRecordStore st;
        Engine e(testOptions(scheme, 4), &st);
        auto revs = revisions(120, 3000, 7);
        for (size_t i = 0; i < revs.size(); ++i) {
            st.putRaw("db.c", int64_t(i), revs[i]);
            ASSERT_TRUE(e.onInsert("db.c", int64_t(i), revs[i]).isOK());
            if (i % 7 == 0)
                e.drainWriteBacks();  // I/O idle now and then
        }
        e.drainWriteBacks();
        for (size_t i = 0; i < revs.size(); ++i) {
            std::string got;
            ASSERT_TRUE(e.read("db.c", int64_t(i), &got).isOK()) << chainSchemeName(scheme);
            ASSERT_EQ(got, revs[i]) << chainSchemeName(scheme) << " " << i;
        }
        Stats s = e.stats(true);
        uint64_t bound = guaranteedDecodeBound(scheme, 4, revs.size());
        if (bound != 0) {
            EXPECT_LE(s.longestChain, bound) << chainSchemeName(scheme);
        }
        EXPECT_EQ(s.storedBytes, st.storedBytes()) << chainSchemeName(scheme);
        EXPECT_LT(s.storedBytes * 3, s.logicalBytes) << chainSchemeName(scheme);
    }
}

TEST_F(EngineTest, FailedWriteBacksLeaveRecordsReadable) {
    Engine e(testOptions(), &store);
    auto revs = revisions(20, 3000, 2);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    store.failWrites(true);
    DrainResult dr = e.drainWriteBacks();
    EXPECT_GT(dr.failed, 0u);
    EXPECT_EQ(dr.applied, 0u);
    store.failWrites(false);
    expectAllReadBack(e);
    EXPECT_EQ(e.stats().storedBytes, store.storedBytes());
}

TEST_F(EngineTest, UnrelatedRecordsStayUnique) {
    Engine e(testOptions(), &store);
    for (int i = 0; i < 20; ++i) {
        InsertDecision d;
        insert(e, "db.c", i, text(3000, 1000 + i), &d);
        EXPECT_EQ(d.outcome, InsertDecision::Outcome::kUnique);
    }
    EXPECT_EQ(e.drainWriteBacks().applied, 0u);
    EXPECT_EQ(e.stats().recordsUnique, 20u);
}

TEST_F(EngineTest, SourcesComeFromTheSameNamespace) {
    Engine e(testOptions(), &store);
    std::string a = text(5000, 3);
    insert(e, "db.one", 1, a);
    InsertDecision d;
    insert(e, "db.two", 1, a + "x", &d);  // same id, other collection
    EXPECT_EQ(d.outcome, InsertDecision::Outcome::kUnique);
    insert(e, "db.one", 2, a + "y", &d);
    EXPECT_EQ(d.outcome, InsertDecision::Outcome::kEncoded);
    EXPECT_EQ(d.sourceId, 1);
    EXPECT_EQ(e.onInsert("db.one", 2, a).getStatus().code(), int(ErrorCodes::DuplicateKey));
    e.drainWriteBacks();
    expectAllReadBack(e);
}

TEST_F(EngineTest, FindsTheVersionBeforeARevert) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    std::string good = text(20000, 11);
    insert(e, "w.p", 1, good);
    insert(e, "w.p", 2, "vandalised: " + text(300, 12));  // shares nothing
    InsertDecision d;
    insert(e, "w.p", 3, good + " restored", &d);
    EXPECT_EQ(d.outcome, InsertDecision::Outcome::kEncoded);
    EXPECT_EQ(d.sourceId, 1);
    EXPECT_LT(d.forwardDelta.size(), 60u);
    e.drainWriteBacks();
    expectAllReadBack(e);
}

TEST_F(EngineTest, UpdateRewritesDependentsInTheSameUnitOfWork) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(10, 5000, 21);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    e.drainWriteBacks();
    // Record 5 is the base of record 4: updating it must rewrite 4.
    std::string newBytes = text(5000, 99);
    auto plan = e.onUpdate("db.c", 5, newBytes);
    ASSERT_TRUE(plan.isOK());
    ASSERT_EQ(plan.getValue().rewrites.size(), 1u);
    EXPECT_EQ(plan.getValue().rewrites[0].id, 4);
    store.apply("db.c", plan.getValue());
    store.putRaw("db.c", 5, newBytes);
    truth[{"db.c", 5}] = newBytes;
    expectAllReadBack(e);
    EXPECT_EQ(e.stats().storedBytes, store.storedBytes());
    // Updating a record nothing depends on needs no rewrites; unknown records are ignored.
    auto plan2 = e.onUpdate("db.c", 0, "tiny");
    ASSERT_TRUE(plan2.isOK());
    EXPECT_TRUE(plan2.getValue().rewrites.empty());
    store.putRaw("db.c", 0, "tiny");
    truth[{"db.c", 0}] = "tiny";
    EXPECT_TRUE(e.onUpdate("db.other", 1, "x").isOK());
    expectAllReadBack(e);
}

TEST_F(EngineTest, ClientWriteInvalidatesPendingWriteBacks) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(3, 5000, 31);
    insert(e, "db.c", 0, revs[0]);
    insert(e, "db.c", 1, revs[1]);  // queues: 0 against 1
    // The client rewrites record 1 before the write-back is applied.
    auto plan = e.onUpdate("db.c", 1, revs[2]);
    ASSERT_TRUE(plan.isOK());
    EXPECT_TRUE(plan.getValue().rewrites.empty());  // 0 is still raw on disk
    store.putRaw("db.c", 1, revs[2]);
    truth[{"db.c", 1}] = revs[2];
    DrainResult dr = e.drainWriteBacks();
    EXPECT_EQ(dr.applied, 0u);
    expectAllReadBack(e);
    EXPECT_GE(e.stats().writeBacksInvalidated, 1u);
}

TEST_F(EngineTest, DeleteRetainsBasesUntilNothingDecodesThroughThem) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(6, 5000, 41);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    e.drainWriteBacks();  // 0->1->2->3->4->5
    // Deleting the head of nothing (record 0: no dependents) removes it at once.
    auto p0 = e.onDelete("db.c", 0);
    ASSERT_TRUE(p0.isOK());
    EXPECT_FALSE(p0.getValue().retain);
    store.remove("db.c", 0);
    truth.erase({"db.c", 0});
    // Record 3 is the base of 2: retained, then garbage-collected once 2 moves onto 4.
    auto p3 = e.onDelete("db.c", 3);
    ASSERT_TRUE(p3.isOK());
    EXPECT_TRUE(p3.getValue().retain);
    truth.erase({"db.c", 3});
    expectAllReadBack(e);
    DrainResult dr = e.drainWriteBacks();
    EXPECT_EQ(dr.removed, 1u);
    EXPECT_FALSE(store.contains("db.c", 3));
    expectAllReadBack(e);
    Stats s = e.stats();
    EXPECT_EQ(s.storedBytes, store.storedBytes());
    EXPECT_EQ(s.dbs[0].records, 4u);
}

TEST_F(EngineTest, DeletingAllButTheOldestFreesTheRetainedChain) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(4, 3000, 51);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    e.drainWriteBacks();
    // Delete 3, 2, 1 (each a base for the one before): all retained, since 0 decodes through
    // them.
    for (int64_t id : {3, 2, 1}) {
        auto p = e.onDelete("db.c", id);
        ASSERT_TRUE(p.isOK());
        EXPECT_TRUE(p.getValue().retain);
        truth.erase({"db.c", id});
    }
    // Storing 0 raw frees the whole retained chain (its raw head included), which is worth
    // more than 0's small delta: the write-back does it and the chain goes.
    DrainResult r = e.drainWriteBacks();
    EXPECT_EQ(r.removed, 3u);
    for (int64_t id : {1, 2, 3})
        EXPECT_FALSE(store.contains("db.c", id)) << id;
    EXPECT_EQ(e.stats(true).retainedRecords, 0u);
    expectAllReadBack(e);
    auto p0 = e.onDelete("db.c", 0);
    ASSERT_TRUE(p0.isOK());
    EXPECT_FALSE(p0.getValue().retain);
    EXPECT_TRUE(p0.getValue().alsoRemove.empty());
    Stats s = e.stats();
    EXPECT_EQ(s.dbs[0].records, 0u);
    EXPECT_EQ(s.storedBytes, 0u);
    EXPECT_EQ(s.indexEntries, 0u);
}

TEST_F(EngineTest, ReplicaRebuildsRecordsAndStoresTheSameForms) {
    Engine primary(testOptions(), &store);
    MemoryRecordStore secondaryStore;
    Engine secondary(testOptions(), &secondaryStore);
    auto revs = revisions(40, 4000, 61);
    for (size_t i = 0; i < revs.size(); ++i) {
        InsertDecision d;
        insert(primary, "db.c", int64_t(i), revs[i], &d);
        if (d.outcome == InsertDecision::Outcome::kEncoded) {
            std::string rebuilt;
            Status st = secondary.onReplicatedInsert("db.c", int64_t(i), d.sourceId, d.forwardDelta,
                                                     &rebuilt);
            ASSERT_TRUE(st.isOK()) << st.toString();
            ASSERT_EQ(rebuilt, revs[i]);
            secondaryStore.putRaw("db.c", int64_t(i), rebuilt);
        } else {
            secondaryStore.putRaw("db.c", int64_t(i), revs[i]);
            ASSERT_TRUE(secondary.onInsert("db.c", int64_t(i), revs[i]).isOK());
        }
    }
    primary.drainWriteBacks();
    secondary.drainWriteBacks();
    EXPECT_EQ(primary.stats().storedBytes, secondary.stats().storedBytes);
    for (size_t i = 0; i < revs.size(); ++i) {
        std::string got;
        ASSERT_TRUE(secondary.read("db.c", int64_t(i), &got).isOK());
        EXPECT_EQ(got, revs[i]);
    }
    // A delta whose source the replica lacks is refused (the caller fetches the record).
    std::string out;
    EXPECT_EQ(secondary.onReplicatedInsert("db.c", 1000, 999, "x", &out).code(),
              int(ErrorCodes::NoSuchKey));
}

TEST_F(EngineTest, SizeFilterSkipsSmallRecordsAndGovernorDisablesUselessDedup) {
    Options o = testOptions();
    o.sizeFilter = true;
    o.sizeFilterUpdateEvery = 100;
    o.governor = true;
    o.governorWindow = 200;
    Engine e(o, &store);
    std::mt19937_64 rng(3);
    uint64_t filtered = 0;
    for (int i = 0; i < 400; ++i) {
        size_t size = i % 3 ? 2000 : 100;
        InsertDecision d;
        insert(e, "noise.c", i, text(size, 5000 + i), &d);
        if (d.outcome == InsertDecision::Outcome::kFilteredBySize) {
            ++filtered;
            EXPECT_EQ(size, 100u);
        }
    }
    EXPECT_GE(filtered, 30u);  // between the first estimate (100) and the governor (200)
    Stats s = e.stats();
    ASSERT_EQ(s.dbs.size(), 1u);
    EXPECT_FALSE(s.dbs[0].active);  // unique data: the governor turned dedup off
    EXPECT_EQ(s.dbs[0].indexEntries, 0u);
    InsertDecision d;
    insert(e, "noise.c", 1000, text(2000, 1), &d);
    EXPECT_EQ(d.outcome, InsertDecision::Outcome::kDisabled);
    // Other databases are unaffected.
    insert(e, "wiki.c", 1, text(5000, 7));
    insert(e, "wiki.c", 2, text(5000, 7) + "!", &d);
    EXPECT_EQ(d.outcome, InsertDecision::Outcome::kEncoded);
    e.drainWriteBacks();
    expectAllReadBack(e);
}

TEST_F(EngineTest, WriteBackCacheOverflowLosesOnlyCompression) {
    Options o = testOptions(ChainScheme::kBackward);
    o.writeBackCacheBytes = 2000;  // room for a handful of deltas
    Engine e(o, &store);
    auto revs = revisions(100, 4000, 71);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    Stats before = e.stats();
    EXPECT_GT(before.writeBacksDropped, 50u);
    e.drainWriteBacks();
    expectAllReadBack(e);
}

TEST_F(EngineTest, ReinsertedIdIsNotTouchedByTheOldRecordsWriteBacks) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(3, 4000, 81);
    insert(e, "db.c", 0, revs[0]);
    insert(e, "db.c", 1, revs[1]);  // queues 0 against 1
    auto del = e.onDelete("db.c", 0);
    ASSERT_TRUE(del.isOK());
    EXPECT_FALSE(del.getValue().retain);
    store.remove("db.c", 0);
    truth.erase({"db.c", 0});
    insert(e, "db.c", 0, text(4000, 82));  // same id, unrelated bytes
    e.drainWriteBacks();
    expectAllReadBack(e);
}

// A storage layer driven at random: inserts of new versions, updates, deletes and idle
// periods, with the engine's plans applied as the server would. Every live record must read
// back exactly at every step, under every chain scheme.
TEST_F(EngineTest, RandomWorkloadKeepsEveryRecordReadable) {
    for (ChainScheme scheme : {ChainScheme::kBackward, ChainScheme::kVersionJumping,
                               ChainScheme::kHop, ChainScheme::kBoundedHop}) {
        MemoryRecordStore st;
        Options o = testOptions(scheme, 3);
        o.writeBackCacheBytes = 20000;  // small: some write-backs are dropped
        o.compressDeltas = scheme == ChainScheme::kHop || scheme == ChainScheme::kBackward;
        Engine e(o, &st);
        std::mt19937_64 rng(1234 + int(scheme));
        std::map<std::pair<std::string, int64_t>, std::string> live;
        std::vector<std::string> docs;
        for (int d = 0; d < 6; ++d)
            docs.push_back(text(2500 + 500 * d, 900 + d));
        int64_t nextId = 0;
        auto verifySome = [&](size_t n) {
            for (size_t k = 0; k < n && !live.empty(); ++k) {
                auto it = live.begin();
                std::advance(it, rng() % live.size());
                std::string got;
                Status rs = e.read(it->first.first, it->first.second, &got);
                ASSERT_TRUE(rs.isOK()) << chainSchemeName(scheme) << ": " << rs.toString();
                ASSERT_EQ(got, it->second) << chainSchemeName(scheme);
            }
        };
        for (int op = 0; op < 400; ++op) {
            int kind = int(rng() % 100);
            std::string ns = rng() % 2 ? "a.x" : "b.y";
            if (kind < 60 || live.empty()) {
                size_t d = rng() % docs.size();
                docs[d].replace(rng() % (docs[d].size() - 50), rng() % 30,
                                "v" + std::to_string(op) + " ");
                if (rng() % 10 == 0)  // now and then a paragraph of new text
                    docs[d].insert(rng() % docs[d].size(), text(600, rng()));
                int64_t id = nextId++;
                st.putRaw(ns, id, docs[d]);
                ASSERT_TRUE(e.onInsert(ns, id, docs[d]).isOK());
                live[{ns, id}] = docs[d];
            } else if (kind < 75) {
                auto it = live.begin();
                std::advance(it, rng() % live.size());
                std::string nb = it->second;
                nb.insert(rng() % nb.size(), "updated ");
                auto plan = e.onUpdate(it->first.first, it->first.second, nb);
                ASSERT_TRUE(plan.isOK());
                st.apply(it->first.first, plan.getValue());
                st.putRaw(it->first.first, it->first.second, nb);
                it->second = nb;
            } else if (kind < 85) {
                auto it = live.begin();
                std::advance(it, rng() % live.size());
                auto plan = e.onDelete(it->first.first, it->first.second);
                ASSERT_TRUE(plan.isOK());
                if (!plan.getValue().retain)
                    st.remove(it->first.first, it->first.second);
                st.apply(it->first.first, plan.getValue());
                live.erase(it);
            } else {
                e.drainWriteBacks(1 + rng() % 6);
            }
            verifySome(3);
        }
        e.drainWriteBacks();
        verifySome(live.size() * 3);
        Stats s = e.stats(true);
        EXPECT_EQ(s.storedBytes, st.storedBytes()) << chainSchemeName(scheme);
        uint64_t logical = 0;
        for (auto& kv : live)
            logical += kv.second.size();
        EXPECT_EQ(s.logicalBytes, logical) << chainSchemeName(scheme);
    }
}

TEST_F(EngineTest, ConcurrentInsertsAndReads) {
    Engine e(testOptions(), &store);
    const int kThreads = 4, kPer = 60;
    std::vector<std::vector<std::string>> revs;
    for (int t = 0; t < kThreads; ++t)
        revs.push_back(revisions(kPer, 3000, 100 + t));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::string ns = "db" + std::to_string(t % 2) + ".c" + std::to_string(t);
            for (int i = 0; i < kPer; ++i) {
                store.putRaw(ns, i, revs[t][i]);
                ASSERT_TRUE(e.onInsert(ns, i, revs[t][i]).isOK());
                if (i % 5 == 0)
                    e.drainWriteBacks(8);
                std::string got;
                ASSERT_TRUE(e.read(ns, i / 2, &got).isOK());
                ASSERT_EQ(got, revs[t][i / 2]);
            }
        });
    }
    for (auto& th : threads)
        th.join();
    e.drainWriteBacks();
    for (int t = 0; t < kThreads; ++t) {
        std::string ns = "db" + std::to_string(t % 2) + ".c" + std::to_string(t);
        for (int i = 0; i < kPer; ++i) {
            std::string got;
            ASSERT_TRUE(e.read(ns, i, &got).isOK());
            ASSERT_EQ(got, revs[t][i]);
        }
    }
    EXPECT_EQ(e.stats().dbs.size(), 2u);
}

// Deleting every other version of a bounded-hop chain (a TTL index expiring half a history):
// some dependents sit far from their retained base, and moving them onto its nearest live
// ancestor takes a larger delta than they have. The retained records must go all the same.
TEST_F(EngineTest, RetainedRecordsGoEvenWhenMovingTheirDependentsCostsBytes) {
    Engine e(testOptions(ChainScheme::kBoundedHop, 16), &store);
    auto revs = revisions(160, 3000, 91);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    e.drainWriteBacks();
    for (size_t i = 1; i < revs.size(); i += 2) {
        auto plan = e.onDelete("db.c", int64_t(i));
        ASSERT_TRUE(plan.isOK());
        store.apply("db.c", plan.getValue());
        if (plan.getValue().retain) {
            std::string cur;
            ASSERT_TRUE(store.readStored("db.c", int64_t(i), &cur).isOK());
            store.put("db.c", int64_t(i), withRetainedFlag(cur, true));
        } else {
            store.remove("db.c", int64_t(i));
        }
        truth.erase({"db.c", int64_t(i)});
    }
    for (int pass = 0; pass < 10 && e.stats(true).retainedRecords > 0; ++pass) {
        e.drainWriteBacks();
        e.collectGarbage();
    }
    EXPECT_EQ(e.stats(true).retainedRecords, 0u);
    EXPECT_EQ(store.size(), truth.size());
    expectAllReadBack(e);
}

// The paper's update rule, as the server uses it: the old bytes of an updated base stay (as a
// retained record under a new id) until write-backs have moved its dependents onto the new
// bytes; the update itself only re-points them.
TEST_F(EngineTest, UpdateKeepsOldBytesUntilDependentsMove) {
    Engine e(testOptions(ChainScheme::kBackward), &store);
    auto revs = revisions(10, 4000, 61);
    for (size_t i = 0; i < revs.size(); ++i)
        insert(e, "db.c", int64_t(i), revs[i]);
    e.drainWriteBacks();
    ASSERT_EQ(e.describe("db.c", 9).refCount, 1u);  // 8 is stored against the raw head 9

    std::string old;
    ASSERT_TRUE(store.readStored("db.c", 9, &old).isOK());
    store.put("db.c", 100, withRetainedFlag(readdressStored(9, 100, old), true));
    const std::string newBytes = revs[9] + " and an edit at the end";
    auto plan = e.onUpdate("db.c", 9, newBytes, 100);
    ASSERT_TRUE(plan.isOK()) << plan.getStatus().toString();
    ASSERT_EQ(plan.getValue().rewrites.size(), 1u);
    EXPECT_EQ(plan.getValue().rewrites[0].id, 8);
    store.apply("db.c", plan.getValue());
    store.putRaw("db.c", 9, newBytes);
    truth[{"db.c", 9}] = newBytes;

    std::vector<int64_t> dependents;
    RecordInfo kept = e.describe("db.c", 100, &dependents);
    EXPECT_TRUE(kept.retained);
    EXPECT_EQ(kept.refCount, 1u);
    EXPECT_EQ(dependents, std::vector<int64_t>{8});
    EXPECT_EQ(e.describe("db.c", 8).baseId, 100);
    EXPECT_EQ(e.describe("db.c", 9).refCount, 0u);
    expectAllReadBack(e);

    // The queued write-back re-encodes 8 against the new bytes; then the old bytes go.
    DrainResult r = e.drainWriteBacks();
    EXPECT_GE(r.applied, 1u);
    EXPECT_EQ(r.removed, 1u);
    EXPECT_FALSE(store.contains("db.c", 100));
    EXPECT_EQ(e.describe("db.c", 8).baseId, 9);
    EXPECT_EQ(e.stats(true).retainedRecords, 0u);
    expectAllReadBack(e);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
