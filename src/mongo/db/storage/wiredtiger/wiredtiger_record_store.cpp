#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"

#include <cstring>

#include "mongo/db/storage/wiredtiger/wiredtiger_cursor.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {

namespace {

RecordData currentValue(WT_CURSOR* c) {
    WT_ITEM v;
    invariantWTOK(c->get_value(c, &v));
    return RecordData::copyOf(static_cast<const char*>(v.data), int(v.size));
}

RecordId currentId(WT_CURSOR* c) {
    int64_t k;
    invariantWTOK(c->get_key(c, &k));
    return RecordId(k);
}

// Iterates in RecordId order. Keeps a WT cursor only while the snapshot it was positioned in
// lasts; when the recovery unit's transaction ends (or after save()), it repositions after the
// last returned record on the next call.
class WiredTigerRecordCursor : public SeekableRecordCursor {
public:
    WiredTigerRecordCursor(OperationContext* opCtx, std::string uri, bool forward)
        : _ru(WiredTigerRecoveryUnit::get(opCtx)), _uri(std::move(uri)), _forward(forward) {}
    ~WiredTigerRecordCursor() override { releaseCursor(); }

    std::optional<RecordEntry> next() override {
        if (_eof) return std::nullopt;
        WT_CURSOR* c = cursor();
        int ret;
        if (_needsReposition && !_lastId.isNull()) {
            _needsReposition = false;
            c->set_key(c, _lastId.repr());
            int exact = 0;
            ret = c->search_near(c, &exact);
            if (ret == 0 && (exact == 0 || (_forward ? exact < 0 : exact > 0))) ret = advance(c);
        } else {
            _needsReposition = false;
            ret = advance(c);
        }
        if (ret == WT_NOTFOUND) {
            _eof = true;
            return std::nullopt;
        }
        wtCheck(ret, "record cursor next");
        _lastId = currentId(c);
        return RecordEntry{_lastId, currentValue(c)};
    }

    std::optional<RecordEntry> seekExact(RecordId id) override {
        WT_CURSOR* c = cursor();
        _eof = false;
        _lastId = id;
        c->set_key(c, id.repr());
        int ret = c->search(c);
        if (ret == WT_NOTFOUND) {
            _needsReposition = true;
            return std::nullopt;
        }
        wtCheck(ret, "record cursor seekExact");
        _needsReposition = false;
        return RecordEntry{id, currentValue(c)};
    }

    void save() override {
        releaseCursor();
        _needsReposition = true;
    }

    bool restore() override {
        try {
            cursor();
        } catch (const DBException& e) {
            if (e.code() == int(ErrorCodes::NamespaceNotFound)) return false;
            throw;
        }
        return true;
    }

private:
    int advance(WT_CURSOR* c) { return _forward ? c->next(c) : c->prev(c); }

    WT_CURSOR* cursor() {
        if (_cursor && _snapshotId != _ru->snapshotId()) {
            releaseCursor();
            _needsReposition = true;
        }
        if (!_cursor) {
            WiredTigerSession* s = _ru->getSession();
            _cursor = s->getCursor(_uri);
            _session = s;
            _snapshotId = _ru->snapshotId();
        }
        return _cursor;
    }
    void releaseCursor() {
        if (_cursor) _session->releaseCursor(_uri, _cursor);
        _cursor = nullptr;
    }

    WiredTigerRecoveryUnit* _ru;
    std::string _uri;
    bool _forward;
    WiredTigerSession* _session = nullptr;
    WT_CURSOR* _cursor = nullptr;
    uint64_t _snapshotId = 0;
    RecordId _lastId;
    bool _needsReposition = false;
    bool _eof = false;
};

}  // namespace

WiredTigerRecordStore::WiredTigerRecordStore(WiredTigerKVEngine* engine, std::string ident)
    : _engine(engine), _ident(std::move(ident)), _uri(WiredTigerKVEngine::uriFor(_ident)) {
    // Seed the id counter past the largest id ever committed (ids are never reused).
    auto session = engine->sessionCache()->getSession();
    WT_CURSOR* c = session->getCursor(_uri);
    int ret = c->prev(c);
    if (ret == 0) _nextId = currentId(c).repr() + 1;
    session->releaseCursor(_uri, c);
    engine->sessionCache()->releaseSession(std::move(session));
    if (ret != WT_NOTFOUND) wtCheck(ret, "open record store " + _ident);
}

RecordId WiredTigerRecordStore::doInsertRecord(OperationContext* opCtx, const char* data, int len) {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    RecordId id(_nextId.fetch_add(1));
    c->set_key(c.get(), id.repr());
    WT_ITEM v = wtItem(data, size_t(len));
    c->set_value(c.get(), &v);
    wtCheck(c->insert(c.get()), "insert record");
    _engine->sizeStorer()->adjust(opCtx, _ident, 1, len);
    return id;
}

void WiredTigerRecordStore::doUpdateRecord(OperationContext* opCtx, RecordId id, const char* data, int len) {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    c->set_key(c.get(), id.repr());
    int ret = c->search(c.get());
    uassert(ErrorCodes::NoSuchKey, "updateRecord: no record " + id.toString() + " in " + _ident, ret != WT_NOTFOUND);
    wtCheck(ret, "update record: search");
    WT_ITEM old;
    invariantWTOK(c->get_value(c.get(), &old));
    long long oldLen = (long long)old.size;
    WT_ITEM v = wtItem(data, size_t(len));
    c->set_value(c.get(), &v);
    wtCheck(c->update(c.get()), "update record");
    _engine->sizeStorer()->adjust(opCtx, _ident, 0, len - oldLen);
}

void WiredTigerRecordStore::doDeleteRecord(OperationContext* opCtx, RecordId id) {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    c->set_key(c.get(), id.repr());
    int ret = c->search(c.get());
    uassert(ErrorCodes::NoSuchKey, "deleteRecord: no record " + id.toString() + " in " + _ident, ret != WT_NOTFOUND);
    wtCheck(ret, "delete record: search");
    WT_ITEM old;
    invariantWTOK(c->get_value(c.get(), &old));
    long long oldLen = (long long)old.size;
    wtCheck(c->remove(c.get()), "delete record");
    _engine->sizeStorer()->adjust(opCtx, _ident, -1, -oldLen);
}

void WiredTigerRecordStore::doTruncate(OperationContext* opCtx) {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    int ret = c->next(c.get());
    if (ret != WT_NOTFOUND) {
        wtCheck(ret, "truncate: first record");
        // A range truncate from the first record to the end is transactional.
        wtCheck(c.session()->truncate(c.session(), nullptr, c.get(), nullptr, nullptr), "truncate");
    }
    _engine->sizeStorer()->set(opCtx, _ident, SizeStorer::Sizes());
}

std::optional<RecordData> WiredTigerRecordStore::findRecord(OperationContext* opCtx, RecordId id) const {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    c->set_key(c.get(), id.repr());
    int ret = c->search(c.get());
    if (ret == WT_NOTFOUND) return std::nullopt;
    wtCheck(ret, "find record");
    return currentValue(c.get());
}

std::unique_ptr<SeekableRecordCursor> WiredTigerRecordStore::getCursor(OperationContext* opCtx, bool forward) const {
    return std::make_unique<WiredTigerRecordCursor>(opCtx, _uri, forward);
}

long long WiredTigerRecordStore::numRecords(OperationContext* opCtx) const {
    return _engine->sizeStorer()->get(opCtx, _ident).numRecords;
}

long long WiredTigerRecordStore::dataSize(OperationContext* opCtx) const {
    return _engine->sizeStorer()->get(opCtx, _ident).dataSize;
}

long long WiredTigerRecordStore::storageSize(OperationContext* opCtx) const { return _engine->identSize(_ident); }

}  // namespace mongo
