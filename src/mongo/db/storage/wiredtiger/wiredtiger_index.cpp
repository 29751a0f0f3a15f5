#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"

#include "mongo/db/storage/wiredtiger/wiredtiger_cursor.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {
namespace {

std::string_view currentKey(WT_CURSOR* c) {
    WT_ITEM k;
    invariantWTOK(c->get_key(c, &k));
    return itemView(k);
}

KeyEntry decodeEntry(WT_CURSOR* c, key_string::Ordering ord) {
    std::string_view k = currentKey(c);
    uassert(ErrorCodes::InternalError, "index entry too short", k.size() >= key_string::kRecordIdSize);
    WT_ITEM v;
    invariantWTOK(c->get_value(c, &v));
    size_t ksLen = k.size() - key_string::kRecordIdSize;
    KeyEntry e;
    e.loc = key_string::decodeRecordId(k.substr(ksLen));
    e.key = key_string::decode(k.substr(0, ksLen), ord, itemView(v));
    return e;
}

// Iterates in KeyString order; repositions after the last returned entry (by its full bytes)
// whenever the recovery unit's transaction has ended or after save().
class WiredTigerIndexCursor : public SortedDataInterface::Cursor {
public:
    WiredTigerIndexCursor(OperationContext* opCtx, std::string uri, key_string::Ordering ord, bool forward)
        : _ru(WiredTigerRecoveryUnit::get(opCtx)), _uri(std::move(uri)), _ord(ord), _forward(forward) {}
    ~WiredTigerIndexCursor() override { releaseCursor(); }

    std::optional<KeyEntry> seek(const BSONObj& key, bool inclusive) override {
        std::string ks = key_string::encode(key, _ord);
        // Entries are ks + RecordId: ks itself sorts before all of them, afterAll after.
        std::string target = (_forward == inclusive) ? ks : key_string::afterAllRecordIds(ks);
        return positionAt(target, /*skipExact*/ false);
    }

    std::optional<KeyEntry> next() override {
        if (_eof) return std::nullopt;
        if (_needsReposition || (_cursor && _snapshotId != _ru->snapshotId())) {
            if (_lastKey.empty()) {
                releaseCursor();
                _needsReposition = false;
            } else {
                std::string last = _lastKey;
                return positionAt(last, /*skipExact*/ true);
            }
        }
        WT_CURSOR* c = cursor();
        return finish(c, _forward ? c->next(c) : c->prev(c));
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
    // Positions on the first entry at/after target (forward) or at/before it (reverse);
    // with skipExact, an entry equal to target is stepped over.
    std::optional<KeyEntry> positionAt(const std::string& target, bool skipExact) {
        _needsReposition = false;
        _eof = false;
        WT_CURSOR* c = cursor();
        WT_ITEM k = wtItem(target);
        c->set_key(c, &k);
        int exact = 0;
        int ret = c->search_near(c, &exact);
        if (ret == 0) {
            bool behind = _forward ? exact < 0 : exact > 0;
            if (behind || (exact == 0 && skipExact)) ret = _forward ? c->next(c) : c->prev(c);
        }
        return finish(c, ret);
    }

    std::optional<KeyEntry> finish(WT_CURSOR* c, int ret) {
        if (ret == WT_NOTFOUND) {
            _eof = true;
            return std::nullopt;
        }
        wtCheck(ret, "index cursor");
        _lastKey.assign(currentKey(c));
        return decodeEntry(c, _ord);
    }

    WT_CURSOR* cursor() {
        if (_cursor && _snapshotId != _ru->snapshotId()) releaseCursor();
        if (!_cursor) {
            _session = _ru->getSession();
            _cursor = _session->getCursor(_uri);
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
    key_string::Ordering _ord;
    bool _forward;
    WiredTigerSession* _session = nullptr;
    WT_CURSOR* _cursor = nullptr;
    uint64_t _snapshotId = 0;
    std::string _lastKey;
    bool _needsReposition = false;
    bool _eof = false;
};

}  // namespace

WiredTigerIndex::WiredTigerIndex(WiredTigerKVEngine* engine, std::string ident, const SortedDataOptions& options)
    : _engine(engine), _ident(std::move(ident)), _uri(WiredTigerKVEngine::uriFor(_ident)), _options(options) {}

std::optional<RecordId> WiredTigerIndex::findDuplicateEncoded(OperationContext* opCtx, const std::string& prefix,
                                                              RecordId loc) const {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    WT_ITEM k = wtItem(prefix);
    c->set_key(c.get(), &k);
    int exact = 0;
    int ret = c->search_near(c.get(), &exact);
    if (ret == 0 && exact < 0) ret = c->next(c.get());
    while (ret == 0) {
        std::string_view key = currentKey(c.get());
        if (key.size() != prefix.size() + key_string::kRecordIdSize || key.substr(0, prefix.size()) != prefix) break;
        RecordId other = key_string::decodeRecordId(key.substr(prefix.size()));
        if (other != loc) return other;
        ret = c->next(c.get());
    }
    if (ret != WT_NOTFOUND) wtCheck(ret, "unique check");
    return std::nullopt;
}

bool WiredTigerIndex::uncommittedDuplicateExists(const std::string& prefix, RecordId loc) const {
    auto session = _engine->sessionCache()->getSession();
    WT_SESSION* s = session->get();
    bool found = false;
    int ret = s->begin_transaction(s, "isolation=read-uncommitted");
    if (ret == 0) {
        WT_CURSOR* c = session->getCursor(_uri);
        WT_ITEM k = wtItem(prefix);
        c->set_key(c, &k);
        int exact = 0;
        ret = c->search_near(c, &exact);
        if (ret == 0 && exact < 0) ret = c->next(c);
        while (ret == 0) {
            std::string_view key = currentKey(c);
            if (key.size() != prefix.size() + key_string::kRecordIdSize || key.substr(0, prefix.size()) != prefix)
                break;
            if (key_string::decodeRecordId(key.substr(prefix.size())) != loc) {
                found = true;
                break;
            }
            ret = c->next(c);
        }
        session->releaseCursor(_uri, c);
        s->rollback_transaction(s, nullptr);
    }
    _engine->sessionCache()->releaseSession(std::move(session));
    if (ret != 0 && ret != WT_NOTFOUND) wtCheck(ret, "unique check (uncommitted)");
    return found;
}

std::optional<RecordId> WiredTigerIndex::findDuplicate(OperationContext* opCtx, const BSONObj& key,
                                                       RecordId loc) const {
    return findDuplicateEncoded(opCtx, key_string::encode(key, _options.ordering), loc);
}

Status WiredTigerIndex::insert(OperationContext* opCtx, const BSONObj& key, RecordId loc, bool dupsAllowed) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    key_string::Builder b(_options.ordering);
    b.appendKey(key);
    std::string typeBits = b.typeBits();
    if (!dupsAllowed) {
        if (auto other = findDuplicateEncoded(opCtx, b.bytes(), loc))
            return Status(ErrorCodes::DuplicateKey, other->toString());
        // While a multi-document transaction is open, the key may be held by a write our
        // snapshot cannot see (the transaction's own uncommitted one, or one committed after
        // our transaction began): that is a write conflict, as WiredTiger would report if
        // the key were the whole row.
        if (RecoveryUnit::openMultiStatementUnits().load() > 0 && uncommittedDuplicateExists(b.bytes(), loc))
            uasserted(ErrorCodes::WriteConflict, kWriteConflictMessage);
    }
    b.appendRecordId(loc);
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    WT_ITEM k = wtItem(b.bytes()), v = wtItem(typeBits);
    c->set_key(c.get(), &k);
    c->set_value(c.get(), &v);
    wtCheck(c->insert(c.get()), "index insert");
    return Status::OK();
}

void WiredTigerIndex::unindex(OperationContext* opCtx, const BSONObj& key, RecordId loc) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    key_string::Builder b(_options.ordering);
    b.appendKey(key).appendRecordId(loc);
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    WT_ITEM k = wtItem(b.bytes());
    c->set_key(c.get(), &k);
    int ret = c->remove(c.get());
    if (ret != WT_NOTFOUND) wtCheck(ret, "index remove");
}

void WiredTigerIndex::truncate(OperationContext* opCtx) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    int ret = c->next(c.get());
    if (ret == WT_NOTFOUND) return;
    wtCheck(ret, "index truncate: first entry");
    wtCheck(c.session()->truncate(c.session(), nullptr, c.get(), nullptr, nullptr), "index truncate");
}

std::unique_ptr<SortedDataInterface::Cursor> WiredTigerIndex::newCursor(OperationContext* opCtx, bool forward) const {
    return std::make_unique<WiredTigerIndexCursor>(opCtx, _uri, _options.ordering, forward);
}

long long WiredTigerIndex::numEntries(OperationContext* opCtx) const {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    long long n = 0;
    int ret;
    while ((ret = c->next(c.get())) == 0) ++n;
    if (ret != WT_NOTFOUND) wtCheck(ret, "index count");
    return n;
}

bool WiredTigerIndex::isEmpty(OperationContext* opCtx) const {
    WiredTigerCursor c(WiredTigerRecoveryUnit::get(opCtx), _uri);
    int ret = c->next(c.get());
    if (ret != WT_NOTFOUND) wtCheck(ret, "index isEmpty");
    return ret == WT_NOTFOUND;
}

long long WiredTigerIndex::sizeBytes(OperationContext* opCtx) const { return _engine->identSize(_ident); }

}  // namespace mongo
