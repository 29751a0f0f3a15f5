#include "mongo/db/repl/session_txn_table.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

BSONObj cmd(const char* name, long long txn, int session = 1) {
    BSONObjBuilder b;
    b.append(name, "c");
    BSONObjBuilder lsid;
    lsid.append("id", session);
    b.append("lsid", lsid.obj());
    b.append("txnNumber", txn);
    return b.obj();
}

int codeOf(SessionTxnTable& t, const char* name, const BSONObj& body) {
    try {
        t.beginRetryableWrite(name, body);
        return 0;
    } catch (const DBException& e) {
        return e.code();
    }
}

TEST(SessionTxnTableTest, ARetryIsRefusedNeverReapplied) {
    SessionTxnTable t;
    EXPECT_EQ(codeOf(t, "insert", cmd("insert", 1)), 0);
    EXPECT_EQ(codeOf(t, "insert", cmd("insert", 1)), int(ErrorCodes::IncompleteTransactionHistory));
    EXPECT_EQ(codeOf(t, "update", cmd("update", 0)), int(ErrorCodes::TransactionTooOld));
    EXPECT_EQ(codeOf(t, "update", cmd("update", 2)), 0);
    EXPECT_EQ(codeOf(t, "insert", cmd("insert", 1, 2)), 0);  // another session
    EXPECT_EQ(t.sizeForTest(), 2u);
}

TEST(SessionTxnTableTest, BadRequests) {
    SessionTxnTable t;
    EXPECT_EQ(codeOf(t, "find", cmd("find", 1)), int(ErrorCodes::NotARetryableWriteCommand));
    BSONObjBuilder noLsid;
    noLsid.append("insert", "c");
    noLsid.append("txnNumber", 1LL);
    EXPECT_EQ(codeOf(t, "insert", noLsid.obj()), int(ErrorCodes::InvalidOptions));
    BSONObjBuilder intTxn;
    intTxn.append("insert", "c");
    intTxn.append("txnNumber", 1);
    EXPECT_EQ(codeOf(t, "insert", intTxn.obj()), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(codeOf(t, "insert", cmd("insert", -1)), int(ErrorCodes::BadValue));
}

TEST(SessionTxnTableTest, UnusedSessionsExpireAfterTheTimeout) {
    SessionTxnTable t;
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < 100; ++s) t.beginRetryableWrite("insert", cmd("insert", 1, s), t0);
    // Session 5 is used again later: it stays when the others expire.
    t.beginRetryableWrite("insert", cmd("insert", 2, 5), t0 + std::chrono::minutes(20));
    EXPECT_EQ(t.sizeForTest(), 100u);
    t.beginRetryableWrite("insert", cmd("insert", 1, 1000), t0 + std::chrono::minutes(31));
    EXPECT_EQ(t.sizeForTest(), 2u);  // session 5 and the new one
    try {
        t.beginRetryableWrite("insert", cmd("insert", 2, 5), t0 + std::chrono::minutes(32));
        FAIL() << "a retry on a live session was accepted";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::IncompleteTransactionHistory));
    }
    // An expired session is forgotten: its numbers start afresh.
    t.beginRetryableWrite("insert", cmd("insert", 1, 7), t0 + std::chrono::minutes(33));
    t.beginRetryableWrite("insert", cmd("insert", 1, 0), t0 + std::chrono::minutes(80));
    EXPECT_EQ(t.sizeForTest(), 1u);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
