#include "mongo/db/repl/repl_metrics.h"

#include <atomic>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/serverstatus_section.h"

namespace mongo {
namespace repl {
namespace {

std::atomic<long long> gBytes{0}, gOps{0}, gGetMores{0}, gGetMoreMillis{0};

BSONObj replMetrics(OperationContext*) {
    BSONObjBuilder b;
    BSONObjBuilder& n = b.subobjStart("network");
    n.append("bytes", gBytes.load());
    n.append("ops", gOps.load());
    BSONObjBuilder& g = n.subobjStart("getmores");
    g.append("num", gGetMores.load());
    g.append("totalMillis", gGetMoreMillis.load());
    g.doneFast();
    n.doneFast();
    return b.obj();
}

[[maybe_unused]] const bool kRegistered = (registerServerStatusMetric("repl", replMetrics), true);

}  // namespace

void noteBatchReceived(const std::vector<BSONElement>& batch) {
    long long bytes = 0;
    for (const BSONElement& e : batch) bytes += e.valuesize();
    gBytes.fetch_add(bytes, std::memory_order_relaxed);
    gOps.fetch_add(static_cast<long long>(batch.size()), std::memory_order_relaxed);
}

void noteOplogGetMore(long long millis) {
    gGetMores.fetch_add(1, std::memory_order_relaxed);
    gGetMoreMillis.fetch_add(millis, std::memory_order_relaxed);
}

}  // namespace repl
}  // namespace mongo
