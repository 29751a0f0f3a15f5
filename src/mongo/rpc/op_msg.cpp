#include "mongo/rpc/op_msg.h"

#include <bitset>
#include <cstring>

#include "mongo/rpc/crc32c.h"

namespace mongo {
namespace {

constexpr uint32_t kSupportedFlags = op_msg::kChecksumPresent | op_msg::kMoreToCome;
// The low 16 bits are "required": a receiver that does not know one of them must fail.
// The high 16 bits are optional hints (exhaustAllowed) and may be ignored.
constexpr uint32_t kRequiredFlagMask = 0xffff;
constexpr size_t kChecksumSize = 4;

enum SectionKind : uint8_t { kBody = 0, kDocSequence = 1 };

// Reads one BSON document of at most `avail` bytes at p; returns it (owned) and its size.
BSONObj readDocument(const char* p, size_t avail, size_t* consumed) {
    auto sw = BSONObj::fromUntrusted(p, avail);
    if (!sw.isOK()) throw DBException(sw.getStatus());
    *consumed = static_cast<size_t>(sw.getValue().objsize());
    return sw.getValue();
}

void appendSequenceSection(std::string& out, const std::string& name, const std::vector<BSONObj>& docs) {
    out.push_back(static_cast<char>(kDocSequence));
    size_t sizeAt = out.size();
    appendLE32(out, 0);
    out.append(name);
    out.push_back('\0');
    for (const auto& d : docs) out.append(d.objdata(), d.objsize());
    writeLE32(&out[sizeAt], static_cast<int32_t>(out.size() - sizeAt));
}

}  // namespace

bool isConnectionFatalMessageParseError(int code) {
    return code == static_cast<int>(ErrorCodes::IllegalOpMsgFlag) ||
        code == static_cast<int>(ErrorCodes::ChecksumMismatch) ||
        code == static_cast<int>(ErrorCodes::TooManyDocumentSequences);
}

uint32_t opMsgFlags(const Message& msg) {
    std::string_view body = msg.body();
    if (body.size() < 4) return 0;
    return static_cast<uint32_t>(readLE32(body.data()));
}

ParsedOpMsg parseOpMsg(const Message& msg) {
    std::string_view data = msg.body();
    uassert(ErrorCodes::ProtocolError, "OP_MSG is too short to contain its flagBits", data.size() >= 4);

    ParsedOpMsg out;
    out.flags = static_cast<uint32_t>(readLE32(data.data()));
    uassert(ErrorCodes::IllegalOpMsgFlag,
            "Message contains illegal flags value: Ob" + std::bitset<32>(out.flags).to_string(),
            (out.flags & ~kSupportedFlags & kRequiredFlagMask) == 0);

    size_t end = data.size();
    if (out.checksumPresent()) {
        uassert(ErrorCodes::ChecksumMismatch, "OP_MSG checksum does not match contents",
                data.size() >= 4 + kChecksumSize);
        end -= kChecksumSize;
        // The checksum covers everything before it, header included. Checked before the
        // sections: corrupted bytes must not be interpreted.
        const std::string& whole = msg.buf();
        uint32_t expected = static_cast<uint32_t>(readLE32(whole.data() + whole.size() - kChecksumSize));
        uassert(ErrorCodes::ChecksumMismatch, "OP_MSG checksum does not match contents",
                crc32c(whole.data(), whole.size() - kChecksumSize) == expected);
    }

    bool haveBody = false;
    size_t pos = 4;
    while (pos < end) {
        uint8_t kind = static_cast<uint8_t>(data[pos++]);
        switch (kind) {
            case kBody: {
                uassert(40430, "Multiple body sections in message", !haveBody);
                haveBody = true;
                size_t used = 0;
                out.request.body = readDocument(data.data() + pos, end - pos, &used);
                pos += used;
                break;
            }
            case kDocSequence: {
                uassert(ErrorCodes::ProtocolError, "Incomplete document sequence section size",
                        end - pos >= 4);
                int32_t size = readLE32(data.data() + pos);
                // size counts itself; the identifier needs at least its NUL.
                uassert(ErrorCodes::ProtocolError,
                        "Invalid document sequence size " + std::to_string(size),
                        size >= 5 && static_cast<size_t>(size) <= end - pos);
                const char* seq = data.data() + pos + 4;
                size_t seqLen = static_cast<size_t>(size) - 4;
                const char* nul = static_cast<const char*>(std::memchr(seq, '\0', seqLen));
                uassert(ErrorCodes::ProtocolError, "Document sequence identifier is not NUL terminated",
                        nul != nullptr);
                std::string name(seq, nul - seq);
                uassert(40431, "Duplicate document sequence: " + name, !out.request.sequence(name));
                out.request.sequences.emplace_back(name, std::vector<BSONObj>());
                auto& docs = out.request.sequences.back().second;
                size_t off = (nul - seq) + 1;
                while (off < seqLen) {
                    size_t used = 0;
                    docs.push_back(readDocument(seq + off, seqLen - off, &used));
                    off += used;
                }
                pos += static_cast<size_t>(size);
                break;
            }
            default:
                uasserted(40432, "Unknown section kind " + std::to_string(static_cast<unsigned>(kind)));
        }
    }

    uassert(40587, "OP_MSG messages must have a body", haveBody);
    for (const auto& seq : out.request.sequences) {
        uassert(40433, "Duplicate field between body and document sequence " + seq.first,
                out.request.body.getFieldDotted(seq.first).eoo());
    }
    return out;
}

Message buildOpMsg(const BSONObj& body, int32_t requestID, int32_t responseTo, uint32_t flags,
                   const std::vector<std::pair<std::string, std::vector<BSONObj>>>& sequences) {
    Message m = Message::start(OpCode::kMsg, requestID, responseTo);
    std::string& out = m.buf();
    appendLE32(out, static_cast<int32_t>(flags));
    for (const auto& s : sequences) appendSequenceSection(out, s.first, s.second);
    out.push_back(static_cast<char>(kBody));
    out.append(body.objdata(), body.objsize());
    if (flags & op_msg::kChecksumPresent) {
        appendLE32(out, 0);  // placeholder so the length below already counts the checksum
        m.finish();
        uint32_t crc = crc32c(out.data(), out.size() - kChecksumSize);
        writeLE32(&out[out.size() - kChecksumSize], static_cast<int32_t>(crc));
        return m;
    }
    m.finish();
    return m;
}

Message buildOpMsgReply(const BSONObj& body, int32_t responseTo, bool withChecksum) {
    return buildOpMsg(body, nextMessageId(), responseTo, withChecksum ? op_msg::kChecksumPresent : 0);
}

BSONObj opMsgReplyBody(const Message& msg) {
    return parseOpMsg(msg).request.body;
}

}  // namespace mongo
