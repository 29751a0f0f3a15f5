#pragma once
// One request, one (optional) reply: everything between the bytes of a framed message and the
// bytes to send back, independent of sockets so it can be tested directly.
//
//   OP_COMPRESSED -> decompressed first; the reply is compressed with the same compressor
//                    (never for hello/isMaster/authentication replies).
//   OP_MSG        -> parsed into an OpMsgRequest, run, answered with an OP_MSG (checksummed if the
//                    request was); moreToCome requests get no reply; an exhaustAllowed getMore
//                    streams its batches (HandledMessage::exhaustNext).
//   OP_QUERY      -> commands on <db>.$cmd are upconverted and answered with OP_REPLY; other
//                    namespaces get mongod's "OP_QUERY is no longer supported" OP_REPLY.
//   OP_GET_MORE   -> "OP_GET_MORE is no longer supported" OP_REPLY.
//   OP_INSERT/UPDATE/DELETE/KILL_CURSORS -> logged and ignored (fire and forget, no reply).
//   anything else, decompression failures, connection-fatal parse errors -> close.
// Thread safety: reentrant; runs on the connection's thread.
#include <optional>

#include "mongo/db/operation_context.h"
#include "mongo/rpc/message.h"
#include "mongo/transport/service_entry_point.h"

namespace mongo::transport {

struct HandledMessage {
    std::optional<Message> reply;   // what to send (nothing for fire-and-forget / moreToCome)
    bool closeConnection = false;   // end the session (after sending reply, if any)
    // Exhaust cursors: a getMore sent with exhaustAllowed whose cursor stays open is answered
    // with moreToCome set, and the server goes on by itself: after sending reply, the session
    // handles this request (the same getMore, its requestID the reply's) as if the client
    // had sent it, until a reply ends the stream (cursor exhausted or an error), as MongoDB's.
    std::optional<Message> exhaustNext;
};

// REQUIRES: in is framed (in.size() == header messageLength >= 16). Never throws.
HandledMessage handleMessage(const Message& in, Client* client, ServiceEntryPoint* sep);

// The {ok: 0, errmsg, code, codeName} document mongod sends for a failed command.
BSONObj makeErrorReplyDoc(const Status& status);

}  // namespace mongo::transport
