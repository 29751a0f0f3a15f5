#pragma once
// Commands: one object per command, registered by name in one table at static-init time.
// The dispatcher (db/service_entry_point_mongod.cpp) finds the command, creates the
// OperationContext, runs it, and wraps the reply with ok/errmsg/code/codeName.
#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/required_privileges.h"
#include "mongo/db/operation_context.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

class Command {
public:
    // Registers itself under name and aliases (case-sensitive, as MongoDB).
    explicit Command(std::string name, std::vector<std::string> aliases = {});
    virtual ~Command() = default;
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;

    const std::string& name() const { return _name; }
    virtual std::string help() const = 0;
    // Only runs against the admin database (Unauthorized otherwise, as MongoDB).
    virtual bool adminOnly() const { return false; }
    // Access control: what this request needs from the client (auth/required_privileges.h).
    // Every command declares it, here and only here; the dispatcher checks it before run()
    // when authorization is enabled. Must not depend on the data (no storage access) and
    // should not throw: a malformed request may ask for the privileges of a well-formed one.
    virtual RequiredPrivileges requiredPrivileges(const OpMsgRequest& request) const = 0;
    // Runs the command and appends the reply's fields (without "ok"). Errors are thrown as
    // DBException; write commands report per-document errors in the reply instead.
    virtual void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) = 0;

    // Counters shown in serverStatus().metrics.commands.<name>.
    std::atomic<long long> calls{0};
    std::atomic<long long> failed{0};

private:
    std::string _name;
};

// All registered commands by name (aliases included).
const std::map<std::string, Command*>& allCommands();
Command* findCommand(const std::string& name);

}  // namespace mongo
