#include "mongo/db/repl/dedup/forward_delta_cursor_source.h"

#include "mongo/db/repl/dedup/dedup_repl_stats.h"
#include "mongo/db/repl/dedup/oplog_delta_encoding.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/storage/dedup/dedup_storage.h"

namespace mongo {
namespace repl {
namespace {

ServerParameterWithStorage<long long> gEncoderWaitMillis(
    "dedupOplogEncoderWaitMillis", 50, ServerParameterType::kStartupAndRuntime, [](const long long& v) {
        return v >= 0 && v <= 1000 ? Status::OK()
                                   : Status(ErrorCodes::BadValue, "dedupOplogEncoderWaitMillis must be between 0 and 1000");
    });

std::chrono::steady_clock::time_point budgetEnd() {
    return std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(0LL, gEncoderWaitMillis.get()));
}

}  // namespace

ForwardDeltaCursorSource::ForwardDeltaCursorSource(std::unique_ptr<CursorSource> inner)
    : _inner(std::move(inner)), _waitUntil(budgetEnd()) {}

void ForwardDeltaCursorSource::restore() {
    _inner->restore();
    _waitUntil = budgetEnd();
}

std::optional<ForwardDeltaCache::Entry> ForwardDeltaCursorSource::awaitEncoder(const std::string& engineNs,
                                                                               int64_t recordId) {
    DedupStorage* svc = DedupStorage::get();
    if (!svc || !svc->encoderRunning() || std::chrono::steady_clock::now() >= _waitUntil) return std::nullopt;
    DedupReplStats& stats = DedupReplStats::get();
    stats.encoderWaits.fetch_add(1, std::memory_order_relaxed);
    auto e = svc->forwardDeltas().waitFor(engineNs, recordId, _waitUntil);
    if (e) return e;
    stats.encoderWaitTimeouts.fetch_add(1, std::memory_order_relaxed);
    _waitUntil = std::chrono::steady_clock::now();  // the rest of the batch goes as it is
    return std::nullopt;
}

std::optional<BSONObj> ForwardDeltaCursorSource::next(const OperationContext* interruptCtx) {
    std::optional<BSONObj> d = _inner->next(interruptCtx);
    if (!d || !interruptCtx) return d;
    // The operation's own context: its snapshot is the one the oplog is read through.
    auto* opCtx = const_cast<OperationContext*>(interruptCtx);
    return encodeForMember(opCtx, *d, [this](const std::string& ns, int64_t id) { return awaitEncoder(ns, id); });
}

}  // namespace repl
}  // namespace mongo
