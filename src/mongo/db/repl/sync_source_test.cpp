// Sync source rules (sync_source.h): replSetSyncFrom's override, chainingAllowed, chaining by
// ping among members ahead of us with hidden/delayed/non-voting/lagging members as a last
// resort, exclusion after a failure, and when a member stays with its current source.
#include "mongo/db/repl/sync_source.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

OpTime at(unsigned secs) { return OpTime(Timestamp{secs, 1}, 1); }

SyncSourceCandidate member(MemberState st, unsigned appliedSecs, long long ping) {
    SyncSourceCandidate c;
    c.up = true;
    c.state = st;
    c.applied = at(appliedSecs);
    c.pingMs = ping;
    c.syncingFromSomeone = st == MemberState::kSecondary;
    return c;
}

// 0: self, 1: primary (far away), 2 and 3: secondaries.
std::vector<SyncSourceCandidate> fourMembers() {
    return {member(MemberState::kSecondary, 100, 0), member(MemberState::kPrimary, 110, 50),
            member(MemberState::kSecondary, 105, 5), member(MemberState::kSecondary, 108, 20)};
}

SyncSourceContext context() {
    SyncSourceContext ctx;
    ctx.self = 0;
    ctx.myApplied = at(100);
    ctx.primary = 1;
    return ctx;
}

TEST(SyncSource, ChainingPrefersTheNearestMemberAheadOfUs) {
    EXPECT_EQ(chooseSyncSource(fourMembers(), context()), 2);
}

TEST(SyncSource, ASecondaryNotAheadOfUsIsNoSource) {
    auto m = fourMembers();
    m[2].applied = at(100);  // level with us
    EXPECT_EQ(chooseSyncSource(m, context()), 3);
    m[3].applied = at(90);
    EXPECT_EQ(chooseSyncSource(m, context()), 1);  // the primary even when level with us
    m[1].applied = at(100);
    EXPECT_EQ(chooseSyncSource(m, context()), 1);
}

TEST(SyncSource, WithoutChainingOnlyThePrimary) {
    auto ctx = context();
    ctx.chainingAllowed = false;
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 1);
    ctx.primary = -1;
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), -1);
}

TEST(SyncSource, HiddenDelayedNonVotingAndLaggingMembersAreALastResort) {
    auto m = fourMembers();
    m[2].hidden = true;
    EXPECT_EQ(chooseSyncSource(m, context()), 3);
    m[3].secondaryDelaySecs = 60;
    EXPECT_EQ(chooseSyncSource(m, context()), 1);
    m[1].state = MemberState::kSecondary;  // no primary now
    auto ctx = context();
    ctx.primary = -1;
    m[1].voter = false;
    // Nothing preferred is left: the nearest of the others.
    EXPECT_EQ(chooseSyncSource(m, ctx), 2);
    // A member 30 s behind the newest one is passed over while another qualifies.
    m = fourMembers();
    m[1].applied = at(200);
    EXPECT_EQ(chooseSyncSource(m, context()), 1);
}

TEST(SyncSource, DownArbitersAndOtherStatesAreNeverSources) {
    auto m = fourMembers();
    m[2].up = false;
    m[3].arbiter = true;
    EXPECT_EQ(chooseSyncSource(m, context()), 1);
    m[1].state = MemberState::kRecovering;
    EXPECT_EQ(chooseSyncSource(m, context()), -1);
}

TEST(SyncSource, ForcedSourceWinsWhileItHoldsData) {
    auto ctx = context();
    ctx.forced = 3;
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 3);
    auto m = fourMembers();
    m[3].up = false;
    EXPECT_EQ(chooseSyncSource(m, ctx), 2);
    ctx.forced = 0;  // ourselves: ignored
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 2);
}

TEST(SyncSource, ExcludedMembersOnlyWhenNothingElseQualifies) {
    auto ctx = context();
    ctx.exclude = {2};
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 3);
    ctx.exclude = {1, 2, 3};
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 2);
}

TEST(SyncSource, InitialSyncTakesAnyMemberHoldingData) {
    auto ctx = context();
    ctx.myApplied = OpTime();
    EXPECT_EQ(chooseSyncSource(fourMembers(), ctx), 2);
}

TEST(SyncSource, SourcesAreSticky) {
    auto m = fourMembers();
    auto ctx = context();
    // A farther source than the best one stays as long as it is fit.
    EXPECT_FALSE(shouldChangeSyncSource(m, ctx, 3));
    EXPECT_FALSE(shouldChangeSyncSource(m, ctx, 1));
    m[3].up = false;
    EXPECT_TRUE(shouldChangeSyncSource(m, ctx, 3));
    m = fourMembers();
    m[3].state = MemberState::kRecovering;
    EXPECT_TRUE(shouldChangeSyncSource(m, ctx, 3));
    // A secondary syncing from no one while a primary is up has nothing new for us.
    m = fourMembers();
    m[3].syncingFromSomeone = false;
    EXPECT_TRUE(shouldChangeSyncSource(m, ctx, 3));
    // Far behind another member.
    m = fourMembers();
    m[1].applied = at(200);
    EXPECT_TRUE(shouldChangeSyncSource(m, ctx, 3));
    EXPECT_TRUE(shouldChangeSyncSource(fourMembers(), ctx, 0));
    EXPECT_TRUE(shouldChangeSyncSource(fourMembers(), ctx, -1));
}

TEST(SyncSource, ChangeForAForcedSourceOrWhenChainingIsDisabled) {
    auto ctx = context();
    ctx.forced = 2;
    EXPECT_TRUE(shouldChangeSyncSource(fourMembers(), ctx, 3));
    EXPECT_FALSE(shouldChangeSyncSource(fourMembers(), ctx, 2));
    ctx.forced = -1;
    ctx.chainingAllowed = false;
    EXPECT_TRUE(shouldChangeSyncSource(fourMembers(), ctx, 3));
    EXPECT_FALSE(shouldChangeSyncSource(fourMembers(), ctx, 1));
}

TEST(SyncSource, BatchesOnlyFromASourceInOurTermThatIsPrimaryOrSyncsItself) {
    auto data = [](long long term, bool primary, bool syncing) {
        BSONObjBuilder b;
        b.append("term", term);
        b.append("isPrimary", primary);
        b.append("hasSyncSource", syncing);
        return b.obj();
    };
    EXPECT_EQ(whyNotApplyBatchFrom(data(5, true, false), 5), "");
    EXPECT_EQ(whyNotApplyBatchFrom(data(6, true, false), 5), "");
    EXPECT_EQ(whyNotApplyBatchFrom(data(5, false, true), 5), "");  // a chained secondary
    // A deposed primary still in the old term, or told the new one and stepped down.
    EXPECT_NE(whyNotApplyBatchFrom(data(4, true, false), 5), "");
    EXPECT_NE(whyNotApplyBatchFrom(data(5, false, false), 5), "");
    // A source rolling back or resyncing (its fetcher may still name a source).
    BSONObjBuilder rollingBack;
    rollingBack.append("term", 5LL);
    rollingBack.append("state", static_cast<int>(MemberState::kRollback));
    rollingBack.append("isPrimary", false);
    rollingBack.append("hasSyncSource", true);
    const BSONObj rollingBackData = rollingBack.obj();
    EXPECT_NE(whyNotApplyBatchFrom(rollingBackData, 5), "");
    // What the source did not send is not held against it.
    BSONObjBuilder termOnly;
    termOnly.append("term", 5LL);
    EXPECT_EQ(whyNotApplyBatchFrom(termOnly.obj(), 5), "");
    EXPECT_EQ(whyNotApplyBatchFrom(BSONObj(), 5), "");
    // A new primary catching up takes entries from a member that syncs from no one (the old
    // primary deposed, or a secondary whose source it was), never from an older term.
    EXPECT_EQ(whyNotApplyBatchFrom(data(5, false, false), 5, /*catchingUp=*/true), "");
    EXPECT_NE(whyNotApplyBatchFrom(data(4, false, false), 5, /*catchingUp=*/true), "");
    EXPECT_NE(whyNotApplyBatchFrom(rollingBackData, 5, /*catchingUp=*/true), "");
}

}  // namespace
}  // namespace repl
}  // namespace mongo
