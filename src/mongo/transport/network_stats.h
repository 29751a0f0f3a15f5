#pragma once
// Process-wide network and connection counters, as serverStatus reports them in its
// "network" and "connections" sections. The transport layer updates them; anyone may read.
// Thread safety: all functions are safe to call concurrently (relaxed atomics: each value is
// exact, a snapshot of several values is not taken atomically).
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/compression.h"

namespace mongo::transport {

struct NetworkStats {
    long long bytesIn = 0;           // logical: after decompression
    long long bytesOut = 0;          // logical: before compression
    long long physicalBytesIn = 0;   // as read from sockets
    long long physicalBytesOut = 0;  // as written to sockets
    long long numRequests = 0;       // messages received
    std::vector<CompressorStats> compression;  // per enabled compressor
};

struct ConnectionStats {
    long long current = 0;       // open client connections
    long long available = 0;     // maxConns - current
    long long totalCreated = 0;  // accepted since startup
    long long rejected = 0;      // refused because of maxConns
    long long active = 0;        // connections running a command right now
    long long threaded = 0;      // connections served by a dedicated thread (all of ours)
};

NetworkStats networkStats();
ConnectionStats connectionStats();

// serverStatus sections, in mongod's shape:
//   network: {bytesIn, bytesOut, physicalBytesIn, physicalBytesOut, numSlowDNSOperations,
//             numSlowSSLOperations, numRequests, compression: {<name>: {compressor: {bytesIn,
//             bytesOut}, decompressor: {bytesIn, bytesOut}}}, serviceExecutors: {...}}
//   connections: {current, available, totalCreated, rejected, active, threaded}
void appendNetworkStats(BSONObjBuilder& b);
void appendConnectionStats(BSONObjBuilder& b);

// --- updated by the transport layer ---
void noteLogicalIn(long long bytes);  // also counts one request
void noteLogicalOut(long long bytes);
void notePhysicalIn(long long bytes);
void notePhysicalOut(long long bytes);
void noteConnectionOpened();  // current++, totalCreated++
void noteConnectionClosed();  // current--
void noteConnectionRejected();
void noteOperationStarted();  // active++
void noteOperationFinished();  // active--
// The configured connection limit (after the file-descriptor cap).
void setMaxConnections(long long maxConns);
long long maxConnections();
long long currentConnections();

}  // namespace mongo::transport
