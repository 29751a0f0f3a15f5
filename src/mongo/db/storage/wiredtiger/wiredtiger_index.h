#pragma once
// WiredTigerIndex: a SortedDataInterface over a "table:<ident>" with key_format=u holding
// KeyString(key values) + RecordId (8 bytes) and value_format=u holding the key's type bits
// (usually empty). Every index, unique or not, has one WT row per (key, RecordId); a unique
// index checks for another RecordId under the same key before inserting. That check is exact
// because writers are serialised (db/catalog/catalog_lock.h) and, failing that, WiredTiger
// would report the concurrent writes as a WriteConflict only if they touched the same row —
// so the serialisation is REQUIRED for uniqueness. Multi-document transactions write outside
// it (their units stay open across commands): while one is open, an insert also looks for the
// key among uncommitted writes, and finding it there is a WriteConflict.
// Thread safety: as SortedDataInterface.
#include <string>

#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class WiredTigerKVEngine;

class WiredTigerIndex : public SortedDataInterface {
public:
    WiredTigerIndex(WiredTigerKVEngine* engine, std::string ident, const SortedDataOptions& options);

    const std::string& ident() const override { return _ident; }
    key_string::Ordering ordering() const override { return _options.ordering; }
    Status insert(OperationContext* opCtx, const BSONObj& key, RecordId loc, bool dupsAllowed) override;
    void unindex(OperationContext* opCtx, const BSONObj& key, RecordId loc) override;
    std::optional<RecordId> findDuplicate(OperationContext* opCtx, const BSONObj& key, RecordId loc) const override;
    void truncate(OperationContext* opCtx) override;
    std::unique_ptr<Cursor> newCursor(OperationContext* opCtx, bool forward) const override;
    long long numEntries(OperationContext* opCtx) const override;
    bool isEmpty(OperationContext* opCtx) const override;
    long long sizeBytes(OperationContext* opCtx) const override;

private:
    std::optional<RecordId> findDuplicateEncoded(OperationContext* opCtx, const std::string& prefix, RecordId loc) const;
    // Whether another RecordId holds the key in the newest state of the table, uncommitted
    // writes included (a read-uncommitted transaction on a session of its own).
    bool uncommittedDuplicateExists(const std::string& prefix, RecordId loc) const;

    WiredTigerKVEngine* _engine;
    std::string _ident;
    std::string _uri;
    SortedDataOptions _options;
};

}  // namespace mongo
