#pragma once
// OP_MSG (opcode 2013): parsing requests into OpMsgRequest and building replies.
//
// Layout after the 16-byte header:
//   uint32 flagBits
//   sections: kind 0 (one BSON body) | kind 1 (int32 size, cstring identifier, BSON documents...)
//   [uint32 CRC-32C of every preceding byte, header included, when checksumPresent is set]
//
// Errors are MongoDB's: IllegalOpMsgFlag (223) and ChecksumMismatch (288) are "connection fatal"
// (the server closes the connection without replying); the others (InvalidBSON 22, 40430
// multiple bodies, 40431 duplicate sequence, 40432 unknown section kind, 40433 duplicate field
// between body and sequence, 40587 no body, ProtocolError 17 for bad section framing) are
// answered with an error reply. Every document is validated with BSONObj::fromUntrusted.
// Thread safety: pure functions.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/rpc/message.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

namespace op_msg {
constexpr uint32_t kChecksumPresent = 1u << 0;
constexpr uint32_t kMoreToCome = 1u << 1;
constexpr uint32_t kExhaustAllowed = 1u << 16;
}  // namespace op_msg

struct ParsedOpMsg {
    uint32_t flags = 0;
    OpMsgRequest request;  // body and sequences, all owned

    bool checksumPresent() const { return flags & op_msg::kChecksumPresent; }
    bool moreToCome() const { return flags & op_msg::kMoreToCome; }
    bool exhaustAllowed() const { return flags & op_msg::kExhaustAllowed; }
};

// REQUIRES: msg.opCode() == OP_MSG and msg is framed (messageLength == size()).
// Throws DBException on any malformed input; never reads out of bounds.
ParsedOpMsg parseOpMsg(const Message& msg);

// The flagBits of an OP_MSG, 0 when the message is too short to have them. Lets the caller
// honour moreToCome even for a message that fails to parse.
uint32_t opMsgFlags(const Message& msg);

// True for the parse errors after which MongoDB drops the connection instead of replying.
bool isConnectionFatalMessageParseError(int code);

// Builds an OP_MSG: optional document sequences, then the body. With kChecksumPresent in
// flags the CRC-32C is appended.
Message buildOpMsg(const BSONObj& body, int32_t requestID, int32_t responseTo, uint32_t flags = 0,
                   const std::vector<std::pair<std::string, std::vector<BSONObj>>>& sequences = {});

// A server reply: a fresh requestID, responseTo the request's id, checksummed when the
// request was (as mongod does on non-TLS connections).
Message buildOpMsgReply(const BSONObj& body, int32_t responseTo, bool withChecksum);

// The body of an OP_MSG reply (for tests and clients); throws like parseOpMsg.
BSONObj opMsgReplyBody(const Message& msg);

}  // namespace mongo
