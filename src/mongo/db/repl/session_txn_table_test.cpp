#include "mongo/db/repl/session_txn_table.h"

#include <gtest/gtest.h>

#include "mongo/base/code_of_test_util.h"

#include <atomic>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/repl/session_txn_storage.h"

namespace mongo {
namespace repl {
namespace {

// Storage as a map: records by session, and an "oplog" of retryable entries by timestamp.
class FakeStore : public SessionTxnStore {
public:
    std::map<std::string, SessionTxnRecord> records;
    std::map<uint64_t, OplogEntry> oplog;  // by ts
    int historyReads = 0;

    std::optional<SessionTxnRecord> readRecord(OperationContext*, const BSONObj& sessionId) override {
        auto it = records.find(sessionId.toString());
        if (it == records.end()) return std::nullopt;
        return it->second;
    }
    TxnHistory readHistory(OperationContext*, const OpTime& last) override {
        historyReads++;
        TxnHistory h;
        OpTime want = last;
        while (!want.isNull()) {
            auto it = oplog.find(want.getTimestamp().asULL());
            if (it == oplog.end()) {
                h.complete = false;
                return h;
            }
            h.statements.emplace(it->second.stmtId, outcomeOf(it->second));
            want = it->second.prevOpTime;
        }
        return h;
    }

    // A statement written by "another primary": its entry, chained, and the record.
    OpTime write(const BSONObj& sid, long long txn, int stmtId, char op, uint32_t secs, long long term = 1) {
        auto& rec = records[sid.toString()];
        OplogEntry e;
        e.op = static_cast<OpTypeEnum>(op);
        e.ns = "test.c";
        e.o = fromjson("{\"_id\": " + std::to_string(stmtId * 10) + "}");
        e.lsid = sid;
        e.txnNumber = txn;
        e.stmtId = stmtId;
        e.prevOpTime = rec.txnNum == txn ? rec.lastWriteOpTime : OpTime();
        e.opTime = OpTime(Timestamp{secs, 1}, term);
        oplog[e.opTime.getTimestamp().asULL()] = e;
        rec.sessionId = sid;
        rec.txnNum = txn;
        rec.lastWriteOpTime = e.opTime;
        return e.opTime;
    }
};

BSONObj sid(int n) {
    unsigned char bytes[16] = {};
    bytes[15] = static_cast<unsigned char>(n);
    BSONObjBuilder b;
    b.appendBinData("id", 16, 4, bytes);
    return b.obj();
}

StatementOutcome outcome(char op, uint32_t secs) {
    StatementOutcome o;
    o.op = op;
    o.opTime = OpTime(Timestamp{secs, 1}, 1);
    return o;
}

TEST(SessionTxnTableTest, TxnNumberRules) {
    FakeStore store;
    SessionTxnTable t(&store);
    {
        auto s = t.checkOut(nullptr, sid(1), 1);
        s->beginOrContinue(5);
        EXPECT_FALSE(s->checkStatementExecuted(0).has_value());
        s->onStatementsCommitted({{0, outcome('i', 10)}}, OpTime(Timestamp{10, 1}, 1));
    }
    {
        auto s = t.checkOut(nullptr, sid(1), 1);
        EXPECT_EQ(codeOf([&] { s->beginOrContinue(4); }), int(ErrorCodes::TransactionTooOld));
        s->beginOrContinue(5);  // a retry: the statement is known, never applied again
        auto done = s->checkStatementExecuted(0);
        ASSERT_TRUE(done.has_value());
        EXPECT_EQ(done->op, 'i');
        EXPECT_FALSE(s->checkStatementExecuted(1).has_value());  // a new statement of the same txn
        EXPECT_EQ(s->lastWriteOpTime(), OpTime(Timestamp{10, 1}, 1));
        s->beginOrContinue(6);  // a new txnNumber forgets the old statements
        EXPECT_FALSE(s->checkStatementExecuted(0).has_value());
        EXPECT_TRUE(s->lastWriteOpTime().isNull());
    }
    EXPECT_EQ(store.historyReads, 0);  // memory answered: nothing read back
}

TEST(SessionTxnTableTest, ANewTermLoadsWhatReplicationBrought) {
    FakeStore store;
    SessionTxnTable t(&store);
    store.write(sid(2), 7, 0, 'i', 100);
    store.write(sid(2), 7, 1, 'u', 101);
    store.write(sid(2), 7, 2, 'd', 102);
    {
        auto s = t.checkOut(nullptr, sid(2), 3);
        EXPECT_EQ(s->txnNumber(), 7);
        EXPECT_EQ(codeOf([&] { s->beginOrContinue(6); }), int(ErrorCodes::TransactionTooOld));
        s->beginOrContinue(7);
        EXPECT_EQ(s->checkStatementExecuted(0)->op, 'i');
        EXPECT_EQ(s->checkStatementExecuted(1)->op, 'u');
        EXPECT_EQ(s->checkStatementExecuted(2)->op, 'd');
        EXPECT_FALSE(s->checkStatementExecuted(3).has_value());
        EXPECT_EQ(s->lastWriteOpTime(), OpTime(Timestamp{102, 1}, 1));
    }
    EXPECT_EQ(store.historyReads, 1);
    // Same term: memory; a later term (this node stepped down and up again): storage again.
    { t.checkOut(nullptr, sid(2), 3)->beginOrContinue(7); }
    EXPECT_EQ(store.historyReads, 1);
    store.write(sid(2), 8, 0, 'i', 200, 4);  // another primary's write in term 4
    {
        auto s = t.checkOut(nullptr, sid(2), 5);
        EXPECT_EQ(codeOf([&] { s->beginOrContinue(7); }), int(ErrorCodes::TransactionTooOld));
        s->beginOrContinue(8);
        EXPECT_TRUE(s->checkStatementExecuted(0).has_value());
    }
}

TEST(SessionTxnTableTest, ACutChainIsIncompleteHistory) {
    FakeStore store;
    SessionTxnTable t(&store);
    store.write(sid(3), 1, 0, 'i', 10);
    store.write(sid(3), 1, 1, 'i', 11);
    store.write(sid(3), 1, 2, 'i', 12);
    store.oplog.erase(Timestamp{10, 1}.asULL());  // the capped oplog dropped the oldest
    auto s = t.checkOut(nullptr, sid(3), 2);
    s->beginOrContinue(1);
    EXPECT_TRUE(s->checkStatementExecuted(2).has_value());  // still known
    EXPECT_TRUE(s->checkStatementExecuted(1).has_value());
    // Statement 0 may have run: it is not executed again, nor said not to have run.
    EXPECT_EQ(codeOf([&] { s->checkStatementExecuted(0); }), int(ErrorCodes::IncompleteTransactionHistory));
    EXPECT_EQ(codeOf([&] { s->checkStatementExecuted(7); }), int(ErrorCodes::IncompleteTransactionHistory));
    // A new txnNumber starts with a complete (empty) history.
    s->beginOrContinue(2);
    EXPECT_FALSE(s->checkStatementExecuted(0).has_value());
}

TEST(SessionTxnTableTest, ARetryWaitsForTheOriginalToCheckIn) {
    FakeStore store;
    SessionTxnTable t(&store);
    std::atomic<bool> retryGotIt{false};
    auto original = t.checkOut(nullptr, sid(4), 1);
    original->beginOrContinue(1);
    std::thread retry([&] {
        auto s = t.checkOut(nullptr, sid(4), 1);
        retryGotIt = true;
        s->beginOrContinue(1);
        EXPECT_TRUE(s->checkStatementExecuted(0).has_value());  // sees the original's statement
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    EXPECT_FALSE(retryGotIt.load());
    original->onStatementsCommitted({{0, outcome('i', 5)}}, OpTime(Timestamp{5, 1}, 1));
    original.reset();
    retry.join();
    EXPECT_TRUE(retryGotIt.load());
    // Another session is never blocked by this one.
    auto a = t.checkOut(nullptr, sid(5), 1);
    auto b = t.checkOut(nullptr, sid(6), 1);
    EXPECT_EQ(t.sizeForTest(), 3u);
}

TEST(SessionTxnTableTest, IdleSessionsLeaveMemoryAndComeBackFromStorage) {
    FakeStore store;
    SessionTxnTable t(&store);
    const auto t0 = SessionTxnTable::Clock::now();
    for (int i = 0; i < 50; i++) t.checkOut(nullptr, sid(i), 1, t0)->beginOrContinue(1);
    t.checkOut(nullptr, sid(7), 1, t0 + std::chrono::minutes(20))->beginOrContinue(2);
    EXPECT_EQ(t.sizeForTest(), 50u);
    t.checkOut(nullptr, sid(100), 1, t0 + std::chrono::minutes(31));
    EXPECT_EQ(t.sizeForTest(), 2u);  // session 7 and the new one
    // Forgotten in memory; storage (empty here) decides: txnNumber 1 is new again.
    EXPECT_EQ(codeOf([&] { t.checkOut(nullptr, sid(3), 1, t0 + std::chrono::minutes(32))->beginOrContinue(1); }), 0);
    EXPECT_EQ(t.sizeForTest(), 3u);
    t.forget(sid(3));
    EXPECT_EQ(t.sizeForTest(), 2u);
}

TEST(SessionTxnTableTest, KillSessionsMarksTransactionsWhoseCommandRunsAndAbortsIdleOnes) {
    FakeStore store;
    SessionTxnTable t(&store);
    auto running = t.checkOut(nullptr, sid(1), 1);
    running->startTransaction(1, std::make_unique<MultiDocumentTransaction>());
    {
        auto idle = t.checkOut(nullptr, sid(2), 1);
        idle->startTransaction(1, std::make_unique<MultiDocumentTransaction>());
    }
    auto all = [](const BSONObj&, long long, const MultiDocumentTransaction&) { return true; };
    // The reaper's pass leaves a transaction whose command runs alone.
    {
        auto t2 = t.checkOut(nullptr, sid(3), 1);
        t2->startTransaction(1, std::make_unique<MultiDocumentTransaction>());
        auto third = [](const BSONObj& id, long long, const MultiDocumentTransaction&) { return id.binaryEqual(sid(3)); };
        EXPECT_TRUE(t.abortIdleTransactionsIf(third, false).empty());
        EXPECT_FALSE(t2->transaction()->abortRequested.load());
        t2->endTransaction(TxnPhase::kAborted);
    }
    // killSessions' pass: the idle one is handed back, aborted; the running one is marked, in
    // the same pass under the table's lock.
    auto aborted = t.abortIdleTransactionsIf(all, true);
    ASSERT_EQ(aborted.size(), 1u);
    EXPECT_FALSE(aborted[0]->abortRequested.load());
    ASSERT_NE(running->transaction(), nullptr);
    EXPECT_TRUE(running->transaction()->abortRequested.load());
    EXPECT_EQ(running->phase(), TxnPhase::kInProgress);
}

TEST(SessionTxnRecordTest, RoundTrips) {
    SessionTxnRecord r;
    r.sessionId = sid(9);
    r.txnNum = 12;
    r.lastWriteOpTime = OpTime(Timestamp{77, 3}, 2);
    r.lastWriteDate = Date_t::fromMillis(123456);
    BSONObj doc = r.toBSON();
    EXPECT_EQ(std::string(doc.firstElementFieldName()), "_id");
    auto back = SessionTxnRecord::parse(doc);
    ASSERT_TRUE(back.isOK());
    EXPECT_EQ(back.getValue().txnNum, 12);
    EXPECT_EQ(back.getValue().lastWriteOpTime, r.lastWriteOpTime);
    EXPECT_EQ(back.getValue().lastWriteDate.millis, 123456);
    EXPECT_FALSE(SessionTxnRecord::parse(fromjson(R"({"_id": 1})")).isOK());

    RetryImage img;
    img.sessionId = sid(9);
    img.txnNum = 3;
    img.ts = Timestamp{5, 6};
    img.imageKind = "postImage";
    img.image = fromjson(R"({"_id": 1, "x": 2})");
    auto i2 = RetryImage::parse(img.toBSON());
    ASSERT_TRUE(i2.isOK());
    EXPECT_EQ(i2.getValue().imageKind, "postImage");
    EXPECT_TRUE(i2.getValue().image.binaryEqual(img.image));
    EXPECT_FALSE(i2.getValue().invalidated);
}

TEST(RetryableWriteErrorLabelTest, AsMongoDBLabelsThem) {
    BSONObj body = fromjson(R"({"insert": "c", "txnNumber": {"$numberLong": "1"}})");
    auto labelled = [](const BSONObj& r) { return r.hasField("errorLabels"); };
    EXPECT_TRUE(labelled(withRetryableWriteErrorLabel("insert", body, fromjson(R"({"ok": 0, "code": 10107})"))));
    EXPECT_TRUE(labelled(withRetryableWriteErrorLabel("insert", body, fromjson(R"({"ok": 0, "code": 91})"))));
    EXPECT_FALSE(labelled(withRetryableWriteErrorLabel("insert", body, fromjson(R"({"ok": 0, "code": 11000})"))));
    EXPECT_TRUE(labelled(withRetryableWriteErrorLabel(
        "insert", body, fromjson(R"({"ok": 1, "writeConcernError": {"code": 189}})"))));
    EXPECT_FALSE(labelled(withRetryableWriteErrorLabel(
        "insert", body, fromjson(R"({"ok": 1, "writeConcernError": {"code": 64}})"))));
    // Not a retryable write: no label.
    EXPECT_FALSE(labelled(withRetryableWriteErrorLabel("insert", fromjson(R"({"insert": "c"})"),
                                                       fromjson(R"({"ok": 0, "code": 10107})"))));
    EXPECT_FALSE(labelled(withRetryableWriteErrorLabel("find", body, fromjson(R"({"ok": 0, "code": 10107})"))));
    BSONObj r = withRetryableWriteErrorLabel("update", body, fromjson(R"({"ok": 0, "code": 11602})"));
    EXPECT_EQ(r["errorLabels"].embeddedObject().firstElement().str(), "RetryableWriteError");
}

TEST(OplogEntryRetryableTest, SessionFieldsRoundTrip) {
    OplogEntry e;
    e.op = OpTypeEnum::kUpdate;
    e.ns = "test.c";
    e.o = fromjson(R"({"$v": 2, "diff": {"u": {"x": 1}}})");
    e.o2 = fromjson(R"({"_id": 1})");
    e.opTime = OpTime(Timestamp{9, 1}, 2);
    e.lsid = sid(1);
    e.txnNumber = 4;
    e.stmtId = 3;
    e.needsRetryImage = "preImage";
    BSONObj doc = e.toBSON();
    EXPECT_EQ(std::string(doc.firstElementFieldName()), "lsid");
    // The first statement's prevOpTime is the null optime {ts: Timestamp(0, 0), t: -1}.
    EXPECT_EQ(doc["prevOpTime"].embeddedObject()["t"].numberLong(), -1);
    EXPECT_TRUE(doc["prevOpTime"].embeddedObject()["ts"].timestamp().isNull());
    auto back = OplogEntry::parse(doc);
    ASSERT_TRUE(back.isOK());
    EXPECT_TRUE(back.getValue().isRetryableWrite());
    EXPECT_EQ(back.getValue().txnNumber, 4);
    EXPECT_EQ(back.getValue().stmtId, 3);
    EXPECT_EQ(back.getValue().needsRetryImage, "preImage");
    EXPECT_TRUE(back.getValue().prevOpTime.isNull());
    // An entry without a session has none of the fields.
    OplogEntry plain = e;
    plain.lsid = BSONObj();
    BSONObj p = plain.toBSON();
    EXPECT_FALSE(p.hasField("txnNumber") || p.hasField("stmtId") || p.hasField("prevOpTime") ||
                 p.hasField("needsRetryImage"));
}

}  // namespace
}  // namespace repl
}  // namespace mongo
