#include "mongo/db/repl/sync_source.h"

#include <algorithm>

namespace mongo {
namespace repl {
namespace {

bool holdsData(const SyncSourceCandidate& m) {
    return m.up && !m.arbiter && (m.state == MemberState::kPrimary || m.state == MemberState::kSecondary);
}

bool excluded(const SyncSourceContext& ctx, int i) {
    return std::find(ctx.exclude.begin(), ctx.exclude.end(), i) != ctx.exclude.end();
}

OpTime newestKnown(const std::vector<SyncSourceCandidate>& members, const SyncSourceContext& ctx) {
    OpTime newest = ctx.myApplied;
    for (size_t i = 0; i < members.size(); ++i)
        if (int(i) != ctx.self && holdsData(members[i]) && newest < members[i].applied) newest = members[i].applied;
    return newest;
}

bool laggingTooFar(const SyncSourceCandidate& m, const OpTime& newest) {
    return (long long)m.applied.getTimestamp().secs + kMaxSyncSourceLagSecs < (long long)newest.getTimestamp().secs;
}

}  // namespace

int chooseSyncSource(const std::vector<SyncSourceCandidate>& members, const SyncSourceContext& ctx) {
    const int n = int(members.size());
    if (ctx.forced >= 0 && ctx.forced < n && ctx.forced != ctx.self && holdsData(members[size_t(ctx.forced)]))
        return ctx.forced;
    auto primaryOk = [&](bool allowExcluded) {
        return ctx.primary >= 0 && ctx.primary < n && ctx.primary != ctx.self &&
               holdsData(members[size_t(ctx.primary)]) && (allowExcluded || !excluded(ctx, ctx.primary));
    };
    if (!ctx.chainingAllowed) return primaryOk(true) ? ctx.primary : -1;
    const OpTime newest = newestKnown(members, ctx);
    // Passes from the most to the least preferred; within one, the lowest ping.
    for (int pass = 0; pass < 3; ++pass) {
        int best = -1;
        for (int i = 0; i < n; ++i) {
            const SyncSourceCandidate& m = members[size_t(i)];
            if (i == ctx.self || !holdsData(m)) continue;
            if (pass < 2 && excluded(ctx, i)) continue;
            const bool isPrimary = i == ctx.primary;
            // Ahead of us (the primary may be level: it is where new entries appear first).
            if (isPrimary ? m.applied < ctx.myApplied : !(ctx.myApplied < m.applied)) continue;
            if (pass == 0 && (m.hidden || m.secondaryDelaySecs > 0 || (ctx.selfVoter && !m.voter) ||
                              laggingTooFar(m, newest)))
                continue;
            if (best < 0 || m.pingMs < members[size_t(best)].pingMs ||
                (m.pingMs == members[size_t(best)].pingMs && i == ctx.primary))
                best = i;
        }
        if (best >= 0) return best;
    }
    return -1;
}

bool shouldChangeSyncSource(const std::vector<SyncSourceCandidate>& members, const SyncSourceContext& ctx,
                            int current) {
    const int n = int(members.size());
    if (current < 0 || current >= n || current == ctx.self) return true;
    const SyncSourceCandidate& c = members[size_t(current)];
    if (!holdsData(c)) return true;
    if (ctx.forced >= 0 && ctx.forced != current) return true;
    if (!ctx.chainingAllowed && current != ctx.primary) return true;
    if (current != ctx.primary && !c.syncingFromSomeone && ctx.primary >= 0 && ctx.primary < n &&
        holdsData(members[size_t(ctx.primary)]))
        return true;
    // Another member far ahead of current: current is stuck or lagging badly.
    for (int i = 0; i < n; ++i) {
        if (i == ctx.self || i == current || !holdsData(members[size_t(i)])) continue;
        if (laggingTooFar(c, members[size_t(i)].applied)) return true;
    }
    return false;
}

std::string whyNotApplyBatchFrom(const BSONObj& replData, long long ourTerm, bool catchingUp) {
    BSONElement term = replData["term"];
    if (term.isNumber() && term.numberLong() < ourTerm)
        return "the sync source is in term " + std::to_string(term.numberLong()) + ", older than ours (" +
            std::to_string(ourTerm) + ")";
    BSONElement state = replData["state"];
    if (state.isNumber() && state.numberInt() != static_cast<int>(MemberState::kPrimary) &&
        state.numberInt() != static_cast<int>(MemberState::kSecondary))
        return "the sync source is in state " + std::to_string(state.numberInt()) + ", neither PRIMARY nor SECONDARY";
    BSONElement primary = replData["isPrimary"], syncing = replData["hasSyncSource"];
    if (!catchingUp && primary.type() == Bool && !primary.boolean() && syncing.type() == Bool && !syncing.boolean())
        return "the sync source is not primary and syncs from no one";
    return std::string();
}

}  // namespace repl
}  // namespace mongo
