#include "mongo/db/transaction/transaction_error_labels.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace txn {
namespace {

BSONObj body(bool autocommit = true) {
    BSONObjBuilder b;
    b.append("insert", "c");
    b.append("txnNumber", 1LL);
    if (autocommit) b.append("autocommit", false);
    return b.obj();
}

BSONObj failed(int code, bool wce = false) {
    BSONObjBuilder b;
    b.append("ok", wce ? 1.0 : 0.0);
    if (!wce) b.append("code", code);
    if (wce) {
        BSONObjBuilder w;
        w.append("code", code);
        b.append("writeConcernError", w.obj());
    }
    return b.obj();
}

std::string labelOf(const std::string& cmd, const BSONObj& reply, bool autocommit = true) {
    BSONObj r = withTransactionErrorLabels(cmd, body(autocommit), reply);
    BSONElement l = r["errorLabels"];
    return l.type() == Array && !l.Obj().isEmpty() ? l.Obj().firstElement().str() : "";
}

TEST(TransactionErrorLabels, ConflictsAndLostTransactionsAreTransient) {
    EXPECT_EQ(labelOf("insert", failed(112)), "TransientTransactionError");
    EXPECT_EQ(labelOf("insert", failed(24)), "TransientTransactionError");
    EXPECT_EQ(labelOf("find", failed(251)), "TransientTransactionError");
    EXPECT_EQ(labelOf("commitTransaction", failed(251)), "TransientTransactionError");
    // A statement on a node that stepped down: the transaction is gone with it.
    EXPECT_EQ(labelOf("update", failed(10107)), "TransientTransactionError");
}

TEST(TransactionErrorLabels, CommitAndAbortGetRetryableWriteErrorForRetryableCodes) {
    EXPECT_EQ(labelOf("commitTransaction", failed(10107)), "RetryableWriteError");
    EXPECT_EQ(labelOf("abortTransaction", failed(91)), "RetryableWriteError");
    EXPECT_EQ(labelOf("commitTransaction", failed(11602, /*wce=*/true)), "RetryableWriteError");
}

std::vector<std::string> labelsOf(const std::string& cmd, const BSONObj& reply) {
    std::vector<std::string> out;
    BSONElement l = withTransactionErrorLabels(cmd, body(), reply)["errorLabels"];
    if (l.type() == Array)
        for (BSONElement e : l.Obj()) out.push_back(e.str());
    return out;
}

TEST(TransactionErrorLabels, ACommitWhoseOutcomeIsUnknownSaysSo) {
    using V = std::vector<std::string>;
    EXPECT_EQ(labelsOf("commitTransaction", failed(10107)), (V{"RetryableWriteError", "UnknownTransactionCommitResult"}));
    EXPECT_EQ(labelsOf("commitTransaction", failed(64, /*wce=*/true)), (V{"UnknownTransactionCommitResult"}));
    EXPECT_EQ(labelsOf("commitTransaction", failed(50)), (V{"UnknownTransactionCommitResult"}));
    // The commit happened; no set can satisfy the write concern: waiting again changes nothing.
    EXPECT_EQ(labelsOf("commitTransaction", failed(100, /*wce=*/true)), V{});
    EXPECT_EQ(labelsOf("commitTransaction", failed(79, /*wce=*/true)), V{});
    // An abort's outcome is never in doubt for the driver; a statement's neither.
    EXPECT_EQ(labelsOf("abortTransaction", failed(64, /*wce=*/true)), V{});
    EXPECT_EQ(labelsOf("abortTransaction", failed(91)), (V{"RetryableWriteError"}));
    EXPECT_EQ(labelsOf("insert", failed(50)), V{});
}

TEST(TransactionErrorLabels, OthersGetNone) {
    EXPECT_EQ(labelOf("insert", failed(11000)), "");
    EXPECT_EQ(labelOf("commitTransaction", failed(256)), "");
    EXPECT_EQ(labelOf("insert", failed(112), /*autocommit=*/false), "");  // not a transaction
    BSONObjBuilder ok;
    ok.append("ok", 1.0);
    EXPECT_EQ(labelOf("commitTransaction", ok.obj()), "");
}

TEST(TransactionErrorLabels, ExistingLabelsAreKept) {
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("code", 112);
    BSONArrayBuilder labels;
    labels.append("Custom");
    b.append("errorLabels", labels.arr());
    EXPECT_EQ(labelOf("insert", b.obj()), "Custom");
}

}  // namespace
}  // namespace txn
}  // namespace mongo
