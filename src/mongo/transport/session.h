#pragma once
// The message loop of one client connection (thread per connection, MongoDB's default model):
// read a header, enforce the framing limits, read the body, hand the message to
// handleMessage(), write the reply; until the peer hangs up, a fatal error, or the socket is
// shut down from outside (TransportLayer::shutdown()).
//
// Framing errors close the connection as mongod does: messageLength < 16 or > 48,000,000 is
// logged (id 4615638) and the connection dropped. A plain HTTP "GET " gets mongod's
// "It looks like you are trying to access MongoDB over HTTP on the native driver port."
// Thread safety: runs entirely on the calling (connection) thread.
#include "mongo/db/operation_context.h"
#include "mongo/transport/service_entry_point.h"

namespace mongo::transport {

// Serves the connected socket fd for client until the connection ends. Does not close fd.
// Never throws.
void runSession(int fd, Client* client, ServiceEntryPoint* sep);

// Helpers over blocking sockets (retrying on EINTR). readFull returns false on EOF or error;
// sendAll uses MSG_NOSIGNAL so a vanished peer cannot kill the process with SIGPIPE.
bool readFull(int fd, char* buf, size_t len);
bool sendAll(int fd, const char* buf, size_t len);

}  // namespace mongo::transport
