#include "mongo/db/session/logical_session_cache.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/commands/sessions_cmds.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/transaction/transaction_scope.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/service_context.h"
#include "mongo/db/session/logical_session_id.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {

const NamespaceString kSessionsNss("config", "system.sessions");
const char* const kTTLIndexName = "lsidTTLIndex";

BSONObj ttlIndexSpec() {
    BSONObjBuilder key;
    key.append("lastUse", 1);
    BSONObjBuilder b;
    b.append("v", 2);
    b.append("key", key.obj());
    b.append("name", kTTLIndexName);
    b.append("expireAfterSeconds", localLogicalSessionTimeoutMinutes() * 60);
    return b.obj();
}

// config.system.sessions with its TTL index, as MongoDB sets it up on a standalone server.
void setUpSessionsCollection(OperationContext* opCtx) {
    {
        CatalogReadLock lock;
        Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, kSessionsNss);
        if (c && c->getIndexCatalog()->findIndexByName(kTTLIndexName)) return;
    }
    CatalogDDLLock lock;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, kSessionsNss);
    if (!c) c = CollectionCatalog::get()->createCollection(opCtx, kSessionsNss, CollectionOptions());
    if (!c->getIndexCatalog()->findIndexByName(kTTLIndexName)) c->getIndexCatalog()->createIndex(opCtx, ttlIndexSpec());
}

BSONObj idQuery(const std::string& idHex) {
    BSONObjBuilder q;
    q.append("_id", sessionIdFromHex(idHex));
    return q.obj();
}

// The ids (hex) of the sessions recorded in config.system.sessions.
std::set<std::string> recordedSessions(OperationContext* opCtx) {
    std::set<std::string> out;
    CatalogReadLock lock;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, kSessionsNss);
    if (!c) return out;
    auto cursor = c->getCursor(opCtx);
    while (auto r = cursor->next()) {
        BSONElement id = r->doc["_id"];
        if (id.type() != Object) continue;
        if (auto hex = lsidIdHex(id.Obj())) out.insert(*hex);
    }
    return out;
}

}  // namespace

LogicalSessionCache& LogicalSessionCache::get() {
    static LogicalSessionCache* c = new LogicalSessionCache();  // never destroyed: used at exit
    return *c;
}

void LogicalSessionCache::vivify(const BSONObj& lsid) {
    auto hex = lsidIdHex(lsid);
    if (!hex) return;
    long long now = Date_t::now().millis;
    std::lock_guard<std::mutex> lk(_mutex);
    _active[*hex] = now;
}

void LogicalSessionCache::endSessions(const std::vector<BSONObj>& lsids) {
    std::lock_guard<std::mutex> lk(_mutex);
    for (const BSONObj& lsid : lsids) {
        auto hex = lsidIdHex(lsid);
        if (!hex) continue;
        _active.erase(*hex);
        _ending.insert(*hex);
    }
}

std::vector<BSONObj> LogicalSessionCache::listLocalSessions(const std::optional<std::set<std::string>>& uids) const {
    // Every session here belongs to the unauthenticated user.
    std::vector<BSONObj> out;
    if (uids && !uids->count(noAuthUserDigest())) return out;
    std::lock_guard<std::mutex> lk(_mutex);
    for (const auto& [hex, lastUse] : _active) {
        BSONObjBuilder b;
        b.append("_id", sessionIdFromHex(hex));
        b.append("lastUse", Date_t::fromMillis(lastUse));
        out.push_back(b.obj());
    }
    return out;
}

void LogicalSessionCache::refreshNow() {
    std::lock_guard<std::mutex> refreshLock(_refreshMutex);
    // A member that cannot write (a replica-set member not yet primary) keeps its sessions for
    // a later refresh, as MongoDB's refresh fails there and retries.
    if (!repl::ReplicationCoordinator::get()->canAcceptWritesForDatabase(kSessionsNss.db())) return;
    std::map<std::string, long long> active;
    std::set<std::string> ending;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        active.swap(_active);
        ending.swap(_ending);
    }
    auto opCtx = makeOperationContext(internalClient());
    try {
        setUpSessionsCollection(opCtx.get());
        BSONObj update = [] {
            BSONObjBuilder cd;
            cd.append("lastUse", true);
            BSONObjBuilder u;
            u.append("$currentDate", cd.obj());
            BSONObjBuilder holder;
            holder.append("u", u.obj());
            return holder.obj();
        }();
        for (const auto& [hex, lastUse] : active) {
            UpdateStatement stmt;
            stmt.q = idQuery(hex);
            stmt.u = update["u"];
            stmt.upsert = true;
            performUpdate(opCtx.get(), kSessionsNss, stmt, false);
        }
        for (const std::string& hex : ending)
            performDelete(opCtx.get(), kSessionsNss, idQuery(hex), true, BSONObj(), BSONObj(), nullptr);
    } catch (...) {
        // Nothing is lost: the sessions go to the next refresh.
        std::lock_guard<std::mutex> lk(_mutex);
        for (const auto& [hex, lastUse] : active) _active.emplace(hex, lastUse);
        _ending.insert(ending.begin(), ending.end());
        throw;
    }
    // Cursors of sessions that ended, or whose record expired (the TTL monitor deleted it), go.
    std::set<std::string> recorded = recordedSessions(opCtx.get());
    std::set<std::string> activeNow;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        for (const auto& [hex, lastUse] : _active) activeNow.insert(hex);
    }
    size_t killed = CursorManager::get().killIf([&](const BSONObj& lsid) {
        auto hex = lsidIdHex(lsid);
        if (!hex) return false;
        return ending.count(*hex) > 0 || (!recorded.count(*hex) && !activeNow.count(*hex));
    });
    if (killed)
        LOGV2(20528, Query, "Killed cursors of ended or expired sessions", logv2::attrs("numKilled", (long long)killed));
}

long long LogicalSessionCache::reapNow() {
    std::lock_guard<std::mutex> refreshLock(_refreshMutex);  // not while a refresh writes
    if (!repl::ReplicationCoordinator::get()->canAcceptWritesForDatabase("config")) return 0;
    auto opCtx = makeOperationContext(internalClient());
    Date_t cutoff =
        Date_t::fromMillis(Date_t::now().millis - 60LL * 1000 * transactionRecordMinimumLifetimeMinutes());
    long long n = repl::reapSessionRecords(opCtx.get(), cutoff);
    if (n) LOGV2(20712, Control, "Sessions reaped", logv2::attrs("numReaped", n));
    return n;
}

std::pair<size_t, size_t> LogicalSessionCache::killSessionsNow(const std::vector<BSONObj>& lsids, bool all) {
    std::set<std::string> ids;
    for (const BSONObj& l : lsids)
        if (auto hex = lsidIdHex(l)) ids.insert(*hex);
    auto matches = [&](const BSONObj& lsid) {
        auto hex = lsidIdHex(lsid);
        return hex && (all || ids.count(*hex) > 0);
    };
    // An operation's lsid is set before it is registered and never changes: safe to read here.
    size_t ops = CurrentOpRegistry::get().killIf([&](const OperationContext* op) { return matches(op->lsid); });
    size_t cursors = CursorManager::get().killIf(matches);
    // Their transactions in progress end too (a command of one that runs now was killed
    // above; its transaction is aborted when it fails).
    txn::abortIdleTransactionsOfSessions(matches);
    return {ops, cursors};
}

void LogicalSessionCache::start() {
    SessionCommandHooks hooks;
    hooks.onStartSession = [this](OperationContext*, const BSONObj& lsid) { vivify(lsid); };
    hooks.onEndSessions = [this](OperationContext*, const std::vector<BSONObj>& lsids) { endSessions(lsids); };
    hooks.onRefreshSessions = [this](OperationContext*, const std::vector<BSONObj>& lsids) {
        for (const BSONObj& l : lsids) vivify(l);
    };
    hooks.onKillSessions = [](OperationContext*, const std::vector<BSONObj>& lsids) { killSessionsNow(lsids, false); };
    hooks.onKillAllSessions = [](OperationContext*) { killSessionsNow({}, true); };
    setSessionCommandHooks(std::move(hooks));
    std::lock_guard<std::mutex> lk(_mutex);
    _stopping = false;
    _thread = std::thread([this] { run(); });
}

void LogicalSessionCache::shutdown() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _stopping = true;
    }
    _cv.notify_all();
    if (_thread.joinable()) _thread.join();
    setSessionCommandHooks({});
}

void LogicalSessionCache::run() {
    logv2::setThreadName("LogicalSessionCacheRefresh");
    std::unique_lock<std::mutex> lk(_mutex);
    while (!_stopping) {
        _cv.wait_for(lk, std::chrono::milliseconds(logicalSessionRefreshMillis()), [this] { return _stopping; });
        if (_stopping) break;
        lk.unlock();
        try {
            refreshNow();
            reapNow();
        } catch (const DBException& e) {
            LOGV2(20714, Control, "Failed to refresh session cache, will try again at the next refresh interval",
                  logv2::attrs("error", e.toStatus().toString()));
        }
        lk.lock();
    }
}

}  // namespace mongo
