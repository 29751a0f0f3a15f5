#pragma once
// Sync source selection (MongoDB 7.0's rules, pure: the coordinator passes what heartbeats
// told it, so the rules are unit-tested without a set).
//
// chooseSyncSource: whom a secondary (or an initial-syncing member) pulls the oplog from.
//   - A source forced by replSetSyncFrom wins while it is up and holds data.
//   - settings.chainingAllowed false: the primary only.
//   - Otherwise ("chaining") any up member in PRIMARY or SECONDARY state that is ahead of us
//     (the primary: at least level with us, so an idle set still has a source), preferring, as
//     MongoDB does, members that are neither hidden nor delayed nor a non-voter when we vote,
//     and among those the one with the lowest heartbeat ping; a member lagging the newest
//     known optime by more than maxSyncSourceLagSecs (30 s) is only a last resort.
//   - Members in `exclude` (a source that just failed: initial sync retries elsewhere) are
//     skipped unless nothing else qualifies.
// shouldChangeSyncSource: whether the member syncing from `current` should choose again
// (sources are sticky: ping noise never makes a member switch): current is gone, down, no
// longer PRIMARY/SECONDARY, another source was forced, chaining was disabled and current is
// not the primary, current is a secondary that itself syncs from no one while a primary is
// up, or another candidate is more than maxSyncSourceLagSecs ahead of it.
// whyNotApplyBatchFrom: checked on every batch a source sends (its reply's $replData: term,
// state, isPrimary, hasSyncSource), fresher than heartbeats: no entries from a source in an older
// term than ours, in a state other than PRIMARY/SECONDARY (rolling back, resyncing), or that is a
// secondary not following a source whose history it checked (MongoDB's fetcher stops at a
// source that syncs from no one): what such a source has beyond what it fetched, it wrote as a
// primary since deposed (a primary paused through an election, resumed, told our term by our
// request). Stricter than MongoDB, which takes entries from such a source while it is ahead of
// us: entries wait for the new primary. Except for a new primary catching up (catchingUp): the
// members ahead of it are exactly those that followed the old primary, now gone, or the old
// primary itself, deposed; what they hold beyond its last entry is what catch-up is for.
// Thread safety: pure functions.
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/member_state.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

struct SyncSourceCandidate {
    std::string host;
    bool up = false;
    MemberState state = MemberState::kUnknown;
    OpTime applied;
    long long pingMs = 0;
    bool arbiter = false;
    bool hidden = false;
    long long secondaryDelaySecs = 0;
    bool voter = true;
    bool syncingFromSomeone = false;  // its heartbeat names a sync source
};

struct SyncSourceContext {
    int self = -1;                // our index in the candidates (the config's members)
    OpTime myApplied;
    bool selfVoter = true;
    bool chainingAllowed = true;
    int primary = -1;             // the primary we know of (-1: none)
    int forced = -1;              // replSetSyncFrom's target (-1: none)
    std::vector<int> exclude;
};

constexpr long long kMaxSyncSourceLagSecs = 30;

// Index of the member to sync from, -1 if none qualifies now.
int chooseSyncSource(const std::vector<SyncSourceCandidate>& members, const SyncSourceContext& ctx);
bool shouldChangeSyncSource(const std::vector<SyncSourceCandidate>& members, const SyncSourceContext& ctx,
                            int current);
// Empty if the batch may be applied, else why not. Fields the source did not send are not held
// against it.
std::string whyNotApplyBatchFrom(const BSONObj& replData, long long ourTerm, bool catchingUp = false);

}  // namespace repl
}  // namespace mongo
