#include "mongo/rpc/op_msg.h"

#include <gtest/gtest.h>

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/crc32c.h"

namespace mongo {
namespace {

int parseErrorCode(const Message& m) {
    try {
        parseOpMsg(m);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

// A hand-assembled OP_MSG (header fixed up), for malformed inputs the builder cannot produce.
Message rawOpMsg(uint32_t flags, const std::string& sections) {
    Message m = Message::start(OpCode::kMsg, 7, 0);
    appendLE32(m.buf(), static_cast<int32_t>(flags));
    m.buf().append(sections);
    m.finish();
    return m;
}

std::string bodySection(const BSONObj& o) {
    return std::string(1, '\0') + std::string(o.objdata(), o.objsize());
}

std::string sequenceSection(const std::string& name, const std::vector<BSONObj>& docs) {
    std::string s(1, '\1');
    std::string inner = name + '\0';
    for (auto& d : docs) inner.append(d.objdata(), d.objsize());
    appendLE32(s, static_cast<int32_t>(inner.size() + 4));
    return s + inner;
}

TEST(Crc32c, KnownVectorsAndBothImplementationsAgree) {
    EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
    EXPECT_EQ(crc32c("", 0), 0u);
    std::string zeros(32, '\0');
    EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);  // RFC 3720 test vector
    std::mt19937 rng(1);
    for (int len = 0; len < 300; len++) {
        std::string s(len, '\0');
        for (auto& c : s) c = static_cast<char>(rng());
        EXPECT_EQ(crc32c(s.data(), s.size()), crc32cSoftwareExtend(0, s.data(), s.size())) << len;
        size_t cut = len / 3;
        EXPECT_EQ(crc32c(s.data(), s.size()),
                  crc32cExtend(crc32c(s.data(), cut), s.data() + cut, s.size() - cut));
    }
}

TEST(OpMsg, RoundTripBodyOnly) {
    BSONObj body = fromjson(R"({"ping": 1, "$db": "admin"})");
    Message m = buildOpMsg(body, 42, 0);
    EXPECT_EQ(m.header().messageLength, static_cast<int32_t>(m.size()));
    EXPECT_EQ(m.header().requestID, 42);
    EXPECT_EQ(m.opCode(), static_cast<int32_t>(OpCode::kMsg));
    ParsedOpMsg p = parseOpMsg(m);
    EXPECT_EQ(p.flags, 0u);
    EXPECT_TRUE(p.request.body.binaryEqual(body));
    EXPECT_TRUE(p.request.body.isOwned());
    EXPECT_EQ(p.request.commandName(), "ping");
    EXPECT_EQ(p.request.db(), "admin");
    EXPECT_TRUE(p.request.sequences.empty());
    EXPECT_FALSE(p.request.fromLegacyQuery);
}

TEST(OpMsg, RoundTripWithDocumentSequences) {
    BSONObj body = fromjson(R"({"insert": "c", "$db": "test"})");
    std::vector<BSONObj> docs = {fromjson(R"({"_id": 1})"), fromjson(R"({"_id": 2, "x": "y"})")};
    std::vector<BSONObj> none;
    Message m = buildOpMsg(body, 1, 0, 0, {{"documents", docs}, {"empty", none}});
    ParsedOpMsg p = parseOpMsg(m);
    ASSERT_EQ(p.request.sequences.size(), 2u);
    const auto* d = p.request.sequence("documents");
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->size(), 2u);
    EXPECT_TRUE((*d)[1].binaryEqual(docs[1]));
    ASSERT_NE(p.request.sequence("empty"), nullptr);
    EXPECT_TRUE(p.request.sequence("empty")->empty());
}

TEST(OpMsg, SequenceMayPrecedeOrFollowBody) {
    BSONObj body = fromjson(R"({"insert": "c", "$db": "test"})");
    BSONObj doc = fromjson(R"({"a": 1})");
    Message m = rawOpMsg(0, bodySection(body) + sequenceSection("documents", {doc}));
    ParsedOpMsg p = parseOpMsg(m);
    ASSERT_NE(p.request.sequence("documents"), nullptr);
    EXPECT_EQ(p.request.sequence("documents")->size(), 1u);
}

TEST(OpMsg, FlagsAreReported) {
    BSONObj body = fromjson(R"({"ping": 1, "$db": "admin"})");
    ParsedOpMsg p = parseOpMsg(buildOpMsg(body, 1, 0, op_msg::kMoreToCome | op_msg::kExhaustAllowed));
    EXPECT_TRUE(p.moreToCome());
    EXPECT_TRUE(p.exhaustAllowed());
    EXPECT_FALSE(p.checksumPresent());
    EXPECT_EQ(opMsgFlags(buildOpMsg(body, 1, 0, op_msg::kMoreToCome)), op_msg::kMoreToCome);
}

TEST(OpMsg, UnknownRequiredFlagIsConnectionFatal) {
    BSONObj body = fromjson(R"({"ping": 1})");
    int code = parseErrorCode(rawOpMsg(1u << 4, bodySection(body)));
    EXPECT_EQ(code, static_cast<int>(ErrorCodes::IllegalOpMsgFlag));
    EXPECT_TRUE(isConnectionFatalMessageParseError(code));
    // Optional (high) bits are ignored.
    EXPECT_EQ(parseErrorCode(rawOpMsg(1u << 20, bodySection(body))), 0);
}

TEST(OpMsg, ChecksumIsWrittenAndVerified) {
    BSONObj body = fromjson(R"({"ping": 1, "$db": "admin"})");
    Message m = buildOpMsg(body, 5, 0, op_msg::kChecksumPresent);
    EXPECT_EQ(m.size(), buildOpMsg(body, 5, 0).size() + 4);
    uint32_t stored = static_cast<uint32_t>(readLE32(m.buf().data() + m.size() - 4));
    EXPECT_EQ(stored, crc32c(m.buf().data(), m.size() - 4));
    ParsedOpMsg p = parseOpMsg(m);
    EXPECT_TRUE(p.checksumPresent());
    EXPECT_TRUE(p.request.body.binaryEqual(body));

    Message reply = buildOpMsgReply(body, 5, true);
    EXPECT_EQ(reply.header().responseTo, 5);
    EXPECT_TRUE(parseOpMsg(reply).checksumPresent());
}

TEST(OpMsg, BadChecksumIsConnectionFatal) {
    BSONObj body = fromjson(R"({"ping": 1, "$db": "admin"})");
    Message m = buildOpMsg(body, 5, 0, op_msg::kChecksumPresent);
    m.buf()[m.size() - 1] ^= 0x01;  // corrupt the checksum
    EXPECT_EQ(parseErrorCode(m), static_cast<int>(ErrorCodes::ChecksumMismatch));
    Message m2 = buildOpMsg(body, 5, 0, op_msg::kChecksumPresent);
    m2.buf()[m2.size() - 6] ^= 0x40;  // corrupt the contents
    EXPECT_EQ(parseErrorCode(m2), static_cast<int>(ErrorCodes::ChecksumMismatch));
    EXPECT_TRUE(isConnectionFatalMessageParseError(static_cast<int>(ErrorCodes::ChecksumMismatch)));
    // Flag set but no room for a checksum.
    EXPECT_EQ(parseErrorCode(rawOpMsg(op_msg::kChecksumPresent, "")),
              static_cast<int>(ErrorCodes::ChecksumMismatch));
}

TEST(OpMsg, StructuralErrorsHaveMongoDBCodes) {
    BSONObj body = fromjson(R"({"insert": "c", "documents": [], "$db": "t"})");
    BSONObj doc = fromjson(R"({"a": 1})");
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, "")), 40587);  // no body
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + bodySection(doc))), 40430);
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + sequenceSection("s", {}) + sequenceSection("s", {}))),
              40431);
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + std::string(1, '\x07'))), 40432);
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(body) + sequenceSection("documents", {doc}))), 40433);
    EXPECT_FALSE(isConnectionFatalMessageParseError(40430));
}

TEST(OpMsg, InvalidBsonIsRejected) {
    BSONObj doc = fromjson(R"({"a": "hello"})");
    std::string bad = bodySection(doc);
    bad[1 + 4] = 0x13;  // unknown BSON type byte
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bad)), static_cast<int>(ErrorCodes::InvalidBSON));

    std::string longer = bodySection(doc);
    writeLE32(&longer[1], 1000);  // claims more bytes than the message has
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, longer)), static_cast<int>(ErrorCodes::InvalidBSON));

    std::string seq = sequenceSection("documents", {doc});
    seq[seq.size() - 2] = 'X';  // break the document's string terminator region
    EXPECT_NE(parseErrorCode(rawOpMsg(0, bodySection(doc) + seq)), 0);
}

TEST(OpMsg, SequenceFramingErrors) {
    BSONObj doc = fromjson(R"({"a": 1})");
    std::string seq = sequenceSection("documents", {doc});
    std::string tooBig = seq;
    writeLE32(&tooBig[1], 5000);
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + tooBig)), static_cast<int>(ErrorCodes::ProtocolError));
    std::string tooSmall = seq;
    writeLE32(&tooSmall[1], 2);
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + tooSmall)), static_cast<int>(ErrorCodes::ProtocolError));
    std::string noNul = std::string(1, '\1');
    appendLE32(noNul, 7);
    noNul += "abc";
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + noNul)), static_cast<int>(ErrorCodes::ProtocolError));
    EXPECT_EQ(parseErrorCode(rawOpMsg(0, bodySection(doc) + std::string("\1\0", 2))),
              static_cast<int>(ErrorCodes::ProtocolError));
}

TEST(OpMsg, TooShortForFlags) {
    Message m = Message::start(OpCode::kMsg, 1, 0);
    m.buf().append("\0\0", 2);
    m.finish();
    EXPECT_EQ(parseErrorCode(m), static_cast<int>(ErrorCodes::ProtocolError));
    EXPECT_EQ(opMsgFlags(m), 0u);
}

TEST(OpMsg, EveryTruncationFailsCleanly) {
    BSONObj body = fromjson(R"({"insert": "c", "$db": "test", "x": [1, 2, {"y": "z"}]})");
    Message full = buildOpMsg(body, 1, 0, op_msg::kChecksumPresent,
                              {{"documents", {fromjson(R"({"_id": 1})"), fromjson(R"({"_id": 2})")}}});
    for (size_t len = kMsgHeaderSize; len < full.size(); len++) {
        Message t(full.buf().substr(0, len));
        t.finish();
        EXPECT_NE(parseErrorCode(t), 0) << "length " << len;
    }
    Message noCrc = buildOpMsg(body, 1, 0, 0, {{"documents", {fromjson(R"({"_id": 1})")}}});
    for (size_t len = kMsgHeaderSize; len < noCrc.size(); len++) {
        Message t(noCrc.buf().substr(0, len));
        t.finish();
        EXPECT_NE(parseErrorCode(t), 0) << "length " << len;
    }
}

TEST(OpMsg, RandomBytesNeverCrash) {
    std::mt19937 rng(12345);
    BSONObj body = fromjson(R"({"find": "c", "filter": {"a": {"$gt": 1}}, "$db": "test"})");
    Message base = buildOpMsg(body, 1, 0, 0, {{"documents", {fromjson(R"({"_id": 1})")}}});
    int parsedOk = 0;
    for (int i = 0; i < 20000; i++) {
        std::string bytes;
        if (i % 2 == 0) {
            bytes = base.buf();  // mutate a valid message: flips, truncation, garbage tails
            int flips = 1 + rng() % 4;
            for (int f = 0; f < flips; f++) bytes[kMsgHeaderSize + rng() % (bytes.size() - kMsgHeaderSize)] = char(rng());
            if (rng() % 3 == 0) bytes.resize(kMsgHeaderSize + rng() % (bytes.size() - kMsgHeaderSize));
        } else {
            bytes.assign(kMsgHeaderSize, '\0');
            size_t n = rng() % 64;
            for (size_t k = 0; k < n; k++) bytes.push_back(char(rng() % 4 == 0 ? rng() % 3 : rng()));
        }
        Message m(bytes);
        m.finish();
        try {
            parseOpMsg(m);
            parsedOk++;
        } catch (const DBException&) {
        }
    }
    SUCCEED() << parsedOk << " mutated messages still parsed";
}

TEST(OpMsg, ReplyBuilderAssignsFreshRequestIds) {
    BSONObj body = fromjson(R"({"ok": 1})");
    Message a = buildOpMsgReply(body, 10, false);
    Message b = buildOpMsgReply(body, 11, false);
    EXPECT_NE(a.header().requestID, b.header().requestID);
    EXPECT_EQ(b.header().responseTo, 11);
    EXPECT_TRUE(opMsgReplyBody(a).binaryEqual(body));
}

}  // namespace
}  // namespace mongo
