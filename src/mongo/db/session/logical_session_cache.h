#pragma once
// The logical session cache, as MongoDB 7.0 runs it on a standalone server (or a primary):
//   - a session is "active" from its startSession, from any command that carries its lsid, or
//     from refreshSessions, until the next refresh; $listLocalSessions lists the active ones;
//   - every logicalSessionRefreshMillis (300000, a start-up parameter; the test command
//     refreshLogicalSessionCacheNow forces one) a refresh writes the active sessions to
//     config.system.sessions ({_id: {id, uid}, lastUse}, lastUse set to the refresh's time),
//     removes the ones endSessions ended, and starts a new active set. It creates the
//     collection and its TTL index {lastUse: 1} "lsidTTLIndex" (expireAfterSeconds:
//     localLogicalSessionTimeoutMinutes * 60) first, so a session unused for that long is
//     deleted by the TTL monitor: it has expired. $listSessions reads that collection;
//   - cursors of sessions that ended, or whose record expired, are killed at the refresh;
//   - killSessions / killAllSessions kill the sessions' running operations (Interrupted) and
//     their cursors (killSessionsNow).
// Sessions have no owner here (no authentication): uid is always the unauthenticated user's
// digest (logical_session_id.h).
// Thread safety: every member is thread safe.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class LogicalSessionCache {
public:
    static LogicalSessionCache& get();

    // Marks the session (lsid {id: UUID, ...}) used now. Ignores an lsid without a UUID id.
    void vivify(const BSONObj& lsid);
    // endSessions: the sessions leave the active set and their records go at the next refresh.
    void endSessions(const std::vector<BSONObj>& lsids);
    // The active sessions, {_id: {id, uid}, lastUse}, whose owner's digest is in uids (all of
    // them when uids is nullopt).
    std::vector<BSONObj> listLocalSessions(const std::optional<std::set<std::string>>& uids) const;

    // One refresh (see above), now. Throws what the writes throw. Refreshes never overlap.
    void refreshNow();
    // The session reaper, now (on a primary; it also runs after each periodic refresh): the
    // config.transactions records (retryable writes) of sessions whose config.system.sessions
    // record is gone and whose last write is older than TransactionRecordMinimumLifetimeMinutes
    // are deleted (repl/session_txn_storage.h). Returns how many.
    long long reapNow();

    // Kills the running operations (Interrupted) and the cursors of the named sessions
    // ({id: UUID} each), or of every session when all is true. Returns how many of each.
    static std::pair<size_t, size_t> killSessionsNow(const std::vector<BSONObj>& lsids, bool all);

    // Installs the session commands' hooks (commands/sessions_cmds.h) and starts the periodic
    // refresh; shutdown() stops it (before the catalog closes).
    void start();
    void shutdown();

private:
    void run();

    mutable std::mutex _mutex;
    std::map<std::string, long long> _active;  // id hex -> last use (ms since the epoch)
    std::set<std::string> _ending;              // id hex, ended since the last refresh
    std::mutex _refreshMutex;                   // one refresh at a time
    std::condition_variable _cv;
    bool _stopping = false;
    std::thread _thread;
};

}  // namespace mongo
