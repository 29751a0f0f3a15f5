#include "mongo/db/dedup/feature_index.h"

#include <cstring>

namespace mongo {
namespace dedup {
namespace {

inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr int kMaxKicks = 64;

}  // namespace

FeatureIndex::FeatureIndex(const Metadata* meta, uint32_t maxCandidatesPerFeature,
                           size_t initialEntries)
    : _meta(meta), _cap(maxCandidatesPerFeature == 0 ? 1 : maxCandidatesPerFeature) {
    size_t slots = initialEntries / kBucketsPerSlot * 5 / 4 + 1;
    if (slots < 16)
        slots = 16;
    _slots.assign(slots, Slot{});
}

uint16_t FeatureIndex::checksumOf(Feature f) {
    return static_cast<uint16_t>(mix64(f) >> 48);
}

size_t FeatureIndex::slotOf(Feature f, int fn) const {
    // Sixteen independent functions from one mixer and per-function odd constants; the low
    // bits select the slot ("modulo of the lower-order bits"), the checksum uses the top bits.
    uint64_t h = mix64(f + 0x9E3779B97F4A7C15ull * uint64_t(fn + 1));
    return static_cast<size_t>((h & 0xffffffffffffull) % _slots.size());
}

void FeatureIndex::lookup(Feature f, std::vector<uint32_t>* candidates) const {
    const uint16_t chk = checksumOf(f);
    uint32_t found = 0;
    for (int fn = 0; fn < kHashFunctions; ++fn) {
        const Slot& s = _slots[slotOf(f, fn)];
        for (int b = 0; b < kBucketsPerSlot; ++b) {
            uint32_t p = s.ptr[b];
            if (p == kEmpty)
                return;
            if (p != kTombstone && s.chk[b] == chk && _meta->hasFeature(p, f)) {
                candidates->push_back(p);
                if (++found == _cap)
                    return;
            }
        }
    }
}

bool FeatureIndex::lookupAndInsert(Feature f, uint32_t ptr, std::vector<uint32_t>* candidates) {
    const uint16_t chk = checksumOf(f);
    uint32_t found = 0;
    Slot* freeSlot = nullptr;  // first tombstone or the empty bucket that ended the search
    int freeBucket = -1;
    Slot* lruSlot = nullptr;
    int lruBucket = -1;
    uint64_t lruUsed = ~0ull;
    bool ended = false;
    for (int fn = 0; fn < kHashFunctions && !ended; ++fn) {
        Slot& s = _slots[slotOf(f, fn)];
        for (int b = 0; b < kBucketsPerSlot; ++b) {
            uint32_t p = s.ptr[b];
            if (p == kEmpty) {
                if (!freeSlot) {
                    freeSlot = &s;
                    freeBucket = b;
                }
                ended = true;
                break;
            }
            if (p == kTombstone) {
                if (!freeSlot) {
                    freeSlot = &s;
                    freeBucket = b;
                }
                continue;
            }
            if (s.chk[b] != chk || !_meta->hasFeature(p, f))
                continue;
            if (p == ptr)
                return false;  // already indexed (a record re-inserted after an update)
            candidates->push_back(p);
            uint64_t used = _meta->lastUsed(p);
            if (used < lruUsed) {
                lruUsed = used;
                lruSlot = &s;
                lruBucket = b;
            }
            if (++found == _cap) {
                ended = true;
                break;
            }
        }
    }
    if (found == _cap) {
        // The bucket of the least recently used holder is on f's path: reuse it in place.
        lruSlot->ptr[lruBucket] = ptr;
        ++_evictions;
        return true;
    }
    if (freeSlot) {
        if (freeSlot->ptr[freeBucket] == kTombstone)
            --_tombstones;
        freeSlot->chk[freeBucket] = chk;
        freeSlot->ptr[freeBucket] = ptr;
    } else {
        Entry e{f, chk, ptr}, homeless;
        while (!place(e, &homeless)) {
            grow();
            e = homeless;
        }
    }
    ++_live;
    if ((_live + _tombstones) * 100 > capacity() * 93)
        grow();
    return false;
}

bool FeatureIndex::remove(Feature f, uint32_t ptr) {
    const uint16_t chk = checksumOf(f);
    for (int fn = 0; fn < kHashFunctions; ++fn) {
        Slot& s = _slots[slotOf(f, fn)];
        for (int b = 0; b < kBucketsPerSlot; ++b) {
            uint32_t p = s.ptr[b];
            if (p == kEmpty)
                return false;
            if (p == ptr && s.chk[b] == chk) {
                // A tombstone, not an empty bucket: later entries of other features on this
                // path must stay reachable.
                s.ptr[b] = kTombstone;
                --_live;
                ++_tombstones;
                return true;
            }
        }
    }
    return false;
}

bool FeatureIndex::place(Entry e, Entry* homeless) {
    for (int round = 0; round <= kMaxKicks; ++round) {
        for (int fn = 0; fn < kHashFunctions; ++fn) {
            Slot& s = _slots[slotOf(e.f, fn)];
            for (int b = 0; b < kBucketsPerSlot; ++b) {
                if (s.ptr[b] == kEmpty || s.ptr[b] == kTombstone) {
                    if (s.ptr[b] == kTombstone)
                        --_tombstones;
                    s.chk[b] = e.chk;
                    s.ptr[b] = e.ptr;
                    return true;
                }
            }
        }
        if (round == kMaxKicks)
            break;
        // Every bucket on the path is taken: take a random one and carry its entry on.
        _rng = _rng * 6364136223846793005ull + 1442695040888963407ull;
        int fn = int((_rng >> 33) % kHashFunctions);
        int b = int((_rng >> 45) % kBucketsPerSlot);
        size_t slotIdx = slotOf(e.f, fn);
        Slot& s = _slots[slotIdx];
        Entry victim{0, s.chk[b], s.ptr[b]};
        if (!featureForEntry(slotIdx, victim.chk, victim.ptr, &victim.f))
            break;  // unreachable for a consistent table; growing rebuilds it
        s.chk[b] = e.chk;
        s.ptr[b] = e.ptr;
        ++_kicks;
        e = victim;
    }
    *homeless = e;
    return false;
}

namespace {
struct FindCtx {
    const FeatureIndex* index;
    size_t slot;
    uint16_t chk;
    bool found = false;
    Feature f = 0;
};
void findFeature(void* c, Feature f) {
    FindCtx* ctx = static_cast<FindCtx*>(c);
    if (ctx->found || FeatureIndex::checksumOf(f) != ctx->chk)
        return;
    for (int fn = 0; fn < FeatureIndex::kHashFunctions; ++fn) {
        if (ctx->index->slotOf(f, fn) == ctx->slot) {
            ctx->found = true;
            ctx->f = f;
            return;
        }
    }
}
}  // namespace

bool FeatureIndex::featureForEntry(size_t slot, uint16_t chk, uint32_t ptr, Feature* out) const {
    // The bucket keeps only a checksum; the feature itself is in the record's sketch: the one
    // with this checksum whose path passes through this slot.
    FindCtx ctx{this, slot, chk};
    _meta->forEachFeature(ptr, &findFeature, &ctx);
    if (!ctx.found)
        return false;
    *out = ctx.f;
    return true;
}

void FeatureIndex::grow() {
    std::vector<Entry> all;
    all.reserve(_live);
    for (size_t i = 0; i < _slots.size(); ++i) {
        const Slot& s = _slots[i];
        for (int b = 0; b < kBucketsPerSlot; ++b) {
            uint32_t p = s.ptr[b];
            if (p == kEmpty || p == kTombstone)
                continue;
            Entry e{0, s.chk[b], p};
            if (featureForEntry(i, e.chk, p, &e.f))
                all.push_back(e);
        }
    }
    size_t slots = _slots.size();
    while (true) {
        slots = slots * 5 / 4 + 1;
        _slots.assign(slots, Slot{});
        _tombstones = 0;
        bool ok = true;
        Entry homeless;
        for (const Entry& e : all) {
            if (!place(e, &homeless)) {
                ok = false;
                break;
            }
        }
        if (ok)
            break;
    }
    _live = all.size();
    ++_rehashes;
}

}  // namespace dedup
}  // namespace mongo
