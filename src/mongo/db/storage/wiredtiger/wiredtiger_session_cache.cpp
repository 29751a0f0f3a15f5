#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"

#include <climits>

#include "mongo/db/server_parameters.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {
namespace {
constexpr size_t kMaxCachedCursorsPerTable = 4;
constexpr size_t kMaxIdleSessions = 256;

ServerParameterWithStorage<int> gSessionCloseIdleTimeSecs("wiredTigerSessionCloseIdleTimeSecs", 300,
                                                          ServerParameterType::kStartupAndRuntime,
                                                          boundedBy<int>(0, INT_MAX));
}  // namespace

WiredTigerSession::WiredTigerSession(WT_CONNECTION* conn, WiredTigerSessionCache* cache) : _cache(cache) {
    wtCheck(conn->open_session(conn, nullptr, "isolation=snapshot", &_session), "open_session");
    _dropEpoch = cache->dropEpoch();
}

WiredTigerSession::~WiredTigerSession() {
    if (_session && !_cache->connectionClosed()) _session->close(_session, nullptr);  // closes its cursors too
}

void WiredTigerSession::syncWithPendingDrops() {
    uint64_t epoch = _cache->dropEpoch();
    if (epoch == _dropEpoch) return;
    _dropEpoch = epoch;
    for (const auto& uri : _cache->pendingDrops()) closeCursorsFor(uri);
}

WT_CURSOR* WiredTigerSession::getCursor(const std::string& uri) {
    syncWithPendingDrops();
    auto it = _cursors.find(uri);
    if (it != _cursors.end() && !it->second.empty()) {
        WT_CURSOR* c = it->second.back();
        it->second.pop_back();
        return c;
    }
    WT_CURSOR* c = nullptr;
    int ret = _session->open_cursor(_session, uri.c_str(), nullptr, nullptr, &c);
    wtCheck(ret, "open_cursor " + uri);
    return c;
}

void WiredTigerSession::releaseCursor(const std::string& uri, WT_CURSOR* cursor) {
    syncWithPendingDrops();
    auto& v = _cursors[uri];
    if (v.size() >= kMaxCachedCursorsPerTable || _cache->isDropPending(uri)) {
        cursor->close(cursor);
        return;
    }
    cursor->reset(cursor);
    v.push_back(cursor);
}

void WiredTigerSession::closeCursorsFor(const std::string& uri) {
    auto it = _cursors.find(uri);
    if (it == _cursors.end()) return;
    for (WT_CURSOR* c : it->second) c->close(c);
    _cursors.erase(it);
}

void WiredTigerSession::closeAllCursors() {
    for (auto& [uri, v] : _cursors)
        for (WT_CURSOR* c : v) c->close(c);
    _cursors.clear();
}

WiredTigerSessionCache::~WiredTigerSessionCache() { closeAll(); }

std::unique_ptr<WiredTigerSession> WiredTigerSessionCache::getSession() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (!_idle.empty()) {
            auto s = std::move(_idle.back());
            _idle.pop_back();
            return s;
        }
    }
    return std::make_unique<WiredTigerSession>(_conn, this);
}

void WiredTigerSessionCache::releaseSession(std::unique_ptr<WiredTigerSession> session) {
    if (!session) return;
    if (_connClosed) return;  // its WT_SESSION was closed with the connection
    session->syncWithPendingDrops();
    std::lock_guard<std::mutex> lk(_mutex);
    if (_closed || _idle.size() >= kMaxIdleSessions) return;  // destroyed: WT_SESSION closed
    session->_idleSince = std::chrono::steady_clock::now();
    _idle.push_back(std::move(session));
}

size_t WiredTigerSessionCache::closeExpiredIdleSessions() {
    auto cutoff = std::chrono::steady_clock::now() - std::chrono::seconds(gSessionCloseIdleTimeSecs.get());
    std::vector<std::unique_ptr<WiredTigerSession>> expired;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        // getSession takes from the back, so the front holds the longest idle.
        size_t n = 0;
        while (n < _idle.size() && _idle[n]->_idleSince <= cutoff) n++;
        if (n == 0) return 0;
        expired.assign(std::make_move_iterator(_idle.begin()), std::make_move_iterator(_idle.begin() + n));
        _idle.erase(_idle.begin(), _idle.begin() + n);
    }
    return expired.size();  // closed here, outside the mutex
}

size_t WiredTigerSessionCache::idleSessionCount() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _idle.size();
}

void WiredTigerSessionCache::markDropPending(const std::string& uri) {
    std::lock_guard<std::mutex> lk(_mutex);
    _dropPending.insert(uri);
    ++_dropEpoch;
    for (auto& s : _idle) s->closeCursorsFor(uri);
}

void WiredTigerSessionCache::clearDropPending(const std::string& uri) {
    std::lock_guard<std::mutex> lk(_mutex);
    _dropPending.erase(uri);
}

bool WiredTigerSessionCache::isDropPending(const std::string& uri) const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _dropPending.count(uri) > 0;
}

std::vector<std::string> WiredTigerSessionCache::pendingDrops() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return std::vector<std::string>(_dropPending.begin(), _dropPending.end());
}

void WiredTigerSessionCache::closeAll() {
    std::vector<std::unique_ptr<WiredTigerSession>> idle;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _closed = true;
        idle.swap(_idle);
    }
    idle.clear();
}

}  // namespace mongo
