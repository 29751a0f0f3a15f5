#pragma once
// The operations in progress, for currentOp and killOp. The dispatcher registers each
// command it runs for its duration:
//   ScopedCurrentOp op(opCtx, request.body, ns, "command");   // "query", "insert", ... too
// killOp marks a registered operation killed (its next checkForInterrupt() throws
// Interrupted); the session layer can kill a session's operations with killIf().
// Thread safety: all members are thread safe; an OperationContext is never touched after
// it was removed, so removal (ScopedCurrentOp's destructor) must precede its destruction.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"

namespace mongo {

class CurrentOpRegistry {
public:
    static CurrentOpRegistry& get();

    void add(OperationContext* opCtx, const BSONObj& command, const std::string& ns, const std::string& opType);
    void remove(OperationContext* opCtx);
    bool contains(int64_t opId) const;

    // Marks the operation killed. Returns false if no such operation is running.
    bool kill(int64_t opId);
    // Marks killed every operation for which pred(opCtx) holds; returns how many.
    size_t killIf(const std::function<bool(const OperationContext*)>& pred);

    // One document per operation, as currentOp shows them ({type: "op", opid, active, op, ns,
    // command, desc, connectionId, client, clientMetadata, secs_running, ...}).
    std::vector<BSONObj> report() const;
};

class ScopedCurrentOp {
public:
    ScopedCurrentOp(OperationContext* opCtx, const BSONObj& command, const std::string& ns,
                    const std::string& opType = "command")
        : _opCtx(opCtx) {
        CurrentOpRegistry::get().add(opCtx, command, ns, opType);
    }
    ~ScopedCurrentOp() { CurrentOpRegistry::get().remove(_opCtx); }
    ScopedCurrentOp(const ScopedCurrentOp&) = delete;
    ScopedCurrentOp& operator=(const ScopedCurrentOp&) = delete;

private:
    OperationContext* _opCtx;
};

}  // namespace mongo
