#pragma once
// Identity of a record inside the dedup engine: an interned namespace index and the record id.
// Thread-safety: a value type.
#include <cstddef>
#include <cstdint>
#include <functional>

namespace mongo {
namespace dedup {

struct RecordKey {
    uint32_t ns = 0;
    int64_t id = 0;
    bool operator==(const RecordKey& o) const { return ns == o.ns && id == o.id; }
    bool operator!=(const RecordKey& o) const { return !(*this == o); }
    bool operator<(const RecordKey& o) const { return ns < o.ns || (ns == o.ns && id < o.id); }
};

struct RecordKeyHash {
    size_t operator()(const RecordKey& k) const {
        uint64_t h = uint64_t(k.id) * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.ns) * 0xC2B2AE3D27D4EB4Full);
        return size_t(h ^ (h >> 29));
    }
};

}  // namespace dedup
}  // namespace mongo
