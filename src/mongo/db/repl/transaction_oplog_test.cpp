#include "mongo/db/repl/transaction_oplog.h"

#include <map>

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

BSONObj op(int i, size_t pad) {
    BSONObjBuilder doc;
    doc.append("_id", i);
    doc.append("pad", std::string(pad, 'x'));
    OplogEntry e;
    e.op = OpTypeEnum::kInsert;
    e.ns = "test.c";
    e.o = doc.obj();
    return e.toApplyOpsElement();
}

BSONObj lsid() {
    BSONObjBuilder b;
    b.append("id", 42);
    return b.obj();
}

// The entries a primary writes for ops (each maxBytes of operations at most), at ts 1, 2, ...
std::map<unsigned, BSONObj> chainOf(const std::vector<BSONObj>& ops, size_t maxBytes, OplogEntry* last) {
    std::map<unsigned, BSONObj> byTs;
    OplogEntry e;
    unsigned ts = 0;
    for (BSONObj& o : applyOpsObjects(ops, maxBytes)) {
        e.op = OpTypeEnum::kCommand;
        e.ns = "admin.$cmd";
        e.o = o;
        e.lsid = lsid();
        e.txnNumber = 3;
        e.opTime = OpTime(Timestamp{100, ++ts}, 1);
        byTs[ts] = e.toBSON();
        *last = e;
        e.prevOpTime = e.opTime;
    }
    return byTs;
}

TEST(TransactionOplog, SmallTransactionIsOneEntryWithoutChainFields) {
    std::vector<BSONObj> ops = {op(1, 10), op(2, 10)};
    auto objs = applyOpsObjects(ops, 1 << 20);
    ASSERT_EQ(objs.size(), 1u);
    EXPECT_FALSE(objs[0].hasField("partialTxn"));
    EXPECT_FALSE(objs[0].hasField("count"));
}

TEST(TransactionOplog, LargeTransactionIsAChainReadBackInOrder) {
    std::vector<BSONObj> ops;
    for (int i = 0; i < 10; i++) ops.push_back(op(i, 1000));
    OplogEntry last;
    auto byTs = chainOf(ops, 2500, &last);  // two operations per entry
    ASSERT_EQ(byTs.size(), 5u);
    for (auto& [ts, doc] : byTs) {
        auto e = OplogEntry::parse(doc);
        ASSERT_TRUE(e.isOK());
        EXPECT_EQ(isPartialTransactionEntry(e.getValue()), ts < 5) << ts;
    }
    EXPECT_EQ(last.o["count"].numberLong(), 10);
    auto read = [&](const OpTime& t) -> std::optional<BSONObj> {
        auto it = byTs.find(t.getTimestamp().inc);
        if (it == byTs.end()) return std::nullopt;
        return it->second;
    };
    auto parsedLast = OplogEntry::parse(byTs[5]);
    ASSERT_TRUE(parsedLast.isOK());
    std::vector<BSONObj> back = transactionOperations(parsedLast.getValue(), read);
    ASSERT_EQ(back.size(), ops.size());
    for (size_t i = 0; i < ops.size(); i++) EXPECT_TRUE(back[i].binaryEqual(ops[i])) << i;
    // An earlier entry gone from the oplog: NoSuchKey, never a partial transaction.
    byTs.erase(2);
    try {
        transactionOperations(parsedLast.getValue(), read);
        FAIL() << "expected NoSuchKey";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), int(ErrorCodes::NoSuchKey));
    }
}

TEST(TransactionOplog, LoneLargeOperationGetsItsOwnEntry) {
    std::vector<BSONObj> ops = {op(1, 10), op(2, 5000), op(3, 10)};
    auto objs = applyOpsObjects(ops, 1000);
    ASSERT_EQ(objs.size(), 3u);
    EXPECT_EQ(objs[1]["applyOps"].Obj().nFields(), 1);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
