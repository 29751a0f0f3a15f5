#pragma once
// The cluster-wide default read and write concerns (setDefaultRWConcern / getDefaultRWConcern,
// MongoDB 4.4+): one document, {_id: "ReadWriteConcernDefaults", defaultReadConcern,
// defaultWriteConcern, updateOpTime, updateWallClockTime}, in config.settings. The primary
// writes it through the normal write path, so it replicates as any document and every member
// reads the same defaults. A command without its own readConcern / writeConcern runs with them.
//
// Members keep the document cached and read it again at most every kRefreshMillis (and at once
// on the member that just wrote it): a secondary may use the previous defaults for that long
// after applying a change (MongoDB refreshes its cache from the same document, also lazily).
// Thread safety: every method may be called from any thread.
#include <chrono>
#include <mutex>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"

namespace mongo {
namespace repl {

class RWConcernDefaults {
public:
    static RWConcernDefaults& get();
    static constexpr long long kRefreshMillis = 500;

    struct Defaults {
        BSONObj readConcern;   // empty: none set (the implicit {level: "local"})
        BSONObj writeConcern;  // empty: none set (the implicit {w: "majority", wtimeout: 0})
        std::optional<Timestamp> updateOpTime;
        std::optional<Date_t> updateWallClockTime;
        Date_t localUpdateWallClockTime;  // when this member last read the document
    };
    Defaults current(OperationContext* opCtx);

    // setDefaultRWConcern's body: validates (MongoDB's codes and messages) and writes the new
    // document through the write path. REQUIRES: the primary of a replica set.
    void set(OperationContext* opCtx, const BSONObj& cmd);

    // The reply of both commands (getDefaultRWConcern's and setDefaultRWConcern's).
    static void appendReply(const Defaults& d, BSONObjBuilder* result);

private:
    Defaults load(OperationContext* opCtx);

    std::mutex _mutex;
    std::optional<Defaults> _cached;
    std::chrono::steady_clock::time_point _loadedAt;
};

}  // namespace repl
}  // namespace mongo
