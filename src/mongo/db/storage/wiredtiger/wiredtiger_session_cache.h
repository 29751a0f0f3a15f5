#pragma once
// WiredTigerSession: one WT_SESSION and the cursors it keeps open for reuse (opening a cursor
// is costly; a reset cursor is cheap to keep). WiredTigerSessionCache pools idle sessions so
// each operation gets one without opening a new WT_SESSION.
//
// Dropping a table fails with EBUSY while any session has a cursor open on it. The cache
// therefore keeps a set of tables being dropped: idle sessions close their cursors on them
// at once, sessions in use do so the next time they hand out or take back a cursor
// (dropEpoch tells them something changed), and the engine retries the drop.
//
// Idle sessions are not kept for ever: each holds WiredTiger's per-session memory (cursors,
// scratch buffers as large as the largest value it handled), so after a burst of connections
// the pool would keep a few hundred KB per connection that is gone. Sessions idle for longer
// than wiredTigerSessionCloseIdleTimeSecs (MongoDB 7.0's parameter, default 300 s) are closed
// by closeExpiredIdleSessions, which the engine's background thread calls every second.
//
// Thread safety: a WiredTigerSession belongs to one thread at a time. The cache is thread safe.
#include <wiredtiger.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mongo {

class WiredTigerSessionCache;

class WiredTigerSession {
public:
    WiredTigerSession(WT_CONNECTION* conn, WiredTigerSessionCache* cache);
    ~WiredTigerSession();
    WiredTigerSession(const WiredTigerSession&) = delete;
    WiredTigerSession& operator=(const WiredTigerSession&) = delete;

    WT_SESSION* get() const { return _session; }
    // A cursor on uri (cached or newly opened). Throws DBException (NamespaceNotFound if the
    // table does not exist).
    WT_CURSOR* getCursor(const std::string& uri);
    // Gives the cursor back for reuse (it is reset, or closed if its table is being dropped).
    void releaseCursor(const std::string& uri, WT_CURSOR* cursor);
    void closeCursorsFor(const std::string& uri);
    void closeAllCursors();

private:
    friend class WiredTigerSessionCache;
    void syncWithPendingDrops();

    WT_SESSION* _session = nullptr;
    WiredTigerSessionCache* _cache;
    std::chrono::steady_clock::time_point _idleSince;  // when it was last given back
    std::unordered_map<std::string, std::vector<WT_CURSOR*>> _cursors;
    uint64_t _dropEpoch = 0;
};

class WiredTigerSessionCache {
public:
    explicit WiredTigerSessionCache(WT_CONNECTION* conn) : _conn(conn) {}
    ~WiredTigerSessionCache();

    std::unique_ptr<WiredTigerSession> getSession();
    void releaseSession(std::unique_ptr<WiredTigerSession> session);

    // Tables being dropped (see the file comment).
    void markDropPending(const std::string& uri);
    void clearDropPending(const std::string& uri);
    bool isDropPending(const std::string& uri) const;
    std::vector<std::string> pendingDrops() const;
    uint64_t dropEpoch() const { return _dropEpoch.load(); }

    // Closes every idle session (shutdown). Sessions still in use are closed when released.
    void closeAll();
    // Closes the sessions idle for longer than wiredTigerSessionCloseIdleTimeSecs; returns how
    // many it closed.
    size_t closeExpiredIdleSessions();
    size_t idleSessionCount() const;
    // After WT_CONNECTION::close every WT_SESSION is gone: sessions still checked out must not
    // be touched any more (their owners are destroyed after the engine shut down).
    void markConnectionClosed() { _connClosed = true; }
    bool connectionClosed() const { return _connClosed.load(); }

private:
    WT_CONNECTION* _conn;
    mutable std::mutex _mutex;
    std::vector<std::unique_ptr<WiredTigerSession>> _idle;  // oldest release first
    std::set<std::string> _dropPending;
    std::atomic<uint64_t> _dropEpoch{1};
    std::atomic<bool> _connClosed{false};
    bool _closed = false;
};

}  // namespace mongo
