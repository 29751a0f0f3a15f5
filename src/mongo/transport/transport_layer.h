#pragma once
// TransportLayer: mongod's listener. Binds the configured addresses, accepts connections and
// serves each on its own thread (MongoDB's default "thread per connection" model) with a
// Client of an increasing connection id, until shutdown().
//
// Typical use in main():
//     transport::TransportLayer::Options opts;
//     opts.bindIps = "127.0.0.1";         // net.bindIp, comma separated; "*" = all interfaces
//     opts.port = 27017;
//     transport::TransportLayer tl(opts, &serviceEntryPoint);
//     Status s = tl.listen();             // logs 23015 "Listening on" per address
//     if (!s.isOK()) exit(48);            // already logged (port in use, bad address...)
//     tl.start();                         // accept loop on a "listener" thread; logs 23016
//     ... on shutdown: setGlobalInShutdown(); tl.shutdown();   // stops, ends sessions, joins
// (or call tl.run() on a thread of your own; shutdown() makes it return.)
//
// Ownership and threads: the ServiceEntryPoint must outlive the TransportLayer and, if
// shutdown() reported sessions still running, the process. listen()/start()/run() are called
// once, from one thread; shutdown() may be called from any thread, more than once.
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/transport/service_entry_point.h"

namespace mongo::transport {

// The IP address a connected socket was reached at (the server's side: "127.0.0.1", "::1"),
// "" when unknown (no socket, a unix socket).
std::string localAddressOf(int socketFd);

class TransportLayer {
public:
    struct Options {
        // Comma-separated addresses (net.bindIp): IPv4, IPv6, host names ("localhost"), or "*"
        // for every interface (0.0.0.0, plus :: with ipv6).
        std::string bindIps = "127.0.0.1";
        int port = 27017;  // 0: any free port (see port())
        // net.maxIncomingConnections; 0 = mongod's default (1000000). Capped at 80% of the
        // open-file limit, as mongod does.
        long long maxConns = 0;
        // net.compression.compressors ("disabled" for none).
        std::string enabledCompressors = "snappy,zstd,zlib";
        // net.ipv6: "localhost" and "*" also mean ::1 / ::. Explicit IPv6 addresses always work.
        bool ipv6 = false;
        // A Unix domain socket to listen on as well (mongod: /tmp/mongodb-<port>.sock); empty
        // for none. A stale file is replaced; the file is removed at shutdown.
        std::string unixSocketPath;
        int unixSocketPermissions = 0700;
        int listenBacklog = 128;
        // How long shutdown() waits for running sessions to end.
        int shutdownGraceMillis = 10000;
    };

    TransportLayer(Options options, ServiceEntryPoint* sep);
    ~TransportLayer();  // shutdown()
    TransportLayer(const TransportLayer&) = delete;
    TransportLayer& operator=(const TransportLayer&) = delete;

    // Resolves and binds every address. On failure (e.g. SocketException "Address already in
    // use") logs "Error setting up listener" and returns the error; nothing stays bound.
    Status listen();
    // The blocking accept loop; returns after shutdown(). REQUIRES: listen() succeeded.
    void run();
    // run() on a new thread named "listener"; shutdown() joins it.
    void start();
    // Stops accepting, shuts down every session's socket (its thread then ends the connection:
    // "Connection ended", onClientDisconnect) and waits up to shutdownGraceMillis for the
    // sessions to finish. Returns false if some are still running (e.g. stuck in a command).
    bool shutdown();

    // The bound TCP port (useful with port 0). 0 before listen().
    int port() const { return _boundPort; }
    // The addresses actually bound, as logged ("127.0.0.1", "::1", "/tmp/mongodb-27017.sock").
    std::vector<std::string> boundAddresses() const { return _boundNames; }

    struct Registry;  // implementation detail: live sessions, shared with their threads

private:
    void _acceptOne(int listenFd, bool isUnix);
    void _closeListeners();

    Options _opts;
    ServiceEntryPoint* _sep;
    std::vector<int> _listenFds;
    std::vector<bool> _listenIsUnix;
    std::vector<std::string> _boundNames;
    int _boundPort = 0;
    int _wakePipe[2] = {-1, -1};
    std::atomic<bool> _shutdown{false};
    std::atomic<bool> _running{false};
    std::mutex _listenMutex;  // guards _listenFds against a concurrent shutdown
    std::thread _listener;
    std::shared_ptr<Registry> _registry;
};

}  // namespace mongo::transport
