#pragma once
// The memory a blocking stage holds ($sort, $group, $bucketAuto, find's blocking SORT), checked
// against MongoDB's per-stage limit (internalQueryMaxBlockingSortMemoryUsageBytes,
// internalDocumentSourceGroupMaxMemoryBytes: 100 MB).
//
// Past the limit MongoDB spills to disk when allowDiskUse is true (the default since 6.0,
// allowDiskUseByDefault) and fails with QueryExceededMemoryLimitNoDiskUseAllowed (292) when it
// is false. This server cannot spill: with allowDiskUse the stage keeps going in memory, up to
// kNoSpillHardCapFactor times the limit, then fails with ExceededMemoryLimit (146) rather than
// exhausting the machine's memory.
// Not thread safe: one per stage run.
#include <string>

namespace mongo {

class BlockingMemoryTracker {
public:
    static constexpr long long kNoSpillHardCapFactor = 5;

    // noDiskUseMessage: MongoDB's text for 292 (e.g. "Sort exceeded memory limit of 104857600
    // bytes, but did not opt in to external sorting."). what: the stage, for the 146 message.
    BlockingMemoryTracker(long long limitBytes, bool allowDiskUse, std::string noDiskUseMessage, std::string what);
    // A blocking sort's tracker: internalQueryMaxBlockingSortMemoryUsageBytes and MongoDB's
    // sort message. what: the stage ("$sort", "$bucketAuto", find's "Sort").
    static BlockingMemoryTracker forSort(bool allowDiskUse, std::string what);

    // Records bytes more (or fewer, when negative); throws 292 / 146 as above.
    void add(long long bytes);
    long long current() const { return _current; }
    long long limit() const { return _limit; }

private:
    long long _limit;
    bool _allowDiskUse;
    std::string _noDiskUseMessage;
    std::string _what;
    long long _current = 0;
};

}  // namespace mongo
