#pragma once
// Wire protocol framing: the 16-byte header every message starts with, the opcodes this
// server knows, and Message, an owned byte buffer holding one complete message.
//
// All integers on the wire are little-endian (MongoDB's wire protocol); the helpers below
// read and write them independently of the host's byte order and alignment.
// Thread safety: Message is a value type; distinct instances may be used concurrently.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace mongo {

enum class OpCode : int32_t {
    kReply = 1,            // OP_REPLY: server -> client reply to OP_QUERY
    kUpdate = 2001,        // legacy, removed in 6.0 (fire and forget)
    kInsert = 2002,        // legacy, removed in 6.0 (fire and forget)
    kQuery = 2004,         // OP_QUERY: only commands on <db>.$cmd remain supported
    kGetMore = 2005,       // legacy, removed in 6.0 (answered with an error reply)
    kDelete = 2006,        // legacy, removed in 6.0 (fire and forget)
    kKillCursors = 2007,   // legacy, removed in 6.0 (fire and forget)
    kCompressed = 2012,    // OP_COMPRESSED: wraps another message
    kMsg = 2013,           // OP_MSG: the modern command protocol
};

const char* opCodeName(int32_t opCode);

// MongoDB's limits (hello reports them as maxMessageSizeBytes / maxBsonObjectSize).
constexpr int32_t kMsgHeaderSize = 16;
constexpr int32_t kMaxMessageSizeBytes = 48 * 1000 * 1000;

inline int32_t readLE32(const char* p) {
    uint32_t v = uint32_t(uint8_t(p[0])) | uint32_t(uint8_t(p[1])) << 8 | uint32_t(uint8_t(p[2])) << 16 |
                 uint32_t(uint8_t(p[3])) << 24;
    return static_cast<int32_t>(v);
}
inline int64_t readLE64(const char* p) {
    uint64_t lo = static_cast<uint32_t>(readLE32(p));
    uint64_t hi = static_cast<uint32_t>(readLE32(p + 4));
    return static_cast<int64_t>(lo | hi << 32);
}
inline void writeLE32(char* p, int32_t value) {
    uint32_t v = static_cast<uint32_t>(value);
    p[0] = char(v);
    p[1] = char(v >> 8);
    p[2] = char(v >> 16);
    p[3] = char(v >> 24);
}
inline void appendLE32(std::string& out, int32_t v) {
    char b[4];
    writeLE32(b, v);
    out.append(b, 4);
}
inline void appendLE64(std::string& out, int64_t v) {
    appendLE32(out, static_cast<int32_t>(static_cast<uint64_t>(v)));
    appendLE32(out, static_cast<int32_t>(static_cast<uint64_t>(v) >> 32));
}

struct MsgHeader {
    int32_t messageLength = 0;  // total size including this header
    int32_t requestID = 0;
    int32_t responseTo = 0;
    int32_t opCode = 0;

    // REQUIRES: p points at kMsgHeaderSize readable bytes.
    static MsgHeader parse(const char* p) {
        return MsgHeader{readLE32(p), readLE32(p + 4), readLE32(p + 8), readLE32(p + 12)};
    }
    void writeTo(char* p) const {
        writeLE32(p, messageLength);
        writeLE32(p + 4, requestID);
        writeLE32(p + 8, responseTo);
        writeLE32(p + 12, opCode);
    }
};

// One complete message (header included). The header's messageLength is kept equal to the
// buffer size by the builders; a received message is framed by the transport layer, which
// guarantees size() >= kMsgHeaderSize and messageLength == size().
class Message {
public:
    Message() = default;
    explicit Message(std::string bytes) : _buf(std::move(bytes)) {}

    const std::string& buf() const { return _buf; }
    std::string& buf() { return _buf; }
    bool empty() const { return _buf.size() < static_cast<size_t>(kMsgHeaderSize); }
    size_t size() const { return _buf.size(); }

    MsgHeader header() const { return empty() ? MsgHeader{} : MsgHeader::parse(_buf.data()); }
    int32_t opCode() const { return header().opCode; }
    // The bytes after the header.
    std::string_view body() const {
        return empty() ? std::string_view() : std::string_view(_buf).substr(kMsgHeaderSize);
    }

    // Starts a message with a placeholder header of the given opcode; finish() fixes the length.
    static Message start(OpCode op, int32_t requestID, int32_t responseTo);
    void finish() { writeLE32(&_buf[0], static_cast<int32_t>(_buf.size())); }
    void setRequestID(int32_t id) { writeLE32(&_buf[4], id); }
    void setResponseTo(int32_t id) { writeLE32(&_buf[8], id); }

private:
    std::string _buf;
};

// Process-wide increasing ids for messages the server sends (requestID of replies).
int32_t nextMessageId();

}  // namespace mongo
