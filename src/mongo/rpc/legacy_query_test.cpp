#include "mongo/rpc/legacy_query.h"

#include <gtest/gtest.h>

#include <random>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

Message makeQuery(const std::string& ns, const BSONObj& query, int32_t nToReturn = -1, int32_t flags = 0,
                  const BSONObj* fields = nullptr, int32_t requestId = 9) {
    Message m = Message::start(OpCode::kQuery, requestId, 0);
    std::string& b = m.buf();
    appendLE32(b, flags);
    b.append(ns);
    b.push_back('\0');
    appendLE32(b, 0);  // numberToSkip
    appendLE32(b, nToReturn);
    b.append(query.objdata(), query.objsize());
    if (fields) b.append(fields->objdata(), fields->objsize());
    m.finish();
    return m;
}

int upconvertError(const LegacyQuery& q, std::string* msg = nullptr) {
    try {
        upconvertLegacyCommand(q);
    } catch (const DBException& e) {
        if (msg) *msg = e.reason();
        return e.code();
    }
    return 0;
}

LegacyQuery q(const std::string& ns, const std::string& json, int32_t nToReturn = -1, int32_t flags = 0) {
    return parseLegacyQuery(makeQuery(ns, fromjson(json), nToReturn, flags));
}

TEST(LegacyQuery, ParsesAllFields) {
    BSONObj query = fromjson(R"({"isMaster": 1})");
    BSONObj fields = fromjson(R"({"a": 1})");
    Message m = makeQuery("admin.$cmd", query, 1, query_flags::kSecondaryOk, &fields);
    LegacyQuery lq = parseLegacyQuery(m);
    EXPECT_EQ(lq.flags, query_flags::kSecondaryOk);
    EXPECT_EQ(lq.ns, "admin.$cmd");
    EXPECT_EQ(lq.numberToSkip, 0);
    EXPECT_EQ(lq.numberToReturn, 1);
    EXPECT_TRUE(lq.query.binaryEqual(query));
    EXPECT_TRUE(lq.fields.binaryEqual(fields));
}

TEST(LegacyQuery, CommandNamespace) {
    EXPECT_TRUE(isCommandNamespace("admin.$cmd"));
    EXPECT_TRUE(isCommandNamespace("test.$cmd"));
    EXPECT_FALSE(isCommandNamespace("test.coll"));
    EXPECT_FALSE(isCommandNamespace("test"));
    EXPECT_FALSE(isCommandNamespace("test.$cmd.sys.inprog"));
}

TEST(LegacyQuery, HelloUpconvertsWithDb) {
    OpMsgRequest r = upconvertLegacyCommand(q("admin.$cmd", R"({"isMaster": 1, "helloOk": true})"));
    EXPECT_TRUE(r.fromLegacyQuery);
    EXPECT_EQ(r.commandName(), "isMaster");
    EXPECT_EQ(r.db(), "admin");
    EXPECT_TRUE(r.body["helloOk"].trueValue());
    EXPECT_TRUE(r.sequences.empty());
}

TEST(LegacyQuery, UnwrapsQueryWrapperAndKeepsReadPreference) {
    OpMsgRequest r = upconvertLegacyCommand(
        q("test.$cmd", R"({"$query": {"hello": 1}, "$readPreference": {"mode": "secondary"}})"));
    EXPECT_EQ(r.commandName(), "hello");
    EXPECT_EQ(r.db(), "test");
    EXPECT_EQ(r.body["$readPreference"].Obj()["mode"].str(), "secondary");

    OpMsgRequest r2 = upconvertLegacyCommand(q("test.$cmd", R"({"query": {"ismaster": 1}})"));
    EXPECT_EQ(r2.commandName(), "ismaster");
    EXPECT_FALSE(r2.body.hasField("$readPreference"));

    EXPECT_EQ(upconvertError(q("test.$cmd", R"({"$query": {"hello": 1}, "$maxTimeMS": 5})")),
              static_cast<int>(ErrorCodes::InvalidOptions));
    EXPECT_EQ(upconvertError(q("test.$cmd", R"({"$query": 1})")), 10065);
}

TEST(LegacyQuery, QueryOptionsAreFlattened) {
    OpMsgRequest r = upconvertLegacyCommand(
        q("admin.$cmd", R"({"hello": 1, "$queryOptions": {"$readPreference": {"mode": "nearest"}}})"));
    EXPECT_FALSE(r.body.hasField("$queryOptions"));
    EXPECT_EQ(r.body["$readPreference"].Obj()["mode"].str(), "nearest");
}

TEST(LegacyQuery, SecondaryOkFlagBecomesReadPreference) {
    OpMsgRequest r = upconvertLegacyCommand(q("admin.$cmd", R"({"hello": 1})", -1, query_flags::kSecondaryOk));
    EXPECT_EQ(r.body["$readPreference"].Obj()["mode"].str(), "secondaryPreferred");
    OpMsgRequest r2 = upconvertLegacyCommand(
        q("admin.$cmd", R"({"hello": 1, "$readPreference": {"mode": "primary"}})", -1, query_flags::kSecondaryOk));
    EXPECT_EQ(r2.body["$readPreference"].Obj()["mode"].str(), "primary");
}

TEST(LegacyQuery, RejectionsHaveMongoDBCodes) {
    std::string msg;
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"hello": 1})", 0), &msg), 16979);
    EXPECT_EQ(msg, "Bad numberToReturn (0) for $cmd type ns - can only be 1 or -1");
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"hello": 1})", 5)), 16979);
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"hello": 1})", 1)), 0);
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"hello": 1})", -1, query_flags::kExhaust)), 18527);
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"hello": 1, "$db": "x"})")), 40621);
    EXPECT_EQ(upconvertError(q(".$cmd", R"({"hello": 1})")), static_cast<int>(ErrorCodes::InvalidNamespace));
    EXPECT_EQ(upconvertError(q("admin.coll", R"({"hello": 1})")), 40473);
}

TEST(LegacyQuery, OnlyHandshakeCommandsAreAllowed) {
    std::string msg;
    EXPECT_EQ(upconvertError(q("admin.$cmd", R"({"find": "c"})"), &msg),
              static_cast<int>(ErrorCodes::UnsupportedOpQueryCommand));
    EXPECT_EQ(msg,
              "Unsupported OP_QUERY command: find. The client driver may require an upgrade. For more details "
              "see https://dochub.mongodb.org/core/legacy-opcode-removal");
    for (const char* ok : {"hello", "isMaster", "ismaster", "buildInfo", "buildinfo", "saslStart", "saslContinue",
                           "authenticate", "_isSelf"})
        EXPECT_TRUE(isAllowedOpQueryCommand(ok)) << ok;
    EXPECT_FALSE(isAllowedOpQueryCommand("insert"));
    EXPECT_FALSE(isAllowedOpQueryCommand("serverStatus"));
}

TEST(LegacyQuery, WriteArraysWouldBecomeSequences) {
    // insert is refused over OP_QUERY, but the conversion happens first, as in mongod.
    LegacyQuery lq = q("test.$cmd", R"({"insert": "c", "documents": [{"a": 1}, {"a": 2}]})");
    EXPECT_EQ(upconvertError(lq), static_cast<int>(ErrorCodes::UnsupportedOpQueryCommand));
}

TEST(LegacyQuery, MalformedMessagesFailCleanly) {
    BSONObj query = fromjson(R"({"hello": 1})");
    Message full = makeQuery("admin.$cmd", query);
    for (size_t len = kMsgHeaderSize; len < full.size(); len++) {
        Message t(full.buf().substr(0, len));
        t.finish();
        EXPECT_THROW(parseLegacyQuery(t), DBException) << len;
    }
    Message bad = makeQuery("admin.$cmd", query);
    bad.buf()[bad.size() - query.objsize() + 4] = 0x55;  // an unknown BSON type byte
    try {
        parseLegacyQuery(bad);
        FAIL();
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), static_cast<int>(ErrorCodes::InvalidBSON));
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 5000; i++) {
        std::string bytes = full.buf();
        for (int f = 0; f < 3; f++) bytes[kMsgHeaderSize + rng() % (bytes.size() - kMsgHeaderSize)] = char(rng());
        Message m(bytes);
        m.finish();
        try {
            upconvertLegacyCommand(parseLegacyQuery(m));
        } catch (const DBException&) {
        }
    }
}

TEST(OpReply, BuildAndParse) {
    BSONObj doc = fromjson(R"({"ismaster": true, "ok": 1.0})");
    Message m = buildOpReply(doc, 33);
    EXPECT_EQ(m.opCode(), static_cast<int32_t>(OpCode::kReply));
    EXPECT_EQ(m.header().responseTo, 33);
    EXPECT_EQ(m.header().messageLength, static_cast<int32_t>(m.size()));
    EXPECT_EQ(m.size(), 16u + 4 + 8 + 4 + 4 + doc.objsize());
    ParsedOpReply r = parseOpReply(m);
    EXPECT_EQ(r.responseFlags, reply_flags::kAwaitCapable);
    EXPECT_EQ(r.cursorID, 0);
    EXPECT_EQ(r.startingFrom, 0);
    EXPECT_EQ(r.numberReturned, 1);
    ASSERT_EQ(r.documents.size(), 1u);
    EXPECT_TRUE(r.documents[0].binaryEqual(doc));
}

TEST(OpReply, UnsupportedLegacyOperationReply) {
    ParsedOpReply r = parseOpReply(buildUnsupportedLegacyOpReply("OP_QUERY", 4));
    EXPECT_EQ(r.responseFlags, reply_flags::kQueryFailure);
    ASSERT_EQ(r.documents.size(), 1u);
    const BSONObj& d = r.documents[0];
    EXPECT_EQ(d["$err"].str(),
              "OP_QUERY is no longer supported. The client driver may require an upgrade. For more details see "
              "https://dochub.mongodb.org/core/legacy-opcode-removal");
    EXPECT_EQ(d["code"].numberInt(), 5739101);
    EXPECT_EQ(d["ok"].numberDouble(), 0.0);
}

}  // namespace
}  // namespace mongo
