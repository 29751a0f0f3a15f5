#include "mongo/db/repl/port_probe.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace mongo {
namespace repl {
namespace {

// ECONNREFUSED from a non-blocking connect to one resolved address, within timeoutMillis.
bool refused(const addrinfo* ai, int timeoutMillis) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) return false;
    bool out = false;
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        if (errno == ECONNREFUSED) {
            out = true;
        } else if (errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            if (::poll(&p, 1, timeoutMillis) == 1) {
                int err = 0;
                socklen_t len = sizeof err;
                out = ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == ECONNREFUSED;
            }
        }
    }
    ::close(fd);
    return out;
}

}  // namespace

bool portRefusesConnections(const std::string& hostAndPort, int timeoutMillis) {
    const auto colon = hostAndPort.rfind(':');
    if (colon == std::string::npos) return false;
    std::string host = hostAndPort.substr(0, colon);
    const std::string port = hostAndPort.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || !res) return false;
    // Every address the name resolves to must refuse: one that does not may be the member.
    bool all = true;
    for (const addrinfo* ai = res; ai && all; ai = ai->ai_next) all = refused(ai, timeoutMillis);
    ::freeaddrinfo(res);
    return all;
}

}  // namespace repl
}  // namespace mongo
