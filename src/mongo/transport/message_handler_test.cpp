#include "mongo/transport/message_handler.h"

#include <gtest/gtest.h>

#include <mutex>
#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/compression.h"
#include "mongo/rpc/legacy_query.h"
#include "mongo/rpc/op_msg.h"
#include "mongo/transport/network_stats.h"

namespace mongo::transport {
namespace {

// Answers {ok: 1, cmd: <name>, db: <$db>, nseq: <document sequences>} and remembers the request.
class EchoEntryPoint : public ServiceEntryPoint {
public:
    BSONObj handleRequest(Client* client, const OpMsgRequest& request) override {
        std::lock_guard<std::mutex> lk(mutex);
        calls++;
        last = request;
        BSONObjBuilder b;
        b.append("cmd", request.commandName());
        b.append("db", request.db());
        b.append("nseq", static_cast<int>(request.sequences.size()));
        b.append("ok", 1.0);
        return b.obj();
    }
    std::mutex mutex;
    int calls = 0;
    OpMsgRequest last;
};

class MessageHandlerTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(setEnabledCompressors("snappy,zstd,zlib").isOK()); }
    HandledMessage handle(const Message& m) { return handleMessage(m, &client, &sep); }

    Message legacyQuery(const std::string& ns, const BSONObj& q, int32_t nToReturn = -1) {
        Message m = Message::start(OpCode::kQuery, 21, 0);
        appendLE32(m.buf(), 0);
        m.buf().append(ns);
        m.buf().push_back('\0');
        appendLE32(m.buf(), 0);
        appendLE32(m.buf(), nToReturn);
        m.buf().append(q.objdata(), q.objsize());
        m.finish();
        return m;
    }

    EchoEntryPoint sep;
    Client client{1, "127.0.0.1:40000"};
};

TEST_F(MessageHandlerTest, OpMsgIsAnsweredWithOpMsg) {
    Message req = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 17, 0);
    HandledMessage h = handle(req);
    ASSERT_TRUE(h.reply.has_value());
    EXPECT_FALSE(h.closeConnection);
    EXPECT_EQ(h.reply->opCode(), static_cast<int32_t>(OpCode::kMsg));
    EXPECT_EQ(h.reply->header().responseTo, 17);
    ParsedOpMsg reply = parseOpMsg(*h.reply);
    EXPECT_FALSE(reply.checksumPresent());
    EXPECT_EQ(reply.request.body["cmd"].str(), "ping");
    EXPECT_EQ(reply.request.body["db"].str(), "admin");
    EXPECT_EQ(sep.calls, 1);
}

TEST_F(MessageHandlerTest, SequencesReachTheEntryPoint) {
    Message req = buildOpMsg(fromjson(R"({"insert": "c", "$db": "t"})"), 1, 0, 0,
                             {{"documents", {fromjson(R"({"a": 1})")}}});
    HandledMessage h = handle(req);
    ASSERT_TRUE(h.reply);
    EXPECT_EQ(opMsgReplyBody(*h.reply)["nseq"].numberInt(), 1);
    ASSERT_NE(sep.last.sequence("documents"), nullptr);
}

TEST_F(MessageHandlerTest, ChecksummedRequestGetsChecksummedReply) {
    Message req = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 3, 0, op_msg::kChecksumPresent);
    HandledMessage h = handle(req);
    ASSERT_TRUE(h.reply);
    EXPECT_TRUE(parseOpMsg(*h.reply).checksumPresent());
}

TEST_F(MessageHandlerTest, MoreToComeGetsNoReply) {
    Message req = buildOpMsg(fromjson(R"({"insert": "c", "$db": "t"})"), 3, 0, op_msg::kMoreToCome);
    HandledMessage h = handle(req);
    EXPECT_FALSE(h.reply.has_value());
    EXPECT_FALSE(h.closeConnection);
    EXPECT_EQ(sep.calls, 1);
}

TEST_F(MessageHandlerTest, ParseErrorIsAnsweredWithErrorDocument) {
    Message req = Message::start(OpCode::kMsg, 8, 0);
    appendLE32(req.buf(), 0);  // flags, and no sections at all
    req.finish();
    HandledMessage h = handle(req);
    ASSERT_TRUE(h.reply);
    EXPECT_FALSE(h.closeConnection);
    BSONObj body = opMsgReplyBody(*h.reply);
    EXPECT_EQ(body["ok"].numberDouble(), 0.0);
    EXPECT_EQ(body["code"].numberInt(), 40587);
    EXPECT_EQ(body["codeName"].str(), "Location40587");
    EXPECT_EQ(body["errmsg"].str(), "OP_MSG messages must have a body");
    EXPECT_EQ(sep.calls, 0);
}

TEST_F(MessageHandlerTest, InvalidBsonIsAnsweredWithInvalidBSON) {
    Message req = buildOpMsg(fromjson(R"({"ping": "x", "$db": "admin"})"), 8, 0);
    req.buf()[kMsgHeaderSize + 4 + 1 + 4] = 0x42;  // the body's first type byte
    HandledMessage h = handle(req);
    ASSERT_TRUE(h.reply);
    BSONObj body = opMsgReplyBody(*h.reply);
    EXPECT_EQ(body["code"].numberInt(), 22);
    EXPECT_EQ(body["codeName"].str(), "InvalidBSON");
}

TEST_F(MessageHandlerTest, FatalParseErrorsCloseWithoutReply) {
    Message req = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 3, 0, 1u << 5);
    HandledMessage h = handle(req);
    EXPECT_TRUE(h.closeConnection);
    EXPECT_FALSE(h.reply);
    Message bad = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 3, 0, op_msg::kChecksumPresent);
    bad.buf()[bad.size() - 1] ^= 1;
    h = handle(bad);
    EXPECT_TRUE(h.closeConnection);
    EXPECT_EQ(sep.calls, 0);
}

TEST_F(MessageHandlerTest, LegacyHelloIsAnsweredWithOpReply) {
    HandledMessage h = handle(legacyQuery("admin.$cmd", fromjson(R"({"isMaster": 1})")));
    ASSERT_TRUE(h.reply);
    EXPECT_EQ(h.reply->opCode(), static_cast<int32_t>(OpCode::kReply));
    EXPECT_EQ(h.reply->header().responseTo, 21);
    ParsedOpReply r = parseOpReply(*h.reply);
    EXPECT_EQ(r.responseFlags, reply_flags::kAwaitCapable);
    ASSERT_EQ(r.documents.size(), 1u);
    EXPECT_EQ(r.documents[0]["cmd"].str(), "isMaster");
    EXPECT_EQ(r.documents[0]["db"].str(), "admin");
    EXPECT_TRUE(sep.last.fromLegacyQuery);
}

TEST_F(MessageHandlerTest, LegacyNonHandshakeCommandIsRefused) {
    HandledMessage h = handle(legacyQuery("test.$cmd", fromjson(R"({"find": "c"})")));
    ASSERT_TRUE(h.reply);
    BSONObj d = parseOpReply(*h.reply).documents.at(0);
    EXPECT_EQ(d["code"].numberInt(), 352);
    EXPECT_EQ(d["codeName"].str(), "UnsupportedOpQueryCommand");
    EXPECT_EQ(sep.calls, 0);

    h = handle(legacyQuery("admin.$cmd", fromjson(R"({"hello": 1})"), 0));
    d = parseOpReply(*h.reply).documents.at(0);
    EXPECT_EQ(d["code"].numberInt(), 16979);
    EXPECT_EQ(d["codeName"].str(), "Location16979");
}

TEST_F(MessageHandlerTest, LegacyCollectionQueryGetsUnsupportedReply) {
    HandledMessage h = handle(legacyQuery("test.coll", fromjson(R"({"a": 1})")));
    ASSERT_TRUE(h.reply);
    ParsedOpReply r = parseOpReply(*h.reply);
    EXPECT_EQ(r.responseFlags, reply_flags::kQueryFailure);
    EXPECT_EQ(r.documents.at(0)["code"].numberInt(), 5739101);
    EXPECT_FALSE(h.closeConnection);
}

TEST_F(MessageHandlerTest, RemovedLegacyOpcodes) {
    Message getMore = Message::start(OpCode::kGetMore, 5, 0);
    appendLE32(getMore.buf(), 0);
    getMore.finish();
    HandledMessage h = handle(getMore);
    ASSERT_TRUE(h.reply);
    EXPECT_EQ(parseOpReply(*h.reply).documents.at(0)["$err"].str().rfind("OP_GET_MORE is no longer supported", 0), 0u);

    for (OpCode op : {OpCode::kInsert, OpCode::kUpdate, OpCode::kDelete, OpCode::kKillCursors}) {
        Message m = Message::start(op, 5, 0);
        appendLE32(m.buf(), 0);
        m.finish();
        h = handle(m);
        EXPECT_FALSE(h.reply);
        EXPECT_FALSE(h.closeConnection);
    }
    for (int32_t op : {1, 2010, 2011, 0, -5, 9999}) {
        Message m = Message::start(static_cast<OpCode>(op), 5, 0);
        h = handle(m);
        EXPECT_FALSE(h.reply) << op;
        EXPECT_TRUE(h.closeConnection) << op;
    }
}

TEST_F(MessageHandlerTest, CompressedRequestGetsReplyWithSameCompressor) {
    Message req = buildOpMsg(fromjson(R"({"find": "c", "$db": "t"})"), 40, 0);
    for (uint8_t id : {1, 2, 3}) {
        HandledMessage h = handle(compressMessage(req, id).getValue());
        ASSERT_TRUE(h.reply);
        EXPECT_EQ(h.reply->opCode(), static_cast<int32_t>(OpCode::kCompressed));
        EXPECT_EQ(h.reply->header().responseTo, 40);
        uint8_t used = 0;
        auto inner = decompressMessage(*h.reply, &used);
        ASSERT_TRUE(inner.isOK());
        EXPECT_EQ(used, id);
        EXPECT_EQ(opMsgReplyBody(inner.getValue())["cmd"].str(), "find");
    }
}

TEST_F(MessageHandlerTest, HandshakeRepliesAreNeverCompressed) {
    Message req = buildOpMsg(fromjson(R"({"hello": 1, "$db": "admin"})"), 40, 0);
    HandledMessage h = handle(compressMessage(req, uint8_t(CompressorId::kSnappy)).getValue());
    ASSERT_TRUE(h.reply);
    EXPECT_EQ(h.reply->opCode(), static_cast<int32_t>(OpCode::kMsg));
    Message sasl = buildOpMsg(fromjson(R"({"saslStart": 1, "$db": "admin"})"), 41, 0);
    h = handle(compressMessage(sasl, uint8_t(CompressorId::kZlib)).getValue());
    EXPECT_EQ(h.reply->opCode(), static_cast<int32_t>(OpCode::kMsg));
}

TEST_F(MessageHandlerTest, BadCompressedMessageClosesConnection) {
    Message req = buildOpMsg(fromjson(R"({"find": "c", "$db": "t"})"), 40, 0);
    Message c = compressMessage(req, uint8_t(CompressorId::kZstd)).getValue();
    writeLE32(&c.buf()[kMsgHeaderSize + 4], 3);  // wrong uncompressedSize
    HandledMessage h = handle(c);
    EXPECT_TRUE(h.closeConnection);
    EXPECT_FALSE(h.reply);
    EXPECT_EQ(sep.calls, 0);
}

TEST_F(MessageHandlerTest, CountsRequestsAndBytes) {
    NetworkStats before = networkStats();
    Message req = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 1, 0);
    HandledMessage h = handle(req);
    NetworkStats after = networkStats();
    EXPECT_EQ(after.numRequests - before.numRequests, 1);
    EXPECT_EQ(after.bytesIn - before.bytesIn, static_cast<long long>(req.size()));
    EXPECT_EQ(after.bytesOut - before.bytesOut, static_cast<long long>(h.reply->size()));
}

TEST_F(MessageHandlerTest, RandomBytesNeverCrash) {
    std::mt19937 rng(2024);
    const int32_t ops[] = {1, 2001, 2002, 2004, 2005, 2006, 2007, 2012, 2013, 77};
    Message seeds[] = {buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 1, 0, op_msg::kChecksumPresent),
                       legacyQuery("admin.$cmd", fromjson(R"({"hello": 1})")),
                       compressMessage(buildOpMsg(fromjson(R"({"a": "bbbbbbbbbbbbbbbbbbbb"})"), 1, 0), 1).getValue(),
                       compressMessage(buildOpMsg(fromjson(R"({"a": "bbbbbbbbbbbbbbbbbbbb"})"), 1, 0), 2).getValue(),
                       compressMessage(buildOpMsg(fromjson(R"({"a": "bbbbbbbbbbbbbbbbbbbb"})"), 1, 0), 3).getValue()};
    for (int i = 0; i < 20000; i++) {
        std::string bytes;
        if (i % 3 != 0) {
            bytes = seeds[rng() % 5].buf();
            int flips = 1 + rng() % 4;
            for (int f = 0; f < flips; f++) bytes[rng() % bytes.size()] = char(rng());
            if (rng() % 3 == 0) bytes.resize(kMsgHeaderSize + rng() % (bytes.size() - kMsgHeaderSize + 1));
        } else {
            bytes.assign(kMsgHeaderSize, '\0');
            size_t n = rng() % 80;
            for (size_t k = 0; k < n; k++) bytes.push_back(char(rng()));
            writeLE32(&bytes[12], ops[rng() % 10]);
        }
        Message m(bytes);
        m.finish();  // the session guarantees messageLength == size()
        HandledMessage h = handle(m);
        if (h.reply) EXPECT_EQ(h.reply->header().messageLength, static_cast<int32_t>(h.reply->size()));
    }
}

}  // namespace
}  // namespace mongo::transport
