#pragma once
// How a replicated insert that arrived as a forward delta (repl/dedup) reaches the storage
// layer's encoder: the fetcher rebuilds the document and applies the entry through the ordinary
// insert path; this tells that insert which record the delta was against, so the encoder skips
// the similarity search (DedupStorage::reencodeLocked).
// Thread safety: the scope is per thread; a ReplicatedDelta is immutable once shared.
#include <cstdint>
#include <memory>
#include <string>

namespace mongo {

// A replicated insert that arrived as a forward delta (repl/dedup): the record it rebuilds
// from, by this member's record id in the same collection, and the delta. The encoder then
// stores the record against that source without a similarity search (the paper's re-encoder,
// Engine::onReplicatedInsert), indexing its features so a failover finds the index warm.
struct ReplicatedDelta {
    int64_t sourceId = 0;
    std::string delta;
    std::string sourceKey;  // the source document's _id as {"": <_id>} (ForwardDeltaCache::Entry)
    // The insert it belongs to: the collection (the engine's namespace) and the record's size.
    std::string engineNs;
    size_t recordSize = 0;
};

// The oplog fetcher sets it around the application of one insert entry that arrived encoded:
// the next insert on this thread of a record of that size into that collection takes it (once).
class ReplicatedDeltaScope {
public:
    explicit ReplicatedDeltaScope(std::shared_ptr<const ReplicatedDelta> d);
    ~ReplicatedDeltaScope();
    ReplicatedDeltaScope(const ReplicatedDeltaScope&) = delete;
    ReplicatedDeltaScope& operator=(const ReplicatedDeltaScope&) = delete;
    // The scope's delta if it is for this insert, and not yet taken.
    static std::shared_ptr<const ReplicatedDelta> take(const std::string& engineNs, size_t recordSize);
};

}  // namespace mongo
