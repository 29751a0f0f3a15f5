#include "mongo/transport/network_stats.h"

#include <atomic>

namespace mongo::transport {
namespace {

constexpr long long kDefaultMaxConns = 1000000;  // mongod's DEFAULT_MAX_CONN

std::atomic<long long> gBytesIn{0}, gBytesOut{0}, gPhysIn{0}, gPhysOut{0}, gRequests{0};
std::atomic<long long> gCurrent{0}, gTotalCreated{0}, gRejected{0}, gActive{0};
std::atomic<long long> gMaxConns{kDefaultMaxConns};

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

NetworkStats networkStats() {
    NetworkStats s;
    s.bytesIn = gBytesIn.load(kRelaxed);
    s.bytesOut = gBytesOut.load(kRelaxed);
    s.physicalBytesIn = gPhysIn.load(kRelaxed);
    s.physicalBytesOut = gPhysOut.load(kRelaxed);
    s.numRequests = gRequests.load(kRelaxed);
    s.compression = compressionStats();
    return s;
}

ConnectionStats connectionStats() {
    ConnectionStats s;
    s.current = gCurrent.load(kRelaxed);
    long long avail = gMaxConns.load(kRelaxed) - s.current;
    s.available = avail < 0 ? 0 : avail;
    s.totalCreated = gTotalCreated.load(kRelaxed);
    s.rejected = gRejected.load(kRelaxed);
    s.active = gActive.load(kRelaxed);
    s.threaded = s.current;
    return s;
}

void appendNetworkStats(BSONObjBuilder& b) {
    NetworkStats s = networkStats();
    b.appendLong("bytesIn", s.bytesIn);
    b.appendLong("bytesOut", s.bytesOut);
    b.appendLong("physicalBytesIn", s.physicalBytesIn);
    b.appendLong("physicalBytesOut", s.physicalBytesOut);
    b.appendLong("numSlowDNSOperations", 0);
    b.appendLong("numSlowSSLOperations", 0);
    b.appendLong("numRequests", s.numRequests);
    {
        BSONObjBuilder& comp = b.subobjStart("compression");
        for (const auto& c : s.compression) {
            BSONObjBuilder& one = comp.subobjStart(c.name);
            {
                BSONObjBuilder& x = one.subobjStart("compressor");
                x.appendLong("bytesIn", c.compressorBytesIn);
                x.appendLong("bytesOut", c.compressorBytesOut);
                x.doneFast();
            }
            {
                BSONObjBuilder& x = one.subobjStart("decompressor");
                x.appendLong("bytesIn", c.decompressorBytesIn);
                x.appendLong("bytesOut", c.decompressorBytesOut);
                x.doneFast();
            }
            one.doneFast();
        }
        comp.doneFast();
    }
    {
        // One thread per connection: mongod calls this executor "passthrough".
        ConnectionStats c = connectionStats();
        BSONObjBuilder& ex = b.subobjStart("serviceExecutors");
        BSONObjBuilder& pt = ex.subobjStart("passthrough");
        pt.appendNumber("threadsRunning", c.current);
        pt.appendNumber("clientsInTotal", c.current);
        pt.appendNumber("clientsRunning", c.active);
        pt.appendNumber("clientsWaitingForData", c.current - c.active);
        pt.doneFast();
        ex.doneFast();
    }
}

void appendConnectionStats(BSONObjBuilder& b) {
    ConnectionStats s = connectionStats();
    b.appendNumber("current", s.current);
    b.appendNumber("available", s.available);
    b.appendNumber("totalCreated", s.totalCreated);
    b.appendNumber("rejected", s.rejected);
    b.appendNumber("active", s.active);
    b.appendNumber("threaded", s.threaded);
}

void noteLogicalIn(long long bytes) {
    gBytesIn.fetch_add(bytes, kRelaxed);
    gRequests.fetch_add(1, kRelaxed);
}
void noteLogicalOut(long long bytes) { gBytesOut.fetch_add(bytes, kRelaxed); }
void notePhysicalIn(long long bytes) { gPhysIn.fetch_add(bytes, kRelaxed); }
void notePhysicalOut(long long bytes) { gPhysOut.fetch_add(bytes, kRelaxed); }
void noteConnectionOpened() {
    gCurrent.fetch_add(1, kRelaxed);
    gTotalCreated.fetch_add(1, kRelaxed);
}
void noteConnectionClosed() { gCurrent.fetch_sub(1, kRelaxed); }
void noteConnectionRejected() { gRejected.fetch_add(1, kRelaxed); }
void noteOperationStarted() { gActive.fetch_add(1, kRelaxed); }
void noteOperationFinished() { gActive.fetch_sub(1, kRelaxed); }
void setMaxConnections(long long n) { gMaxConns.store(n > 0 ? n : kDefaultMaxConns, kRelaxed); }
long long maxConnections() { return gMaxConns.load(kRelaxed); }
long long currentConnections() { return gCurrent.load(kRelaxed); }

}  // namespace mongo::transport
