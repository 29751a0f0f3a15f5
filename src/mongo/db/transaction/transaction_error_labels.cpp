#include "mongo/db/transaction/transaction_error_labels.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/transaction/transaction_scope.h"

namespace mongo {
namespace txn {
namespace {

bool isTransient(int code, bool hasWriteConcernError, bool commitOrAbort) {
    switch (code) {
        case 112:  // WriteConflict
        case 24:   // LockTimeout
        case 239:  // SnapshotTooOld
        case 246:  // SnapshotUnavailable
        case 267:  // PreparedTransactionInProgress
            return true;
        case 251:  // NoSuchTransaction: the transaction left nothing, unless a commit's fate is unknown
            return !(commitOrAbort && hasWriteConcernError);
        default:
            break;
    }
    // A statement that failed because the node stepped down or shuts down: the transaction
    // is gone with it, and can be run again on the new primary.
    return !commitOrAbort && repl::isRetryableWriteErrorCode(code);
}

}  // namespace

BSONObj withTransactionErrorLabels(const std::string& commandName, const BSONObj& body, const BSONObj& reply) {
    if (body["autocommit"].eoo() || body["txnNumber"].eoo() || reply.hasField("errorLabels")) return reply;
    const bool commitOrAbort = isCommitOrAbort(commandName);
    const bool failed = !reply["ok"].trueValue() && reply["code"].isNumber();
    const int code = failed ? reply["code"].numberInt() : 0;
    BSONElement wce = reply["writeConcernError"];
    const bool hasWce = wce.type() == Object;
    const int wceCode = hasWce && wce.embeddedObject()["code"].isNumber() ? wce.embeddedObject()["code"].numberInt() : 0;
    std::string label;
    if (failed && isTransient(code, hasWce, commitOrAbort))
        label = "TransientTransactionError";
    else if (commitOrAbort && ((failed && repl::isRetryableWriteErrorCode(code)) || repl::isRetryableWriteErrorCode(wceCode)))
        label = "RetryableWriteError";
    if (label.empty()) return reply;
    BSONObjBuilder b;
    b.appendElements(reply);
    BSONArrayBuilder labels;
    labels.append(label);
    b.append("errorLabels", labels.arr());
    return b.obj();
}

}  // namespace txn
}  // namespace mongo
