#pragma once
// The "failCommand" fail point, as the drivers' test suites use it:
//   {configureFailPoint: "failCommand", mode: {times: 1},
//    data: {failCommands: ["insert"], errorCode: 91, closeConnection: false,
//           blockConnection: true, blockTimeMS: 100, appName: "x", errorLabels: [...],
//           writeConcernError: {code: 64, errmsg: "..."}, namespace: "db.coll",
//           failAllCommands: false, failInternalCommands: false, threadName: "conn7"}}
//
// The dispatcher calls, for every command it is about to run (after parsing, before running):
//   if (auto outcome = checkFailCommand(opCtx, cmdName, ns)) {
//       if (outcome->closeConnection) -> close the connection, send nothing
//       else -> reply outcome->reply instead of running; do not add error labels of its own
//               when outcome->errorLabelsOverridden (the fail point's labels are final)
//   }
// and, for commands that accept a write concern, after running (successfully or not):
//   if (auto wce = failCommandWriteConcernError(opCtx, cmdName, ns)) append its fields
//   ({writeConcernError: {...}} and possibly errorLabels) to the reply.
//
// A command matches when its name or any alias of the same command is in failCommands
// (or failAllCommands), configureFailPoint never matches, and appName / namespace /
// threadName, when given, equal the connection's application name, the command's
// namespace and the connection's "connN" name. Each match consumes one of {times: n}.
// Thread safety: callable from every connection's thread.
#include <optional>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/fail_point.h"

namespace mongo {

extern FailPoint failCommand;

struct FailCommandOutcome {
    // Close the connection without replying (data.closeConnection).
    bool closeConnection = false;
    // The reply to send instead of running the command:
    // {ok: 0, errmsg: "Failing command via 'failCommand' failpoint", code, codeName[, errorLabels]}.
    BSONObj reply;
    // data.errorLabels was given: the reply carries exactly those labels.
    bool errorLabelsOverridden = false;
};

// Before a command runs. Sleeps first for data.blockTimeMS when data.blockConnection is true
// (interruptible: throws MaxTimeMSExpired/Interrupted like any wait). Returns nothing when
// the command should run normally (including after a block without an error).
// Throws InvalidOptions when blockConnection is set without a usable blockTimeMS.
std::optional<FailCommandOutcome> checkFailCommand(OperationContext* opCtx, const std::string& cmdName,
                                                   const std::string& ns = "");

// The same for a caller without an OperationContext (the block is then not interruptible by
// killOp/maxTimeMS, only by shutdown; a "namespace" filter never matches). Returns the reply
// to send instead of running the command. closeConnection gives a reply with code 50985
// (MongoDB's code for it, which nothing else uses): the caller must then close the
// connection and send nothing.
std::optional<BSONObj> checkFailCommand(const std::string& cmdName, Client* client);

// After a write-concern-accepting command ran: the fields to append when the fail point
// injects a write concern error: {writeConcernError: {...}[, errorLabels: [...]]}.
std::optional<BSONObj> failCommandWriteConcernError(OperationContext* opCtx, const std::string& cmdName,
                                                    const std::string& ns = "");

// Whether failCommand's data selects this command for this client (no side effects).
bool failCommandMatches(const BSONObj& data, const std::string& cmdName, const std::string& ns, Client* client);

}  // namespace mongo
