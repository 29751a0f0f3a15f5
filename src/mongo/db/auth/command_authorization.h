#pragma once
// The dispatcher's access check, run before every command when access control is on:
//   - a command declared RequiredPrivileges::none() runs for anyone;
//   - an unauthenticated client gets Unauthorized (13) "Command <name> requires
//     authentication", except, under the localhost exception (no user in
//     admin.system.users, a connection from localhost, enableLocalhostAuthBypass), for
//     createUser on admin;
//   - an authenticated client needs the declared privileges among those of its users
//     (cached per connection), else Unauthorized "not authorized on <db> to execute command
//     { ... }" (the command in the shell's notation, passwords shown as "xxx").
// Nothing of the command has run when it throws. Called on the connection's thread.
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {
class Command;
}

namespace mongo::auth {

void checkCommandAuthorization(OperationContext* opCtx, const Command* cmd, const OpMsgRequest& req);

// Whether a connection's remote address is the local host (127.0.0.0/8, ::1, a Unix socket).
bool isLocalhostAddress(const std::string& remote);

// The command as MongoDB's messages print it: { find: "c", filter: {}, $db: "test" }, with
// the value of any "pwd" field replaced by "xxx".
std::string commandForMessage(const BSONObj& cmd);

// The command as diagnostics may show it (currentOp, logs): cmd itself, or a copy whose
// top-level "pwd" (createUser, updateUser) reads "xxx", as MongoDB redacts it.
BSONObj redactedForDiagnostics(const BSONObj& cmd);

}  // namespace mongo::auth
