#pragma once
// Avoiding unproductive dedup work (section 3.4), per database:
//  * the governor tracks the compression ratio of each window of inserts (logical bytes over
//    logical minus saved bytes); when a full window (100k inserts by default) stays below the
//    threshold (1.1x), dedup is disabled for the database for good and its index dropped;
//  * the size filter skips records smaller than the database's 40th-percentile record size,
//    re-estimated every 1,000 inserts from a fixed-size uniform sample of record sizes
//    (the threshold starts at 0: everything is deduplicated until the first estimate).
// Thread-safety: not thread-safe; one per database partition, used under the engine lock.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mongo {
namespace dedup {

struct GovernorOptions {
    bool governorEnabled = true;
    double minRatio = 1.1;            // disable below this ratio ...
    uint64_t window = 100000;         // ... measured over this many inserts
    bool sizeFilterEnabled = true;
    double sizePercentile = 0.40;     // skip records below this percentile of sizes
    uint32_t filterUpdateEvery = 1000;
    uint32_t sampleSize = 4096;       // sizes kept for the percentile estimate
};

class DbGovernor {
public:
    explicit DbGovernor(const GovernorOptions& opts = GovernorOptions());

    // Size filter: whether a record of this size should be deduplicated now.
    bool passesSizeFilter(size_t size) const;

    // Every insert (deduplicated or not) reports its size here.
    void onInsert(size_t size);
    // Bytes an encoding saves (the source's stored size minus its delta form).
    void onSavings(int64_t bytes);

    // Ends a window when it is full; returns true exactly once, when it disables dedup.
    bool evaluate();

    bool active() const { return _active; }
    uint64_t sizeThreshold() const { return _threshold; }
    double windowRatio() const;
    double totalRatio() const;
    uint64_t inserts() const { return _inserts; }

private:
    static double ratioOf(uint64_t logical, int64_t saved);

    GovernorOptions _o;
    bool _active = true;
    uint64_t _threshold = 0;
    uint64_t _inserts = 0;
    uint64_t _totalLogical = 0;
    int64_t _totalSaved = 0;
    uint64_t _windowInserts = 0;
    uint64_t _windowLogical = 0;
    int64_t _windowSaved = 0;
    std::vector<uint32_t> _sample;
    uint64_t _rng = 0x2545F4914F6CDD1Dull;
};

}  // namespace dedup
}  // namespace mongo
