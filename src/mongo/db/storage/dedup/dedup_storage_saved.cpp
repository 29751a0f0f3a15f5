// DedupStorage and the engine state saved at a clean shutdown (dedup_saved_state.h): taken
// at start-up, loaded by the rebuild thread for the collections storage confirms, captured
// at shutdown and written once the storage engine has closed.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <tuple>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/dedup/dedup_record_store.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/util/log.h"

namespace mongo {

void DedupStorage::takeSavedState() {
    if (_service.dbpath.empty()) return;
    // Removed (durably) whatever happens next: it describes the data only until the first
    // write. Decoding it is the rebuild thread's (loadSavedState), off the start-up path.
    std::optional<std::string> bytes = takeSavedDedupStateBytes(_service.dbpath);
    if (!bytes) return;
    if (!_service.saveStateAtShutdown) {
        LOGV2(7700031, Dedup, "Ignoring the saved dedup state: a replica-set member rebuilds from its recovered data");
        return;
    }
    _savedBytesAtStart = std::move(*bytes);
}

void DedupStorage::loadSavedState(OperationContext* opCtx, std::vector<std::string>* names) {
    if (_savedBytesAtStart.empty()) return;
    const auto t0 = std::chrono::steady_clock::now();
    SavedDedupState saved;
    Status decoded = decodeSavedDedupState(_savedBytesAtStart, &saved);
    std::string().swap(_savedBytesAtStart);
    if (!decoded.isOK()) {
        LOGV2_WARNING(7700030, Dedup, "Ignoring the saved dedup state; rebuilding from the stored records",
                      logv2::attrs("error", decoded.toString()));
        return;
    }
    if (saved.featureSignature != _engine->featureSignature()) {
        LOGV2(7700032, Dedup, "Ignoring the saved dedup state: saved under other feature settings",
              logv2::attrs("saved", saved.featureSignature, "now", _engine->featureSignature()));
        return;
    }
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
    // and removed before any write: these checks guard against a file put back by hand or left
    // by a build that did not remove it. Almost every write changes the collection's record count or
    // stored bytes (a write-back shrinks a record, an update rewrites it whole); the sampled
    // headers check the links themselves. Clients may have inserted since start-up (their
    // records wait for the encoder, which learns them after this load): records with ids above
    // the saved ones are left out (as at the shutdown); updates and deletes wait for this load.
    const size_t n = saved.records.size();
    int64_t maxId = 0;
    for (const auto& r : saved.records) maxId = std::max(maxId, r.id);
    const auto [count, bytes] = rs->storedTotalsUpTo(opCtx, maxId);
    if (count != saved.storedRecords || bytes != saved.storedBytes)
        return reject("stored records " + std::to_string(count) + " of " + std::to_string(bytes) + " bytes, saved " +
                      std::to_string(saved.storedRecords) + " of " + std::to_string(saved.storedBytes));
    std::set<size_t> sample;  // the oldest, the newest and some in between
    for (size_t i = 0; i < std::min<size_t>(n, 32); ++i) sample.insert(i), sample.insert(n - 1 - i);
    for (size_t j = 1; j <= 64 && n > 0; ++j) sample.insert(j * (n - 1) / 65);
    for (size_t i : sample)
        if (!rs->matchesSaved(opCtx, saved.records[i])) return reject("record " + std::to_string(saved.records[i].id));
    _engine->forgetNamespace(saved.ns);
    long long indexed = 0;
    for (const dedup::Engine::SavedRecord& r : saved.records) {
        Status s = _engine->restoreSaved(saved.ns, r);
        if (!s.isOK()) return reject(s.toString());
        if (!r.sketch.empty()) ++indexed;
    }
    _engine->finishRestore(saved.ns);
    _restoreRecords.fetch_add(static_cast<long long>(n));
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
        int64_t maxId = 0;
        _engine->saveNamespace(ns, [&](const dedup::Engine::SavedRecord& r) {
            saved.records.push_back(r);
            maxId = std::max(maxId, r.id);
        });
        // Up to the newest record the engine knows, as the start-up measures it (records the
        // engine never learned above it are stored whole and unknown to it either way).
        std::tie(saved.storedRecords, saved.storedBytes) = rs->storedTotalsUpTo(opCtx.get(), maxId);
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
