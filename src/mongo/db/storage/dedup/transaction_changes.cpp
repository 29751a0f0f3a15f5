#include "mongo/db/storage/dedup/transaction_changes.h"

namespace mongo {

void TransactionChanges::put(OperationContext* opCtx, int64_t id, Bytes bytes, Check check, Replay replay) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    bool first;
    {
        std::lock_guard<std::mutex> lk(_mu);
        auto [it, inserted] = _byUnit.try_emplace(ru);
        first = inserted;
        it->second[id] = std::move(bytes);
        _units.store(_byUnit.size());
    }
    if (!first) return;
    ru->onPreCommit([this, ru, check](OperationContext* commitCtx) { check(commitCtx, copyOf(ru)); },
                    RecoveryUnit::PreCommitPhase::kCheck);
    // The changes leave this map before they are applied, so the replay's own reads (and the
    // engine's) see storage as it is.
    ru->onPreCommit([this, ru, replay](OperationContext* commitCtx) {
        for (auto& [rid, b] : take(ru)) replay(commitCtx, rid, b);
    });
    ru->onCommit([this, ru] { take(ru); });
    ru->onRollback([this, ru] { take(ru); });
}

std::optional<TransactionChanges::Bytes> TransactionChanges::lookup(const RecoveryUnit* ru, int64_t id) const {
    if (_units.load() == 0) return std::nullopt;
    std::lock_guard<std::mutex> lk(_mu);
    auto u = _byUnit.find(ru);
    if (u == _byUnit.end()) return std::nullopt;
    auto it = u->second.find(id);
    if (it == u->second.end()) return std::nullopt;
    return it->second;
}

std::map<int64_t, TransactionChanges::Bytes> TransactionChanges::copyOf(const RecoveryUnit* ru) const {
    std::lock_guard<std::mutex> lk(_mu);
    auto u = _byUnit.find(ru);
    return u == _byUnit.end() ? std::map<int64_t, Bytes>() : u->second;
}

std::map<int64_t, TransactionChanges::Bytes> TransactionChanges::take(const RecoveryUnit* ru) {
    std::lock_guard<std::mutex> lk(_mu);
    std::map<int64_t, Bytes> out;
    auto u = _byUnit.find(ru);
    if (u != _byUnit.end()) {
        out = std::move(u->second);
        _byUnit.erase(u);
    }
    _units.store(_byUnit.size());
    return out;
}

}  // namespace mongo
