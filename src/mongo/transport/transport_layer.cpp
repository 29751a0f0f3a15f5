#include "mongo/transport/transport_layer.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <random>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/rpc/compression.h"
#include "mongo/transport/network_stats.h"
#include "mongo/transport/session.h"
#include "mongo/util/log.h"

namespace mongo::transport {

struct TransportLayer::Registry {
    std::mutex mutex;
    std::condition_variable ended;
    std::map<int64_t, int> fds;  // connection id -> socket; guarded by mutex
    bool closing = false;        // set by shutdown: no new sessions
};

namespace {

constexpr size_t kConnectionThreadStack = 8 * 1024 * 1024;  // deep BSON/pipeline recursion

struct BindAddress {
    sockaddr_storage addr{};
    socklen_t len = 0;
    std::string name;  // as logged
    bool isUnix = false;
};

std::string trim(std::string s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.erase(s.begin());
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
    return s;
}

std::string sockaddrHost(const sockaddr* sa) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, buf, sizeof buf);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, buf, sizeof buf);
    return buf;
}

int sockaddrPort(const sockaddr* sa) {
    if (sa->sa_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(sa)->sin_port);
    if (sa->sa_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(sa)->sin6_port);
    return 0;
}

void setPort(sockaddr_storage* ss, int port) {
    if (ss->ss_family == AF_INET) reinterpret_cast<sockaddr_in*>(ss)->sin_port = htons(port);
    if (ss->ss_family == AF_INET6) reinterpret_cast<sockaddr_in6*>(ss)->sin6_port = htons(port);
}

Status socketError(const std::string& where, int err) {
    return Status(ErrorCodes::SocketException, where + " :: caused by :: " + std::strerror(err));
}

// Expands the bindIp list into concrete socket addresses (port filled in later).
StatusWith<std::vector<BindAddress>> resolveBindAddresses(const TransportLayer::Options& o) {
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= o.bindIps.size()) {
        size_t comma = o.bindIps.find(',', start);
        if (comma == std::string::npos) comma = o.bindIps.size();
        std::string n = trim(o.bindIps.substr(start, comma - start));
        if (n == "*") {
            names.push_back("0.0.0.0");
            if (o.ipv6) names.push_back("::");
        } else if (!n.empty()) {
            names.push_back(n);
        }
        start = comma + 1;
    }
    if (names.empty() && o.unixSocketPath.empty())
        return Status(ErrorCodes::BadValue, "No addresses to listen on (bindIp is empty)");

    std::vector<BindAddress> out;
    auto addUnique = [&](const BindAddress& a) {
        for (const auto& x : out)
            if (x.len == a.len && std::memcmp(&x.addr, &a.addr, a.len) == 0) return;
        out.push_back(a);
    };
    for (const auto& n : names) {
        if (n.find('/') != std::string::npos) {  // a Unix socket path in bindIp, as mongod allows
            BindAddress a;
            auto* un = reinterpret_cast<sockaddr_un*>(&a.addr);
            if (n.size() >= sizeof(un->sun_path))
                return Status(ErrorCodes::BadValue, "Unix socket path too long: " + n);
            un->sun_family = AF_UNIX;
            std::memcpy(un->sun_path, n.c_str(), n.size() + 1);
            a.len = sizeof(sockaddr_un);
            a.name = n;
            a.isUnix = true;
            addUnique(a);
            continue;
        }
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_PASSIVE;
        // Host names mean IPv4 only unless IPv6 is enabled (mongod's net.ipv6); a literal IPv6
        // address is taken as given.
        hints.ai_family = (o.ipv6 || n.find(':') != std::string::npos) ? AF_UNSPEC : AF_INET;
        addrinfo* res = nullptr;
        int rc = ::getaddrinfo(n.c_str(), nullptr, &hints, &res);
        if (rc != 0)
            return Status(ErrorCodes::SocketException,
                          "getaddrinfo(\"" + n + "\") failed: " + ::gai_strerror(rc));
        for (addrinfo* ai = res; ai; ai = ai->ai_next) {
            if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) continue;
            BindAddress a;
            std::memcpy(&a.addr, ai->ai_addr, ai->ai_addrlen);
            a.len = static_cast<socklen_t>(ai->ai_addrlen);
            a.name = sockaddrHost(ai->ai_addr);
            addUnique(a);
        }
        ::freeaddrinfo(res);
    }
    if (!o.unixSocketPath.empty()) {
        BindAddress a;
        auto* un = reinterpret_cast<sockaddr_un*>(&a.addr);
        if (o.unixSocketPath.size() >= sizeof(un->sun_path))
            return Status(ErrorCodes::BadValue, "Unix socket path too long: " + o.unixSocketPath);
        un->sun_family = AF_UNIX;
        std::memcpy(un->sun_path, o.unixSocketPath.c_str(), o.unixSocketPath.size() + 1);
        a.len = sizeof(sockaddr_un);
        a.name = o.unixSocketPath;
        a.isUnix = true;
        addUnique(a);
    }
    return out;
}

long long effectiveMaxConns(long long wanted) {
    long long want = wanted > 0 ? wanted : 1000000;
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        // Leave room for data files and the journal, like mongod (80% of the fd limit).
        long long supported = static_cast<long long>(rl.rlim_cur * 0.8);
        if (supported < want) want = supported;
    }
    return want;
}

BSONObj statusAttr(const Status& s) {
    BSONObjBuilder b;
    b.append("code", s.code());
    b.append("codeName", s.codeName());
    b.append("errmsg", s.reason());
    return b.obj();
}

BSONObj makeUuidAttr() {
    unsigned char b[kUuidLength];
    generateUuidBytes(b);
    BSONObjBuilder u;
    u.appendBinData("uuid", kUuidLength, kUuidBinDataSubtype, b);
    return u.obj();
}

void setSocketOptions(int fd, bool isUnix) {
    if (isUnix) return;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    // mongod lowers the keepalive idle time to 300s when the system default is longer.
    int idle = 0;
    socklen_t len = sizeof idle;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, &len) == 0 && idle > 300) {
        idle = 300;
        ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    }
}

// Everything a connection thread needs; owned by that thread.
struct SessionArgs {
    std::shared_ptr<TransportLayer::Registry> registry;  // outlives the TransportLayer if need be
    int fd = -1;
    std::unique_ptr<Client> client;
    ServiceEntryPoint* sep = nullptr;
    BSONObj uuid;
};
}  // namespace

std::string localAddressOf(int socketFd) {
    if (socketFd < 0) return "";
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (getsockname(socketFd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "";
    return sockaddrHost(reinterpret_cast<const sockaddr*>(&ss));
}

static void* connectionThreadMain(void* p);

TransportLayer::TransportLayer(Options options, ServiceEntryPoint* sep)
    : _opts(std::move(options)), _sep(sep), _registry(std::make_shared<Registry>()) {}

TransportLayer::~TransportLayer() {
    shutdown();
    if (_wakePipe[0] >= 0) ::close(_wakePipe[0]);
    if (_wakePipe[1] >= 0) ::close(_wakePipe[1]);
}

Status TransportLayer::listen() {
    auto fail = [&](const Status& s) {
        _closeListeners();
        for (size_t i = 0; i < _boundNames.size(); i++)
            if (_listenIsUnix[i]) ::unlink(_boundNames[i].c_str());
        _boundNames.clear();
        _listenIsUnix.clear();
        LOGV2_ERROR(20568, Network, "Error setting up listener",
                    logv2::attrs("error", statusAttr(s)));
        return s;
    };
    Status cs = setEnabledCompressors(_opts.enabledCompressors);
    if (!cs.isOK()) return fail(cs);
    setMaxConnections(effectiveMaxConns(_opts.maxConns));
    if (_opts.port < 0 || _opts.port > 65535)
        return fail(Status(ErrorCodes::BadValue, "port number must be between 0 and 65535"));

    auto swAddrs = resolveBindAddresses(_opts);
    if (!swAddrs.isOK()) return fail(swAddrs.getStatus());

    int port = _opts.port;
    for (auto& a : swAddrs.getValue()) {
        int fd = ::socket(a.addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return fail(socketError(a.name, errno));
        if (a.isUnix) {
            // A stale file from a previous run would make bind fail.
            if (::unlink(a.name.c_str()) != 0 && errno != ENOENT) {
                int err = errno;
                ::close(fd);
                return fail(socketError("Failed to unlink socket file " + a.name, err));
            }
        } else {
            int one = 1;
            ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            // Keep "::" from also claiming the IPv4 port that "0.0.0.0" binds.
            if (a.addr.ss_family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
            setPort(&a.addr, port);
        }
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a.addr), a.len) != 0) {
            int err = errno;
            ::close(fd);
            std::string where = a.isUnix ? a.name
                                         : (a.addr.ss_family == AF_INET6 ? "[" + a.name + "]" : a.name) + ":" +
                    std::to_string(port);
            return fail(socketError(where, err));
        }
        if (a.isUnix) {
            ::chmod(a.name.c_str(), static_cast<mode_t>(_opts.unixSocketPermissions));
        } else if (port == 0) {
            // Port 0: the kernel picked one; every other address uses the same.
            sockaddr_storage got{};
            socklen_t len = sizeof got;
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&got), &len);
            port = sockaddrPort(reinterpret_cast<sockaddr*>(&got));
        }
        if (::listen(fd, _opts.listenBacklog) != 0) {
            int err = errno;
            ::close(fd);
            return fail(socketError(a.name, err));
        }
        {
            std::lock_guard<std::mutex> lk(_listenMutex);
            _listenFds.push_back(fd);
            _listenIsUnix.push_back(a.isUnix);
        }
        _boundNames.push_back(a.name);
        LOGV2(23015, Network, "Listening on", logv2::attrs("address", a.name));
    }
    _boundPort = port;
    if (::pipe2(_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) return fail(socketError("pipe", errno));
    return Status::OK();
}

void TransportLayer::start() {
    _listener = std::thread([this] {
        logv2::setThreadName("listener");
        run();
    });
}

void TransportLayer::run() {
    {
        std::lock_guard<std::mutex> lk(_listenMutex);
        if (_shutdown.load() || _listenFds.empty()) return;
        _running = true;
    }
    logv2::setThreadName("listener");
    LOGV2(23016, Network, "Waiting for connections", logv2::attrs("port", _boundPort, "ssl", "off"));

    std::vector<pollfd> pfds;
    for (int fd : _listenFds) pfds.push_back(pollfd{fd, POLLIN, 0});
    pfds.push_back(pollfd{_wakePipe[0], POLLIN, 0});
    while (!_shutdown.load()) {
        for (auto& p : pfds) p.revents = 0;
        int n = ::poll(pfds.data(), pfds.size(), -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            LOGV2_ERROR(23023, Network, "poll() on the listening sockets failed",
                        logv2::attrs("error", std::string(std::strerror(errno))));
            break;
        }
        if (_shutdown.load()) break;
        for (size_t i = 0; i + 1 < pfds.size(); i++)
            if (pfds[i].revents & POLLIN) _acceptOne(pfds[i].fd, _listenIsUnix[i]);
    }
    std::lock_guard<std::mutex> lk(_listenMutex);
    for (int fd : _listenFds) ::close(fd);
    _listenFds.clear();
    _running = false;
}

void TransportLayer::_acceptOne(int listenFd, bool isUnix) {
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    int fd = ::accept4(listenFd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        if (err == EAGAIN || err == EINTR || err == ECONNABORTED) return;
        LOGV2_WARNING(23021, Network, "Error accepting new connection",
                      logv2::attrs("error", std::string(std::strerror(err))));
        // Out of descriptors or memory: the pending connection stays queued and poll() would
        // report it again at once; pause instead of spinning (and flooding the log).
        if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return;
    }
    std::string remote;
    if (isUnix) {
        remote = "anonymous unix socket:" + std::to_string(_boundPort);
    } else {
        const auto* sa = reinterpret_cast<sockaddr*>(&peer);
        std::string host = sockaddrHost(sa);
        remote = (sa->sa_family == AF_INET6 ? "[" + host + "]" : host) + ":" + std::to_string(sockaddrPort(sa));
    }

    if (currentConnections() >= maxConnections()) {
        noteConnectionRejected();
        LOGV2(22942, Network, "Connection refused because there are too many open connections",
              logv2::attrs("remote", remote, "connectionCount", currentConnections()));
        ::close(fd);
        return;
    }
    setSocketOptions(fd, isUnix);

    static std::atomic<int64_t> nextConnectionId{1};
    int64_t id = nextConnectionId.fetch_add(1);
    auto args = std::make_unique<SessionArgs>();
    args->registry = _registry;
    args->fd = fd;
    args->client = std::make_unique<Client>(id, remote);
    args->client->socketFd = fd;  // for waits that must notice a hang-up (db/interruptible_wait.h)
    args->sep = _sep;
    args->uuid = makeUuidAttr();
    {
        std::lock_guard<std::mutex> lk(_registry->mutex);
        if (_registry->closing) {
            ::close(fd);
            return;
        }
        _registry->fds[id] = fd;
    }
    noteConnectionOpened();
    LOGV2(22943, Network, "Connection accepted",
          logv2::attrs("remote", remote, "uuid", args->uuid, "connectionId", static_cast<long long>(id),
                       "connectionCount", currentConnections()));

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, kConnectionThreadStack);
    pthread_t tid;
    SessionArgs* raw = args.release();
    int rc = pthread_create(&tid, &attr, connectionThreadMain, raw);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        std::unique_ptr<SessionArgs> back(raw);
        LOGV2_ERROR(22948, Network, "Failed to create thread for connection",
                    logv2::attrs("error", std::string(std::strerror(rc)), "remote", remote));
        {
            std::lock_guard<std::mutex> lk(_registry->mutex);
            _registry->fds.erase(id);
        }
        ::close(fd);
        noteConnectionClosed();
    }
}

static void* connectionThreadMain(void* p) {
    std::unique_ptr<SessionArgs> args(static_cast<SessionArgs*>(p));
    TransportLayer::Registry* registry = args->registry.get();
    Client* client = args->client.get();
    logv2::setThreadName(client->desc());

    runSession(args->fd, client, args->sep);
    try {
        args->sep->onClientDisconnect(client);
    } catch (const std::exception& e) {
        LOGV2_WARNING(22949, Network, "Error cleaning up after a connection",
                      logv2::attrs("error", std::string(e.what())));
    }
    {
        std::lock_guard<std::mutex> lk(registry->mutex);
        registry->fds.erase(client->id());
        ::close(args->fd);  // under the mutex: shutdown() never touches a reused descriptor
    }
    noteConnectionClosed();
    LOGV2(22944, Network, "Connection ended",
          logv2::attrs("remote", client->remote(), "uuid", args->uuid, "connectionId",
                       static_cast<long long>(client->id()), "connectionCount", currentConnections()));
    args->client.reset();
    registry->ended.notify_all();
    return nullptr;
}

void TransportLayer::_closeListeners() {
    std::lock_guard<std::mutex> lk(_listenMutex);
    if (_running) return;  // run() closes them as it exits
    for (int fd : _listenFds) ::close(fd);
    _listenFds.clear();
}

bool TransportLayer::shutdown() {
    if (!_shutdown.exchange(true)) {
        if (_wakePipe[1] >= 0) {
            char c = 1;
            [[maybe_unused]] ssize_t n = ::write(_wakePipe[1], &c, 1);
        }
        if (_listener.joinable() && _listener.get_id() != std::this_thread::get_id()) _listener.join();
        _closeListeners();
        for (size_t i = 0; i < _boundNames.size(); i++)
            if (i < _listenIsUnix.size() && _listenIsUnix[i]) ::unlink(_boundNames[i].c_str());
    }
    std::unique_lock<std::mutex> lk(_registry->mutex);
    _registry->closing = true;
    // Wakes every session blocked in recv(); each then ends its connection normally.
    for (auto& [id, fd] : _registry->fds) ::shutdown(fd, SHUT_RDWR);
    return _registry->ended.wait_for(lk, std::chrono::milliseconds(_opts.shutdownGraceMillis),
                                     [&] { return _registry->fds.empty(); });
}

}  // namespace mongo::transport
