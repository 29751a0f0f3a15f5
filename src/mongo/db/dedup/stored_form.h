#pragma once
// How the storage layer keeps a record when dbDedup is on: its stored form is either raw or a
// delta against another record of the same namespace.
//
//   raw:    0x00, then the record's bytes
//   delta:  0x01, varint zigzag(baseId - id), then a dedup delta (delta_format.h) that
//           rebuilds the record from the base record's bytes
//
// Flag 0x80 on the tag marks a record the client deleted that is retained only as a base for
// others (the storage layer hides it); decoding ignores it.
// (A storage layer that can tell raw records apart by other means, e.g. a BSON length
// prefix, may keep raw records untagged; the engine's statistics count the tag byte.)
// decodeRecord() follows bases until a raw form and applies the deltas back; every delta
// verifies its result, so a damaged chain yields DataCorruptionDetected, not wrong bytes.
// Thread-safety: stateless functions; decodeRecord may run concurrently with anything the
// reader allows.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "mongo/base/status.h"

namespace mongo {
namespace dedup {

constexpr uint8_t kStoredRaw = 0x00;
constexpr uint8_t kStoredDelta = 0x01;
constexpr uint8_t kStoredRetainedFlag = 0x80;

std::string makeRawStored(std::string_view bytes);
std::string makeDeltaStored(int64_t id, int64_t baseId, std::string_view delta);
size_t rawStoredSize(size_t recordLen);
size_t deltaStoredSize(int64_t id, int64_t baseId, size_t deltaLen);

// The stored form with the retained flag set or cleared. REQUIRES: stored is not empty.
std::string withRetainedFlag(std::string stored, bool retained);
// The stored form of record `id` as record `newId` would store the same content (a delta's
// base is written relative to the record's own id). Unparsable input is returned as is.
std::string readdressStored(int64_t id, int64_t newId, const std::string& stored);

struct StoredView {
    bool isDelta = false;
    bool retained = false;
    int64_t baseId = 0;
    std::string_view payload;  // the record (raw) or the delta
};
Status parseStored(int64_t id, std::string_view stored, StoredView* out);

// Reads stored forms; implemented by the storage layer (and by test doubles).
class StoredRecordReader {
public:
    virtual ~StoredRecordReader() = default;
    // The stored form of (ns, id) as it is now; NoSuchKey if there is no such record.
    virtual Status readStored(std::string_view ns, int64_t id, std::string* out) = 0;
};

struct DecodeInfo {
    uint32_t steps = 0;      // deltas applied
    uint32_t reads = 0;      // stored forms read
    bool usedKnown = false;  // stopped at a record supplied by `known`
};

// Supplies a record's bytes without reading storage (a cache), or nullptr.
using KnownRecordFn = std::function<std::shared_ptr<const std::string>(int64_t id)>;

// Sees each record a decode rebuilt by applying a delta (the bases on the way and `id` itself),
// in the order they are rebuilt (`bytes` is valid during the call only).
using DecodedFn = std::function<void(int64_t id, const std::string& bytes)>;

// Rebuilds record (ns, id). `known` may short-cut the walk at a cached record (it is not asked
// about `id` itself). More than maxSteps bases (a cycle or a runaway chain) is an error.
Status decodeRecord(StoredRecordReader& reader, std::string_view ns, int64_t id, std::string* out,
                    DecodeInfo* info = nullptr, const KnownRecordFn& known = {},
                    uint32_t maxSteps = 1u << 16, const DecodedFn& onDecoded = {});

// The same with a fetch callback instead of a reader: fetch(id, &stored) returns the stored
// form of record `id` (all in one namespace).
using FetchStoredFn = std::function<Status(int64_t id, std::string* stored)>;
Status decodeRecord(const FetchStoredFn& fetch, int64_t id, std::string* out,
                    DecodeInfo* info = nullptr, const KnownRecordFn& known = {},
                    uint32_t maxSteps = 1u << 16, const DecodedFn& onDecoded = {});

}  // namespace dedup
}  // namespace mongo
