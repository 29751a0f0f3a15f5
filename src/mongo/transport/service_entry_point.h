#pragma once
// The seam between the network and the server: the transport layer parses messages into
// OpMsgRequests and hands them here; the reply body goes back in the same wire format (and
// the same compressor) as the request came in.
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

class ServiceEntryPoint {
public:
    virtual ~ServiceEntryPoint() = default;
    // Runs one command and returns its reply ({ok: 1, ...} or {ok: 0, errmsg, code, codeName}).
    // Never throws. Thread safe: called concurrently from every connection's thread.
    virtual BSONObj handleRequest(Client* client, const OpMsgRequest& request) = 0;
    // Called when a connection closes (cursors and sessions it owned may be cleaned).
    virtual void onClientDisconnect(Client* client) {}
};

}  // namespace mongo
