#pragma once
// IXSCAN (and the scans of COUNT_SCAN / DISTINCT_SCAN): walks one index within its bounds.
//
// Bounds that form one contiguous range of the index (point fields, then one interval, then
// unbounded fields) are scanned from a start key to an end key. Other bounds (several
// intervals, or intervals on later fields) are checked key by key; a key outside them makes
// the scan seek straight to the next key that can be inside, as MongoDB's bounds checker
// does, so $in lists and compound ranges cost one seek per gap rather than a full scan.
// Keys of a multikey index are deduplicated by record id. A key filter, when present, is
// evaluated on the document the key stands for before anything is fetched.
#include <set>

#include "mongo/db/query/plan_stage.h"

namespace mongo {

class IndexScanStage : public PlanStage {
public:
    enum class Mode { kScan, kCount, kDistinct };
    IndexScanStage(const SolutionNode* node, StageContext* ctx, Mode mode);
    void save() override;
    void restore() override;
    // Deduplicate from now on; the key filter (planned for fields without arrays) no longer
    // applies: without a FETCH above, the scan fetches each document itself and checks the
    // whole filter on it.
    void adaptToMultikey(bool planFetches) override;

protected:
    std::optional<WorkingMember> doNext() override;
    void appendStageStats(BSONObjBuilder& b) const override;

private:
    struct Seek {
        BSONObj key;
        bool inclusive;
    };
    enum class Check { kIn, kSeek, kDone };
    Check checkKey(const BSONObj& key, Seek* seek) const;
    Seek startSeek() const;
    // "first"/"last" value of field f in the scan's order (MinKey or MaxKey).
    void appendFirst(BSONObjBuilder& b, size_t f) const;
    void appendLast(BSONObjBuilder& b, size_t f) const;
    int effectiveDirection(size_t f) const;
    bool pastEnd(const BSONObj& key) const;

    Mode _mode;
    const IndexEntry& _index;
    std::unique_ptr<IndexCursor> _cursor;
    bool _started = false;
    bool _eof = false;
    std::optional<Seek> _pendingSeek;
    bool _dedup;
    bool _keyFilterValid = true;
    bool _fetchDocuments = false;
    std::set<int64_t> _seen;
    // Single-range scans: [start, end] in scan order.
    bool _range = false;
    BSONObj _startKey, _endKey;
    bool _startInclusive = true, _endInclusive = true;
};

}  // namespace mongo
