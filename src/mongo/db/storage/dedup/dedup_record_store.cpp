#include "mongo/db/storage/dedup/dedup_record_store.h"

#include <chrono>
#include <set>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/dedup/stored_form.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// Iterates logical records: retained records are skipped, deltas decoded.
class DedupCursor : public SeekableRecordCursor {
public:
    DedupCursor(const DedupRecordStore* rs, OperationContext* opCtx, std::unique_ptr<SeekableRecordCursor> base)
        : _rs(rs), _opCtx(opCtx), _base(std::move(base)) {}

    std::optional<RecordEntry> next() override {
        while (auto e = _base->next()) {
            if (auto data = _rs->clientRecord(_opCtx, e->id, e->data)) return RecordEntry{e->id, std::move(*data)};
        }
        return std::nullopt;
    }
    std::optional<RecordEntry> seekExact(RecordId id) override {
        auto e = _base->seekExact(id);
        if (!e) return std::nullopt;
        auto data = _rs->clientRecord(_opCtx, e->id, e->data);
        if (!data) return std::nullopt;
        return RecordEntry{e->id, std::move(*data)};
    }
    void save() override { _base->save(); }
    bool restore() override { return _base->restore(); }

private:
    const DedupRecordStore* _rs;
    OperationContext* _opCtx;
    std::unique_ptr<SeekableRecordCursor> _base;
};

dedup::StoredView parseOrThrow(const std::string& ns, int64_t id, std::string_view stored) {
    dedup::StoredView v;
    Status st = dedup::parseStored(id, stored, &v);
    if (!st.isOK())
        uasserted(ErrorCodes::DataCorruptionDetected,
                  "record " + std::to_string(id) + " of " + ns + " is damaged: " + st.reason());
    return v;
}

uint32_t nextCacheNs() {
    static std::atomic<uint32_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

DedupRecordStore::DedupRecordStore(std::unique_ptr<RecordStore> base, std::string engineNs, SizeStorer* sizes,
                                   DedupStorage* service)
    : _base(std::move(base)),
      _engineNs(std::move(engineNs)),
      _sizeKey(_base->ident() + ".dedupLogical"),
      _sizes(sizes),
      _service(service),
      _cacheNs(nextCacheNs()) {
    _service.load()->registerStore(this);
}

DedupRecordStore::~DedupRecordStore() { detach(); }

void DedupRecordStore::detach() {
    if (DedupStorage* s = _service.exchange(nullptr)) s->unregisterStore(this);
}

Status DedupRecordStore::readStored(OperationContext* opCtx, int64_t id, std::string* out) const {
    auto r = _base->findRecord(opCtx, RecordId(id));
    if (!r) return Status(ErrorCodes::NoSuchKey, "no record " + std::to_string(id) + " in " + _engineNs);
    out->assign(r->data(), r->size());
    return Status::OK();
}

Status DedupRecordStore::decode(OperationContext* opCtx, int64_t id, std::string* out) const {
    dedup::FetchStoredFn fetch = [&](int64_t i, std::string* s) { return readStored(opCtx, i, s); };
    return dedup::decodeRecord(fetch, id, out);
}

Status DedupRecordStore::decodeStored(OperationContext* opCtx, int64_t id, std::string_view stored,
                                      std::string* out, const BaseReadFn& onBaseRead,
                                      const dedup::KnownRecordFn& known, const dedup::DecodedFn& onDecoded,
                                      dedup::DecodeInfo* info) const {
    bool first = true;  // id's own stored form is the one given; a later visit (a cycle) reads it
    dedup::FetchStoredFn fetch = [&](int64_t i, std::string* s) {
        if (first && i == id) {
            first = false;
            s->assign(stored.data(), stored.size());
            return Status::OK();
        }
        Status rs = readStored(opCtx, i, s);
        if (rs.isOK() && onBaseRead) onBaseRead(i, *s);
        return rs;
    };
    return dedup::decodeRecord(fetch, id, out, info, known, 1u << 16, onDecoded);
}

dedup::DecodedRecordCache* DedupRecordStore::readCache() const {
    DedupStorage* svc = _service.load();
    return svc && svc->decodedCache().enabled() ? &svc->decodedCache() : nullptr;
}

dedup::KnownRecordFn DedupRecordStore::cachedBases(dedup::DecodedRecordCache* cache, uint64_t epoch,
                                                   int64_t exclude) const {
    if (!cache) return {};
    return [this, cache, epoch, exclude](int64_t base) {
        return base == exclude ? nullptr : cache->probe(cacheKey(base), epoch);
    };
}

Status DedupRecordStore::rebuild(OperationContext* opCtx, int64_t id, std::string_view stored,
                                 std::shared_ptr<const std::string>* out, uint32_t* deltas, bool* hit,
                                 std::vector<int64_t>* retainedSeen) const {
    if (deltas) *deltas = 0;
    if (hit) *hit = false;
    dedup::StoredView v;
    Status parsed = dedup::parseStored(id, stored, &v);
    if (!parsed.isOK()) return parsed;
    if (!v.isDelta) {
        *out = std::make_shared<const std::string>(v.payload);
        return Status::OK();
    }
    dedup::DecodedRecordCache* cache = readCache();
    const uint64_t epoch = opCtx->recoveryUnit()->snapshotEpoch();
    if (cache) {
        if (auto whole = cache->get(cacheKey(id), epoch)) {
            if (hit) *hit = true;
            *out = std::move(whole);
            return Status::OK();
        }
    }
    BaseReadFn onBaseRead;
    if (retainedSeen)
        onBaseRead = [&](int64_t i, const std::string& s) {
            if (!s.empty() && (uint8_t(s[0]) & dedup::kStoredRetainedFlag)) retainedSeen->push_back(i);
        };
    dedup::DecodedFn onDecoded;
    if (cache)
        onDecoded = [&](int64_t i, const std::string& bytes) {
            if (i != id) cache->offer(cacheKey(i), std::make_shared<const std::string>(bytes), epoch);
        };
    dedup::DecodeInfo info;
    std::string bytes;
    Status st = decodeStored(opCtx, id, stored, &bytes, onBaseRead, cachedBases(cache, epoch, id), onDecoded, &info);
    if (!st.isOK()) return st;
    if (deltas) *deltas = info.steps;
    auto whole = std::make_shared<const std::string>(std::move(bytes));
    if (cache) cache->offer(cacheKey(id), whole, epoch);
    *out = std::move(whole);
    return Status::OK();
}

RecordData DedupRecordStore::decodeForRead(OperationContext* opCtx, RecordId id, std::string_view stored) const {
    const auto start = std::chrono::steady_clock::now();
    DedupStorage* svc = _service.load();
    // Garbage collection on the read path: a read that decodes through a retained record
    // asks for that record to be collected first.
    std::vector<int64_t> retainedSeen;
    std::shared_ptr<const std::string> bytes;
    uint32_t deltas = 0;
    bool hit = false;
    Status st = rebuild(opCtx, id.repr(), stored, &bytes, &deltas, &hit, &retainedSeen);
    if (!retainedSeen.empty() && svc) svc->noteRetainedRead(_engineNs, retainedSeen);
    if (!st.isOK()) {
        if (svc) svc->noteDecodeFailure();
        uasserted(ErrorCodes::DataCorruptionDetected,
                  "record " + id.toString() + " of " + _engineNs + " cannot be decoded: " + st.reason());
    }
    const long long micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    OperationReadStats& op = opCtx->dedupReads;
    ++op.decoded;
    op.deltasApplied += deltas;
    op.cacheHits += hit ? 1 : 0;
    op.decodeMicros += micros;
    if (svc) svc->readStats().recordDecoded(deltas, hit, micros);
    return RecordData::sharing(std::move(bytes));
}

std::optional<RecordData> DedupRecordStore::logicalRecord(OperationContext* opCtx, RecordId id,
                                                          const RecordData& stored) const {
    dedup::StoredView v = parseOrThrow(_engineNs, id.repr(), stored.view());
    if (v.retained) return std::nullopt;
    ++opCtx->dedupReads.records;
    if (!v.isDelta) {
        if (DedupStorage* svc = _service.load()) svc->readStats().recordRaw();
        return stored.slice(static_cast<size_t>(v.payload.data() - stored.data()), static_cast<int>(v.payload.size()));
    }
    return decodeForRead(opCtx, id, stored.view());
}

std::optional<RecordData> DedupRecordStore::findRecord(OperationContext* opCtx, RecordId id) const {
    auto r = _base->findRecord(opCtx, id);
    if (!r) return std::nullopt;
    return clientRecord(opCtx, id, *r);
}

std::optional<RecordData> DedupRecordStore::clientRecord(OperationContext* opCtx, RecordId id,
                                                         const RecordData& stored) const {
    if (auto held = _transactionChanges.lookup(opCtx->recoveryUnit(), id.repr())) {
        if (!*held) return std::nullopt;  // the transaction deleted it
        return RecordData::copyOf((*held)->data(), static_cast<int>((*held)->size()));
    }
    return logicalRecord(opCtx, id, stored);
}

std::unique_ptr<SeekableRecordCursor> DedupRecordStore::getCursor(OperationContext* opCtx, bool forward) const {
    return std::make_unique<DedupCursor>(this, opCtx, _base->getCursor(opCtx, forward));
}

long long DedupRecordStore::numRecords(OperationContext* opCtx) const {
    return _sizes->get(opCtx, _sizeKey).numRecords;
}
long long DedupRecordStore::dataSize(OperationContext* opCtx) const { return _sizes->get(opCtx, _sizeKey).dataSize; }
long long DedupRecordStore::storageSize(OperationContext* opCtx) const { return _base->storageSize(opCtx); }

StatusWith<size_t> DedupRecordStore::logicalLength(int64_t id, std::string_view stored) {
    dedup::StoredView v;
    Status st = dedup::parseStored(id, stored, &v);
    if (!st.isOK()) return st;
    if (!v.isDelta) return v.payload.size();
    dedup::DeltaHeader h;
    st = dedup::parseDeltaHeader(reinterpret_cast<const uint8_t*>(v.payload.data()), v.payload.size(), &h);
    if (!st.isOK()) return st;
    return static_cast<size_t>(h.targetLen);
}

void DedupRecordStore::rewrite(OperationContext* opCtx, int64_t id, const std::string& stored) {
    std::string cur;
    uassertStatusOK(readStored(opCtx, id, &cur));
    dedup::StoredView v = parseOrThrow(_engineNs, id, cur);
    std::string next = dedup::withRetainedFlag(stored, v.retained);
    _base->updateRecord(opCtx, RecordId(id), next.data(), static_cast<int>(next.size()));
}

RecordId DedupRecordStore::doInsertRecord(OperationContext* opCtx, const char* data, int len) {
    std::string stored = dedup::makeRawStored(std::string_view(data, len));
    RecordId id = _base->insertRecord(opCtx, stored.data(), static_cast<int>(stored.size()));
    _sizes->adjust(opCtx, _sizeKey, 1, len);
    if (DedupStorage* svc = _service.load()) {
        svc->noteClientWrite();
        // The engine hears of the record once it is committed: an aborted insert leaves no
        // trace in its bookkeeping, and the encoding runs off the client's path.
        opCtx->recoveryUnit()->onCommit(
            [svc, ns = _engineNs, id, len, replicated = ReplicatedDeltaScope::take(_engineNs, static_cast<size_t>(len))] {
                svc->enqueueInsert(ns, id.repr(), static_cast<size_t>(len), false, replicated);
            });
    }
    return id;
}

void DedupRecordStore::noteBytesChange(OperationContext* opCtx, int64_t id) {
    dedup::DecodedRecordCache* cache = readCache();
    if (!cache) return;
    const dedup::RecordKey k = cacheKey(id);
    cache->beginChange(k);
    // Both run after the storage transaction ended, which is what the epoch protocol needs.
    opCtx->recoveryUnit()->onCommit([cache, k] { cache->endChange(k); });
    opCtx->recoveryUnit()->onRollback([cache, k] { cache->endChange(k); });
}

bool DedupRecordStore::holdForTransaction(OperationContext* opCtx, RecordId id, const char* data, int len) {
    if (!opCtx->inMultiDocumentTransaction() || !_service.load()) return false;
    // A transaction's update or delete waits for its commit (transaction_changes.h); inserts do
    // not need to (the engine hears of them once committed).
    TransactionChanges::Bytes bytes;
    if (data) bytes = std::make_shared<const std::string>(data, static_cast<size_t>(len));
    _transactionChanges.put(
        opCtx, id.repr(), std::move(bytes),
        [this](OperationContext* commitCtx, const std::map<int64_t, TransactionChanges::Bytes>& all) {
            checkForTransaction(commitCtx, all);
        },
        [this](OperationContext* commitCtx, int64_t rid, const TransactionChanges::Bytes& b) {
            replayForTransaction(commitCtx, RecordId(rid), b);
        });
    return true;
}

void DedupRecordStore::checkForTransaction(OperationContext* opCtx, const std::map<int64_t, TransactionChanges::Bytes>& changes) {
    // The records the engine's plans will read as it believes them now: each changed record,
    // its base and its dependents. Each is rewritten with the bytes the transaction's snapshot
    // holds before the engine is told anything (for any record of the transaction): one changed
    // since the snapshot is WiredTiger's WriteConflict here, while nothing needs undoing (a
    // conflict after the engine planned costs a relearn of the collection's dedup state).
    DedupStorage* svc = _service.load();
    if (!svc) return;
    std::set<int64_t> footprint;
    for (const auto& [id, bytes] : changes) {
        footprint.insert(id);
        std::vector<int64_t> dependents;
        const dedup::RecordInfo info = svc->engine().describe(_engineNs, id, &dependents);
        if (info.baseId != 0) footprint.insert(info.baseId);
        footprint.insert(dependents.begin(), dependents.end());
    }
    for (int64_t r : footprint) {
        std::string cur;
        Status st = readStored(opCtx, r, &cur);
        if (st.code() == int(ErrorCodes::NoSuchKey))
            uasserted(ErrorCodes::WriteConflict,
                      std::string(kWriteConflictMessage) + " (a deduplicated record appeared since the transaction began)");
        uassertStatusOK(st);
        _base->updateRecord(opCtx, RecordId(r), cur.data(), static_cast<int>(cur.size()));
    }
}

void DedupRecordStore::replayForTransaction(OperationContext* opCtx, RecordId id, const TransactionChanges::Bytes& b) {
    try {
        if (b)
            updateNow(opCtx, id, b->data(), static_cast<int>(b->size()));
        else
            deleteNow(opCtx, id);
    } catch (const DBException& e) {
        // The engine plans on the newest committed state; the transaction reads its older
        // snapshot. A record the plan reads that changed since (outside what the check
        // rewrote) is found inconsistent: that is a write conflict too, and the transaction is
        // run again on a newer snapshot. (IllegalOperation: a record the plan removes as
        // retained is live in the snapshot.)
        if (e.code() != int(ErrorCodes::DataCorruptionDetected) && e.code() != int(ErrorCodes::NoSuchKey) &&
            e.code() != int(ErrorCodes::IllegalOperation))
            throw;
        uasserted(ErrorCodes::WriteConflict,
                  std::string(kWriteConflictMessage) + " (a deduplicated record changed since the transaction began: " +
                      e.reason() + ")");
    }
}

void DedupRecordStore::doUpdateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) {
    if (!holdForTransaction(opCtx, id, data, len)) updateNow(opCtx, id, data, len);
}

void DedupRecordStore::doDeleteRecord(OperationContext* opCtx, RecordId id) {
    if (!holdForTransaction(opCtx, id, nullptr, 0)) deleteNow(opCtx, id);
}

void DedupRecordStore::updateNow(OperationContext* opCtx, RecordId id, const char* data, int len) {
    noteBytesChange(opCtx, id.repr());
    std::string cur;
    uassertStatusOK(readStored(opCtx, id.repr(), &cur));
    size_t oldLen = uassertStatusOK(logicalLength(id.repr(), cur));
    // The records the engine rewrites, with their bytes before: checked once the update is
    // in place; one that does not decode to the same bytes is stored whole instead.
    std::vector<std::pair<int64_t, std::string>> rewritten;
    if (DedupStorage* svc = _service.load()) {
        svc->noteClientWrite();
        const dedup::RecordInfo info = svc->prepareClientChange(opCtx, _engineNs, id.repr());
        DedupOpCtxScope scope(opCtx);
        // Others decode through the old bytes: they stay, as a retained record of their own,
        // until write-backs have moved those records onto the new bytes (the paper's rule; the
        // update itself only re-points them).
        int64_t keepOldAs = 0;
        if (info.refCount > 0) {
            // A delta names its base relative to its own id: the copy is re-addressed.
            keepOldAs = _base->insertRecord(opCtx, "", 0).repr();
            std::string old = dedup::withRetainedFlag(dedup::readdressStored(id.repr(), keepOldAs, cur), true);
            _base->updateRecord(opCtx, RecordId(keepOldAs), old.data(), static_cast<int>(old.size()));
        }
        dedup::UpdatePlan plan =
            uassertStatusOK(svc->engine().onUpdate(_engineNs, id.repr(), std::string_view(data, len), keepOldAs));
        // The engine's bookkeeping changed with the plan; if this unit of work aborts, the
        // records on disk are the truth again and the engine relearns this collection.
        opCtx->recoveryUnit()->onRollback([svc, ns = _engineNs] { svc->resync(ns); });
        for (const dedup::Rewrite& r : plan.rewrites) {
            rewritten.emplace_back(r.id, std::string());
            uassertStatusOK(decode(opCtx, r.id, &rewritten.back().second));
        }
        for (const dedup::Rewrite& r : plan.rewrites) rewrite(opCtx, r.id, r.stored);
        for (int64_t gone : plan.alsoRemove) uassertStatusOK(removeRetained(opCtx, gone));
        svc->noteRetainedRemoved(static_cast<long long>(plan.alsoRemove.size()));
    }
    std::string stored = dedup::makeRawStored(std::string_view(data, len));
    _base->updateRecord(opCtx, id, stored.data(), static_cast<int>(stored.size()));
    _sizes->adjust(opCtx, _sizeKey, 0, static_cast<long long>(len) - static_cast<long long>(oldLen));
    // The new bytes are stored whole; once committed, the encoder stores them against the
    // record's chain again, off the client's path.
    if (DedupStorage* svc = _service.load())
        opCtx->recoveryUnit()->onCommit([svc, ns = _engineNs, rid = id.repr(), len] {
            svc->enqueueInsert(ns, rid, static_cast<size_t>(len), /*updated=*/true);
        });
    for (const auto& [rid, before] : rewritten) {
        std::string after;
        Status st = decode(opCtx, rid, &after);
        if (st.isOK() && after == before) continue;
        // Safe whatever the engine believes: the engine at worst keeps a base longer.
        LOGV2_WARNING(7700018, Dedup, "A record rewritten for an update did not decode to its bytes; stored whole",
                      logv2::attrs("ns", _engineNs, "recordId", rid, "error", st.toString()));
        rewrite(opCtx, rid, dedup::makeRawStored(before));
    }
}

void DedupRecordStore::deleteNow(OperationContext* opCtx, RecordId id) {
    std::string cur;
    uassertStatusOK(readStored(opCtx, id.repr(), &cur));
    size_t oldLen = uassertStatusOK(logicalLength(id.repr(), cur));
    bool retain = false;
    if (DedupStorage* svc = _service.load()) {
        svc->noteClientWrite();
        svc->prepareClientChange(opCtx, _engineNs, id.repr());
        DedupOpCtxScope scope(opCtx);
        dedup::DeletePlan plan = uassertStatusOK(svc->engine().onDelete(_engineNs, id.repr()));
        opCtx->recoveryUnit()->onRollback([svc, ns = _engineNs] { svc->resync(ns); });
        retain = plan.retain;
        for (int64_t gone : plan.alsoRemove)
            if (gone != id.repr()) uassertStatusOK(removeRetained(opCtx, gone));
        svc->noteRetainedRemoved(static_cast<long long>(plan.alsoRemove.size()));
    }
    // Its bytes stay what they were (a retained record is still a base), and its id is not
    // reused: the cache only gives the memory back.
    if (dedup::DecodedRecordCache* cache = readCache()) cache->erase(cacheKey(id.repr()));
    if (retain) {
        std::string flagged = dedup::withRetainedFlag(cur, true);
        _base->updateRecord(opCtx, id, flagged.data(), static_cast<int>(flagged.size()));
    } else {
        _base->deleteRecord(opCtx, id);
    }
    _sizes->adjust(opCtx, _sizeKey, -1, -static_cast<long long>(oldLen));
}

void DedupRecordStore::doTruncate(OperationContext* opCtx) {
    if (dedup::DecodedRecordCache* cache = readCache()) {
        cache->beginChangeAll(_cacheNs);
        opCtx->recoveryUnit()->onCommit([cache, ns = _cacheNs] { cache->endChangeAll(ns); });
        opCtx->recoveryUnit()->onRollback([cache, ns = _cacheNs] { cache->endChangeAll(ns); });
    }
    _base->truncate(opCtx);
    _sizes->set(opCtx, _sizeKey, SizeStorer::Sizes());
    if (DedupStorage* svc = _service.load())
        opCtx->recoveryUnit()->onCommit([svc, ns = _engineNs] { svc->forgetNamespace(ns); });
}

void DedupRecordStore::onDrop(OperationContext* opCtx) {
    _sizes->remove(opCtx, _sizeKey);
    opCtx->recoveryUnit()->onCommit([this] {
        DedupStorage* svc = _service.load();
        detach();
        if (svc) {
            svc->forgetNamespace(_engineNs);
            svc->decodedCache().eraseNamespace(_cacheNs);
        }
    });
}

Status DedupRecordStore::writeBack(OperationContext* opCtx, int64_t id, std::string_view stored) {
    // The record's bytes now, through the decoded record cache (write-backs run under the write
    // lock: walking long chains here held up every writer).
    std::string cur;
    Status st = readStored(opCtx, id, &cur);
    if (!st.isOK()) return st;
    std::shared_ptr<const std::string> want;
    st = rebuild(opCtx, id, cur, &want, nullptr, nullptr, nullptr);
    if (!st.isOK()) return st;
    // Decoding the new form must not pass through this record: that would be a cycle once
    // the new form is in place (so the cache is not asked for the record itself).
    bool loops = false;
    std::string got;
    st = decodeStored(opCtx, id, stored, &got, [&](int64_t i, const std::string&) { loops = loops || i == id; },
                      cachedBases(readCache(), opCtx->recoveryUnit()->snapshotEpoch(), id));
    if (!st.isOK()) return st;
    if (loops) return Status(ErrorCodes::BadValue, "write-back would form a cycle");
    if (got != *want) return Status(ErrorCodes::ConflictingOperationInProgress, "write-back is stale");
    rewrite(opCtx, id, std::string(stored));
    return Status::OK();
}

Status DedupRecordStore::removeRetained(OperationContext* opCtx, int64_t id) {
    std::string cur;
    Status st = readStored(opCtx, id, &cur);
    if (st.code() == static_cast<int>(ErrorCodes::NoSuchKey)) return Status::OK();
    if (!st.isOK()) return st;
    dedup::StoredView v;
    st = dedup::parseStored(id, cur, &v);
    if (!st.isOK()) return st;
    if (!v.retained)
        return Status(ErrorCodes::IllegalOperation, "record " + std::to_string(id) + " is live, not retained");
    if (dedup::DecodedRecordCache* cache = readCache()) cache->erase(cacheKey(id));
    _base->deleteRecord(opCtx, RecordId(id));
    return Status::OK();
}

namespace {

// Rebuild progress in the log, every 5 s.
class RebuildProgress {
public:
    explicit RebuildProgress(const std::string& ns) : _ns(ns) {}
    void note(long long recordsDone) {
        auto now = std::chrono::steady_clock::now();
        if (now - _last < std::chrono::seconds(5)) return;
        _last = now;
        LOGV2(7700011, Dedup, "Rebuilding dedup state", logv2::attrs("ns", _ns, "recordsDone", recordsDone));
    }

private:
    const std::string& _ns;
    std::chrono::steady_clock::time_point _last = std::chrono::steady_clock::now();
};

// A record the rebuild cannot read stays untracked: the engine must not build on it.
void warnUndecodable(const std::string& ns, int64_t id, const Status& why) {
    LOGV2_WARNING(7700010, Dedup, "Record cannot be decoded while rebuilding dedup state",
                  logv2::attrs("ns", ns, "recordId", id, "error", why.toString()));
}

}  // namespace

long long DedupRecordStore::restoreInto(OperationContext* opCtx) const {
    DedupStorage* svc = _service.load();
    if (!svc) return 0;
    dedup::Engine& engine = svc->engine();
    engine.forgetNamespace(_engineNs);
    // Newest first: a delta's base is newer than the record, so it was usually just decoded
    // and is found in this bounded cache of recent records.
    constexpr size_t kCacheBytes = 64u << 20;
    std::unordered_map<int64_t, std::shared_ptr<const std::string>> cache;
    std::deque<int64_t> order;
    size_t cacheBytes = 0;
    long long n = 0;
    RebuildProgress progress(_engineNs);
    auto cursor = _base->getCursor(opCtx, false);
    while (auto e = cursor->next()) {
        const int64_t id = e->id.repr();
        dedup::StoredView v;
        std::string bytes;
        Status st = dedup::parseStored(id, e->data.view(), &v);
        if (st.isOK())
            st = decodeStored(opCtx, id, e->data.view(), &bytes, {}, [&](int64_t base) {
                auto it = cache.find(base);
                return it == cache.end() ? nullptr : it->second;
            });
        if (!st.isOK()) {
            warnUndecodable(_engineNs, id, st);  // left untracked: validate reports it
            continue;
        }
        engine.restoreRecord(_engineNs, id, bytes, v.isDelta ? v.baseId : 0, e->data.size(), v.retained);
        ++n;
        cacheBytes += bytes.size();
        order.push_back(id);
        cache.emplace(id, std::make_shared<const std::string>(std::move(bytes)));
        while (cacheBytes > kCacheBytes && !order.empty()) {
            auto old = cache.find(order.front());
            cacheBytes -= old->second->size();
            cache.erase(old);
            order.pop_front();
        }
        progress.note(n);
    }
    engine.finishRestore(_engineNs);
    return n;
}

std::pair<long long, long long> DedupRecordStore::storedTotalsUpTo(OperationContext* opCtx, int64_t maxId) const {
    for (int attempt = 0;; ++attempt) {
        const long long count = _base->numRecords(opCtx), bytes = _base->dataSize(opCtx);
        long long newerCount = 0, newerBytes = 0;
        auto cursor = _base->getCursor(opCtx, false);
        for (auto e = cursor->next(); e && e->id.repr() > maxId; e = cursor->next()) {
            ++newerCount;
            newerBytes += e->data.size();
        }
        if (attempt == 4 || (count == _base->numRecords(opCtx) && bytes == _base->dataSize(opCtx)))
            return {count - newerCount, bytes - newerBytes};
        opCtx->recoveryUnit()->abandonSnapshot();
    }
}

bool DedupRecordStore::matchesSaved(OperationContext* opCtx, const dedup::Engine::SavedRecord& r) const {
    std::string stored;
    if (!readStored(opCtx, r.id, &stored).isOK()) return false;
    dedup::StoredView v;
    StatusWith<size_t> len = logicalLength(r.id, stored);
    if (!len.isOK() || !dedup::parseStored(r.id, stored, &v).isOK()) return false;
    return len.getValue() == r.logicalSize && stored.size() == r.storedSize && v.retained == r.retained &&
           (v.isDelta ? v.baseId : 0) == r.baseId;
}

long long DedupRecordStore::restoreLinksInto(OperationContext* opCtx, std::vector<int64_t>* rawIds,
                                            const std::atomic<bool>& stop) const {
    DedupStorage* svc = _service.load();
    if (!svc) return 0;
    dedup::Engine& engine = svc->engine();
    engine.forgetNamespace(_engineNs);
    std::atomic<long long> done{0};
    RebuildProgress progress(_engineNs);
    std::mutex progressMu;
    // Reports the records with ids in [from, to) (to == 0: to the end); false if stopped.
    auto scan = [&](OperationContext* ctx, int64_t from, int64_t to, std::vector<int64_t>* raw) {
        auto cursor = _base->getCursor(ctx, true);
        std::optional<RecordEntry> e = from > 0 ? cursor->seekExact(RecordId(from)) : std::nullopt;
        if (!e) e = cursor->next();
        for (long long n = 0; e && (to == 0 || e->id.repr() < to); e = cursor->next(), ++n) {
            if ((n & 1023) == 0) {
                if (stop.load()) return false;
                std::lock_guard<std::mutex> lk(progressMu);
                progress.note(done.load());
            }
            const int64_t id = e->id.repr();
            dedup::StoredView v;
            StatusWith<size_t> len = logicalLength(id, e->data.view());
            if (!len.isOK() || !dedup::parseStored(id, e->data.view(), &v).isOK()) {
                warnUndecodable(_engineNs, id, len.getStatus());  // left untracked: validate reports it
                continue;
            }
            engine.restoreLink(_engineNs, id, len.getValue(), v.isDelta ? v.baseId : 0, e->data.size(), v.retained);
            if (!v.isDelta && !v.retained) raw->push_back(id);
            done.fetch_add(1, std::memory_order_relaxed);
        }
        return true;
    };
    constexpr long long kTwoThreadsFrom = 50000;
    int64_t split = 0;
    if (_base->numRecords(opCtx) >= kTwoThreadsFrom) {
        auto first = _base->getCursor(opCtx, true)->next();
        auto last = _base->getCursor(opCtx, false)->next();
        if (first && last && last->id.repr() > first->id.repr() + 1)
            split = first->id.repr() + (last->id.repr() - first->id.repr()) / 2;
    }
    bool ok = true;
    if (split == 0) {
        ok = scan(opCtx, 0, 0, rawIds);
    } else {
        std::vector<int64_t> upper;
        bool upperOk = true;
        std::exception_ptr upperError;
        std::thread t([&] {
            try {
                auto ctx = makeOperationContext(internalClient());
                DedupOpCtxScope scope(ctx.get());
                upperOk = scan(ctx.get(), split, 0, &upper);
            } catch (...) {
                upperError = std::current_exception();
            }
        });
        try {
            ok = scan(opCtx, 0, split, rawIds);
        } catch (...) {
            t.join();
            throw;
        }
        t.join();
        if (upperError) std::rethrow_exception(upperError);
        ok = ok && upperOk;
        rawIds->insert(rawIds->end(), upper.begin(), upper.end());
    }
    if (!ok) return -1;
    engine.finishRestore(_engineNs);
    return done.load();
}

BSONObj DedupRecordStore::layerStats(OperationContext* opCtx) const {
    long long logical = dataSize(opCtx), stored = _base->dataSize(opCtx);
    BSONObjBuilder b;
    b.append("logicalSize", logical);
    b.append("storedSize", stored);
    b.append("ratio", stored > 0 ? static_cast<double>(logical) / static_cast<double>(stored) : 1.0);
    b.append("retainedRecords", _base->numRecords(opCtx) - numRecords(opCtx));
    return b.obj();
}

void DedupRecordStore::validateLayer(OperationContext* opCtx, bool full, std::vector<std::string>* errors,
                                     std::vector<std::string>* warnings, BSONObjBuilder* result) const {
    std::unordered_map<int64_t, uint32_t> refs;  // base id -> records stored against it
    std::unordered_map<int64_t, bool> retained;  // every stored record -> retained?
    long long deltas = 0, decoded = 0, bad = 0;
    auto cursor = _base->getCursor(opCtx, true);
    while (auto e = cursor->next()) {
        const int64_t id = e->id.repr();
        dedup::StoredView v;
        Status st = dedup::parseStored(id, e->data.view(), &v);
        if (!st.isOK()) {
            ++bad;
            errors->push_back("record " + std::to_string(id) + ": " + st.reason());
            continue;
        }
        retained[id] = v.retained;
        if (v.isDelta) {
            ++deltas;
            ++refs[v.baseId];
        }
        if (full) {
            std::string out;
            st = decodeStored(opCtx, id, e->data.view(), &out);
            if (!st.isOK()) {
                ++bad;
                errors->push_back("record " + std::to_string(id) + " cannot be decoded: " + st.reason());
            } else {
                ++decoded;
            }
        }
        if ((retained.size() & 1023) == 0) opCtx->checkForInterrupt();
    }
    for (const auto& [base, n] : refs)
        if (!retained.count(base))
            errors->push_back(std::to_string(n) + " record(s) are deltas against missing record " + std::to_string(base));
    // Reference counts: what the stored forms say against what the engine will protect.
    DedupStorage* svc = _service.load();
    if (svc) svc->waitForLinks(opCtx);  // the engine's counts are complete once it knows the links
    long long mismatches = 0, retainedCount = 0;
    for (const auto& [id, isRetained] : retained) {
        auto it = refs.find(id);
        uint32_t onDisk = it == refs.end() ? 0 : it->second;
        if (isRetained) {
            ++retainedCount;
            if (onDisk == 0)
                warnings->push_back("retained record " + std::to_string(id) +
                                    " has no dependents left (garbage collection pending)");
        }
        if (!svc) continue;
        dedup::RecordInfo info = svc->engine().describe(_engineNs, id);
        if ((info.tracked ? info.refCount : 0) != onDisk && (info.tracked || onDisk > 0)) {
            if (++mismatches <= 10)
                errors->push_back("record " + std::to_string(id) + ": " + std::to_string(onDisk) +
                                  " records are stored against it, the engine counts " +
                                  std::to_string(info.tracked ? info.refCount : 0));
        }
    }
    BSONObjBuilder& d = result->subobjStart("dedup");
    d.append("storedRecords", static_cast<long long>(retained.size()));
    d.append("deltaRecords", deltas);
    d.append("retainedRecords", retainedCount);
    if (full) d.append("decodedRecords", decoded);
    d.append("undecodableRecords", bad);
    d.append("refCountMismatches", mismatches);
    if (full) d.append("longestChain", longestStoredChain(opCtx, *_base));  // decode bound: steps on the stored forms
    d.doneFast();
}

}  // namespace mongo
