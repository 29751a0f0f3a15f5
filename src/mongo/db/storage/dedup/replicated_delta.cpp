#include "mongo/db/storage/dedup/replicated_delta.h"

namespace mongo {
namespace {
thread_local std::shared_ptr<const ReplicatedDelta> tlsReplicatedDelta;
}  // namespace

ReplicatedDeltaScope::ReplicatedDeltaScope(std::shared_ptr<const ReplicatedDelta> d) {
    tlsReplicatedDelta = std::move(d);
}

ReplicatedDeltaScope::~ReplicatedDeltaScope() { tlsReplicatedDelta.reset(); }

std::shared_ptr<const ReplicatedDelta> ReplicatedDeltaScope::take(const std::string& engineNs, size_t recordSize) {
    if (!tlsReplicatedDelta || tlsReplicatedDelta->recordSize != recordSize || tlsReplicatedDelta->engineNs != engineNs)
        return nullptr;
    return std::move(tlsReplicatedDelta);
}

}  // namespace mongo
