#include "mongo/db/storage/wiredtiger/wiredtiger_size_storer.h"

#include <cstring>

#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/util/log.h"

namespace mongo {

WiredTigerSizeStorer::WiredTigerSizeStorer(WiredTigerKVEngine* engine) : _engine(engine) {
    // Load every committed row once; afterwards the map is the source of truth for reads.
    auto session = engine->sessionCache()->getSession();
    WT_SESSION* s = session->get();
    wtCheck(s->create(s, kUri, "key_format=u,value_format=u"), "create sizeStorer");
    WT_CURSOR* c;
    wtCheck(s->open_cursor(s, kUri, nullptr, nullptr, &c), "open sizeStorer");
    int ret;
    while ((ret = c->next(c)) == 0) {
        WT_ITEM k, v;
        invariantWTOK(c->get_key(c, &k));
        invariantWTOK(c->get_value(c, &v));
        Sizes sz;
        if (v.size == 16) {
            std::memcpy(&sz.numRecords, v.data, 8);
            std::memcpy(&sz.dataSize, static_cast<const char*>(v.data) + 8, 8);
        }
        _committed[std::string(itemView(k))] = sz;
    }
    invariant(ret == WT_NOTFOUND);
    c->close(c);
    engine->sessionCache()->releaseSession(std::move(session));
}

SizeStorer::Sizes WiredTigerSizeStorer::committedLocked(const std::string& key) const {
    auto it = _committed.find(key);
    return it == _committed.end() ? Sizes() : it->second;
}

SizeStorer::Sizes WiredTigerSizeStorer::get(OperationContext* opCtx, const std::string& key) const {
    std::lock_guard<std::mutex> lk(_mutex);
    Sizes s = committedLocked(key);
    if (opCtx) {
        auto* ru = dynamic_cast<WiredTigerRecoveryUnit*>(opCtx->recoveryUnit());
        auto it = _pending.find({ru, key});
        if (it != _pending.end()) {
            const Pending& p = it->second;
            if (p.replaced) s = Sizes();
            s.numRecords += p.delta.numRecords;
            s.dataSize += p.delta.dataSize;
        }
    }
    return s;
}

WiredTigerSizeStorer::Pending& WiredTigerSizeStorer::pendingLocked(WiredTigerRecoveryUnit* ru,
                                                                   const std::string& key) {
    auto [it, inserted] = _pending.try_emplace({ru, key});
    if (inserted) {
        auto id = it->first;
        const bool deferredRow = ru->isMultiStatement();
        ru->onCommit([this, id, deferredRow] {
            Sizes now;
            bool removed;
            {
                std::lock_guard<std::mutex> lk(_mutex);
                auto p = _pending.find(id);
                if (p == _pending.end()) return;
                removed = p->second.removed;
                if (removed) {
                    _committed.erase(id.second);
                } else {
                    Sizes& c = _committed[id.second];
                    if (p->second.replaced) c = Sizes();
                    c.numRecords += p->second.delta.numRecords;
                    c.dataSize += p->second.delta.dataSize;
                    now = c;
                }
                _pending.erase(p);
            }
            // A transaction's commit runs under the write lock, so no other writer changes
            // the row between the fold above and this write.
            if (deferredRow) writeRowOwnTransaction(id.second, now, removed);
        });
        ru->onRollback([this, id] {
            std::lock_guard<std::mutex> lk(_mutex);
            _pending.erase(id);
        });
    }
    return it->second;
}

namespace {
int putRow(WiredTigerSession* session, const std::string& key, SizeStorer::Sizes s, bool remove) {
    WT_CURSOR* c = session->getCursor(WiredTigerSizeStorer::kUri);
    WT_ITEM k = wtItem(key);
    c->set_key(c, &k);
    int ret;
    if (remove) {
        ret = c->remove(c);
        if (ret == WT_NOTFOUND) ret = 0;
    } else {
        char buf[16];
        std::memcpy(buf, &s.numRecords, 8);
        std::memcpy(buf + 8, &s.dataSize, 8);
        WT_ITEM v = wtItem(buf, 16);
        c->set_value(c, &v);
        ret = c->insert(c);
    }
    session->releaseCursor(WiredTigerSizeStorer::kUri, c);
    return ret;
}
}  // namespace

void WiredTigerSizeStorer::writeRow(OperationContext* opCtx, const std::string& key, Sizes s, bool remove) {
    auto* ru = WiredTigerRecoveryUnit::get(opCtx);
    // A multi-statement transaction's row would stay uncommitted for the transaction's whole
    // life, and every other writer of the collection would conflict with it: its sizes stay
    // pending in memory (get() sees them) and are written when it commits.
    if (ru->isMultiStatement()) return;
    wtCheck(putRow(ru->getSession(), key, s, remove), "sizeStorer update");
}

void WiredTigerSizeStorer::writeRowOwnTransaction(const std::string& key, Sizes s, bool remove) {
    if (_engine->sessionCache()->connectionClosed()) return;
    auto session = _engine->sessionCache()->getSession();
    WT_SESSION* ws = session->get();
    int ret = ws->begin_transaction(ws, nullptr);
    if (ret == 0) ret = putRow(session.get(), key, s, remove);
    if (ret == 0) {
        ret = ws->commit_transaction(ws, nullptr);
    } else {
        ws->rollback_transaction(ws, nullptr);
    }
    _engine->sessionCache()->releaseSession(std::move(session));
    // The in-memory sizes are right; only the row a restart would load is behind.
    if (ret != 0) LOGV2_WARNING(7800101, Storage, "Could not write a collection's sizes after a transaction",
                                logv2::attrs("key", key, "error", ret));
}

void WiredTigerSizeStorer::adjust(OperationContext* opCtx, const std::string& key, long long dRecords,
                                  long long dBytes) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    auto* ru = WiredTigerRecoveryUnit::get(opCtx);
    Sizes now;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        Pending& p = pendingLocked(ru, key);
        p.removed = false;
        p.delta.numRecords += dRecords;
        p.delta.dataSize += dBytes;
        now = p.replaced ? Sizes() : committedLocked(key);
        now.numRecords += p.delta.numRecords;
        now.dataSize += p.delta.dataSize;
    }
    writeRow(opCtx, key, now, false);
}

void WiredTigerSizeStorer::set(OperationContext* opCtx, const std::string& key, Sizes sizes) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    auto* ru = WiredTigerRecoveryUnit::get(opCtx);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        Pending& p = pendingLocked(ru, key);
        p.replaced = true;
        p.removed = false;
        p.delta = sizes;
    }
    writeRow(opCtx, key, sizes, false);
}

void WiredTigerSizeStorer::remove(OperationContext* opCtx, const std::string& key) {
    invariant(opCtx->recoveryUnit()->inUnitOfWork());
    auto* ru = WiredTigerRecoveryUnit::get(opCtx);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        Pending& p = pendingLocked(ru, key);
        p.replaced = true;
        p.removed = true;
        p.delta = Sizes();
    }
    writeRow(opCtx, key, Sizes(), true);
}

}  // namespace mongo

