#include "mongo/db/repl/oplog_entry.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

OplogEntry sampleInsert() {
    OplogEntry e;
    e.opTime = OpTime(Timestamp{1700000000, 3}, 1);
    e.op = OpTypeEnum::kInsert;
    e.ns = "test.c";
    e.uuidHex = "00112233445566778899aabbccddeeff";
    BSONObjBuilder doc;
    doc.append("_id", 7);
    doc.append("x", "y");
    e.o = doc.obj();
    BSONObjBuilder id;
    id.append("_id", 7);
    e.o2 = id.obj();
    e.wall = Date_t::fromMillis(1700000000123);
    return e;
}

TEST(OplogEntryTest, InsertHasMongoDB7FieldsInOrder) {
    BSONObj b = sampleInsert().toBSON();
    std::vector<std::string> names;
    for (BSONElement e : b) names.emplace_back(e.fieldNameStringData());
    EXPECT_EQ(names, (std::vector<std::string>{"op", "ns", "ui", "o", "o2", "ts", "t", "v", "wall"}));
    EXPECT_EQ(b["op"].str(), "i");
    EXPECT_EQ(b["t"].type(), NumberLong);
    EXPECT_EQ(b["v"].type(), NumberLong);
    EXPECT_EQ(b["v"].numberLong(), 2);
    EXPECT_EQ(b["ts"].type(), bsonTimestamp);
    EXPECT_EQ(b["wall"].type(), Date);
    int len = 0, subtype = 0;
    b["ui"].binData(&len, &subtype);
    EXPECT_EQ(len, 16);
    EXPECT_EQ(subtype, 4);
}

TEST(OplogEntryTest, RoundTrip) {
    OplogEntry e = sampleInsert();
    auto parsed = OplogEntry::parse(e.toBSON());
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus().reason();
    EXPECT_TRUE(parsed.getValue().toBSON().binaryEqual(e.toBSON()));
    EXPECT_EQ(parsed.getValue().uuidHex, e.uuidHex);
    EXPECT_EQ(parsed.getValue().opTime, e.opTime);
}

TEST(OplogEntryTest, UpdateDiffObject) {
    OplogEntry e = sampleInsert();
    e.op = OpTypeEnum::kUpdate;
    BSONObjBuilder u;
    u.append("x", 2);
    BSONObjBuilder diff;
    diff.append("u", u.obj());
    e.o = OplogEntry::makeUpdateDiffObject(diff.obj());
    EXPECT_TRUE(e.isDiffUpdate());
    EXPECT_EQ(e.o.firstElementFieldName(), "$v");
    EXPECT_EQ(e.o["$v"].numberInt(), 2);
}

TEST(OplogEntryTest, MalformedEntriesAreRefused) {
    BSONObj good = sampleInsert().toBSON();
    auto without = [&](const char* f) { return good.removeField(f); };
    EXPECT_EQ(OplogEntry::parse(without("op")).getStatus().code(), int(ErrorCodes::NoSuchKey));
    EXPECT_EQ(OplogEntry::parse(without("ts")).getStatus().code(), int(ErrorCodes::NoSuchKey));
    EXPECT_EQ(OplogEntry::parse(without("o")).getStatus().code(), int(ErrorCodes::TypeMismatch));
    EXPECT_EQ(OplogEntry::parse(without("wall")).getStatus().code(), int(ErrorCodes::TypeMismatch));
    BSONObjBuilder b;
    for (BSONElement e : good)
        if (e.fieldNameStringData() == "op")
            b.append("op", "z");
        else
            b.append(e);
    EXPECT_EQ(OplogEntry::parse(b.obj()).getStatus().code(), int(ErrorCodes::BadValue));
}

TEST(OpTimeTest, OrderIsTermThenTimestamp) {
    EXPECT_LT(OpTime(Timestamp{10, 1}, 1), OpTime(Timestamp{5, 1}, 2));
    EXPECT_LT(OpTime(Timestamp{5, 1}, 2), OpTime(Timestamp{5, 2}, 2));
    EXPECT_TRUE(OpTime().isNull());
    EXPECT_EQ(OpTime().getTerm(), -1);
    auto p = OpTime::parse(OpTime(Timestamp{3, 4}, 7).toBSON());
    ASSERT_TRUE(p.isOK());
    EXPECT_EQ(p.getValue(), OpTime(Timestamp{3, 4}, 7));
}

}  // namespace
}  // namespace repl
}  // namespace mongo

namespace mongo {
namespace repl {
namespace {

TEST(OplogEntryTest, ApplyOpsElementRoundTripsWithoutTimeOrSession) {
    OplogEntry e = sampleInsert();
    BSONObj el = e.toApplyOpsElement();
    std::vector<std::string> names;
    for (BSONElement f : el) names.push_back(f.fieldName());
    EXPECT_EQ(names, (std::vector<std::string>{"op", "ns", "ui", "o", "o2"}));
    auto back = OplogEntry::parseApplyOpsElement(el);
    ASSERT_TRUE(back.isOK()) << back.getStatus().toString();
    EXPECT_EQ(back.getValue().op, OpTypeEnum::kInsert);
    EXPECT_EQ(back.getValue().ns, "test.c");
    EXPECT_EQ(back.getValue().uuidHex, e.uuidHex);
    EXPECT_TRUE(back.getValue().o.binaryEqual(e.o));
}

// A transaction may create collections and indexes (MongoDB 7.0): those two commands, on
// <db>.$cmd, are operations of its applyOps entry; no other command is.
TEST(OplogEntryTest, ApplyOpsElementAcceptsATransactionsCreateAndCreateIndexesOnly) {
    auto element = [](const char* ns, const BSONObj& o) {
        BSONObjBuilder b;
        b.append("op", "c");
        b.append("ns", ns);
        b.append("o", o);
        return b.obj();
    };
    for (const char* json : {"{\"create\": \"c\"}", "{\"createIndexes\": \"c\", \"v\": 2, \"key\": {\"x\": 1}, "
                                                     "\"name\": \"x_1\"}"}) {
        auto parsed = OplogEntry::parseApplyOpsElement(element("test.$cmd", fromjson(json)));
        ASSERT_TRUE(parsed.isOK()) << json << " " << parsed.getStatus().toString();
        EXPECT_EQ(parsed.getValue().op, OpTypeEnum::kCommand);
    }
    EXPECT_FALSE(OplogEntry::parseApplyOpsElement(element("test.c", fromjson("{\"create\": \"c\"}"))).isOK());
    EXPECT_FALSE(OplogEntry::parseApplyOpsElement(element("test.$cmd", fromjson("{\"create\": 1}"))).isOK());
    EXPECT_FALSE(
        OplogEntry::parseApplyOpsElement(element("test.$cmd", fromjson("{\"renameCollection\": \"a.b\"}"))).isOK());
}

TEST(OplogEntryTest, ApplyOpsElementRefusesCommandsAndMalformedOperations) {
    BSONObjBuilder cmd;
    cmd.append("op", "c");
    cmd.append("ns", "test.$cmd");
    BSONObjBuilder o;
    o.append("drop", "c");
    cmd.append("o", o.obj());
    EXPECT_FALSE(OplogEntry::parseApplyOpsElement(cmd.obj()).isOK());
    BSONObjBuilder noO;
    noO.append("op", "i");
    noO.append("ns", "test.c");
    EXPECT_FALSE(OplogEntry::parseApplyOpsElement(noO.obj()).isOK());
}

TEST(OplogEntryTest, TransactionCommitEntryHasSessionButNoStmtId) {
    OplogEntry e;
    e.opTime = OpTime(Timestamp{1700000000, 4}, 1);
    e.op = OpTypeEnum::kCommand;
    e.ns = "admin.$cmd";
    BSONArrayBuilder ops;
    ops.append(sampleInsert().toApplyOpsElement());
    BSONObjBuilder o;
    o.append("applyOps", ops.arr());
    e.o = o.obj();
    BSONObjBuilder lsid;
    lsid.append("id", 1);
    e.lsid = lsid.obj();
    e.txnNumber = 3;
    BSONObj b = e.toBSON();
    EXPECT_TRUE(b.hasField("lsid"));
    EXPECT_EQ(b["txnNumber"].numberLong(), 3);
    EXPECT_FALSE(b.hasField("stmtId"));
    EXPECT_EQ(b["prevOpTime"].Obj()["t"].numberLong(), -1);
    auto back = OplogEntry::parse(b);
    ASSERT_TRUE(back.isOK());
    EXPECT_TRUE(back.getValue().isApplyOps());
    EXPECT_FALSE(sampleInsert().isApplyOps());
}

}  // namespace
}  // namespace repl
}  // namespace mongo
