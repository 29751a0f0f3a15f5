#pragma once
// Logical session commands: startSession, endSessions, refreshSessions, killSessions,
// killAllSessions, killAllSessionsByPattern. The commands validate their arguments and
// answer as MongoDB does; the session layer (session catalog / transactions / cursors)
// installs hooks to act on them. Without hooks the commands still succeed.
// Thread safety: set the hooks at startup; the commands call them from any thread.
#include <functional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"

namespace mongo {

struct SessionCommandHooks {
    // A session id ({id: UUID}) was handed out by startSession.
    std::function<void(OperationContext*, const BSONObj& lsid)> onStartSession;
    // endSessions / refreshSessions / killSessions, and killAllSessionsByPattern's {lsid: ...}
    // patterns: the named sessions ({id: UUID} each).
    std::function<void(OperationContext*, const std::vector<BSONObj>& lsids)> onEndSessions;
    std::function<void(OperationContext*, const std::vector<BSONObj>& lsids)> onRefreshSessions;
    std::function<void(OperationContext*, const std::vector<BSONObj>& lsids)> onKillSessions;
    // killAllSessions (or a pattern matching every session): abort every session's
    // transaction and kill its cursors and operations.
    std::function<void(OperationContext*)> onKillAllSessions;
};
void setSessionCommandHooks(SessionCommandHooks hooks);

// A new random session id: {id: UUID (BinData subtype 4, version 4)}.
BSONObj makeLogicalSessionId();

}  // namespace mongo
