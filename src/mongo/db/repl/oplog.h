#pragma once
// LocalOplog: local.oplog.rs, the node's oplog: a capped collection of oplog entries
// (oplog_entry.h) in the order their writes committed.
//
// append() writes an entry in the caller's unit of work: it takes the next timestamp from the
// logical clock, makes it the unit's WiredTiger commit timestamp (so the write and its entry
// become visible at the same point in time, and one unit holding several entries commits
// each at its own, increasing, timestamp), fills ts/t/wall, and inserts the entry. When the
// unit commits, the listener (the coordinator) learns the new last applied optime: once per
// unit, with the unit's newest entry.
//
// Order: entries are appended by writers holding the collection write lock or the exclusive
// catalog lock (catalog_lock.h), which serialise every writer; timestamps are therefore
// reserved and committed in the same order, so a reader of the oplog (a tailable cursor)
// never sees an entry before an earlier one.
// Thread safety: as above; setters are for startup/initiate.
#include <functional>
#include <mutex>
#include <memory>
#include <string>
#include <unordered_map>

#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

class LocalOplog {
public:
    static const NamespaceString& nss();  // local.oplog.rs
    static LocalOplog* get();

    // MongoDB's default oplog size on this file system: 5% of the free disk space at dbpath,
    // at least 990 MB and at most 50 GB.
    static long long defaultSizeBytes(const std::string& dbpath);

    // Creates local.oplog.rs (capped at sizeBytes) unless it exists. REQUIRES: the exclusive
    // catalog lock (CatalogDDLLock).
    void create(OperationContext* opCtx, long long sizeBytes);
    bool exists(OperationContext* opCtx) const;

    // Entries are written only while enabled (a replica-set member with a config).
    void setEnabled(bool enabled) { _enabled.store(enabled); }
    bool enabled() const { return _enabled.load(); }
    // The term written into entries ('t').
    void setTerm(long long term) { _term.store(term); }
    long long term() const { return _term.load(); }

    // Appends entry (its ts, t and wall are filled in here) in the caller's unit of work and
    // returns its optime. REQUIRES: in a unit of work, enabled(), the oplog exists.
    OpTime append(OperationContext* opCtx, OplogEntry* entry);

    // The newest entry on disk: its optime and wall time (null if the oplog is empty or
    // missing). For startup.
    std::pair<OpTime, Date_t> readLast(OperationContext* opCtx) const;

    // Called after each unit of work that appended entries commits, with its newest entry.
    void setCommitListener(std::function<void(const OpTime&, Date_t)> f) { _listener = std::move(f); }

private:
    struct Pending {  // the newest entry of a unit of work not yet committed
        OpTime opTime;
        Date_t wall;
    };
    void forgetPending(RecoveryUnit* ru);

    std::mutex _pendingMutex;
    std::unordered_map<RecoveryUnit*, std::shared_ptr<Pending>> _pending;  // by open unit
    std::atomic<bool> _enabled{false};
    std::atomic<long long> _term{OpTime::kUninitializedTerm};
    std::function<void(const OpTime&, Date_t)> _listener;
};

}  // namespace repl
}  // namespace mongo
