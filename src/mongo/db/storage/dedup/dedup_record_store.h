#pragma once
// DedupRecordStore: the record store of a collection created under --dedup (paper section
// 4.1, thesis 5.1.1). It wraps the engine's store (WiredTiger) and keeps every record in its
// dedup stored form (db/dedup/stored_form.h): raw (tag 0x00, then the bytes) or a delta
// against a newer record of the same collection (tag 0x01), with flag 0x80 on records the
// client deleted that are retained because others decode through them.
//
// What Collection sees is unchanged: logical bytes in, the same bytes out. numRecords and
// dataSize count live records and their logical bytes (kept in the SizeStorer under
// "<ident>.dedupLogical", transactional like the engine's own counters); the engine's
// counters under the ident measure the stored forms.
//
//   insert  stores the record raw; at commit the record is queued for the engine (the
//           encoding and the source's write-back happen off the client's path);
//   update  stores the new bytes raw; if others decode through the old bytes, those are kept
//           first as a retained record under a new id and the dependents re-pointed at it
//           (their deltas unchanged), all in the client's unit of work; write-backs later
//           move them onto the new bytes and the old ones go;
//   delete  removes the record, or, if others decode through it, keeps it flagged retained
//           (hidden from every read) until the engine frees it;
//   read    decodes deltas through the same snapshot, taking bases (or the record itself)
//           from the decoded record cache when it holds them for this snapshot, and leaves
//           what it rebuilt there (dedup/decoded_record_cache.h); a raw record is returned
//           without a copy.
// The engine's write-backs reach writeBack(), which verifies that the new form decodes to the
// record's current bytes before replacing it: a stale or damaged write-back is dropped, so
// data never depends on the engine's bookkeeping being right.
// Thread safety: as RecordStore. The engine's callbacks (readStored, writeBack,
// removeRetained) run with the caller's OperationContext (DedupOpCtxScope).
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/record_key.h"
#include "mongo/db/dedup/stored_form.h"
#include "mongo/db/storage/dedup/transaction_changes.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/size_storer.h"

namespace mongo {
namespace dedup {
class DecodedRecordCache;
}  // namespace dedup

class DedupStorage;

class DedupRecordStore : public RecordStore {
public:
    // engineNs: the collection's name for the engine, "<db>.<ident>" (stable across renames;
    // the engine partitions by the part before the first dot).
    DedupRecordStore(std::unique_ptr<RecordStore> base, std::string engineNs, SizeStorer* sizes,
                     DedupStorage* service);
    ~DedupRecordStore() override;

    const std::string& ident() const override { return _base->ident(); }
    const std::string& engineNs() const { return _engineNs; }
    std::optional<RecordData> findRecord(OperationContext* opCtx, RecordId id) const override;
    std::unique_ptr<SeekableRecordCursor> getCursor(OperationContext* opCtx, bool forward) const override;
    long long numRecords(OperationContext* opCtx) const override;
    long long dataSize(OperationContext* opCtx) const override;
    long long storageSize(OperationContext* opCtx) const override;

    void onDrop(OperationContext* opCtx) override;
    BSONObj layerStats(OperationContext* opCtx) const override;
    void validateLayer(OperationContext* opCtx, bool full, std::vector<std::string>* errors,
                       std::vector<std::string>* warnings, BSONObjBuilder* result) const override;

    // A client's view of a stored record (findRecord, cursors): logicalRecord, or what the
    // transaction of opCtx's recovery unit changed of it (transaction_changes.h).
    std::optional<RecordData> clientRecord(OperationContext* opCtx, RecordId id, const RecordData& stored) const;

    // --- For DedupStorage and the engine's callbacks ---
    // The stored form of id (NoSuchKey if absent).
    Status readStored(OperationContext* opCtx, int64_t id, std::string* out) const;
    // The logical record behind a stored form read from the engine's store (nullopt if it
    // is retained). Throws DataCorruptionDetected if it cannot be decoded.
    std::optional<RecordData> logicalRecord(OperationContext* opCtx, RecordId id, const RecordData& stored) const;
    // The record's logical bytes through the opCtx's snapshot, retained records included.
    Status decode(OperationContext* opCtx, int64_t id, std::string* out) const;
    // The bytes that stored form `stored` of record `id` (not necessarily the one on disk)
    // rebuilds, reading bases through the opCtx's snapshot. onBaseRead sees each base's stored
    // form as it is read; known may supply a base's bytes (a cache) instead.
    // onDecoded sees every record rebuilt on the way (decoded_record_cache.h's fills).
    using BaseReadFn = std::function<void(int64_t id, const std::string& stored)>;
    Status decodeStored(OperationContext* opCtx, int64_t id, std::string_view stored, std::string* out,
                        const BaseReadFn& onBaseRead = {}, const dedup::KnownRecordFn& known = {},
                        const dedup::DecodedFn& onDecoded = {}, dedup::DecodeInfo* info = nullptr) const;
    // Replaces id's stored form if it decodes to the record's current bytes (keeping the
    // retained flag). REQUIRES: in a unit of work.
    Status writeBack(OperationContext* opCtx, int64_t id, std::string_view stored);
    // Removes a retained record. REQUIRES: in a unit of work.
    Status removeRetained(OperationContext* opCtx, int64_t id);
    // Reports every stored record to the engine (start-up, resync). Returns records reported.
    long long restoreInto(OperationContext* opCtx) const;
    // Start-up's first step: reports every stored record's links to the engine from the
    // stored forms' headers alone (Engine::restoreLink, no decoding, no features), then
    // finishRestore. Appends the ids of the live records stored whole to rawIds, for
    // DedupStorage to index in the background. Stops early (returning -1) once stop is set.
    // A large collection is read as two id ranges on two threads (the second with its own
    // operation context): the scan is bound by decompressing pages, and the engine orders
    // what it learns by record id in finishRestore anyway.
    long long restoreLinksInto(OperationContext* opCtx, std::vector<int64_t>* rawIds,
                               const std::atomic<bool>& stop) const;
    // The stored forms in the underlying table with ids up to maxId, retained ones included:
    // their count and bytes (the table's counters, less the records above maxId walked from
    // the end; read again if an insert changed the counters meanwhile).
    std::pair<long long, long long> storedTotalsUpTo(OperationContext* opCtx, int64_t maxId) const;
    // Whether record r.id's stored form is what the saved engine state says of it (links,
    // sizes, retained flag), read from storage.
    bool matchesSaved(OperationContext* opCtx, const dedup::Engine::SavedRecord& r) const;
    // Stops talking to the engine (the collection is gone or the catalog is closing).
    void detach();

protected:
    RecordId doInsertRecord(OperationContext* opCtx, const char* data, int len) override;
    void doUpdateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) override;
    void doDeleteRecord(OperationContext* opCtx, RecordId id) override;
    void doTruncate(OperationContext* opCtx) override;

private:
    // An update (data) or delete (null) by a multi-document transaction: held back until it
    // commits (true), or not a transaction's (false: do it now).
    bool holdForTransaction(OperationContext* opCtx, RecordId id, const char* data, int len);
    // A transaction's held-back changes at its commit: first the check (WriteConflict if a record
    // the engine will plan on changed since the transaction's snapshot), then each replayed (an
    // inconsistency a newer snapshot would not see is a WriteConflict too).
    void checkForTransaction(OperationContext* opCtx, const std::map<int64_t, TransactionChanges::Bytes>& changes);
    void replayForTransaction(OperationContext* opCtx, RecordId id, const TransactionChanges::Bytes& b);
    void updateNow(OperationContext* opCtx, RecordId id, const char* data, int len);
    void deleteNow(OperationContext* opCtx, RecordId id);
    // A client read of a record stored as a delta: through the decoded record cache, counted in
    // serverStatus().dedup.reads and the operation's explain figures.
    RecordData decodeForRead(OperationContext* opCtx, RecordId id, std::string_view stored) const;
    // id's bytes rebuilt from `stored` through the decoded record cache (filling it): *deltas
    // applied, *hit if the cache had it whole; retained bases passed through go to retainedSeen.
    // The three out-parameters may be null.
    Status rebuild(OperationContext* opCtx, int64_t id, std::string_view stored, std::shared_ptr<const std::string>* out,
                   uint32_t* deltas, bool* hit, std::vector<int64_t>* retainedSeen) const;
    // The decoded record cache, or null when it is off (or the store is detached).
    dedup::DecodedRecordCache* readCache() const;
    // A decode's `known`: bases from the cache as a snapshot with this epoch may see them,
    // never record `exclude` (empty when cache is null).
    dedup::KnownRecordFn cachedBases(dedup::DecodedRecordCache* cache, uint64_t epoch, int64_t exclude) const;
    // The record's key in the decoded record cache.
    dedup::RecordKey cacheKey(int64_t id) const { return dedup::RecordKey{_cacheNs, id}; }
    // An update of id is about to change its bytes: the cache forgets them until it commits.
    void noteBytesChange(OperationContext* opCtx, int64_t id);
    // Stores `stored` for id, keeping the retained flag the record has now.
    void rewrite(OperationContext* opCtx, int64_t id, const std::string& stored);
    // Logical length of a stored form (raw: its payload; delta: the target length it names).
    static StatusWith<size_t> logicalLength(int64_t id, std::string_view stored);

    std::unique_ptr<RecordStore> _base;
    const std::string _engineNs;
    const std::string _sizeKey;
    SizeStorer* const _sizes;
    std::atomic<DedupStorage*> _service;  // null once detached
    const uint32_t _cacheNs;               // unique per store instance for the process's life
    TransactionChanges _transactionChanges;
};

}  // namespace mongo
