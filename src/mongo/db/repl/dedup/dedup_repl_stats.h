#pragma once
// serverStatus().dedup.replication: what forward encoding saves between members, counted on
// both sides (a member may be a sync source and a syncing member at once).
// Thread safety: relaxed atomic counters.
#include <atomic>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class DedupStorage;

namespace repl {

struct DedupReplStats {
    // Sync source: inserts into deduplicated collections served to members that asked for
    // deltas, encoded or whole, with the bytes they would take whole and the bytes sent.
    std::atomic<long long> entriesEncoded{0}, entriesWhole{0};
    std::atomic<long long> logicalBytes{0}, sentBytes{0};
    // Why eligible entries went whole.
    std::atomic<long long> wholeNotEncoded{0}, wholeSourceGone{0}, wholeRecordGone{0}, wholeError{0};
    std::atomic<long long> encoderWaits{0}, encoderWaitTimeouts{0};
    // Member: encoded entries received and rebuilt, their logical and received bytes, and the
    // entries fetched whole because the source was not here as the delta expects.
    std::atomic<long long> entriesDecoded{0}, decodedLogicalBytes{0}, decodedReceivedBytes{0};
    std::atomic<long long> supplementalFetches{0};

    static DedupReplStats& get();
    // The section, with the storage layer's re-encoder figures and forward delta cache
    // (service may be null).
    BSONObj toBSON(const DedupStorage* service) const;
};

}  // namespace repl
}  // namespace mongo
