#pragma once
// The feature index of dbDedup (thesis section 5.2): a compact cuckoo hash table mapping a
// feature to the records whose sketch holds it.
//
// Each bucket is 6 bytes: a 2-byte checksum of the feature and a 4-byte pointer into the
// dedup-metadata container (RecordTable), where the record's id and full sketch live. Slots
// hold 8 buckets; a feature has 16 candidate slots, one per hash function, probed in order.
// A lookup compares checksums, confirms each hit against the record's sketch (so checksum
// collisions never produce candidates), and stops at the first empty bucket: the new entry
// goes there (or into the first tombstone passed). When all 16 slots are full, a random
// bucket on the path is taken and its entry re-inserted along its own path (cuckoo kick).
// At most `maxCandidatesPerFeature` records are kept per feature: when a lookup finds that
// many, the least recently used of them is replaced by the new record.
// The table grows by 1.25x when 93% full, so it stays above ~74% load, about 8 bytes per
// entry at worst and ~6.5 on average.
//
// Thread-safety: not thread-safe; the engine guards each partition's index with its lock.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mongo/db/dedup/feature_extractor.h"

namespace mongo {
namespace dedup {

class FeatureIndex {
public:
    static constexpr int kHashFunctions = 16;
    static constexpr int kBucketsPerSlot = 8;
    static constexpr uint32_t kEmpty = 0;
    static constexpr uint32_t kTombstone = 0xffffffffu;

    // What the index needs from the metadata container. Pointers are 1-based (0 = empty).
    class Metadata {
    public:
        virtual ~Metadata() = default;
        virtual bool hasFeature(uint32_t ptr, Feature f) const = 0;
        virtual uint64_t lastUsed(uint32_t ptr) const = 0;
        // Calls fn(feature) for each feature of the record's sketch (used when rehashing).
        virtual void forEachFeature(uint32_t ptr, void (*fn)(void*, Feature), void* ctx) const = 0;
    };

    // `meta` must outlive the index. initialEntries sizes the table (it grows as needed).
    FeatureIndex(const Metadata* meta, uint32_t maxCandidatesPerFeature = 8,
                 size_t initialEntries = 1024);

    // Appends to *candidates every record indexed under f (at most the cap), then indexes
    // (f -> ptr), evicting the least recently used holder of f if the cap was reached.
    // Returns true if an entry was evicted.
    bool lookupAndInsert(Feature f, uint32_t ptr, std::vector<uint32_t>* candidates);

    // Lookup without inserting.
    void lookup(Feature f, std::vector<uint32_t>* candidates) const;

    // Removes (f -> ptr) if present. Returns whether it was there.
    bool remove(Feature f, uint32_t ptr);

    size_t entries() const { return _live; }
    size_t capacity() const { return _slots.size() * kBucketsPerSlot; }
    size_t memoryBytes() const { return _slots.size() * sizeof(Slot); }
    uint64_t evictions() const { return _evictions; }
    uint64_t kicks() const { return _kicks; }
    uint64_t rehashes() const { return _rehashes; }

    static uint16_t checksumOf(Feature f);
    size_t slotOf(Feature f, int fn) const;

private:
    struct Slot {
        uint16_t chk[kBucketsPerSlot];
        uint32_t ptr[kBucketsPerSlot];
    };
    static_assert(sizeof(Slot) == 48, "6 bytes per bucket");

    struct Entry {
        Feature f;
        uint16_t chk;
        uint32_t ptr;
    };

    // Places e without looking for matches, kicking entries along the way if needed. If the
    // kick budget runs out, *homeless receives the entry left without a bucket (not
    // necessarily e) and the caller grows the table.
    bool place(Entry e, Entry* homeless);
    void grow();
    bool featureForEntry(size_t slot, uint16_t chk, uint32_t ptr, Feature* out) const;

    const Metadata* _meta;
    uint32_t _cap;
    std::vector<Slot> _slots;
    size_t _live = 0;
    size_t _tombstones = 0;
    uint64_t _evictions = 0;
    uint64_t _kicks = 0;
    uint64_t _rehashes = 0;
    uint64_t _rng = 0x853c49e6748fea9bull;
};

}  // namespace dedup
}  // namespace mongo
