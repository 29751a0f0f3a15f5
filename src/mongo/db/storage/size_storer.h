#pragma once
// SizeStorer: durable per-key counters (record count, data bytes) updated inside the caller's
// unit of work, so they are exact after commit, abort, restart and crash recovery. Record
// stores keep numRecords/dataSize here; a wrapping layer (dedup) may keep its own counters
// under its own keys.
// Thread safety: safe for concurrent use; adjust() REQUIRES a unit of work.
#include <string>

#include "mongo/db/operation_context.h"

namespace mongo {

class SizeStorer {
public:
    struct Sizes {
        long long numRecords = 0;
        long long dataSize = 0;
    };
    virtual ~SizeStorer() = default;
    // Committed values plus this operation's uncommitted adjustments.
    virtual Sizes get(OperationContext* opCtx, const std::string& key) const = 0;
    virtual void adjust(OperationContext* opCtx, const std::string& key, long long dRecords, long long dBytes) = 0;
    // Sets both counters (after a truncate or a recount). REQUIRES: in a unit of work.
    virtual void set(OperationContext* opCtx, const std::string& key, Sizes sizes) = 0;
    // Forgets key (its store was dropped). REQUIRES: in a unit of work.
    virtual void remove(OperationContext* opCtx, const std::string& key) = 0;
};

}  // namespace mongo
