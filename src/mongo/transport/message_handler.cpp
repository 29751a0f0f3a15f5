#include "mongo/transport/message_handler.h"

#include <cstdio>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/compression.h"
#include "mongo/rpc/legacy_query.h"
#include "mongo/rpc/op_msg.h"
#include "mongo/transport/network_stats.h"
#include "mongo/util/log.h"

namespace mongo::transport {
namespace {

BSONObj statusAttr(const Status& s) {
    BSONObjBuilder b;
    b.append("code", s.code());
    b.append("codeName", s.codeName());
    b.append("errmsg", s.reason());
    return b.obj();
}

HandledMessage closeWith(const Status& s, Client* client) {
    LOGV2(22988, Network, "Error receiving request from client. Ending connection from remote",
          logv2::attrs("error", statusAttr(s), "remote", client->remote(), "connectionId",
                       static_cast<long long>(client->id())));
    HandledMessage h;
    h.closeConnection = true;
    return h;
}

void warnUnsupportedOp(Client* client, const char* op) {
    LOGV2_WARNING(5578800, Network,
                  "Deprecated operation requested. For more details see "
                  "https://dochub.mongodb.org/core/legacy-opcode-compatibility",
                  logv2::attrs("op", op, "remote", client->remote(), "connectionId",
                               static_cast<long long>(client->id())));
}

// Runs the command; the ServiceEntryPoint promises not to throw, but a connection thread must
// survive a broken promise.
BSONObj runCommand(Client* client, ServiceEntryPoint* sep, const OpMsgRequest& request) {
    noteOperationStarted();
    BSONObj reply;
    try {
        reply = sep->handleRequest(client, request);
    } catch (const DBException& e) {
        reply = makeErrorReplyDoc(e.toStatus());
    } catch (const std::exception& e) {
        reply = makeErrorReplyDoc(Status(ErrorCodes::InternalError, std::string("unexpected error: ") + e.what()));
    }
    noteOperationFinished();
    if (reply.objsize() > BSONObjMaxInternalSize) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%x", reply.objsize());
        reply = makeErrorReplyDoc(Status(ErrorCodes::BSONObjectTooLarge,
                                         "BSONObj size: " + std::to_string(reply.objsize()) + " (0x" + hex +
                                             ") is invalid. Size must be between 0 and " +
                                             std::to_string(BSONObjMaxInternalSize) + "(16MB)"));
    }
    return reply;
}

HandledMessage handleOpMsg(const Message& msg, Client* client, ServiceEntryPoint* sep, std::string* cmdName) {
    HandledMessage out;
    const int32_t requestId = msg.header().requestID;
    const uint32_t flags = opMsgFlags(msg);
    BSONObj replyBody;
    BSONObj requestBody;
    try {
        ParsedOpMsg parsed = parseOpMsg(msg);
        *cmdName = parsed.request.commandName();
        requestBody = parsed.request.body;
        replyBody = runCommand(client, sep, parsed.request);
        if (client->closeConnectionWithoutReply) {
            out.closeConnection = true;  // e.g. failCommand's closeConnection
            return out;
        }
    } catch (const DBException& e) {
        if (isConnectionFatalMessageParseError(e.code())) return closeWith(e.toStatus(), client);
        LOGV2_DEBUG(21963, 1, Network, "Assertion while parsing command",
                    logv2::attrs("error", statusAttr(e.toStatus())));
        replyBody = makeErrorReplyDoc(e.toStatus());
    }
    if (flags & op_msg::kMoreToCome) return out;  // the client does not read a reply
    const bool checksum = flags & op_msg::kChecksumPresent;
    if ((flags & op_msg::kExhaustAllowed) && *cmdName == "getMore" && replyBody["ok"].trueValue()) {
        BSONElement cursor = replyBody["cursor"];
        if (cursor.type() == Object && cursor.Obj()["id"].isNumber() && cursor.Obj()["id"].numberLong() != 0) {
            // Exhaust: this reply says more comes, and the next batch answers it by itself.
            const int32_t replyId = nextMessageId();
            out.reply = buildOpMsg(replyBody, replyId, requestId,
                                   op_msg::kMoreToCome | (checksum ? op_msg::kChecksumPresent : 0));
            out.exhaustNext = buildOpMsg(requestBody, replyId, 0, flags);
            return out;
        }
    }
    out.reply = buildOpMsgReply(replyBody, requestId, checksum);
    return out;
}

HandledMessage handleOpQuery(const Message& msg, Client* client, ServiceEntryPoint* sep, std::string* cmdName) {
    HandledMessage out;
    const int32_t requestId = msg.header().requestID;
    BSONObj replyBody;
    try {
        LegacyQuery q = parseLegacyQuery(msg);
        if (!isCommandNamespace(q.ns)) {
            warnUnsupportedOp(client, "query");
            out.reply = buildUnsupportedLegacyOpReply("OP_QUERY", requestId);
            return out;
        }
        OpMsgRequest request = upconvertLegacyCommand(q);
        *cmdName = request.commandName();
        replyBody = runCommand(client, sep, request);
        if (client->closeConnectionWithoutReply) {
            out.closeConnection = true;
            return out;
        }
    } catch (const DBException& e) {
        replyBody = makeErrorReplyDoc(e.toStatus());
    }
    out.reply = buildOpReply(replyBody, requestId);
    return out;
}

}  // namespace

BSONObj makeErrorReplyDoc(const Status& status) {
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("errmsg", status.reason());
    b.append("code", status.code());
    b.append("codeName", status.codeName());
    return b.obj();
}

HandledMessage handleMessage(const Message& in, Client* client, ServiceEntryPoint* sep) {
    try {
        const Message* msg = &in;
        Message decompressed;
        std::optional<uint8_t> compressor;
        if (in.opCode() == static_cast<int32_t>(OpCode::kCompressed)) {
            uint8_t id = 0;
            auto sw = decompressMessage(in, &id);
            if (!sw.isOK()) return closeWith(sw.getStatus(), client);
            decompressed = std::move(sw.getValue());
            msg = &decompressed;
            compressor = id;
        }
        noteLogicalIn(static_cast<long long>(msg->size()));

        HandledMessage out;
        std::string cmdName;
        const int32_t op = msg->opCode();
        switch (static_cast<OpCode>(op)) {
            case OpCode::kMsg:
                out = handleOpMsg(*msg, client, sep, &cmdName);
                break;
            case OpCode::kQuery:
                out = handleOpQuery(*msg, client, sep, &cmdName);
                break;
            case OpCode::kGetMore:
                warnUnsupportedOp(client, "getmore");
                out.reply = buildUnsupportedLegacyOpReply("OP_GET_MORE", msg->header().requestID);
                break;
            case OpCode::kInsert:
            case OpCode::kUpdate:
            case OpCode::kDelete:
            case OpCode::kKillCursors:
                // Removed fire-and-forget operations: the client waits for nothing.
                warnUnsupportedOp(client, opCodeName(op));
                return out;
            default:
                return closeWith(Status(ErrorCodes::IllegalOperation,
                                        "Message type " + std::to_string(op) + " is not supported."),
                                 client);
        }

        if (out.reply) {
            noteLogicalOut(static_cast<long long>(out.reply->size()));
            if (compressor && !isCompressionProhibitedCommand(cmdName)) {
                auto sw = compressMessage(*out.reply, *compressor);
                // On a compression failure the uncompressed reply is still a valid answer.
                if (sw.isOK()) out.reply = std::move(sw.getValue());
            }
        }
        if (out.exhaustNext && compressor) {
            // The stream goes on compressed as it started: the next request carries the
            // compressor its reply is compressed with.
            auto sw = compressMessage(*out.exhaustNext, *compressor);
            if (sw.isOK()) out.exhaustNext = std::move(sw.getValue());
        }
        return out;
    } catch (const std::exception& e) {
        // Out of memory or a bug: drop this connection, keep the server.
        return closeWith(Status(ErrorCodes::InternalError, std::string("error handling message: ") + e.what()),
                         client);
    }
}

}  // namespace mongo::transport
