#pragma once
// SortedDataInterface: one index's entries, (key values, RecordId) pairs kept in KeyString
// order (key values by the index's per-field directions, then RecordId ascending).
// Keys are BSONObjs with empty field names: {"": 5, "": "x"}.
//
// Writes REQUIRE a unit of work. Errors are thrown as DBException, except duplicate keys,
// which insert() returns as a Status so the caller can phrase MongoDB's E11000 message.
// Thread safety: as RecordStore. Cursors belong to one thread and their OperationContext.
#include <memory>
#include <optional>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

struct KeyEntry {
    BSONObj key;  // the key values as inserted (types preserved), field names empty
    RecordId loc;
};

class SortedDataInterface {
public:
    class Cursor {
    public:
        virtual ~Cursor() = default;
        // Forward cursor: positions on the first entry with key >= key (> key when !inclusive);
        // reverse cursor: on the last entry with key <= key (< key). Returns that entry.
        virtual std::optional<KeyEntry> seek(const BSONObj& key, bool inclusive) = 0;
        virtual std::optional<KeyEntry> next() = 0;
        // As SeekableRecordCursor: restore() repositions after the last returned entry.
        virtual void save() = 0;
        virtual bool restore() = 0;
    };

    virtual ~SortedDataInterface() = default;
    virtual const std::string& ident() const = 0;
    virtual key_string::Ordering ordering() const = 0;

    // Adds (key, loc). Without dupsAllowed, returns DuplicateKey if another RecordId already has
    // an equal key (the Status reason holds the existing key's RecordId as decimal text).
    // Re-inserting an existing (key, loc) is a no-op. REQUIRES: in a unit of work.
    virtual Status insert(OperationContext* opCtx, const BSONObj& key, RecordId loc, bool dupsAllowed) = 0;
    // Removes (key, loc) if present. REQUIRES: in a unit of work.
    virtual void unindex(OperationContext* opCtx, const BSONObj& key, RecordId loc) = 0;
    // Some RecordId other than loc with an equal key, if any (unique checks).
    virtual std::optional<RecordId> findDuplicate(OperationContext* opCtx, const BSONObj& key, RecordId loc) const = 0;
    // Removes every entry. REQUIRES: in a unit of work.
    virtual void truncate(OperationContext* opCtx) = 0;

    virtual std::unique_ptr<Cursor> newCursor(OperationContext* opCtx, bool forward = true) const = 0;
    // Counts entries (a full scan).
    virtual long long numEntries(OperationContext* opCtx) const = 0;
    virtual bool isEmpty(OperationContext* opCtx) const = 0;
    // Bytes on disk.
    virtual long long sizeBytes(OperationContext* opCtx) const = 0;
};

}  // namespace mongo
