#include "mongo/transport/session.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/message.h"
#include "mongo/transport/message_handler.h"
#include "mongo/transport/network_stats.h"
#include "mongo/util/log.h"

namespace mongo::transport {
namespace {

constexpr const char* kHttpMessage =
    "It looks like you are trying to access MongoDB over HTTP on the native driver port.\n";

void sendHttpResponse(int fd) {
    std::string body = kHttpMessage;
    std::string resp = "HTTP/1.0 200 OK\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    if (sendAll(fd, resp.data(), resp.size())) notePhysicalOut(static_cast<long long>(resp.size()));
}

void logBadLength(Client* client, int32_t msgLen) {
    LOGV2(4615638, Network, "recv(): message msgLen is invalid.",
          logv2::attrs("msgLen", msgLen, "min", kMsgHeaderSize, "max", kMaxMessageSizeBytes));
    BSONObjBuilder err;
    err.append("code", static_cast<int>(ErrorCodes::ProtocolError));
    err.append("codeName", errorCodeName(ErrorCodes::ProtocolError));
    err.append("errmsg", "recv(): message msgLen " + std::to_string(msgLen) + " is invalid. Min: " +
                   std::to_string(kMsgHeaderSize) + " Max: " + std::to_string(kMaxMessageSizeBytes));
    LOGV2(22988, Network, "Error receiving request from client. Ending connection from remote",
          logv2::attrs("error", err.obj(), "remote", client->remote(), "connectionId",
                       static_cast<long long>(client->id())));
}

}  // namespace

bool readFull(int fd, char* buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = ::recv(fd, buf + got, len - got, 0);
        if (n > 0) {
            got += static_cast<size_t>(n);
        } else if (n == 0) {
            return false;  // orderly shutdown by the peer (or by TransportLayer::shutdown)
        } else if (errno != EINTR) {
            return false;
        }
    }
    return true;
}

bool sendAll(int fd, const char* buf, size_t len) {
    size_t sent = 0;
    while (sent < len) {
        ssize_t n = ::send(fd, buf + sent, len - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<size_t>(n);
        } else if (n < 0 && errno != EINTR) {
            return false;
        }
    }
    return true;
}

void runSession(int fd, Client* client, ServiceEntryPoint* sep) {
    try {
        for (;;) {
            char header[kMsgHeaderSize];
            if (!readFull(fd, header, sizeof header)) return;
            if (std::memcmp(header, "GET ", 4) == 0) {
                notePhysicalIn(sizeof header);
                sendHttpResponse(fd);
                return;
            }
            const int32_t msgLen = readLE32(header);
            if (msgLen < kMsgHeaderSize || msgLen > kMaxMessageSizeBytes) {
                notePhysicalIn(sizeof header);
                logBadLength(client, msgLen);
                return;
            }
            std::string buf(static_cast<size_t>(msgLen), '\0');
            std::memcpy(&buf[0], header, sizeof header);
            if (!readFull(fd, &buf[kMsgHeaderSize], buf.size() - kMsgHeaderSize)) return;
            notePhysicalIn(msgLen);

            HandledMessage handled = handleMessage(Message(std::move(buf)), client, sep);
            for (;;) {
                if (handled.reply) {
                    const std::string& out = handled.reply->buf();
                    if (!sendAll(fd, out.data(), out.size())) return;
                    notePhysicalOut(static_cast<long long>(out.size()));
                }
                if (handled.closeConnection) return;
                if (!handled.exhaustNext) break;
                // An exhaust cursor's next batch, sent without a request from the client.
                Message next = std::move(*handled.exhaustNext);
                handled = handleMessage(next, client, sep);
            }
        }
    } catch (const std::exception& e) {
        // bad_alloc for a huge message, most likely: this connection ends, the server lives.
        LOGV2(22988, Network, "Error receiving request from client. Ending connection from remote",
              logv2::attrs("error", std::string(e.what()), "remote", client->remote(), "connectionId",
                           static_cast<long long>(client->id())));
    }
}

}  // namespace mongo::transport
