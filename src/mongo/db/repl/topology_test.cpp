// The election state machine: the rules one by one, then randomized schedules of a simulated
// set (message delays and losses, partitions, crashes and restarts) checked for the safety
// properties (one primary per term; every primary holds every majority-committed entry) and,
// once the network heals, for electing a primary.
#include "mongo/db/repl/topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace mongo {
namespace repl {
namespace {

ReplSetConfig makeConfig(int n, const std::string& extraSettings = "", const std::vector<double>& priorities = {}) {
    std::string json = R"({"_id": "rs0", "members": [)";
    for (int i = 0; i < n; ++i) {
        json += std::string(i ? "," : "") + R"({"_id": )" + std::to_string(i) + R"(, "host": "h:)" + std::to_string(i + 1) + "\"";
        if (size_t(i) < priorities.size()) json += ", \"priority\": " + std::to_string(priorities[size_t(i)]);
        json += "}";
    }
    json += R"(], "settings": {"electionTimeoutMillis": 1000, "heartbeatIntervalMillis": 200)" + extraSettings + "}}";
    auto sw = ReplSetConfig::parse(fromjson(json), "rs0");
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().reason();
    ReplSetConfig c = sw.getValue();
    c.term = 0;
    return c;
}

OpTime ot(unsigned secs, long long term) { return OpTime(Timestamp{secs, 1}, term); }

bool has(const Actions& a, TopologyAction::Kind k) {
    return std::any_of(a.begin(), a.end(), [k](const TopologyAction& x) { return x.kind == k; });
}

HeartbeatData hb(MemberState s, long long term, OpTime applied) {
    HeartbeatData d;
    d.state = s;
    d.term = term;
    d.applied = d.durable = applied;
    d.configVersion = 1;
    d.configTerm = 0;
    return d;
}

Topology secondary(const ReplSetConfig& c, int self, uint64_t seed = 1) {
    Topology t(seed);
    t.setConfig(c, self, 0);
    t.setPersistedTerm(0, -1, -1);
    t.setFollowerState(MemberState::kSecondary);
    return t;
}

TEST(TopologyTest, ElectionAfterTimeoutWithDryRunThenRealVote) {
    ReplSetConfig c = makeConfig(3);
    Topology t = secondary(c, 0);
    EXPECT_GE(t.electionDeadline(), 1000);
    EXPECT_LE(t.electionDeadline(), 1150);  // timeout + at most 15%
    EXPECT_TRUE(t.tick(999).empty());
    Actions a = t.tick(1150);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].kind, TopologyAction::kSendDryRun);
    EXPECT_TRUE(a[0].request.dryRun);
    EXPECT_EQ(a[0].request.term, 1);
    EXPECT_EQ(t.term(), 0);  // a dry run changes no term
    EXPECT_EQ(t.role(), Role::kCandidate);
    a = t.onVoteResponse(1160, 1, true, 1, VoteResponse{0, true, ""});
    ASSERT_TRUE(has(a, TopologyAction::kStartElection));
    EXPECT_EQ(t.term(), 1);
    EXPECT_EQ(t.lastVoteTerm(), 1);
    EXPECT_EQ(t.lastVoteCandidate(), 0);
    EXPECT_FALSE(has(a, TopologyAction::kBecomePrimary));
    a = t.onVoteResponse(1170, 2, false, 1, VoteResponse{1, true, ""});
    ASSERT_TRUE(has(a, TopologyAction::kBecomePrimary));
    EXPECT_EQ(t.role(), Role::kLeader);
    EXPECT_EQ(t.primaryIndex(), 0);
    EXPECT_EQ(t.memberState(0), MemberState::kPrimary);
}

TEST(TopologyTest, RefusedDryRunAndCandidacyTimeout) {
    Topology t = secondary(makeConfig(3), 0);
    t.tick(2000);
    EXPECT_EQ(t.role(), Role::kCandidate);
    t.onVoteResponse(2001, 1, true, 1, VoteResponse{0, false, "no"});
    t.onVoteResponse(2002, 2, true, 1, VoteResponse{0, false, "no"});
    EXPECT_EQ(t.role(), Role::kFollower);  // everyone answered, no majority
    EXPECT_EQ(t.term(), 0);
    t.tick(t.electionDeadline());
    EXPECT_EQ(t.role(), Role::kCandidate);
    t.tick(t.electionDeadline() + 5000);  // nobody answers: gives up after the timeout
    EXPECT_EQ(t.role(), Role::kFollower);
}

TEST(TopologyTest, OneVotePerTermAndUpToDateCandidates) {
    Topology t = secondary(makeConfig(3), 0);
    t.setMyLastApplied(ot(10, 0));
    VoteRequest r{"rs0", false, 5, 1, 1, 0, ot(10, 0)};
    auto res = t.processVoteRequest(100, r);
    EXPECT_TRUE(res.response.voteGranted);
    EXPECT_TRUE(res.persistVote);
    EXPECT_TRUE(has(res.actions, TopologyAction::kPersistTerm));
    EXPECT_EQ(t.term(), 5);
    r.candidateIndex = 2;
    res = t.processVoteRequest(101, r);
    EXPECT_FALSE(res.response.voteGranted);
    EXPECT_NE(res.response.reason.find("already voted for another candidate (h:2) this term (5)"), std::string::npos);
    // A dry run records nothing, so it may still say yes.
    r.dryRun = true;
    r.term = 6;
    res = t.processVoteRequest(102, r);
    EXPECT_TRUE(res.response.voteGranted);
    EXPECT_FALSE(res.persistVote);
    EXPECT_EQ(t.term(), 5);
    // Staler data, a lower term, another set, an older config: no.
    r = VoteRequest{"rs0", false, 7, 1, 1, 0, ot(9, 0)};
    res = t.processVoteRequest(103, r);
    EXPECT_FALSE(res.response.voteGranted);
    EXPECT_NE(res.response.reason.find("staler"), std::string::npos);
    EXPECT_EQ(t.term(), 7);  // the term is still adopted
    r = VoteRequest{"rs0", false, 6, 1, 1, 0, ot(11, 0)};
    EXPECT_FALSE(t.processVoteRequest(104, r).response.voteGranted);
    r = VoteRequest{"other", false, 8, 1, 1, 0, ot(11, 0)};
    EXPECT_FALSE(t.processVoteRequest(105, r).response.voteGranted);
    r = VoteRequest{"rs0", false, 9, 1, 0, -1, ot(11, 0)};
    EXPECT_FALSE(t.processVoteRequest(106, r).response.voteGranted);
    // A newer term in the candidate's entries wins over a later timestamp of an older term.
    r = VoteRequest{"rs0", false, 10, 1, 1, 0, OpTime(Timestamp{1, 1}, 1)};
    EXPECT_TRUE(t.processVoteRequest(107, r).response.voteGranted);
}

TEST(TopologyTest, NewerTermDeposesAPrimary) {
    Topology t = secondary(makeConfig(3), 0);
    t.tick(2000);
    t.onVoteResponse(2001, 1, true, 1, VoteResponse{0, true, ""});
    t.onVoteResponse(2002, 1, false, 1, VoteResponse{1, true, ""});
    ASSERT_EQ(t.role(), Role::kLeader);
    Actions a = t.onHeartbeat(2100, 2, hb(MemberState::kSecondary, 3, ot(1, 1)));
    EXPECT_TRUE(has(a, TopologyAction::kPersistTerm));
    EXPECT_TRUE(has(a, TopologyAction::kStepDown));
    EXPECT_EQ(t.role(), Role::kFollower);
    EXPECT_EQ(t.term(), 3);
}

TEST(TopologyTest, PrimaryStepsDownWithoutAMajority) {
    Topology t = secondary(makeConfig(3), 0);
    t.tick(2000);
    t.onVoteResponse(2001, 1, true, 1, VoteResponse{0, true, ""});
    t.onVoteResponse(2002, 1, false, 1, VoteResponse{1, true, ""});
    ASSERT_EQ(t.role(), Role::kLeader);
    // One secondary keeps answering: self + it is a majority.
    for (Millis now = 2200; now < 6000; now += 200) {
        t.onHeartbeat(now, 1, hb(MemberState::kSecondary, 1, ot(1, 1)));
        t.onHeartbeatFailed(now, 2, "Connection refused");
        EXPECT_TRUE(t.tick(now).empty());
    }
    ASSERT_EQ(t.role(), Role::kLeader);
    Actions a;
    Millis now = 6000;
    for (; now < 9000 && a.empty(); now += 200) {
        t.onHeartbeatFailed(now, 1, "Connection refused");
        a = t.tick(now);
    }
    ASSERT_TRUE(has(a, TopologyAction::kStepDown));
    EXPECT_NE(a[0].reason.find("can't see a majority"), std::string::npos);
    EXPECT_GT(now, 5800 + 1000);  // not before the election timeout passed
    EXPECT_EQ(t.role(), Role::kFollower);
    EXPECT_EQ(t.memberState(1), MemberState::kDown);
}

TEST(TopologyTest, HeartbeatsFromThePrimaryHoldOffElections) {
    Topology t = secondary(makeConfig(3), 1);
    for (Millis now = 0; now < 10000; now += 200) {
        t.onHeartbeat(now, 0, hb(MemberState::kPrimary, 1, ot(1, 1)));
        EXPECT_TRUE(t.tick(now).empty());
    }
    EXPECT_EQ(t.primaryIndex(), 0);
    EXPECT_EQ(t.term(), 1);
    // The primary goes silent: an election once the timeout passed since its last heartbeat.
    Actions a;
    Millis now = 10000;
    for (; a.empty(); now += 10) a = t.tick(now);
    EXPECT_GE(now, 9800 + 1000);
    EXPECT_LE(now, 9800 + 1150 + 10);
    EXPECT_TRUE(has(a, TopologyAction::kSendDryRun));
}

// Beyond MongoDB: a primary whose port refuses connections (its process is gone) is replaced
// without waiting out the election timeout; one that only stopped answering (a partition, a hung
// host) still is given the whole timeout, and so is another member whose port refuses.
TEST(TopologyTest, APrimaryWhosePortRefusesIsReplacedPromptly) {
    for (bool refused : {true, false}) {
        Topology t = secondary(makeConfig(3), 1);  // election timeout 1000 ms
        for (Millis now = 0; now <= 5000; now += 200) {
            t.onHeartbeat(now, 0, hb(MemberState::kPrimary, 1, ot(1, 1)));
            t.onHeartbeat(now, 2, hb(MemberState::kSecondary, 1, ot(1, 1)));
            EXPECT_TRUE(t.tick(now).empty());
        }
        t.onHeartbeatFailed(5100, 2, "connection refused", true);  // not the primary: no effect
        EXPECT_TRUE(t.tick(5190).empty());
        t.onHeartbeatFailed(5200, 0, refused ? "connection refused" : "timed out", refused);
        Actions a;
        Millis now = 5200;
        for (; a.empty() && now < 20000; now += 10) a = t.tick(now);
        EXPECT_TRUE(has(a, TopologyAction::kSendDryRun));
        if (refused)
            EXPECT_LE(now, 5200 + 150 + 10);  // within the short random offset (15% of the timeout)
        else
            EXPECT_GE(now, 5000 + 1000);  // the whole timeout since the primary's last heartbeat
    }
}

TEST(TopologyTest, RandomOffsetsDiffer) {
    std::set<Millis> deadlines;
    for (uint64_t seed = 1; seed <= 20; ++seed) deadlines.insert(secondary(makeConfig(3), 0, seed).electionDeadline());
    EXPECT_GT(deadlines.size(), 5u);
    for (Millis d : deadlines) EXPECT_TRUE(d >= 1000 && d <= 1150) << d;
}

TEST(TopologyTest, OnlyElectableSecondariesRun) {
    ReplSetConfig c = makeConfig(3, "", {1, 0, 1});
    Topology t = secondary(c, 1);  // priority 0
    EXPECT_TRUE(t.tick(50000).empty());
    Topology s(1);
    s.setConfig(c, 0, 0);
    s.setFollowerState(MemberState::kStartup2);  // still syncing
    EXPECT_TRUE(s.tick(50000).empty());
    EXPECT_FALSE(s.stepUp(50000).isOK());
}

TEST(TopologyTest, OneVoterElectsItselfAtOnce) {
    Topology t = secondary(makeConfig(1), 0);
    Actions a = t.tick(0);
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].kind, TopologyAction::kStartElection);
    EXPECT_EQ(a[1].kind, TopologyAction::kBecomePrimary);
    EXPECT_EQ(t.term(), 1);
}

TEST(TopologyTest, FreezeStepDownAndStepUp) {
    Topology t = secondary(makeConfig(3), 0);
    ASSERT_TRUE(t.freeze(0, 20000).isOK());
    EXPECT_TRUE(t.tick(19999).empty());
    EXPECT_TRUE(has(t.tick(20000), TopologyAction::kSendDryRun));
    EXPECT_EQ(t.freeze(20001, 30000).code(), int(ErrorCodes::NotSecondary));  // running for election
    t.onVoteResponse(20002, 1, true, 1, VoteResponse{0, true, ""});
    t.onVoteResponse(20003, 1, false, 1, VoteResponse{1, true, ""});
    ASSERT_EQ(t.role(), Role::kLeader);
    EXPECT_EQ(t.freeze(20004, 30000).code(), int(ErrorCodes::NotSecondary));
    ASSERT_TRUE(t.stepDown(20005, 80005).isOK());
    EXPECT_EQ(t.role(), Role::kFollower);
    EXPECT_EQ(t.stepDown(20006, 0).code(), int(ErrorCodes::NotWritablePrimary));
    EXPECT_TRUE(t.tick(80000).empty());  // frozen for stepDownSecs
    EXPECT_FALSE(t.stepUp(80000).isOK());
    ASSERT_TRUE(t.freeze(80001, 0).isOK());  // unfreeze
    auto up = t.stepUp(80002);
    ASSERT_TRUE(up.isOK());
    EXPECT_TRUE(has(up.getValue(), TopologyAction::kStartElection));  // no dry run
    EXPECT_EQ(up.getValue()[0].reason, "stepUpRequestSkipDryRun");
    EXPECT_EQ(t.term(), 2);
}

TEST(TopologyTest, ElectionHandoffPicksACaughtUpElectableSecondaryOfHighestPriority) {
    // Member 0 is the (stepping-down) primary; 1 has priority 2, 2 and 3 priority 1, 4 is priority 0.
    ReplSetConfig c = makeConfig(5, "", {1, 2, 1, 1, 0});
    Topology t = secondary(c, 0);
    t.setMyLastApplied(ot(100, 1));
    t.onHeartbeat(10, 1, hb(MemberState::kSecondary, 1, ot(99, 1)));  // behind
    t.onHeartbeat(10, 2, hb(MemberState::kSecondary, 1, ot(100, 1)));
    t.onHeartbeat(10, 3, hb(MemberState::kSecondary, 1, ot(100, 1)));
    t.onHeartbeat(10, 4, hb(MemberState::kSecondary, 1, ot(100, 1)));  // not electable
    EXPECT_EQ(t.electionHandoffCandidate(20), 2);  // caught up, lowest index of the equals
    t.onHeartbeat(30, 1, hb(MemberState::kSecondary, 1, ot(100, 1)));
    EXPECT_EQ(t.electionHandoffCandidate(40), 1);  // caught up now, highest priority
    EXPECT_TRUE(t.hasCaughtUpElectableSecondary(40));
    // Heartbeats older than an election timeout do not count.
    EXPECT_EQ(t.electionHandoffCandidate(5000), -1);
    EXPECT_FALSE(t.hasCaughtUpElectableSecondary(5000));
}

TEST(TopologyTest, PriorityTakeover) {
    ReplSetConfig c = makeConfig(3, "", {1, 2, 1});
    Topology t = secondary(c, 1);
    t.setMyLastApplied(ot(100, 1));
    Actions a;
    Millis now = 0;
    for (; now < 5000 && a.empty(); now += 50) {
        t.onHeartbeat(now, 0, hb(MemberState::kPrimary, 1, ot(101, 1)));
        t.onHeartbeat(now, 2, hb(MemberState::kSecondary, 1, ot(100, 1)));
        a = t.tick(now);
    }
    ASSERT_TRUE(has(a, TopologyAction::kSendDryRun));
    EXPECT_EQ(a[0].reason, "priorityTakeover");
    EXPECT_LT(now, 1000);  // well before an election timeout
    // Too far behind the primary: no takeover.
    Topology late = secondary(c, 1);
    late.setMyLastApplied(ot(90, 1));
    for (now = 0; now < 5000; now += 50) {
        late.onHeartbeat(now, 0, hb(MemberState::kPrimary, 1, ot(101, 1)));
        EXPECT_TRUE(late.tick(now).empty());
    }
}

TEST(TopologyTest, ALivePrimaryRefusesDryRuns) {
    Topology t = secondary(makeConfig(3), 0);
    t.tick(2000);
    t.onVoteResponse(2001, 1, true, 1, VoteResponse{0, true, ""});
    t.onVoteResponse(2002, 1, false, 1, VoteResponse{1, true, ""});
    ASSERT_EQ(t.role(), Role::kLeader);
    auto res = t.processVoteRequest(2003, VoteRequest{"rs0", true, 2, 2, 1, 0, ot(5, 1)});
    EXPECT_FALSE(res.response.voteGranted);
    EXPECT_EQ(t.role(), Role::kLeader);
}

// ---- Randomized schedules ----

struct Sim {
    struct Node {
        std::unique_ptr<Topology> topo;
        std::vector<OpTime> log;  // applied entries, in order
        bool alive = true;
        long long persistedTerm = 0, voteTerm = -1;
        int voteFor = -1;
    };
    enum Kind { kHbReq, kHbResp, kVoteReq, kVoteResp };
    struct Msg {
        Millis at;
        int from, to;
        Kind kind;
        long long term;
        HeartbeatData data;
        std::vector<OpTime> log;  // a primary's entries, carried by its heartbeat reply
        VoteRequest req;
        VoteResponse resp;
        bool dryRun;
        long long electionTerm;
    };

    Sim(int n, uint64_t seed) : rng(seed), config(makeConfig(n)) {
        for (int i = 0; i < n; ++i) {
            nodes.emplace_back();
            restart(i, 0);
        }
        cut.assign(size_t(n), std::vector<bool>(size_t(n), false));
    }

    void restart(int i, Millis now) {
        Node& nd = nodes[size_t(i)];
        nd.topo = std::make_unique<Topology>(rng());
        nd.topo->setConfig(config, i, now);
        nd.topo->setPersistedTerm(nd.persistedTerm, nd.voteTerm, nd.voteFor);
        nd.topo->setFollowerState(MemberState::kSecondary);
        nd.topo->setMyLastApplied(nd.log.empty() ? OpTime() : nd.log.back());
        nd.alive = true;
    }

    void persist(int i) {
        Node& nd = nodes[size_t(i)];
        nd.persistedTerm = nd.topo->term();
        nd.voteTerm = nd.topo->lastVoteTerm();
        nd.voteFor = nd.topo->lastVoteCandidate();
    }

    void send(Millis now, Msg m) {
        if (cut[size_t(m.from)][size_t(m.to)] || (lossy && rng() % 10 == 0)) return;
        m.at = now + 1 + Millis(rng() % (lossy ? 80 : 20));
        queue.push_back(std::move(m));
    }

    void handle(Millis now, int i, const Actions& actions) {
        persist(i);
        for (const TopologyAction& a : actions) {
            if (a.kind == TopologyAction::kSendDryRun || a.kind == TopologyAction::kStartElection) {
                for (int j = 0; j < int(nodes.size()); ++j) {
                    if (j == i) continue;
                    Msg m{};
                    m.from = i, m.to = j, m.kind = kVoteReq, m.req = a.request;
                    send(now, m);
                }
            } else if (a.kind == TopologyAction::kBecomePrimary) {
                auto [it, fresh] = leaderOfTerm.emplace(a.term, i);
                EXPECT_TRUE(fresh || it->second == i) << "two primaries in term " << a.term;
                // Leader completeness: it holds every majority-committed entry.
                std::set<std::pair<long long, uint64_t>> mine;
                for (const OpTime& t : nodes[size_t(i)].log) mine.insert({t.getTerm(), t.getTimestamp().asULL()});
                for (const OpTime& t : committed)
                    EXPECT_TRUE(mine.count({t.getTerm(), t.getTimestamp().asULL()}))
                        << "primary of term " << a.term << " lacks committed " << t.toString();
                ++elections;
            }
        }
    }

    void deliver(Millis now, const Msg& m) {
        Node& to = nodes[size_t(m.to)];
        if (!to.alive) return;
        Topology& t = *to.topo;
        switch (m.kind) {
            case kHbReq: {
                handle(now, m.to, t.observeTerm(now, m.term));
                Msg r{};
                r.from = m.to, r.to = m.from, r.kind = kHbResp;
                r.data = hb(t.memberState(m.to), t.term(), to.log.empty() ? OpTime() : to.log.back());
                if (t.role() == Role::kLeader) r.log = to.log;
                send(now, r);
                break;
            }
            case kHbResp: {
                handle(now, m.to, t.onHeartbeat(now, m.from, m.data));
                // Syncing, simplified: a follower takes the log of a primary of its term or newer
                // when that log is ahead of its own (rollback and fetch in one step).
                if (m.data.state == MemberState::kPrimary && t.role() != Role::kLeader && m.data.term >= t.term() &&
                    !m.log.empty() && (to.log.empty() || to.log.back() < m.log.back())) {
                    to.log = m.log;
                    t.setMyLastApplied(to.log.back());
                }
                break;
            }
            case kVoteReq: {
                auto res = t.processVoteRequest(now, m.req);
                handle(now, m.to, res.actions);
                Msg r{};
                r.from = m.to, r.to = m.from, r.kind = kVoteResp, r.resp = res.response, r.dryRun = m.req.dryRun,
                r.electionTerm = m.req.term;
                send(now, r);
                break;
            }
            case kVoteResp:
                handle(now, m.to, t.onVoteResponse(now, m.from, m.dryRun, m.electionTerm, m.resp));
                break;
        }
    }

    void step(Millis now) {
        // Deliver what is due.
        std::vector<Msg> due;
        auto split = std::stable_partition(queue.begin(), queue.end(), [now](const Msg& m) { return m.at > now; });
        std::move(split, queue.end(), std::back_inserter(due));
        queue.erase(split, queue.end());
        for (const Msg& m : due) deliver(now, m);
        for (int i = 0; i < int(nodes.size()); ++i) {
            Node& nd = nodes[size_t(i)];
            if (!nd.alive) continue;
            handle(now, i, nd.topo->tick(now));
            if (now % config.heartbeatIntervalMillis == 0) {
                for (int j = 0; j < int(nodes.size()); ++j) {
                    if (j == i) continue;
                    Msg m{};
                    m.from = i, m.to = j, m.kind = kHbReq, m.term = nd.topo->term();
                    send(now, m);
                }
            }
            // A primary writes.
            if (nd.topo->role() == Role::kLeader && now % 100 == 0) {
                OpTime t(Timestamp{unsigned(now / 1000) + 1, ++ticks}, nd.topo->term());
                if (nd.log.empty() || nd.log.back() < t) {
                    nd.log.push_back(t);
                    nd.topo->setMyLastApplied(t);
                }
            }
        }
        // Majority commit, as the primary of a term counts it: an entry of its own term that a
        // majority of members hold.
        for (const Node& nd : nodes) {
            if (!nd.alive || nd.topo->role() != Role::kLeader) continue;
            for (const OpTime& e : nd.log) {
                if (e.getTerm() != nd.topo->term()) continue;
                int holders = 0;
                for (const Node& o : nodes)
                    if (std::find(o.log.begin(), o.log.end(), e) != o.log.end()) ++holders;
                if (holders >= config.majorityVoteCount()) committed.insert(e);
            }
        }
    }

    std::mt19937_64 rng;
    ReplSetConfig config;
    std::vector<Node> nodes;
    std::vector<std::vector<bool>> cut;  // cut[a][b]: messages a -> b are lost
    std::vector<Msg> queue;
    bool lossy = true;
    std::map<long long, int> leaderOfTerm;
    std::set<OpTime> committed;
    int elections = 0;
    unsigned ticks = 0;
};

void runSchedule(int n, uint64_t seed) {
    SCOPED_TRACE("members " + std::to_string(n) + ", seed " + std::to_string(seed));
    Sim sim(n, seed);
    Millis now = 0;
    // Chaos: lossy links, partitions that change every few seconds, crashes and restarts.
    for (; now < 40000; now += 10) {
        if (now % 3000 == 0) {
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b) sim.cut[size_t(a)][size_t(b)] = sim.rng() % 4 == 0;
        }
        if (now % 1000 == 0) {
            int i = int(sim.rng() % uint64_t(n));
            if (sim.nodes[size_t(i)].alive && sim.rng() % 3 == 0)
                sim.nodes[size_t(i)].alive = false;
            else if (!sim.nodes[size_t(i)].alive)
                sim.restart(i, now);
        }
        sim.step(now);
        if (::testing::Test::HasFailure()) return;
    }
    // Heal: everyone up, no losses. A primary must emerge and be known to all.
    for (int i = 0; i < n; ++i)
        if (!sim.nodes[size_t(i)].alive) sim.restart(i, now);
    for (auto& row : sim.cut) std::fill(row.begin(), row.end(), false);
    sim.lossy = false;
    for (Millis end = now + 15000; now < end; now += 10) sim.step(now);
    int leaders = 0, leader = -1;
    for (int i = 0; i < n; ++i)
        if (sim.nodes[size_t(i)].topo->role() == Role::kLeader) ++leaders, leader = i;
    ASSERT_EQ(leaders, 1);
    for (int i = 0; i < n; ++i) {
        EXPECT_EQ(sim.nodes[size_t(i)].topo->primaryIndex(), leader) << "node " << i;
        EXPECT_EQ(sim.nodes[size_t(i)].topo->term(), sim.nodes[size_t(leader)].topo->term());
    }
    EXPECT_GT(sim.elections, 1);
    EXPECT_FALSE(sim.committed.empty());
}

TEST(TopologyRandomizedTest, ThreeMembers) {
    for (uint64_t seed = 1; seed <= 20 && !HasFailure(); ++seed) runSchedule(3, seed);
}

TEST(TopologyRandomizedTest, FiveMembers) {
    for (uint64_t seed = 100; seed <= 110 && !HasFailure(); ++seed) runSchedule(5, seed);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
