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

#include "mongo/db/catalog/capped_insert_notifier.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

// A secondary applying a fetched entry: while a scope is alive on this thread, the oplog
// writes that entry verbatim (its ts, t and wall) at the first append() of the operation it
// describes (the op observer's), and nothing at later ones of the same operation (a
// dropDatabase drops each collection through its own hook). The applier writes the entry
// itself when the operation called no hook (a no-op, the delete of a missing document).
class ApplyingEntryScope {
public:
    ApplyingEntryScope(const BSONObj& entry, const OpTime& opTime, Date_t wall);
    ~ApplyingEntryScope();
    static ApplyingEntryScope* current();
    const BSONObj& entry() const { return _entry; }
    const OpTime& opTime() const { return _opTime; }
    Date_t wall() const { return _wall; }
    bool written = false;
    // The member's data may be past this entry (initial sync, replay after a rollback in
    // place): what the operation sees of a document is not what the entry's writer saw.
    bool dataMayBeAhead = false;

private:
    BSONObj _entry;
    OpTime _opTime;
    Date_t _wall;
    ApplyingEntryScope* _prev;
};

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
    // Writes a fetched entry as it is (a secondary), at its own timestamp, in the caller's unit
    // of work. REQUIRES: in a unit of work, the oplog exists.
    void appendVerbatim(OperationContext* opCtx, const BSONObj& entry, const OpTime& opTime, Date_t wall);

    // The newest entry appended by this thread's last write (null if none): what a write
    // command waits on for its write concern.
    static OpTime lastAppendedOnThisThread();
    static void resetLastAppendedOnThisThread();

    // The first entry on disk (null if the oplog is empty or missing) and its document.
    std::pair<OpTime, BSONObj> readFirst(OperationContext* opCtx) const;

    // The newest entry on disk: its optime and wall time (null if the oplog is empty or
    // missing). For startup.
    std::pair<OpTime, Date_t> readLast(OperationContext* opCtx) const;

    // --- isync: replSetResizeOplog
    // Sets the oplog's maximum size (sizeBytes > 0; persisted in its collection options, so it
    // survives restarts; the oldest entries go as new ones arrive) and/or the minimum retention
    // in hours (>= 0; a runtime setting, as MongoDB's). REQUIRES: no catalog lock held.
    void resize(OperationContext* opCtx, long long sizeBytes, double minRetentionHours);
    double minRetentionHours() const { return _minRetentionHours.load(); }
    // Whether the capped oplog may delete entry (its oldest) to stay within its size: not
    // while the entry is younger than the minimum retention period, nor when it is the
    // majority commit point or newer.
    bool mayTruncate(const BSONObj& entry) const;
    // The majority commit point's timestamp (the coordinator's, as it moves; 0: unknown).
    void setMajorityCommitted(Timestamp ts) { _majorityCommitted.store(ts.asULL()); }
    // --- end isync

    // Called after each unit of work that appended entries commits, with its newest entry.
    void setCommitListener(std::function<void(const OpTime&, Date_t)> f) { _listener = std::move(f); }
    // Called before each new entry is written (throws to refuse the write: a node that is no
    // longer primary). Set by the coordinator at startup.
    void setWriteGate(std::function<void()> f) { _writeGate = std::move(f); }

    // Woken when an entry commits and when the majority commit point moves (notifyReaders):
    // what change streams wait on, since an entry becomes an event only once committed.
    std::shared_ptr<CappedInsertNotifier> readerNotifier() const { return _readers; }
    void notifyReaders() { _readers->notifyAll(); }

private:
    std::shared_ptr<CappedInsertNotifier> _readers = std::make_shared<CappedInsertNotifier>();
    struct Pending {  // the newest entry of a unit of work not yet committed
        OpTime opTime;
        Date_t wall;
    };
    void forgetPending(RecoveryUnit* ru);
    void notifyOnCommit(RecoveryUnit* ru, const OpTime& opTime, Date_t wall);

    std::mutex _pendingMutex;
    std::unordered_map<RecoveryUnit*, std::shared_ptr<Pending>> _pending;  // by open unit
    std::atomic<bool> _enabled{false};
    std::atomic<double> _minRetentionHours{0};  // isync: replSetResizeOplog's minRetentionHours
    std::atomic<uint64_t> _majorityCommitted{0};  // the commit point's ts (asULL)
    std::atomic<long long> _term{OpTime::kUninitializedTerm};
    std::function<void(const OpTime&, Date_t)> _listener;
    std::function<void()> _writeGate;
};

}  // namespace repl
}  // namespace mongo
