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
