// Rebuilding the engine from stored records (engine_restore.cpp): what a storage layer does
// at start-up, after a rollback, and for garbage collection after the lossy cache lost work.
#include "mongo/db/dedup/dedup_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>

#include "mongo/db/dedup/dedup_test_util.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/memory_record_store.h"

namespace mongo {
namespace dedup {
namespace {

using test::revisions;

Options options() {
    Options o;
    o.chainScheme = ChainScheme::kHop;
    o.hopDistance = 4;
    o.sizeFilter = false;
    o.governor = false;
    return o;
}

// Reports every stored record of the store to `e`, as a storage layer does at start-up: the
// retained flag comes from the stored form.
void restoreFrom(MemoryRecordStore& store, Engine& e) {
    // forEach holds the store's lock: collect first, decode afterwards.
    std::vector<std::tuple<std::string, int64_t, std::string>> recs;
    store.forEach([&](const std::string& ns, int64_t id, const std::string& stored) {
        recs.emplace_back(ns, id, stored);
    });
    std::set<std::string> namespaces;
    for (const auto& [ns, id, stored] : recs) {
        StoredView v;
        ASSERT_TRUE(parseStored(id, stored, &v).isOK());
        std::string bytes;
        ASSERT_TRUE(decodeRecord(store, ns, id, &bytes).isOK()) << id;
        ASSERT_TRUE(e.restoreRecord(ns, id, bytes, v.isDelta ? v.baseId : 0, stored.size(), v.retained).isOK());
        namespaces.insert(ns);
    }
    for (const auto& ns : namespaces)
        e.finishRestore(ns);
}

// Every stored record is tracked by `b` with the links, reference count and retained flag `a` has.
void expectSameLinks(MemoryRecordStore& store, const Engine& a, const Engine& b) {
    store.forEach([&](const std::string& ns, int64_t id, const std::string&) {
        RecordInfo x = a.describe(ns, id), y = b.describe(ns, id);
        EXPECT_TRUE(y.tracked) << id;
        EXPECT_EQ(x.baseId, y.baseId) << id;
        EXPECT_EQ(x.refCount, y.refCount) << id;
        EXPECT_EQ(x.retained, y.retained) << id;
    });
}

class EngineRestoreTest : public ::testing::Test {
protected:
    void load(Engine& e, const std::string& ns, const std::vector<std::string>& revs, int64_t firstId) {
        for (size_t i = 0; i < revs.size(); ++i) {
            store.putRaw(ns, firstId + int64_t(i), revs[i]);
            ASSERT_TRUE(e.onInsert(ns, firstId + int64_t(i), revs[i]).isOK());
        }
        e.drainWriteBacks();
    }
    // A client delete, applied as a storage layer does (a retained record is flagged).
    bool remove(Engine& e, const std::string& ns, int64_t id) {
        auto plan = e.onDelete(ns, id);
        EXPECT_TRUE(plan.isOK());
        store.apply(ns, plan.getValue());
        if (!plan.getValue().retain) {
            store.remove(ns, id);
            return false;
        }
        std::string cur;
        EXPECT_TRUE(store.readStored(ns, id, &cur).isOK());
        store.put(ns, id, withRetainedFlag(cur, true));
        return true;
    }
    MemoryRecordStore store;
};

TEST_F(EngineRestoreTest, RestoredStateMatchesTheLiveEngine) {
    Engine live(options(), &store);
    auto revs = revisions(60, 6000, 1);
    load(live, "db.c", revs, 1);
    // Delete a few records others decode through (kept, retained) and a few that are not.
    size_t retained = 0;
    for (int64_t id : {60, 48, 3, 17})
        retained += remove(live, "db.c", id);
    ASSERT_GT(retained, 0u);

    Engine restored(options(), &store);
    restoreFrom(store, restored);
    expectSameLinks(store, live, restored);
    Stats ls = live.stats(), rs = restored.stats();
    EXPECT_EQ(ls.logicalBytes, rs.logicalBytes);
    EXPECT_EQ(ls.storedBytes, rs.storedBytes);
    EXPECT_EQ(rs.restoredRecords, uint64_t(store.size()));
    EXPECT_GT(rs.indexEntries, 0u);
}

TEST_F(EngineRestoreTest, NewVersionsAfterARestoreFindTheirSource) {
    Engine live(options(), &store);
    auto revs = revisions(41, 6000, 2);
    load(live, "db.c", std::vector<std::string>(revs.begin(), revs.end() - 1), 1);
    Engine restored(options(), &store);
    restoreFrom(store, restored);
    store.putRaw("db.c", 41, revs.back());
    auto d = restored.onInsert("db.c", 41, revs.back());
    ASSERT_TRUE(d.isOK());
    EXPECT_EQ(d.getValue().outcome, InsertDecision::Outcome::kEncoded);
    EXPECT_EQ(d.getValue().sourceId, 40);  // the newest version, as before the restart
    EXPECT_GT(restored.drainWriteBacks().applied, 0u);
    for (int64_t id = 1; id <= 41; ++id) {
        std::string got;
        ASSERT_TRUE(restored.read("db.c", id, &got).isOK());
        EXPECT_EQ(got, revs[size_t(id - 1)]);
    }
}

// The state saved at a clean shutdown (saveNamespace) restores, with restoreSaved, the same
// links, sizes and index as a restore from the stored records, without their bytes.
TEST_F(EngineRestoreTest, SavedStateRestoresWhatStorageWould) {
    Engine live(options(), &store);
    auto revs = revisions(41, 6000, 5);
    load(live, "db.c", std::vector<std::string>(revs.begin(), revs.end() - 1), 1);
    // Deletes: retained where others decode through the record (at least one is).
    size_t retained = 0;
    for (int64_t id : {20, 31, 5, 12})
        retained += remove(live, "db.c", id);
    ASSERT_GT(retained, 0u);
    std::vector<Engine::SavedRecord> saved;
    EXPECT_EQ(live.saveNamespace("db.c", [&](const Engine::SavedRecord& r) { saved.push_back(r); }), store.size());
    EXPECT_EQ(live.saveNamespace("db.other", [&](const Engine::SavedRecord&) { FAIL(); }), 0u);

    // mongod's start-up from storage: links from the stored headers, then the features of the
    // records stored whole (dedup_storage_rebuild.cpp).
    Engine fromStorage(options(), &store), fromSaved(options(), &store);
    std::vector<std::pair<int64_t, std::string>> recs;
    store.forEach([&](const std::string&, int64_t id, const std::string& stored) { recs.emplace_back(id, stored); });
    for (const auto& [id, stored] : recs) {
        StoredView v;
        ASSERT_TRUE(parseStored(id, stored, &v).isOK());
        std::string bytes;
        ASSERT_TRUE(decodeRecord(store, "db.c", id, &bytes).isOK());
        ASSERT_TRUE(
            fromStorage.restoreLink("db.c", id, bytes.size(), v.isDelta ? v.baseId : 0, stored.size(), v.retained).isOK());
    }
    fromStorage.finishRestore("db.c");
    for (const auto& [id, stored] : recs) {
        StoredView v;
        ASSERT_TRUE(parseStored(id, stored, &v).isOK());
        if (!v.isDelta && !v.retained)
            ASSERT_TRUE(fromStorage.indexRestored("db.c", id, v.payload).isOK());
    }
    EXPECT_EQ(fromSaved.featureSignature(), live.featureSignature());
    for (const auto& r : saved)
        ASSERT_TRUE(fromSaved.restoreSaved("db.c", r).isOK());
    fromSaved.finishRestore("db.c");
    expectSameLinks(store, fromStorage, fromSaved);
    Stats a = fromStorage.stats(), b = fromSaved.stats();
    EXPECT_EQ(a.logicalBytes, b.logicalBytes);
    EXPECT_EQ(a.storedBytes, b.storedBytes);
    EXPECT_EQ(a.indexEntries, b.indexEntries);
    // The next version finds the same source either way.
    store.putRaw("db.c", 41, revs.back());
    auto d = fromSaved.onInsert("db.c", 41, revs.back());
    ASSERT_TRUE(d.isOK());
    EXPECT_EQ(d.getValue().outcome, InsertDecision::Outcome::kEncoded);
    EXPECT_EQ(d.getValue().sourceId, 40);
    // A sketch longer than K is another configuration's: refused.
    Engine::SavedRecord bad = saved.front();
    bad.id = 1000;
    bad.sketch.assign(options().sketchSize + 1, 7);
    EXPECT_EQ(Engine(options(), &store).restoreSaved("db.c", bad).code(), static_cast<int>(ErrorCodes::BadValue));
}

TEST_F(EngineRestoreTest, ForgetNamespaceLeavesOtherCollectionsAlone) {
    Engine e(options(), &store);
    load(e, "db.a", revisions(20, 4000, 3), 1);
    load(e, "db.b", revisions(20, 4000, 4), 1);
    const uint64_t before = e.stats().logicalBytes;
    e.forgetNamespace("db.a");
    EXPECT_FALSE(e.describe("db.a", 5).tracked);
    EXPECT_TRUE(e.describe("db.b", 5).tracked);
    Stats s = e.stats();
    EXPECT_LT(s.logicalBytes, before);
    EXPECT_GT(s.logicalBytes, 0u);
    // The forgotten collection can be inserted into again from scratch.
    store.putRaw("db.a", 100, "fresh record");
    EXPECT_TRUE(e.onInsert("db.a", 100, "fresh record").isOK());
}

TEST_F(EngineRestoreTest, GarbageCollectionRequeuesWhatTheLossyCacheLost) {
    Engine live(options(), &store);
    auto revs = revisions(30, 6000, 5);
    load(live, "db.c", revs, 1);
    ASSERT_TRUE(remove(live, "db.c", 30));  // the raw head: everything decodes through it
    // A restart loses the queued rewrites; the restored engine knows the head is retained.
    Engine restored(options(), &store);
    restoreFrom(store, restored);
    EXPECT_TRUE(restored.describe("db.c", 30).retained);
    EXPECT_EQ(restored.collectGarbage(), 0u);  // 30 still has dependents: their rewrites go
    EXPECT_GT(restored.stats().writeBacksPending, 0u);
    DrainResult r = restored.drainWriteBacks();
    EXPECT_GT(r.applied, 0u);
    EXPECT_FALSE(store.contains("db.c", 30));  // freed
    EXPECT_EQ(restored.stats(true).retainedRecords, 0u);
    for (int64_t id = 1; id < 30; ++id) {
        std::string got;
        ASSERT_TRUE(restored.read("db.c", id, &got).isOK());
        EXPECT_EQ(got, revs[size_t(id - 1)]);
    }
}

TEST_F(EngineRestoreTest, CollectRetainedFreesTheRecordAReadWentThrough) {
    Engine live(options(), &store);
    auto revs = revisions(12, 5000, 6);
    load(live, "db.c", revs, 1);
    ASSERT_TRUE(remove(live, "db.c", 12));
    // The lossy cache lost the rewrites (a restart); a read decoding through 12 asks for it.
    Engine restored(options(), &store);
    restoreFrom(store, restored);
    EXPECT_EQ(restored.collectRetained("db.c", 11), 0u);  // not retained: nothing to do
    EXPECT_EQ(restored.stats().writeBacksPending, 0u);
    EXPECT_EQ(restored.collectRetained("db.c", 12), 0u);  // dependents' rewrites queued
    EXPECT_GT(restored.stats().writeBacksPending, 0u);
    EXPECT_GT(restored.drainWriteBacks().removed, 0u);
    EXPECT_FALSE(store.contains("db.c", 12));
    EXPECT_EQ(restored.stats(true).retainedRecords, 0u);
    for (int64_t id = 1; id < 12; ++id) {
        std::string got;
        ASSERT_TRUE(restored.read("db.c", id, &got).isOK());
        EXPECT_EQ(got, revs[size_t(id - 1)]);
    }
}

// After a restart ages come from record ids; a record updated in place keeps its old id while
// newer records decode through it. Moving those records onto it must still be allowed.
TEST_F(EngineRestoreTest, RewritesOntoAnOlderIdAreAcceptedAfterARestore) {
    auto revs = revisions(3, 5000, 7);
    DeltaEncoder enc;
    auto delta = [&](const std::string& src, const std::string& tgt) {
        return enc.encode(reinterpret_cast<const uint8_t*>(src.data()), src.size(),
                          reinterpret_cast<const uint8_t*>(tgt.data()), tgt.size(), false);
    };
    // 1 holds the newest version (updated in place); 2 is stored against 1, 3 against 2.
    store.putRaw("db.c", 1, revs[2]);
    store.put("db.c", 2, makeDeltaStored(2, 1, delta(revs[2], revs[1])));
    store.put("db.c", 3, makeDeltaStored(3, 2, delta(revs[1], revs[0])));
    Engine e(options(), &store);
    restoreFrom(store, e);
    ASSERT_EQ(e.describe("db.c", 3).baseId, 2);
    auto plan = e.onDelete("db.c", 2);
    ASSERT_TRUE(plan.isOK());
    ASSERT_TRUE(plan.getValue().retain);  // 3 decodes through it
    DrainResult r = e.drainWriteBacks();
    EXPECT_EQ(r.stale, 0u);
    EXPECT_EQ(r.removed, 1u);
    EXPECT_FALSE(store.contains("db.c", 2));
    EXPECT_EQ(e.describe("db.c", 3).baseId, 1);  // moved onto its nearest live ancestor
    std::string got;
    ASSERT_TRUE(e.read("db.c", 3, &got).isOK());
    EXPECT_EQ(got, revs[0]);
}

// Versions appended after a restart cost what they cost without one. The chain the newest
// versions are appended to began in the middle of the history: its first record's source was
// an older member of another chain (here because that chain's newest record had been
// deleted), which was re-encoded against it, so the older records decode to the same head.
// The restored chain must begin where the live one did: positions counted from the oldest
// record that decodes to the head misplace its bases, so later appends re-encode the wrong
// records against the newest ones (here 1.5 times the bytes; on wiki-python in mongod 2.5
// times, and 6 times when the decode bound then refused backward deltas, leaving versions raw).
TEST_F(EngineRestoreTest, VersionsAfterARestoreCompressAsWellAsWithoutOne) {
    Options o;  // mongod's chains: bounded-hop, H = 16
    o.sizeFilter = false;
    o.governor = false;
    const std::string ns = "db.c";
    const auto revs = revisions(420, 8000, 11);
    constexpr int64_t kSplit = 18;
    // Inserts the versions, restarting the engine after each id of `restartAfter`; returns
    // the stored bytes after each of `marks`.
    auto storedAt = [&](const std::set<int64_t>& restartAfter, const std::vector<int64_t>& marks,
                        Stats* end) {
        MemoryRecordStore st;
        auto e = std::make_unique<Engine>(o, &st);
        std::vector<uint64_t> out;
        auto settle = [&] {
            e->drainWriteBacks();
            e->collectGarbage();
            e->drainWriteBacks();
        };
        for (int64_t id = 1; id <= int64_t(revs.size()); ++id) {
            st.putRaw(ns, id, revs[size_t(id - 1)]);
            EXPECT_TRUE(e->onInsert(ns, id, revs[size_t(id - 1)]).isOK());
            if (id % 25 == 0)
                e->drainWriteBacks();
            if (id == kSplit) {
                // The newest version goes: the next one starts a chain of its own.
                e->drainWriteBacks();
                auto plan = e->onDelete(ns, kSplit);
                EXPECT_TRUE(plan.isOK());
                st.apply(ns, plan.getValue());
                if (plan.getValue().retain) {
                    std::string cur;
                    EXPECT_TRUE(st.readStored(ns, kSplit, &cur).isOK());
                    st.put(ns, kSplit, withRetainedFlag(cur, true));
                } else {
                    st.remove(ns, kSplit);
                }
                settle();  // the versions stored against the deleted one move off it
                EXPECT_FALSE(st.contains(ns, kSplit));
            }
            if (std::find(marks.begin(), marks.end(), id) != marks.end()) {
                settle();
                out.push_back(st.storedBytes());
            }
            if (restartAfter.count(id)) {
                settle();
                const uint64_t before = st.storedBytes();
                e = std::make_unique<Engine>(o, &st);
                restoreFrom(st, *e);
                settle();
                EXPECT_EQ(st.storedBytes(), before);  // the restart itself rewrites nothing
            }
        }
        settle();
        out.push_back(st.storedBytes());
        *end = e->stats(true);
        for (int64_t id = 1; id <= int64_t(revs.size()); ++id) {
            if (id == kSplit)
                continue;
            std::string got;
            EXPECT_TRUE(e->read(ns, id, &got).isOK()) << id;
            EXPECT_EQ(got, revs[size_t(id - 1)]) << id;
        }
        return out;
    };
    const std::vector<int64_t> marks{150, 300};
    Stats live, restarted, twice;
    const auto noRestart = storedAt({}, marks, &live);
    const auto oneRestart = storedAt({300}, marks, &restarted);
    const auto twoRestarts = storedAt({150, 300}, marks, &twice);
    ASSERT_EQ(noRestart.size(), 3u);
    ASSERT_EQ(oneRestart.size(), 3u);
    ASSERT_EQ(twoRestarts.size(), 3u);
    // The 120 versions after 300: 4-8 KB each, differing by an edit; under 200 B a version
    // (about 100) without a restart.
    const uint64_t base = noRestart[2] - noRestart[1];
    EXPECT_LT(base, 120u * 200u);
    EXPECT_LE(double(oneRestart[2] - oneRestart[1]), 1.1 * double(base))
        << "without a restart " << base << " B, after one " << oneRestart[2] - oneRestart[1] << " B";
    // A restart after 150 leaves versions 150..300 as compact as without it, and a second one
    // the rest.
    EXPECT_LE(double(twoRestarts[1] - twoRestarts[0]), 1.1 * double(noRestart[1] - noRestart[0]));
    EXPECT_LE(double(twoRestarts[2] - twoRestarts[1]), 1.1 * double(base));
    for (const Stats* s : {&restarted, &twice}) {
        EXPECT_EQ(s->writeBacksDepthLimited, 0u);
        EXPECT_LE(s->longestChain, schemeDecodeCap(o.chainScheme, o.hopDistance));
    }
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
