#include "mongo/rpc/compression.h"

#include <gtest/gtest.h>

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/op_msg.h"

namespace mongo {
namespace {

class CompressionTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(setEnabledCompressors("snappy,zstd,zlib").isOK()); }
    void TearDown() override { ASSERT_TRUE(setEnabledCompressors("snappy,zstd,zlib").isOK()); }

    static Message sampleMessage() {
        BSONObjBuilder b;
        b.append("insert", "coll");
        b.append("$db", "test");
        b.append("payload", std::string(5000, 'x'));  // compressible
        return buildOpMsg(b.obj(), 77, 3);
    }

    // An OP_COMPRESSED message assembled by hand.
    static Message rawCompressed(int32_t originalOpcode, int32_t uncompressedSize, uint8_t id, const std::string& payload) {
        Message m = Message::start(OpCode::kCompressed, 1, 0);
        appendLE32(m.buf(), originalOpcode);
        appendLE32(m.buf(), uncompressedSize);
        m.buf().push_back(static_cast<char>(id));
        m.buf().append(payload);
        m.finish();
        return m;
    }
};

TEST_F(CompressionTest, NamesAndIds) {
    EXPECT_STREQ(compressorName(0), "noop");
    EXPECT_STREQ(compressorName(1), "snappy");
    EXPECT_STREQ(compressorName(2), "zlib");
    EXPECT_STREQ(compressorName(3), "zstd");
    EXPECT_EQ(compressorName(9), nullptr);
    EXPECT_EQ(compressorIdByName("zstd"), CompressorId::kZstd);
    EXPECT_FALSE(compressorIdByName("lz4").has_value());
    EXPECT_EQ(supportedCompressorNames(), (std::vector<std::string>{"snappy", "zstd", "zlib"}));
}

TEST_F(CompressionTest, RoundTripEveryCompressor) {
    Message original = sampleMessage();
    for (uint8_t id : {0, 1, 2, 3}) {
        auto sw = compressMessage(original, id);
        ASSERT_TRUE(sw.isOK()) << compressorName(id);
        const Message& c = sw.getValue();
        EXPECT_EQ(c.opCode(), static_cast<int32_t>(OpCode::kCompressed));
        EXPECT_EQ(c.header().requestID, 77);
        EXPECT_EQ(c.header().responseTo, 3);
        EXPECT_EQ(c.header().messageLength, static_cast<int32_t>(c.size()));
        EXPECT_EQ(readLE32(c.body().data()), static_cast<int32_t>(OpCode::kMsg));
        EXPECT_EQ(readLE32(c.body().data() + 4), static_cast<int32_t>(original.size() - kMsgHeaderSize));
        EXPECT_EQ(static_cast<uint8_t>(c.body()[8]), id);
        if (id != 0) EXPECT_LT(c.size(), original.size()) << compressorName(id);

        uint8_t usedId = 99;
        auto back = decompressMessage(c, &usedId);
        ASSERT_TRUE(back.isOK()) << back.getStatus().toString();
        EXPECT_EQ(usedId, id);
        EXPECT_EQ(back.getValue().buf(), original.buf());
    }
}

TEST_F(CompressionTest, StatsCountBytesPerCompressor) {
    auto before = compressionStats();
    ASSERT_EQ(before.size(), 3u);
    EXPECT_EQ(before[0].name, "snappy");
    EXPECT_EQ(before[1].name, "zstd");
    EXPECT_EQ(before[2].name, "zlib");
    Message original = sampleMessage();
    auto c = compressMessage(original, uint8_t(CompressorId::kZstd));
    ASSERT_TRUE(c.isOK());
    ASSERT_TRUE(decompressMessage(c.getValue()).isOK());
    auto after = compressionStats();
    long long bodyLen = static_cast<long long>(original.size()) - kMsgHeaderSize;
    long long payload = static_cast<long long>(c.getValue().size()) - kMsgHeaderSize - 9;
    EXPECT_EQ(after[1].compressorBytesIn - before[1].compressorBytesIn, bodyLen);
    EXPECT_EQ(after[1].compressorBytesOut - before[1].compressorBytesOut, payload);
    EXPECT_EQ(after[1].decompressorBytesIn - before[1].decompressorBytesIn, payload);
    EXPECT_EQ(after[1].decompressorBytesOut - before[1].decompressorBytesOut, bodyLen);
    EXPECT_EQ(after[0].compressorBytesIn, before[0].compressorBytesIn);
}

TEST_F(CompressionTest, EnabledListControlsDecompression) {
    Message original = sampleMessage();
    auto c = compressMessage(original, uint8_t(CompressorId::kSnappy));
    ASSERT_TRUE(c.isOK());
    ASSERT_TRUE(setEnabledCompressors("zlib").isOK());
    EXPECT_EQ(enabledCompressorNames(), std::vector<std::string>{"zlib"});
    EXPECT_FALSE(isCompressorEnabled(uint8_t(CompressorId::kSnappy)));
    auto r = decompressMessage(c.getValue());
    EXPECT_EQ(r.getStatus().code(), static_cast<int>(ErrorCodes::InternalError));
    // noop is only framing and always understood.
    EXPECT_TRUE(decompressMessage(compressMessage(original, 0).getValue()).isOK());

    ASSERT_TRUE(setEnabledCompressors("disabled").isOK());
    EXPECT_TRUE(enabledCompressorNames().empty());
    ASSERT_TRUE(setEnabledCompressors("zstd, snappy").isOK());
    EXPECT_EQ(enabledCompressorNames(), (std::vector<std::string>{"zstd", "snappy"}));
    EXPECT_EQ(setEnabledCompressors("zstd,lz4").code(), static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(enabledCompressorNames(), (std::vector<std::string>{"zstd", "snappy"}));  // unchanged
}

TEST_F(CompressionTest, SizeChecks) {
    Message original = sampleMessage();
    std::string body(original.body());
    // Declared size larger than the maximum message size.
    EXPECT_EQ(decompressMessage(rawCompressed(2013, kMaxMessageSizeBytes, 0, body)).getStatus().code(),
              static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(decompressMessage(rawCompressed(2013, -1, 0, body)).getStatus().code(),
              static_cast<int>(ErrorCodes::BadValue));
    // Declared size that does not match the payload, for each compressor.
    for (uint8_t id : {0, 1, 2, 3}) {
        auto c = compressMessage(original, id).getValue();
        std::string payload(c.body().substr(9));
        int32_t real = static_cast<int32_t>(body.size());
        EXPECT_FALSE(decompressMessage(rawCompressed(2013, real + 1, id, payload)).isOK()) << int(id);
        EXPECT_FALSE(decompressMessage(rawCompressed(2013, real - 1, id, payload)).isOK()) << int(id);
        EXPECT_TRUE(decompressMessage(rawCompressed(2013, real, id, payload)).isOK()) << int(id);
    }
    // Header too short, unknown compressor, nested OP_COMPRESSED.
    Message shortMsg = Message::start(OpCode::kCompressed, 1, 0);
    shortMsg.buf().append("\0\0\0", 3);
    shortMsg.finish();
    EXPECT_EQ(decompressMessage(shortMsg).getStatus().code(), static_cast<int>(ErrorCodes::BadValue));
    EXPECT_EQ(decompressMessage(rawCompressed(2013, 4, 9, "abcd")).getStatus().code(),
              static_cast<int>(ErrorCodes::InternalError));
    EXPECT_FALSE(decompressMessage(rawCompressed(2012, 4, 0, "abcd")).isOK());
}

TEST_F(CompressionTest, CorruptPayloadsFailCleanly) {
    Message original = sampleMessage();
    std::mt19937 rng(99);
    for (uint8_t id : {1, 2, 3}) {
        std::string c = compressMessage(original, id).getValue().buf();
        for (int i = 0; i < 2000; i++) {
            std::string bytes = c;
            size_t payloadStart = kMsgHeaderSize + 9;
            int flips = 1 + rng() % 3;
            for (int f = 0; f < flips; f++)
                bytes[payloadStart + rng() % (bytes.size() - payloadStart)] = char(rng());
            if (rng() % 4 == 0) bytes.resize(payloadStart + rng() % (bytes.size() - payloadStart));
            Message m(bytes);
            m.finish();
            auto r = decompressMessage(m);
            if (r.isOK()) EXPECT_EQ(r.getValue().size(), original.size());  // exact size or failure
        }
    }
}

TEST_F(CompressionTest, ProhibitedCommands) {
    for (const char* c : {"hello", "isMaster", "ismaster", "saslStart", "saslContinue", "getnonce", "authenticate",
                          "createUser", "updateUser", "copydbSaslStart", "copydbgetnonce", "copydb"})
        EXPECT_TRUE(isCompressionProhibitedCommand(c)) << c;
    EXPECT_FALSE(isCompressionProhibitedCommand("find"));
    EXPECT_FALSE(isCompressionProhibitedCommand("ping"));
}

}  // namespace
}  // namespace mongo
