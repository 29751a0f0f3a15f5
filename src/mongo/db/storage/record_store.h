#pragma once
// RecordStore: a table of opaque byte strings keyed by RecordId — the storage engine API that
// Collection writes documents through. Byte-oriented on purpose: a layer (e.g. dedup) may wrap
// a RecordStore and store something other than the bytes it is given, as long as it gives
// the same bytes back.
//
// Contract for every implementation (checked by the conformance suite in
// record_store_test_harness.h / record_store_conformance_test.cpp):
//   - insertRecord assigns increasing RecordIds (> 0); an id is not reused while the store is
//     open (after a restart, ids above the largest remaining one may be handed out again);
//   - writes REQUIRE an active unit of work on the OperationContext's RecoveryUnit and become
//     visible to others at its commit, vanish on its abort;
//   - numRecords and dataSize (sum of record lengths as given to insert/update) are
//     transactional: right after commit, abort, restart and crash recovery;
//   - errors are thrown as DBException (WriteConflict 112 may be retried by the caller).
// Thread safety: a RecordStore may be used by many threads at once, each with its own
// OperationContext. Cursors belong to one thread and to their OperationContext, which must
// outlive them.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

class BSONObjBuilder;

// A record's bytes, shared (cheap to copy), immutable.
class RecordData {
public:
    RecordData() = default;
    RecordData(std::shared_ptr<const char[]> buf, int size) : _buf(std::move(buf)), _size(size) {}
    static RecordData copyOf(const char* data, int size);
    static RecordData copyOf(std::string_view bytes) { return copyOf(bytes.data(), int(bytes.size())); }
    // Shares an immutable string's bytes without copying them.
    static RecordData sharing(std::shared_ptr<const std::string> s) {
        const int n = int(s->size());
        const char* p = s->data();
        return RecordData(std::shared_ptr<const char[]>(std::move(s), p), n);
    }
    // The bytes [offset, offset + size) of this record, sharing its buffer.
    RecordData slice(size_t offset, int size) const {
        return RecordData(std::shared_ptr<const char[]>(_buf, _buf.get() + offset), size);
    }

    const char* data() const { return _buf.get(); }
    int size() const { return _size; }
    std::string_view view() const { return std::string_view(_buf.get(), _size); }
    // The bytes as an owned BSONObj sharing this buffer. REQUIRES: the bytes are a BSON document.
    BSONObj toBson() const { return BSONObj(_buf, _buf.get()); }

private:
    std::shared_ptr<const char[]> _buf;
    int _size = 0;
};

struct RecordEntry {
    RecordId id;
    RecordData data;
};

// Iterates a record store in RecordId order (forward or reverse).
class SeekableRecordCursor {
public:
    virtual ~SeekableRecordCursor() = default;
    // The next record, nullopt at the end (and stays at the end).
    virtual std::optional<RecordEntry> next() = 0;
    // The record with this id, or nullopt; next() continues after id either way.
    virtual std::optional<RecordEntry> seekExact(RecordId id) = 0;
    // save() releases storage resources and the snapshot position; restore() repositions after
    // the last record returned (records inserted/deleted meanwhile are seen/skipped). Returns
    // false if the store can no longer be read (dropped).
    virtual void save() = 0;
    virtual bool restore() = 0;
};

class RecordStore {
public:
    virtual ~RecordStore() = default;

    // The engine's name for this store's table (e.g. "collection-7-1234").
    virtual const std::string& ident() const = 0;

    // REQUIRES: in a unit of work. Returns the new record's id.
    RecordId insertRecord(OperationContext* opCtx, const char* data, int len) {
        requireUnitOfWork(opCtx);
        invariant(len >= 0);
        return doInsertRecord(opCtx, data, len);
    }
    // Replaces the bytes of an existing record. REQUIRES: in a unit of work; id exists.
    void updateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) {
        requireUnitOfWork(opCtx);
        invariant(!id.isNull() && len >= 0);
        doUpdateRecord(opCtx, id, data, len);
    }
    // REQUIRES: in a unit of work; id exists.
    void deleteRecord(OperationContext* opCtx, RecordId id) {
        requireUnitOfWork(opCtx);
        invariant(!id.isNull());
        doDeleteRecord(opCtx, id);
    }
    // Removes every record. REQUIRES: in a unit of work.
    void truncate(OperationContext* opCtx) {
        requireUnitOfWork(opCtx);
        doTruncate(opCtx);
    }

    virtual std::optional<RecordData> findRecord(OperationContext* opCtx, RecordId id) const = 0;
    virtual std::unique_ptr<SeekableRecordCursor> getCursor(OperationContext* opCtx, bool forward = true) const = 0;

    // As of this operation's view (its own uncommitted writes included).
    virtual long long numRecords(OperationContext* opCtx) const = 0;
    virtual long long dataSize(OperationContext* opCtx) const = 0;
    // Bytes the store occupies on disk.
    virtual long long storageSize(OperationContext* opCtx) const = 0;

    // For a layer that wraps an engine's store (dedup); the engine's stores keep the defaults.
    // The collection is being dropped in this unit of work.
    virtual void onDrop(OperationContext* opCtx) {}
    // Statistics of the layer for collStats/dbStats ({} if none).
    virtual BSONObj layerStats(OperationContext* opCtx) const { return BSONObj(); }
    // validate: checks the layer's invariants (full: decodes every record); appends problems.
    virtual void validateLayer(OperationContext* opCtx, bool full, std::vector<std::string>* errors,
                               std::vector<std::string>* warnings, BSONObjBuilder* result) const {}

protected:
    virtual RecordId doInsertRecord(OperationContext* opCtx, const char* data, int len) = 0;
    virtual void doUpdateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) = 0;
    virtual void doDeleteRecord(OperationContext* opCtx, RecordId id) = 0;
    virtual void doTruncate(OperationContext* opCtx) = 0;

private:
    static void requireUnitOfWork(OperationContext* opCtx) { invariant(opCtx->recoveryUnit()->inUnitOfWork()); }
};

}  // namespace mongo
