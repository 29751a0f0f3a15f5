// commitTransaction and abortTransaction (admin database; lsid + txnNumber + autocommit:
// false), as MongoDB 7.0 has them on a replica set. The dispatcher has begun the
// transaction's scope (transaction_scope.h) before they run; recoveryToken (for mongos) is
// accepted and unused.
#include "mongo/db/commands/command.h"
#include "mongo/db/transaction/transaction_scope.h"

namespace mongo {
namespace {

txn::TransactionScope& scopeOf(OperationContext* opCtx, const std::string& name) {
    // Without autocommit the dispatcher began no transaction: MongoDB's answer for a commit
    // or abort sent outside one.
    uassert(ErrorCodes::InvalidOptions, name + " must be run within a transaction", opCtx->transaction);
    return *opCtx->transaction;
}

class CommitTransactionCmd : public Command {
public:
    CommitTransactionCmd() : Command("commitTransaction") {}
    bool adminOnly() const override { return true; }
    // Each command of the transaction was checked for its own privileges.
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override {
        return RequiredPrivileges::authenticated();
    }
    std::string help() const override { return "commits a multi-document transaction"; }
    void run(OperationContext* opCtx, const OpMsgRequest&, BSONObjBuilder&) override {
        scopeOf(opCtx, "commitTransaction").commit(opCtx);
    }
} commitTransactionCmd;

class AbortTransactionCmd : public Command {
public:
    AbortTransactionCmd() : Command("abortTransaction") {}
    bool adminOnly() const override { return true; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override {
        return RequiredPrivileges::authenticated();
    }
    std::string help() const override { return "aborts a multi-document transaction"; }
    void run(OperationContext* opCtx, const OpMsgRequest&, BSONObjBuilder&) override {
        scopeOf(opCtx, "abortTransaction").abort();
    }
} abortTransactionCmd;

}  // namespace
}  // namespace mongo
