#pragma once
// Runs a QuerySolution: fetches, filters (always with the whole filter), sorts, skips, limits
// and projects. Owns its own OperationContext for storage, so a find's cursor can live on
// across getMore commands (saveState between batches, restoreState before the next).
// Not thread safe: used by one command at a time.
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/query/query_planner.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

struct PlanStats {
    long long nReturned = 0;
    long long keysExamined = 0;
    long long docsExamined = 0;
};

class PlanExecutor {
public:
    // Parses the request (throws on bad filter/sort/projection/hint) and plans it. coll may be
    // null (the namespace does not exist: no results). client: owner of the storage context.
    // REQUIRES: the caller holds at least a shared catalog lock.
    PlanExecutor(Client* client, const Collection* coll, const NamespaceString& nss, QueryRequest qr);
    ~PlanExecutor();

    // The next result (projected), or nullopt at the end. id / raw receive the record's id and
    // the unprojected document. interruptCtx: the running command (maxTimeMS, kill).
    std::optional<BSONObj> getNext(const OperationContext* interruptCtx, RecordId* id = nullptr,
                                   BSONObj* raw = nullptr);
    bool isEOF() const { return _eof; }

    // Releases storage resources between batches.
    void saveState();
    // REQUIRES: shared catalog lock. Throws QueryPlanKilled (175) if the collection was dropped
    // or replaced, or the plan's index dropped, since saveState().
    void restoreState(const Collection* coll);

    const NamespaceString& nss() const { return _nss; }
    const QuerySolution& solution() const { return _sol; }
    const PlanStats& stats() const { return _stats; }
    // queryPlanner.winningPlan as explain shows it.
    BSONObj winningPlan() const;
    // The storage context (for writes that must read in the same snapshot). Rarely needed.
    OperationContext* storageContext() const { return _opCtx.get(); }

private:
    std::optional<Record> nextFiltered(const OperationContext* interruptCtx);
    // The blocking sort: reads every match, keeps them (or the first skip + limit) in sort
    // order. Throws 292 past internalQueryMaxBlockingSortMemoryUsageBytes without allowDiskUse.
    void sortAll(const OperationContext* interruptCtx);
    std::optional<Record> nextFromAccessPath();
    std::optional<Record> nextFromIndex();
    void buildScans();
    BSONObj project(const BSONObj& doc) const;

    std::unique_ptr<OperationContext> _opCtx;
    const Collection* _coll;
    std::string _collUuid;
    NamespaceString _nss;
    QueryRequest _qr;
    QuerySolution _sol;
    // The plan's index as it was when planned: restoreState() checks it still exists.
    std::string _indexName;
    BSONObj _indexSpec;
    Matcher _matcher;
    std::unique_ptr<Projection> _projection;
    std::unique_ptr<SortPattern> _sort;
    PlanStats _stats;

    std::unique_ptr<RecordCursor> _recCursor;
    std::unique_ptr<IndexCursor> _idxCursor;
    struct Scan {
        BSONObj start, end;  // in iteration order
    };
    std::vector<Scan> _scans;
    size_t _scanIdx = 0;
    bool _scanStarted = false;
    std::optional<IndexKeyEntry> _lastKey;  // position to resume after restore
    std::set<int64_t> _seen;                // record ids already returned by a multikey/multi-scan
    bool _idHackDone = false;

    bool _sorted = false;
    std::vector<Record> _sortedDocs;
    size_t _sortedPos = 0;
    long long _skipped = 0;
    bool _eof = false;
};

}  // namespace mongo
