#pragma once
// The operations in progress and the connections open, for currentOp, $currentOp and killOp.
// The dispatcher registers each command it runs for its duration:
//   ScopedCurrentOp op(opCtx, request.body, ns, "command");   // "query", "insert", ... too
// (describeCommand() gives MongoDB's op type and ns for a request), and notes each connection
// it serves (noteClient, forgetClient at disconnect) so that idle connections can be listed.
// killOp marks a registered operation killed (its next checkForInterrupt() throws
// Interrupted); the session layer kills a session's operations with killIf().
// Thread safety: all members are thread safe; an OperationContext is never touched after
// it was removed, so removal (ScopedCurrentOp's destructor) must precede its destruction.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"

namespace mongo {

struct OpMsgRequest;

// What currentOp reports ($currentOp's options; the command's $all is idleConnections).
struct CurrentOpReportOptions {
    bool idleConnections = false;  // also {active: false} documents for connections not running a command
    bool truncateOps = false;      // commands over 1000 bytes shown as {$truncated: "<first 1000 chars>"}
};

class CurrentOpRegistry {
public:
    static CurrentOpRegistry& get();

    // currentOp's op type and ns for a command, as MongoDB reports them: find "query",
    // getMore "getmore", insert/update/delete "insert"/"update"/"remove", others "command";
    // ns "<db>.<collection>" when the command names one, "<db>.$cmd.aggregate" for {aggregate: 1},
    // else "<db>.$cmd".
    static std::pair<std::string, std::string> describeCommand(const std::string& cmdName, const OpMsgRequest& req);

    // Registers / unregisters the operation. Called on the operation's own thread (the
    // Client's fields are copied then); the lsid is the operation's (set it before adding).
    void add(OperationContext* opCtx, const BSONObj& command, const std::string& ns, const std::string& opType);
    void remove(OperationContext* opCtx);
    bool contains(int64_t opId) const;

    // The connection's description, refreshed by the dispatcher on the connection's own thread
    // before each command (cheap when nothing changed); forgotten when it closes.
    void noteClient(const Client* client);
    void forgetClient(int64_t connectionId);

    // Marks the operation killed. Returns false if no such operation is running.
    bool kill(int64_t opId);
    // Marks killed every operation for which pred(opCtx) holds; returns how many.
    size_t killIf(const std::function<bool(const OperationContext*)>& pred);

    // One document per operation, as currentOp shows them ({type: "op", host, desc,
    // connectionId, client, appName?, clientMetadata?, lsid?, active, currentOpTime, opid,
    // secs_running, microsecs_running, op, ns, command, planSummary?, numYields,
    // waitingForLock, ...}), then with idleConnections one per idle connection.
    std::vector<BSONObj> report(const CurrentOpReportOptions& options = {}) const;
};

class ScopedCurrentOp {
public:
    // Also makes opCtx this thread's current operation (operation_context.h).
    ScopedCurrentOp(OperationContext* opCtx, const BSONObj& command, const std::string& ns,
                    const std::string& opType = "command")
        : _opCtx(opCtx), _previous(currentOperationOnThisThread()) {
        CurrentOpRegistry::get().add(opCtx, command, ns, opType);
        setCurrentOperationOnThisThread(opCtx);
    }
    ~ScopedCurrentOp() {
        setCurrentOperationOnThisThread(_previous);
        CurrentOpRegistry::get().remove(_opCtx);
    }
    ScopedCurrentOp(const ScopedCurrentOp&) = delete;
    ScopedCurrentOp& operator=(const ScopedCurrentOp&) = delete;

private:
    OperationContext* _opCtx;
    const OperationContext* _previous;
};

}  // namespace mongo
