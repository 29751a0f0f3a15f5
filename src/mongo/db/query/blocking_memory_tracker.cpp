#include "mongo/db/query/blocking_memory_tracker.h"

#include "mongo/db/server_parameters.h"

#include <limits>

#include "mongo/base/status.h"

namespace mongo {

BlockingMemoryTracker::BlockingMemoryTracker(long long limitBytes, bool allowDiskUse, std::string noDiskUseMessage,
                                             std::string what)
    : _limit(limitBytes),
      _allowDiskUse(allowDiskUse),
      _noDiskUseMessage(std::move(noDiskUseMessage)),
      _what(std::move(what)) {}

void BlockingMemoryTracker::add(long long bytes) {
    _current += bytes;
    if (_current < 0) _current = 0;
    if (_current <= _limit) return;
    uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed, _noDiskUseMessage, _allowDiskUse);
    long long cap = _limit > std::numeric_limits<long long>::max() / kNoSpillHardCapFactor
                        ? std::numeric_limits<long long>::max()
                        : _limit * kNoSpillHardCapFactor;
    uassert(ErrorCodes::ExceededMemoryLimit,
            _what + " exceeded the in-memory limit of " + std::to_string(cap) +
                " bytes: this server cannot spill to disk, so allowDiskUse raises the limit to " +
                std::to_string(kNoSpillHardCapFactor) + " times " + std::to_string(_limit) + " bytes",
            _current <= cap);
}

BlockingMemoryTracker BlockingMemoryTracker::forSort(bool allowDiskUse, std::string what) {
    const long long limit = internalQueryMaxBlockingSortMemoryUsageBytes();
    return BlockingMemoryTracker(limit, allowDiskUse,
                                 "Sort exceeded memory limit of " + std::to_string(limit) +
                                     " bytes, but did not opt in to external sorting.",
                                 std::move(what));
}

}  // namespace mongo
