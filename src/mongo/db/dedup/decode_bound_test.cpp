// The decode bound (issue 16 item 1): reading any record applies at most Engine::decodeBound()
// deltas, whatever the history length, the order of updates and deletes, the write-backs the
// lossy cache drops, and across a restart. The steps are measured on the stored forms
// (decodeRecord's DecodeInfo.steps), not taken from the engine's bookkeeping.
#include "mongo/db/dedup/dedup_engine.h"

#include <gtest/gtest.h>

#include <map>
#include <thread>
#include <random>
#include <set>
#include <tuple>

#include "mongo/db/dedup/dedup_test_util.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/dedup/memory_record_store.h"

namespace mongo {
namespace dedup {
namespace {

using test::text;

Options boundOptions(ChainScheme scheme, uint32_t H, uint32_t maxSteps = 0) {
    Options o;
    o.chainScheme = scheme;
    o.hopDistance = H;
    o.maxDecodeSteps = maxSteps;
    o.sizeFilter = false;
    o.governor = false;
    return o;
}

// Drives an engine as mongod's storage layer does (DedupRecordStore): updates keep the old
// bytes of a record others decode through under a new id (keepOldAs), deletes of such a
// record keep it flagged retained, rewrites keep the retained flag, and a restart rebuilds
// the engine from the stored forms' headers alone (restoreLink), as start-up does.
class ServerLike {
public:
    explicit ServerLike(Options o) : _o(o), _e(std::make_unique<Engine>(o, &store)) {}

    Engine& engine() { return *_e; }

    int64_t insert(const std::string& ns, const std::string& bytes) {
        const int64_t id = _nextId++;
        store.putRaw(ns, id, bytes);
        auto r = _e->onInsert(ns, id, bytes);
        EXPECT_TRUE(r.isOK()) << r.getStatus().toString();
        live[{ns, id}] = bytes;
        return id;
    }

    void update(const std::string& ns, int64_t id, const std::string& bytes) {
        int64_t keepOldAs = 0;
        if (_e->describe(ns, id).refCount > 0) {
            keepOldAs = _nextId++;
            std::string cur;
            ASSERT_TRUE(store.readStored(ns, id, &cur).isOK());
            store.put(ns, keepOldAs, withRetainedFlag(readdressStored(id, keepOldAs, cur), true));
        }
        auto plan = _e->onUpdate(ns, id, bytes, keepOldAs);
        ASSERT_TRUE(plan.isOK()) << plan.getStatus().toString();
        for (const Rewrite& r : plan.getValue().rewrites)
            rewrite(ns, r.id, r.stored);
        for (int64_t gone : plan.getValue().alsoRemove)
            store.remove(ns, gone);
        store.putRaw(ns, id, bytes);
        live[{ns, id}] = bytes;
    }

    void remove(const std::string& ns, int64_t id) {
        auto plan = _e->onDelete(ns, id);
        ASSERT_TRUE(plan.isOK()) << plan.getStatus().toString();
        for (int64_t gone : plan.getValue().alsoRemove)
            if (gone != id)
                store.remove(ns, gone);
        if (plan.getValue().retain) {
            std::string cur;
            ASSERT_TRUE(store.readStored(ns, id, &cur).isOK());
            store.put(ns, id, withRetainedFlag(cur, true));
        } else {
            store.remove(ns, id);
        }
        live.erase({ns, id});
    }

    // A clean restart: the engine's state (and the write-backs it had queued) is lost and
    // rebuilt from the links the stored forms' headers give, as mongod's start-up does.
    void restart(Options o) {
        _o = o;
        _e = std::make_unique<Engine>(o, &store);
        std::vector<std::tuple<std::string, int64_t, std::string>> recs;
        store.forEach([&](const std::string& ns, int64_t id, const std::string& stored) {
            recs.emplace_back(ns, id, stored);
        });
        std::set<std::string> namespaces;
        for (const auto& [ns, id, stored] : recs) {
            StoredView v;
            ASSERT_TRUE(parseStored(id, stored, &v).isOK());
            size_t logical = v.payload.size();
            if (v.isDelta) {
                DeltaHeader h;
                ASSERT_TRUE(parseDeltaHeader(reinterpret_cast<const uint8_t*>(v.payload.data()),
                                             v.payload.size(), &h)
                                .isOK());
                logical = size_t(h.targetLen);
            }
            ASSERT_TRUE(_e->restoreLink(ns, id, logical, v.isDelta ? v.baseId : 0, stored.size(),
                                        v.retained)
                            .isOK());
            namespaces.insert(ns);
        }
        for (const auto& ns : namespaces)
            _e->finishRestore(ns);
        for (const auto& [ns, id, stored] : recs) {
            StoredView v;
            ASSERT_TRUE(parseStored(id, stored, &v).isOK());
            if (!v.isDelta && !v.retained) {
                ASSERT_TRUE(_e->indexRestored(ns, id, v.payload).isOK());
            }
        }
    }

    // The background work of an idle server: write-backs drained and garbage collected until
    // nothing is left to do (bounded, in case something keeps re-queueing).
    void settle() {
        for (int round = 0; round < 50; ++round) {
            _e->drainWriteBacks();
            _e->collectGarbage();
            if (_e->writeBackBacklog().entries == 0)
                break;
        }
    }

    // The most deltas any stored record (live or retained) takes to decode, measured on the
    // stored forms; every live record must decode to its bytes.
    uint32_t maxDecodeSteps() {
        std::vector<std::pair<std::string, int64_t>> ids;
        store.forEach([&](const std::string& ns, int64_t id, const std::string&) { ids.emplace_back(ns, id); });
        uint32_t worst = 0;
        for (const auto& [ns, id] : ids) {
            std::string got;
            DecodeInfo info;
            Status st = decodeRecord(store, ns, id, &got, &info);
            EXPECT_TRUE(st.isOK()) << ns << " " << id << ": " << st.toString();
            worst = std::max(worst, info.steps);
            auto it = live.find({ns, id});
            if (it != live.end()) {
                EXPECT_EQ(got, it->second) << ns << " " << id;
            }
        }
        return worst;
    }

    MemoryRecordStore store;
    std::map<std::pair<std::string, int64_t>, std::string> live;

private:
    // As DedupRecordStore::rewrite: the retained flag of the record is kept.
    void rewrite(const std::string& ns, int64_t id, const std::string& stored) {
        std::string cur;
        ASSERT_TRUE(store.readStored(ns, id, &cur).isOK());
        StoredView v;
        ASSERT_TRUE(parseStored(id, cur, &v).isOK());
        store.put(ns, id, withRetainedFlag(stored, v.retained));
    }

    Options _o;
    std::unique_ptr<Engine> _e;
    int64_t _nextId = 1;
};

// One document edited thousands of times (each version a new record, as a versioned history
// stores it), with two other documents interleaved as concurrent writers would, updates and
// deletes of older versions in between, and the write-back cache too small to keep up.
struct Workload {
    uint64_t seed = 1;
    int versions = 2000;
    size_t docSize = 1200;
    int updatePct = 8, deletePct = 8;
    int drainEvery = 5;  // ops between drains (of a random number of entries)
    int checkEvery = 250;
};

void runWorkload(ServerLike& s, const Workload& w, uint32_t bound, uint32_t* worstSeen) {
    std::mt19937_64 rng(w.seed);
    std::vector<std::string> docs = {text(w.docSize, w.seed), text(w.docSize, w.seed + 1),
                                     text(w.docSize, w.seed + 2)};
    std::vector<std::pair<std::string, int64_t>> ids;
    for (int op = 0; op < w.versions; ++op) {
        // Two thirds of the versions are of document 0: its chain grows to thousands.
        size_t d = rng() % 3 == 0 ? 1 + rng() % 2 : 0;
        std::string& doc = docs[d];
        const std::string edit = "v" + std::to_string(op) + " ";
        doc.replace(rng() % (doc.size() - 60), edit.size(), edit);  // the size stays
        const std::string ns = d == 2 ? "db.other" : "db.c";
        ids.emplace_back(ns, s.insert(ns, doc));
        int kind = int(rng() % 100);
        if (kind < w.updatePct) {
            auto& [uns, uid] = ids[rng() % ids.size()];
            if (s.live.count({uns, uid})) {
                std::string nb = s.live[{uns, uid}];
                nb.replace(rng() % (nb.size() - 40), 8, "updated ");  // the size stays
                s.update(uns, uid, nb);
            }
        } else if (kind < w.updatePct + w.deletePct) {
            auto& [dns, did] = ids[rng() % ids.size()];
            if (s.live.count({dns, did}))
                s.remove(dns, did);
        }
        if (op % w.drainEvery == 0)
            s.engine().drainWriteBacks(1 + rng() % 12);
        if (op % 97 == 0)
            s.engine().collectGarbage();
        if (op % w.checkEvery == 0) {
            uint32_t worst = s.maxDecodeSteps();
            *worstSeen = std::max(*worstSeen, worst);
            ASSERT_LE(worst, bound) << "op " << op;
        }
    }
}

// The default bound is fixed from H alone: no number of records changes it.
TEST(DecodeBound, DefaultBoundIsFixedFromTheScheme) {
    MemoryRecordStore st;
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kBoundedHop, 16), &st).decodeBound(), 29u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kBoundedHop, 4), &st).decodeBound(), 19u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kVersionJumping, 16), &st).decodeBound(), 15u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kHop, 16), &st).decodeBound(), 0u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kBackward, 16), &st).decodeBound(), 0u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kHop, 16, 30), &st).decodeBound(), 30u);
    EXPECT_EQ(Engine(boundOptions(ChainScheme::kBoundedHop, 16, 1u << 30), &st).decodeBound(), 65535u);
}

// Thousands of versions of one document, with updates and deletes in between and write-backs
// lost to a small cache, then a restart, more versions, and most records deleted (which used
// to lower a bound computed from the number of records under chains already built).
TEST(DecodeBound, LongChainsWithUpdatesAndDeletesStayWithinTheBound) {
    for (uint32_t H : {4u, 16u}) {
        SCOPED_TRACE("H=" + std::to_string(H));
        Options o = boundOptions(ChainScheme::kBoundedHop, H);
        o.writeBackCacheBytes = 16 << 10;  // a few dozen deltas: most write-backs are dropped
        ServerLike s(o);
        const uint32_t bound = s.engine().decodeBound();
        Workload w;
        w.seed = H;
        w.versions = 3000;
        uint32_t worst = 0;
        runWorkload(s, w, bound, &worst);
        EXPECT_GT(s.engine().stats().writeBacksDropped, 500u);
        s.settle();
        EXPECT_LE(s.maxDecodeSteps(), bound);
        EXPECT_GT(worst, H / 2);  // the chains did grow past a cluster

        s.restart(o);
        EXPECT_LE(s.maxDecodeSteps(), bound);
        Workload more = w;
        more.seed = H + 100;
        more.versions = 600;
        runWorkload(s, more, bound, &worst);
        s.settle();
        EXPECT_LE(s.maxDecodeSteps(), bound);

        std::vector<std::pair<std::string, int64_t>> all;
        for (const auto& kv : s.live)
            all.push_back(kv.first);
        for (size_t k = 0; k < all.size(); ++k)
            if (k % 4 != 0)
                s.remove(all[k].first, all[k].second);
        EXPECT_LE(s.maxDecodeSteps(), bound);
        s.settle();
        EXPECT_LE(s.maxDecodeSteps(), bound);
        EXPECT_EQ(s.engine().stats().depthRepairs, 0u);  // nothing ever went past it
    }
}

// A bound computed from the records of the database (as it once was) fell when records went:
// chains built under 16,000 records of another collection then decoded in more steps than
// the bound of the 2,500 left. The bound is fixed now, whatever goes.
TEST(DecodeBound, DeletingOtherRecordsDoesNotLowerTheBound) {
    Options o = boundOptions(ChainScheme::kBoundedHop, 4);
    o.writeBackCacheBytes = 3 << 10;
    ServerLike s(o);
    const uint32_t bound = s.engine().decodeBound();
    std::vector<int64_t> filler;
    for (int i = 0; i < 5000; ++i)
        filler.push_back(s.insert("db.filler", text(200, 1000 + i)));
    Workload w;
    w.seed = 5;
    w.versions = 1500;
    w.updatePct = 0;
    w.deletePct = 0;
    w.drainEvery = 3;
    uint32_t worst = 0;
    runWorkload(s, w, bound, &worst);
    for (int64_t id : filler)
        s.remove("db.filler", id);
    EXPECT_EQ(s.engine().decodeBound(), bound);
    EXPECT_LE(s.maxDecodeSteps(), bound);
    runWorkload(s, w, bound, &worst);
    s.settle();
    EXPECT_LE(s.maxDecodeSteps(), bound);
}

// Every scheme under an explicit bound, with the write-back cache dropping almost everything
// and write-backs applied in small, irregular batches.
TEST(DecodeBound, DroppedWriteBacksNeverTakeARecordPastTheBound) {
    for (ChainScheme scheme : {ChainScheme::kBackward, ChainScheme::kHop, ChainScheme::kBoundedHop}) {
        SCOPED_TRACE(chainSchemeName(scheme));
        Options o = boundOptions(scheme, 4, 6);
        o.writeBackCacheBytes = 4 << 10;
        ServerLike s(o);
        ASSERT_EQ(s.engine().decodeBound(), 6u);
        Workload w;
        w.seed = 7;
        w.versions = 1500;
        w.drainEvery = 3;
        uint32_t worst = 0;
        runWorkload(s, w, 6, &worst);
        s.settle();
        EXPECT_LE(s.maxDecodeSteps(), 6u);
        EXPECT_GE(worst, 4u);
        EXPECT_GT(s.engine().stats().writeBacksDepthLimited, 0u);
    }
}

// Concurrent writers (one engine, inserts, deletes and drains from several threads).
TEST(DecodeBound, ConcurrentWritersStayWithinTheBound) {
    MemoryRecordStore st;
    Options o = boundOptions(ChainScheme::kBoundedHop, 4);
    o.writeBackCacheBytes = 32 << 10;
    Engine e(o, &st);
    const int kThreads = 4, kVersions = 400;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(t);
            const std::string ns = "db.c" + std::to_string(t % 2);
            std::string doc = text(1500, 50 + t);
            for (int v = 0; v < kVersions; ++v) {
                const std::string edit = "t" + std::to_string(t) + "v" + std::to_string(v) + " ";
                doc.replace(rng() % (doc.size() - 60), edit.size(), edit);
                const int64_t id = int64_t(t) * 100000 + v + 1;
                st.putRaw(ns, id, doc);
                ASSERT_TRUE(e.onInsert(ns, id, doc).isOK());
                if (v % 9 == 8) {  // delete an older version
                    const int64_t gone = int64_t(t) * 100000 + 1 + int64_t(rng() % v);
                    if (st.contains(ns, gone)) {
                        auto plan = e.onDelete(ns, gone);
                        ASSERT_TRUE(plan.isOK());
                        st.apply(ns, plan.getValue());
                        std::string cur;
                        if (plan.getValue().retain && st.readStored(ns, gone, &cur).isOK())
                            st.put(ns, gone, withRetainedFlag(cur, true));
                        else if (!plan.getValue().retain)
                            st.remove(ns, gone);
                    }
                }
                if (v % 4 == 0)
                    e.drainWriteBacks(1 + rng() % 16);
                if (v % 50 == 0)
                    e.collectGarbage();
            }
        });
    }
    for (auto& th : threads)
        th.join();
    for (int round = 0; round < 20 && e.writeBackBacklog().entries > 0; ++round) {
        e.drainWriteBacks();
        e.collectGarbage();
    }
    uint32_t worst = 0;
    std::vector<std::pair<std::string, int64_t>> ids;
    st.forEach([&](const std::string& ns, int64_t id, const std::string&) { ids.emplace_back(ns, id); });
    for (const auto& [ns, id] : ids) {
        std::string got;
        DecodeInfo info;
        ASSERT_TRUE(decodeRecord(st, ns, id, &got, &info).isOK()) << ns << " " << id;
        worst = std::max(worst, info.steps);
    }
    EXPECT_LE(worst, e.decodeBound());
    EXPECT_GT(worst, 2u);
    EXPECT_EQ(e.stats(true).longestChain, worst);  // the bookkeeping agrees with the stored forms
}

// Data stored without a bound (backward chains, hundreds of steps; then hop chains) is brought
// under the bound of the engine that restarts on it: start-up learns the links from the
// stored forms' headers, and the garbage collection passes re-base the records too deep.
TEST(DecodeBound, RestartRepairsRecordsDeeperThanTheBound) {
    Options unbounded = boundOptions(ChainScheme::kBackward, 16);
    unbounded.writeBackCacheBytes = 64 << 20;
    ServerLike s(unbounded);
    Workload w;
    w.seed = 3;
    w.versions = 900;
    w.drainEvery = 1;
    uint32_t worst = 0;
    runWorkload(s, w, 100000, &worst);
    // Deletes of chain heads leave retained records that others decode through.
    std::vector<std::pair<std::string, int64_t>> all;
    for (const auto& kv : s.live)
        all.push_back(kv.first);
    for (size_t k = 0; k < all.size(); k += 37)
        s.remove(all[k].first, all[k].second);
    s.engine().drainWriteBacks();
    const uint32_t before = s.maxDecodeSteps();
    ASSERT_GT(before, 200u);
    const uint64_t bytesBefore = s.store.storedBytes();

    Options bounded = boundOptions(ChainScheme::kBoundedHop, 16);
    s.restart(bounded);
    EXPECT_EQ(s.maxDecodeSteps(), before);  // the restart itself rewrites nothing
    s.settle();
    const uint32_t bound = s.engine().decodeBound();
    EXPECT_LE(s.maxDecodeSteps(), bound);
    EXPECT_GT(s.engine().stats().depthRepairs, 0u);
    EXPECT_EQ(s.engine().stats(true).longestChain, s.maxDecodeSteps());
    // Re-based against ancestors, not stored whole: a few percent more bytes.
    EXPECT_LT(s.store.storedBytes(), bytesBefore * 3 / 2);
    // The repaired store keeps deduplicating, and stays within the bound.
    Workload more = w;
    more.seed = 4;
    more.versions = 300;
    more.drainEvery = 5;
    runWorkload(s, more, bound, &worst);
    s.settle();
    EXPECT_LE(s.maxDecodeSteps(), bound);

    // A smaller bound at the next start-up (--dedupMaxDecodeSteps 5).
    s.restart(boundOptions(ChainScheme::kBoundedHop, 16, 5));
    s.settle();
    EXPECT_LE(s.maxDecodeSteps(), 5u);
    // Still compressed: nearly every record remains a delta.
    uint64_t deltas = 0, records = 0;
    s.store.forEach([&](const std::string&, int64_t id, const std::string& stored) {
        StoredView v;
        ASSERT_TRUE(parseStored(id, stored, &v).isOK());
        deltas += v.isDelta;
        ++records;
    });
    EXPECT_GT(deltas * 5, records * 4);
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
