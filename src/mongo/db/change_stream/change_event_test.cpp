#include "mongo/db/change_stream/change_event.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/oplog_entry.h"

namespace mongo {
namespace change_stream {
namespace {

BSONObj transactionEntry() {
    repl::OplogEntry e;
    e.opTime = repl::OpTime(Timestamp{1700000000, 9}, 1);
    e.op = repl::OpTypeEnum::kCommand;
    e.ns = "admin.$cmd";
    e.wall = Date_t::fromMillis(1700000000000);
    BSONArrayBuilder ops;
    for (int i = 0; i < 3; i++) {
        repl::OplogEntry op;
        op.op = repl::OpTypeEnum::kInsert;
        op.ns = i == 1 ? "test.other" : "test.c";
        BSONObjBuilder doc;
        doc.append("_id", i);
        op.o = doc.obj();
        ops.append(op.toApplyOpsElement());
    }
    BSONObjBuilder o;
    o.append("applyOps", ops.arr());
    e.o = o.obj();
    BSONObjBuilder lsid;
    lsid.append("id", 5);
    e.lsid = lsid.obj();
    e.txnNumber = 2;
    return e.toBSON();
}

TEST(ChangeEvent, TransactionEntryGivesAnEventPerWatchedOperationWithSessionAndOrderedTokens) {
    Scope scope;
    scope.db = "test";
    scope.coll = "c";
    auto events = eventsFor(transactionEntry(), scope, EventOptions(), [](const std::string&, const BSONObj&) {
        return std::optional<BSONObj>();
    });
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0]["fullDocument"].Obj()["_id"].numberInt(), 0);
    EXPECT_EQ(events[1]["fullDocument"].Obj()["_id"].numberInt(), 2);
    EXPECT_EQ(events[0]["txnNumber"].numberLong(), 2);
    EXPECT_TRUE(events[0]["lsid"].type() == Object);
    const std::string t0 = events[0]["_id"].Obj()["_data"].str(), t1 = events[1]["_id"].Obj()["_data"].str();
    EXPECT_LT(t0, t1);
    auto p = ResumeToken::parse(events[1]["_id"].Obj());
    ASSERT_TRUE(p.isOK());
    EXPECT_EQ(*p.getValue().txnOpIndex, 2u);
    EXPECT_EQ(p.getValue().toBSON()["_data"].str(), t1);
    // Sorts after a plain event of the same time and before its invalidate and high-water mark.
    ResumeToken plain;
    plain.ts = Timestamp{1700000000, 9};
    EXPECT_LT(plain.toBSON()["_data"].str(), t0);
    plain.kind = ResumeToken::Kind::kInvalidate;
    EXPECT_GT(plain.toBSON()["_data"].str(), t1);
}

TEST(ChangeEvent, MalformedTokensAreRefused) {
    for (const char* bad : {"82", "8200000000000000000000", "820000000000000000010000000A", "82000000000000000000ZZZZZZZZ"}) {
        BSONObjBuilder b;
        b.append("_data", bad);
        EXPECT_FALSE(ResumeToken::parse(b.obj()).isOK()) << bad;
    }
}

}  // namespace
}  // namespace change_stream
}  // namespace mongo
