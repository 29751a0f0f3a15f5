#include "mongo/db/repl/dedup/entry_rebuilder.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/dedup/dedup_repl_stats.h"
#include "mongo/db/repl/dedup/oplog_delta_encoding.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

// The entry at fetched's ts as source stores it. The oplog has no index on ts: the scan goes
// backwards from the newest entry, near which a fetcher that keeps up reads.
StatusWith<BSONObj> fetchWholeEntry(RemoteClient* source, const BSONObj& fetched, int timeoutMillis) {
    BSONObjBuilder find;
    find.append("find", "oplog.rs");
    BSONObjBuilder f;
    f.appendAs(fetched["ts"], "ts");
    find.append("filter", f.obj());
    BSONObjBuilder natural;
    natural.append("$natural", -1);
    find.append("sort", natural.obj());
    find.append("limit", 1LL);
    find.append("singleBatch", true);
    auto reply = source->runCommand("local", find.obj(), timeoutMillis);
    if (!reply.isOK()) return reply.getStatus();
    BSONElement c = reply.getValue()["cursor"];
    std::vector<BSONElement> batch = c.type() == Object ? c.embeddedObject()["firstBatch"].arrayElements()
                                                        : std::vector<BSONElement>();
    if (batch.empty() || batch[0].type() != Object)
        return Status(ErrorCodes::NoSuchKey, "the sync source no longer has the entry at " + fetched["ts"].toString(false));
    BSONObj whole = batch[0].embeddedObject().getOwned();
    // The same entry (a source that rolled back and wrote another at that ts is not).
    if (whole["t"].woCompare(fetched["t"]) != 0 || whole["ns"].woCompare(fetched["ns"]) != 0 ||
        whole["op"].woCompare(fetched["op"]) != 0 || whole["o2"].woCompare(fetched["o2"]) != 0 ||
        whole["o"].type() != Object ||
        (whole["op"].str() == "i" && whole["o"].embeddedObject()["_id"].woCompare(fetched["o"].embeddedObject()["_id"]) != 0))
        return Status(ErrorCodes::NoSuchKey, "the sync source's entry at " + fetched["ts"].toString(false) +
                                                 " is not the one it sent encoded");
    return whole;
}

}  // namespace

StatusWith<FetchedEntry> rebuildFetchedEntry(OperationContext* opCtx, RemoteClient* source, const BSONObj& fetched,
                                             int timeoutMillis) {
    FetchedEntry out;
    if (!isEncodedEntry(fetched)) {
        out.doc = fetched;
        return out;
    }
    auto decoded = decodeFromLocalSource(opCtx, fetched);
    opCtx->recoveryUnit()->abandonSnapshot();  // not held across the network
    if (decoded.isOK()) {
        out.doc = decoded.getValue().entry;
        out.replicated = decoded.getValue().replicated;
        return out;
    }
    // Whatever the reason (the source is not here as the delta expects, or the encoding is not
    // understood), the entry is fetched whole: dedup never keeps an entry from applying.
    DedupReplStats::get().supplementalFetches.fetch_add(1, std::memory_order_relaxed);
    LOGV2_DEBUG(7700201, 1, Replication, "Fetching an encoded oplog entry whole",
                logv2::attrs("ts", fetched["ts"].toString(false), "reason", decoded.getStatus().toString()));
    auto whole = fetchWholeEntry(source, fetched, timeoutMillis);
    if (!whole.isOK()) return whole.getStatus();
    out.doc = whole.getValue();
    return out;
}

}  // namespace repl
}  // namespace mongo
