#pragma once
// Legacy OP_QUERY (2004) requests and OP_REPLY (1) replies.
//
// Since MongoDB 6.0 OP_QUERY survives only for commands on "<db>.$cmd", and only for the
// connection handshake (hello / isMaster) plus a few deprecated commands old drivers still
// send (buildInfo, saslStart, saslContinue, authenticate, _isSelf); any other command gets
// UnsupportedOpQueryCommand (352), and an OP_QUERY on a collection namespace gets an OP_REPLY
// with {$err, code: 5739101}. Commands are "upconverted" to an OpMsgRequest the way mongod does:
// {$query: {...}, $readPreference: ...} / {query: {...}} wrappers are unwrapped, $queryOptions
// are flattened, the secondaryOk flag becomes $readPreference, insert/update/delete arrays
// become document sequences, and $db is added from the namespace.
// Thread safety: pure functions.
#include <cstdint>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/rpc/message.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

namespace query_flags {  // OP_QUERY flags
constexpr int32_t kTailable = 1 << 1;
constexpr int32_t kSecondaryOk = 1 << 2;
constexpr int32_t kNoCursorTimeout = 1 << 4;
constexpr int32_t kAwaitData = 1 << 5;
constexpr int32_t kExhaust = 1 << 6;
constexpr int32_t kPartial = 1 << 7;
}  // namespace query_flags

namespace reply_flags {  // OP_REPLY responseFlags
constexpr int32_t kCursorNotFound = 1 << 0;
constexpr int32_t kQueryFailure = 1 << 1;
constexpr int32_t kShardConfigStale = 1 << 2;
constexpr int32_t kAwaitCapable = 1 << 3;  // mongod sets it on every command reply
}  // namespace reply_flags

struct LegacyQuery {
    int32_t flags = 0;
    std::string ns;  // fullCollectionName
    int32_t numberToSkip = 0;
    int32_t numberToReturn = 0;
    BSONObj query;   // owned
    BSONObj fields;  // owned; empty when absent
};

// REQUIRES: msg.opCode() == OP_QUERY and msg is framed. Throws DBException (InvalidBSON for bad
// documents, ProtocolError for bad framing).
LegacyQuery parseLegacyQuery(const Message& msg);

// "<db>.$cmd"?
bool isCommandNamespace(const std::string& ns);

// Converts a command sent as OP_QUERY on <db>.$cmd. Throws DBException with MongoDB's codes:
// 18527 exhaust flag, InvalidNamespace, 16979 numberToReturn not 1/-1, InvalidOptions ($maxTimeMS,
// duplicate read preference), 40621 $db present, UnsupportedOpQueryCommand for commands other
// than the handshake ones. The result has fromLegacyQuery = true and body.$db set.
OpMsgRequest upconvertLegacyCommand(const LegacyQuery& q);

// The commands still accepted over OP_QUERY.
bool isAllowedOpQueryCommand(const std::string& commandName);

// An OP_REPLY carrying one document (cursorID 0, startingFrom 0, numberReturned 1).
Message buildOpReply(const BSONObj& doc, int32_t responseTo, int32_t responseFlags = reply_flags::kAwaitCapable);

// mongod's answer to removed legacy operations that expect a reply (OP_QUERY on a collection,
// OP_GET_MORE): {$err: "<what> is no longer supported. The client driver may require an
// upgrade. ...", code: 5739101, ok: 0} with the QueryFailure flag.
Message buildUnsupportedLegacyOpReply(const std::string& what, int32_t responseTo);

struct ParsedOpReply {
    int32_t responseFlags = 0;
    int64_t cursorID = 0;
    int32_t startingFrom = 0;
    int32_t numberReturned = 0;
    std::vector<BSONObj> documents;
};
// For tests and clients. Throws DBException on malformed input.
ParsedOpReply parseOpReply(const Message& msg);

}  // namespace mongo
