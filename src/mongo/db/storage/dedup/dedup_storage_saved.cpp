// DedupStorage and the engine state saved at a clean shutdown (dedup_saved_state.h): taken
// at start-up, loaded by the rebuild thread for the collections storage confirms, captured
// at shutdown and written once the storage engine has closed.
#include <algorithm>
#include <chrono>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/dedup/dedup_record_store.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {
// Past this many untracked records a collection is rebuilt from storage instead (the list
// costs 8 bytes a record while the server runs, and the start-up reads each of them).
constexpr size_t kMaxUntracked = 1u << 21;
}  // namespace

void DedupStorage::noteUntracked(const std::string& ns, int64_t id) {
    std::lock_guard<std::mutex> lk(_untrackedMu);
    if (_untrackedOverflow.count(ns)) return;
    auto& ids = _untracked[ns];
    if (ids.size() >= kMaxUntracked) {
        _untrackedOverflow.insert(ns);
        std::vector<int64_t>().swap(ids);
        return;
    }
    ids.push_back(id);
}

void DedupStorage::takeSavedState() {
    if (_service.dbpath.empty()) return;
    // Removed (durably) whatever happens next: it describes the data only until the first write.
    auto taken = takeSavedDedupState(_service.dbpath);
    if (!taken.isOK()) {
        LOGV2_WARNING(7700030, Dedup, "Ignoring the saved dedup state; rebuilding from the stored records",
                      logv2::attrs("error", taken.getStatus().toString()));
        return;
    }
    if (!taken.getValue()) return;
    if (!_service.saveStateAtShutdown) {
        LOGV2(7700031, Dedup, "Ignoring the saved dedup state: a replica-set member rebuilds from its recovered data");
        return;
    }
    if (taken.getValue()->featureSignature != _engine->featureSignature()) {
        LOGV2(7700032, Dedup, "Ignoring the saved dedup state: saved under other feature settings",
              logv2::attrs("saved", taken.getValue()->featureSignature, "now", _engine->featureSignature()));
        return;
    }
    _savedAtStart = std::move(*taken.getValue());
}

void DedupStorage::loadSavedState(OperationContext* opCtx, std::vector<std::string>* names) {
    if (!_savedAtStart) return;
    SavedDedupState saved = std::move(*_savedAtStart);
    _savedAtStart.reset();
    const auto t0 = std::chrono::steady_clock::now();
    const long long recordsBefore = _restoreRecords.load();
    long long loaded = 0;
    for (SavedDedupNamespace& ns : saved.namespaces) {
        if (_stopping) return;
        auto it = std::find(names->begin(), names->end(), ns.ns);
        if (it == names->end()) continue;  // not a collection any more
        bool ok;
        {
            CatalogReadLock catalog;
            ok = loadSavedNamespace(opCtx, ns);
        }
        opCtx->recoveryUnit()->abandonSnapshot();
        if (ok) {
            names->erase(it);
            ++loaded;
        }
        std::vector<dedup::Engine::SavedRecord>().swap(ns.records);
    }
    _rebuildFromSaved.store(loaded);
    LOGV2(7700033, Dedup, "Loaded the dedup state saved at shutdown",
          logv2::attrs("collections", loaded, "records", _restoreRecords.load() - recordsBefore, "durationMillis",
                       static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  std::chrono::steady_clock::now() - t0)
                                                  .count())));
}

bool DedupStorage::loadSavedNamespace(OperationContext* opCtx, SavedDedupNamespace& saved) {
    DedupRecordStore* rs = storeFor(saved.ns);
    if (!rs) return false;
    auto reject = [&](const std::string& why) {
        LOGV2_WARNING(7700034, Dedup, "The saved dedup state does not match a collection; rebuilding it from storage",
                      logv2::attrs("ns", saved.ns, "reason", why));
        _engine->forgetNamespace(saved.ns);
        return false;
    };
    // The file is written only after a clean close with no write since the state was taken,
    // and removed before any write: these checks guard against a data directory put together
    // from elsewhere, not against the normal case.
    // Clients may have inserted since start-up (their records wait for the encoder, which
    // learns them after this load); updates and deletes wait for it.
    const size_t n = saved.records.size();
    int64_t maxId = 0;
    for (const auto& r : saved.records) maxId = std::max(maxId, r.id);
    for (int64_t id : saved.untracked) maxId = std::max(maxId, id);
    const long long stored = rs->storedRecordCountUpTo(opCtx, maxId);
    if (stored != saved.storedRecords)
        return reject("record count " + std::to_string(stored) + ", saved " + std::to_string(saved.storedRecords));
    auto matches = [&](size_t i) { return rs->matchesSaved(opCtx, saved.records[i]); };
    for (size_t i = 0; i < std::min<size_t>(n, 32); ++i)
        if (!matches(i)) return reject("record " + std::to_string(saved.records[i].id));
    for (size_t i = n > 32 ? n - 32 : 0; i < n; ++i)
        if (!matches(i)) return reject("record " + std::to_string(saved.records[i].id));
    for (size_t j = 1; j <= 64 && n > 0; ++j)
        if (!matches(j * (n - 1) / 65)) return reject("record " + std::to_string(saved.records[j * (n - 1) / 65].id));
    _engine->forgetNamespace(saved.ns);
    long long indexed = 0;
    for (const dedup::Engine::SavedRecord& r : saved.records) {
        Status s = _engine->restoreSaved(saved.ns, r);
        if (!s.isOK()) return reject(s.toString());
        if (!r.sketch.empty()) ++indexed;
    }
    // The records the engine never learned: stored whole (or deleted since). Linked, not
    // indexed, as the engine had them.
    std::sort(saved.untracked.begin(), saved.untracked.end());
    saved.untracked.erase(std::unique(saved.untracked.begin(), saved.untracked.end()), saved.untracked.end());
    size_t found = 0;
    for (int64_t id : saved.untracked) {
        dedup::Engine::SavedRecord r;
        r.id = id;
        if (!rs->readSavedRecord(opCtx, &r)) continue;  // deleted since
        Status s = _engine->restoreSaved(saved.ns, r);
        if (s.code() == static_cast<int>(ErrorCodes::DuplicateKey)) continue;  // learned after all
        if (!s.isOK()) return reject(s.toString());
        ++found;
    }
    if (static_cast<long long>(n + found) != stored)
        return reject("records known " + std::to_string(n + found) + ", stored " + std::to_string(stored));
    _engine->finishRestore(saved.ns);
    _restoreRecords.fetch_add(static_cast<long long>(n + found));
    _rebuildToIndex.fetch_add(indexed);
    _rebuildIndexed.fetch_add(indexed);
    return true;
}

void DedupStorage::captureSavedState() {
    if (!_service.saveStateAtShutdown || _service.dbpath.empty() || _rebuildState.load() != 3) return;
    {
        std::lock_guard<std::mutex> lk(_unsyncedMu);
        if (!_unsynced.empty()) return;
    }
    std::vector<std::pair<std::string, DedupRecordStore*>> stores;
    {
        std::lock_guard<std::mutex> lk(_storesMu);
        for (auto& [ns, rs] : _stores) stores.emplace_back(ns, rs);
    }
    SavedDedupState state;
    state.featureSignature = _engine->featureSignature();
    auto opCtx = makeOperationContext(internalClient());
    for (auto& [ns, rs] : stores) {
        SavedDedupNamespace saved;
        saved.ns = ns;
        saved.storedRecords = rs->storedRecordCount(opCtx.get());
        saved.records.reserve(static_cast<size_t>(std::max(0LL, saved.storedRecords)));
        _engine->saveNamespace(ns, [&](const dedup::Engine::SavedRecord& r) { saved.records.push_back(r); });
        {
            std::lock_guard<std::mutex> lk(_untrackedMu);
            if (_untrackedOverflow.count(ns)) continue;  // rebuilt from storage next time
            auto it = _untracked.find(ns);
            if (it != _untracked.end()) saved.untracked = it->second;
        }
        state.namespaces.push_back(std::move(saved));
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    if (!state.namespaces.empty()) _savedAtShutdown = std::move(state);
}

void DedupStorage::writeSavedState() {
    if (!_savedAtShutdown) return;
    const auto t0 = std::chrono::steady_clock::now();
    long long records = 0;
    for (const auto& ns : _savedAtShutdown->namespaces) records += static_cast<long long>(ns.records.size());
    Status s = writeSavedDedupState(_service.dbpath, *_savedAtShutdown);
    const size_t collections = _savedAtShutdown->namespaces.size();
    _savedAtShutdown.reset();
    if (!s.isOK()) {
        LOGV2_WARNING(7700035, Dedup, "Could not save the dedup state; the next start-up rebuilds it from storage",
                      logv2::attrs("error", s.toString()));
        return;
    }
    LOGV2(7700036, Dedup, "Saved the dedup state for the next start-up",
          logv2::attrs("collections", static_cast<long long>(collections), "records", records, "durationMillis",
                       static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  std::chrono::steady_clock::now() - t0)
                                                  .count())));
}

}  // namespace mongo
