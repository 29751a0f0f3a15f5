#pragma once
// The database profiler: after a command, an entry in <db>.system.profile when the database's
// profiling level asks for it (2: every operation; 1: operations of at least slowms
// milliseconds, sampled by sampleRate), or, with a profile filter, when the entry matches it
// (MongoDB's rules). <db>.system.profile is created capped at 1 MB on first use, as MongoDB's.
// An entry: {op, ns, command, [cursorid, nreturned, cursorExhausted], [ok: 0, errMsg, errName,
// errCode], responseLength, protocol, millis, ts, client, [appName], allUsers, user}.
// Operations on system.profile itself are not profiled. A failure to write the entry is logged
// and never changes the command's reply.
// Thread safety: called on the command's connection thread; the write takes the usual locks.
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

// The database's profiling level when the command starts (what decides, as MongoDB's: the
// command enabling profiling is not profiled, the one disabling it is). One atomic load when
// no database is profiled.
int profilingLevelAtStart(const OpMsgRequest& req);

// After the command: its entry, if levelAtStart and the settings ask for it.
void profileCommandIfEnabled(Client* client, const OpMsgRequest& req, const std::string& cmdName, int levelAtStart,
                             const Status& status, const BSONObj& reply, long long millis);

}  // namespace mongo
