#pragma once
// Reference baselines for dedup_bench, computed on the same records:
//  * every record compressed alone (zstd, snappy): what block compression alone gives;
//  * (a) each record zstd-compressed with the previous version of the same `key` as its
//    dictionary: what an application that knows its own versions could do;
//  * (b) each record zstd-compressed with its most similar earlier record as dictionary, the
//    earlier record sharing the most features of a top-8 sketch of line hashes (ties go to
//    the newest): a similarity search without dbDedup's machinery.
// Thread-safety: stateless functions.
#include <cstdint>
#include <vector>

#include "mongo/db/dedup/tools/jsonl_source.h"

namespace mongo {
namespace dedup {

struct BaselineSizes {
    uint64_t zstdPerRecord = 0;
    uint64_t snappyPerRecord = 0;
    uint64_t zstdPrevKeyDict = 0;   // (a)
    uint64_t zstdSimilarDict = 0;   // (b)
    uint64_t similarFound = 0;      // records for which (b) found a dictionary
};

BaselineSizes computeBaselines(const std::vector<BenchRecord>& records, int zstdLevel = 3);

// The line-hash sketch (b) uses: top-k distinct 64-bit hashes of the record's lines.
std::vector<uint64_t> lineSketch(const std::string& bytes, size_t k = 8);

}  // namespace dedup
}  // namespace mongo
