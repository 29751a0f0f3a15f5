#include "mongo/db/repl/dedup/dedup_repl_stats.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/dedup/dedup_storage.h"

namespace mongo {
namespace repl {

DedupReplStats& DedupReplStats::get() {
    static DedupReplStats stats;
    return stats;
}

BSONObj DedupReplStats::toBSON(const DedupStorage* service) const {
    BSONObjBuilder b;
    const long long logical = logicalBytes.load(), sent = sentBytes.load();
    {
        BSONObjBuilder& s = b.subobjStart("sent");
        s.append("entriesEncoded", entriesEncoded.load());
        s.append("entriesWhole", entriesWhole.load());
        s.append("logicalBytes", logical);
        s.append("sentBytes", sent);
        s.append("ratio", sent ? double(logical) / double(sent) : 1.0);
        BSONObjBuilder& w = s.subobjStart("wholeBecause");
        w.append("notEncoded", wholeNotEncoded.load());
        w.append("sourceGone", wholeSourceGone.load());
        w.append("recordGone", wholeRecordGone.load());
        w.append("error", wholeError.load());
        w.doneFast();
        s.append("encoderWaits", encoderWaits.load());
        s.append("encoderWaitTimeouts", encoderWaitTimeouts.load());
        s.doneFast();
    }
    {
        const long long dl = decodedLogicalBytes.load(), dr = decodedReceivedBytes.load();
        BSONObjBuilder& r = b.subobjStart("received");
        r.append("entriesDecoded", entriesDecoded.load());
        r.append("logicalBytes", dl);
        r.append("receivedBytes", dr);
        r.append("ratio", dr ? double(dl) / double(dr) : 1.0);
        r.append("supplementalFetches", supplementalFetches.load());
        if (service) {
            r.append("reencoded", service->reencoded());
            r.append("reencodeFallbacks", service->reencodeFallbacks());
        }
        r.doneFast();
    }
    if (service) {
        const ForwardDeltaCache& c = service->forwardDeltas();
        BSONObjBuilder& f = b.subobjStart("forwardDeltaCache");
        f.append("entries", static_cast<long long>(c.entries()));
        f.append("bytes", static_cast<long long>(c.bytes()));
        f.append("capacityBytes", static_cast<long long>(c.capacityBytes()));
        f.doneFast();
    }
    return b.obj();
}

}  // namespace repl
}  // namespace mongo
