#pragma once
// WiredTigerRecordStore: a RecordStore over a "table:<ident>" with key_format=q (the RecordId)
// and value_format=u (the bytes). RecordIds come from an in-memory counter seeded with the
// largest id in the table at open. numRecords/dataSize live in the engine's SizeStorer under
// the ident, updated in the same transaction as the record.
// Thread safety: as RecordStore (thread safe; cursors are not).
#include <atomic>
#include <string>

#include "mongo/db/storage/record_store.h"

namespace mongo {

class WiredTigerKVEngine;

class WiredTigerRecordStore : public RecordStore {
public:
    WiredTigerRecordStore(WiredTigerKVEngine* engine, std::string ident);

    const std::string& ident() const override { return _ident; }
    std::optional<RecordData> findRecord(OperationContext* opCtx, RecordId id) const override;
    std::unique_ptr<SeekableRecordCursor> getCursor(OperationContext* opCtx, bool forward) const override;
    long long numRecords(OperationContext* opCtx) const override;
    long long dataSize(OperationContext* opCtx) const override;
    long long storageSize(OperationContext* opCtx) const override;

protected:
    RecordId doInsertRecord(OperationContext* opCtx, const char* data, int len) override;
    void doUpdateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) override;
    void doDeleteRecord(OperationContext* opCtx, RecordId id) override;
    void doTruncate(OperationContext* opCtx) override;

private:
    WiredTigerKVEngine* _engine;
    std::string _ident;
    std::string _uri;
    std::atomic<int64_t> _nextId{1};
};

}  // namespace mongo
