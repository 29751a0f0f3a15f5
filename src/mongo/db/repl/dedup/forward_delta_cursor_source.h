#pragma once
// The cursor of a member's find on local.oplog.rs with $_dedupForwardDeltas: true. It passes
// the oplog's entries through encodeForMember (oplog_delta_encoding.h), so inserts into
// deduplicated collections go as forward deltas once the encoder has computed them.
//
// A member tails the oplog closely, so the newest inserts are often still in the encoder's
// backlog when their entries are read: the cursor then waits for the encoder, for at most
// dedupOplogEncoderWaitMillis per batch (a server parameter, 50 ms by default; 0: never wait),
// and sends what is still not encoded whole. The encoding had to be done anyway; waiting moves
// it onto the replication path, where it saves bytes, instead of after it.
// Thread safety: as any CursorSource (one getMore at a time).
#include <chrono>
#include <memory>

#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/storage/dedup/forward_delta_cache.h"

namespace mongo {
namespace repl {

class ForwardDeltaCursorSource : public CursorSource {
public:
    explicit ForwardDeltaCursorSource(std::unique_ptr<CursorSource> inner);

    std::optional<BSONObj> next(const OperationContext* interruptCtx) override;
    void save() override { _inner->save(); }
    void restore() override;
    std::optional<BSONObj> postBatchResumeToken() const override { return _inner->postBatchResumeToken(); }
    bool ended() const override { return _inner->ended(); }
    void returned(const BSONObj& doc) override { _inner->returned(doc); }

private:
    // Waits for the encoder to examine a record within what is left of this batch's budget.
    std::optional<ForwardDeltaCache::Entry> awaitEncoder(const std::string& engineNs, int64_t recordId);

    std::unique_ptr<CursorSource> _inner;
    std::chrono::steady_clock::time_point _waitUntil;  // this batch's budget ends
};

}  // namespace repl
}  // namespace mongo
