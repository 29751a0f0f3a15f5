#pragma once
// WiredTigerSizeStorer: SizeStorer over the WiredTiger table "table:sizeStorer"
// (key: the counter's name, value: two little-endian int64: records, bytes). Each adjust()
// rewrites the row inside the caller's transaction, so the counters recover with the data
// from the journal after a crash. Committed values are cached in memory; the uncommitted
// part is tracked per recovery unit and folded in on commit.
// Thread safety: thread safe. Concurrent writers of one key conflict in WiredTiger
// (WriteConflict), as any concurrent update of one row would.
#include <map>
#include <mutex>
#include <string>

#include "mongo/db/storage/size_storer.h"

namespace mongo {

class WiredTigerKVEngine;
class WiredTigerRecoveryUnit;

class WiredTigerSizeStorer : public SizeStorer {
public:
    static constexpr const char* kUri = "table:sizeStorer";
    explicit WiredTigerSizeStorer(WiredTigerKVEngine* engine);

    Sizes get(OperationContext* opCtx, const std::string& key) const override;
    void adjust(OperationContext* opCtx, const std::string& key, long long dRecords, long long dBytes) override;
    void set(OperationContext* opCtx, const std::string& key, Sizes sizes) override;
    void remove(OperationContext* opCtx, const std::string& key) override;

private:
    struct Pending {
        Sizes delta;
        bool replaced = false;  // set()/remove(): committed value is replaced, not adjusted
        bool removed = false;
    };
    Sizes committedLocked(const std::string& key) const;
    // The pending entry of (recovery unit, key), registering commit/rollback handlers once.
    Pending& pendingLocked(WiredTigerRecoveryUnit* ru, const std::string& key);
    void writeRow(OperationContext* opCtx, const std::string& key, Sizes s, bool remove);
    // The row in a WiredTiger transaction of its own (after a multi-statement one commits).
    void writeRowOwnTransaction(const std::string& key, Sizes s, bool remove);

    WiredTigerKVEngine* _engine;
    mutable std::mutex _mutex;
    std::map<std::string, Sizes> _committed;
    std::map<std::pair<WiredTigerRecoveryUnit*, std::string>, Pending> _pending;
};

}  // namespace mongo
