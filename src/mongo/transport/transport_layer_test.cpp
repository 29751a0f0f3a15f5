#include "mongo/transport/transport_layer.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/compression.h"
#include "mongo/rpc/op_msg.h"
#include "mongo/transport/network_stats.h"
#include "mongo/transport/session.h"

namespace mongo::transport {
namespace {

class CountingEntryPoint : public ServiceEntryPoint {
public:
    BSONObj handleRequest(Client* client, const OpMsgRequest& request) override {
        calls++;
        if (request.commandName() == "sleep") std::this_thread::sleep_for(std::chrono::milliseconds(200));
        BSONObjBuilder b;
        b.append("connectionId", static_cast<long long>(client->id()));
        b.append("remote", client->remote());
        b.append("ok", 1.0);
        return b.obj();
    }
    void onClientDisconnect(Client*) override { disconnects++; }
    std::atomic<int> calls{0};
    std::atomic<int> disconnects{0};
};

int connectTcp(int port, const char* host = "127.0.0.1") {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, host, &a.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads one framed message; empty Message on EOF.
Message readMessage(int fd) {
    char header[kMsgHeaderSize];
    if (!readFull(fd, header, sizeof header)) return Message();
    int32_t len = readLE32(header);
    std::string buf(len, '\0');
    std::memcpy(&buf[0], header, sizeof header);
    if (!readFull(fd, &buf[kMsgHeaderSize], len - kMsgHeaderSize)) return Message();
    return Message(std::move(buf));
}

BSONObj roundTrip(int fd, const BSONObj& body, int32_t requestId = 1) {
    Message m = buildOpMsg(body, requestId, 0);
    EXPECT_TRUE(sendAll(fd, m.buf().data(), m.size()));
    Message reply = readMessage(fd);
    EXPECT_FALSE(reply.empty());
    if (reply.empty()) return BSONObj();
    EXPECT_EQ(reply.header().responseTo, requestId);
    return opMsgReplyBody(reply);
}

bool peerClosed(int fd) {
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char c;
    return ::recv(fd, &c, 1, 0) == 0;
}

template <typename Pred>
bool eventually(Pred p) {
    for (int i = 0; i < 500; i++) {
        if (p()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

class TransportLayerTest : public ::testing::Test {
protected:
    void SetUp() override {
        TransportLayer::Options o;
        o.bindIps = "127.0.0.1";
        o.port = 0;
        tl = std::make_unique<TransportLayer>(o, &sep);
        ASSERT_TRUE(tl->listen().isOK());
        ASSERT_GT(tl->port(), 0);
        tl->start();
    }
    void TearDown() override {
        if (tl) EXPECT_TRUE(tl->shutdown());
        tl.reset();
    }
    CountingEntryPoint sep;
    std::unique_ptr<TransportLayer> tl;
};

TEST_F(TransportLayerTest, ServesCommandsAndCountsConnections) {
    long long createdBefore = connectionStats().totalCreated;
    int fd = connectTcp(tl->port());
    ASSERT_GE(fd, 0);
    BSONObj r1 = roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"), 5);
    EXPECT_EQ(r1["ok"].numberDouble(), 1.0);
    EXPECT_EQ(r1["remote"].str().rfind("127.0.0.1:", 0), 0u);
    BSONObj r2 = roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"), 6);
    EXPECT_EQ(r1["connectionId"].numberLong(), r2["connectionId"].numberLong());
    EXPECT_EQ(connectionStats().current, 1);
    EXPECT_EQ(connectionStats().totalCreated - createdBefore, 1);
    EXPECT_GT(connectionStats().available, 0);

    int fd2 = connectTcp(tl->port());
    BSONObj r3 = roundTrip(fd2, fromjson(R"({"ping": 1, "$db": "admin"})"));
    EXPECT_GT(r3["connectionId"].numberLong(), r1["connectionId"].numberLong());
    EXPECT_EQ(connectionStats().current, 2);
    ::close(fd);
    ::close(fd2);
    EXPECT_TRUE(eventually([] { return connectionStats().current == 0; }));
    EXPECT_TRUE(eventually([&] { return sep.disconnects == 2; }));
}

TEST_F(TransportLayerTest, PhysicalBytesAreCounted) {
    NetworkStats before = networkStats();
    int fd = connectTcp(tl->port());
    Message m = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 1, 0);
    ASSERT_TRUE(sendAll(fd, m.buf().data(), m.size()));
    Message reply = readMessage(fd);
    ASSERT_FALSE(reply.empty());
    // The server counts a reply after send() returns, which may be after we read it.
    EXPECT_TRUE(eventually([&] {
        return networkStats().physicalBytesOut - before.physicalBytesOut == static_cast<long long>(reply.size());
    }));
    EXPECT_EQ(networkStats().physicalBytesIn - before.physicalBytesIn, static_cast<long long>(m.size()));
    ::close(fd);
}

TEST_F(TransportLayerTest, InvalidMessageLengthClosesConnection) {
    for (int32_t len : {0, 15, kMaxMessageSizeBytes + 1, -1}) {
        int fd = connectTcp(tl->port());
        char header[kMsgHeaderSize] = {};
        writeLE32(header, len);
        writeLE32(header + 12, 2013);
        ASSERT_TRUE(sendAll(fd, header, sizeof header));
        EXPECT_TRUE(peerClosed(fd)) << len;
        ::close(fd);
    }
    // The server still works.
    int fd = connectTcp(tl->port());
    EXPECT_EQ(roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"))["ok"].numberDouble(), 1.0);
    ::close(fd);
}

TEST_F(TransportLayerTest, FatalParseErrorClosesButOrdinaryErrorReplies) {
    int fd = connectTcp(tl->port());
    Message noBody = Message::start(OpCode::kMsg, 3, 0);
    appendLE32(noBody.buf(), 0);
    noBody.finish();
    ASSERT_TRUE(sendAll(fd, noBody.buf().data(), noBody.size()));
    Message reply = readMessage(fd);
    ASSERT_FALSE(reply.empty());
    EXPECT_EQ(opMsgReplyBody(reply)["code"].numberInt(), 40587);

    Message illegal = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 4, 0, 1u << 3);
    ASSERT_TRUE(sendAll(fd, illegal.buf().data(), illegal.size()));
    EXPECT_TRUE(peerClosed(fd));
    ::close(fd);
}

TEST_F(TransportLayerTest, HttpGetGetsMongodsHint) {
    int fd = connectTcp(tl->port());
    std::string req = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    ASSERT_TRUE(sendAll(fd, req.data(), req.size()));
    std::string resp;
    char buf[512];
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) resp.append(buf, n);
    EXPECT_EQ(resp.rfind("HTTP/1.0 200 OK\r\n", 0), 0u);
    EXPECT_NE(resp.find("It looks like you are trying to access MongoDB over HTTP on the native driver port."),
              std::string::npos);
    ::close(fd);
}

TEST_F(TransportLayerTest, MoreToComeAndPipelining) {
    int fd = connectTcp(tl->port());
    Message fire = buildOpMsg(fromjson(R"({"insert": "c", "$db": "t"})"), 1, 0, op_msg::kMoreToCome);
    Message ask = buildOpMsg(fromjson(R"({"ping": 1, "$db": "admin"})"), 2, 0);
    std::string both = fire.buf() + ask.buf();
    ASSERT_TRUE(sendAll(fd, both.data(), both.size()));
    Message reply = readMessage(fd);
    ASSERT_FALSE(reply.empty());
    EXPECT_EQ(reply.header().responseTo, 2);  // the moreToCome message got no reply
    EXPECT_EQ(sep.calls, 2);
    ::close(fd);
}

TEST_F(TransportLayerTest, CompressedRoundTripOverSocket) {
    int fd = connectTcp(tl->port());
    Message m = compressMessage(buildOpMsg(fromjson(R"({"find": "c", "$db": "t"})"), 9, 0), 3).getValue();
    ASSERT_TRUE(sendAll(fd, m.buf().data(), m.size()));
    Message reply = readMessage(fd);
    ASSERT_EQ(reply.opCode(), static_cast<int32_t>(OpCode::kCompressed));
    auto inner = decompressMessage(reply);
    ASSERT_TRUE(inner.isOK());
    EXPECT_EQ(opMsgReplyBody(inner.getValue())["ok"].numberDouble(), 1.0);
    ::close(fd);
}

TEST_F(TransportLayerTest, PortInUseIsAnError) {
    TransportLayer::Options o;
    o.bindIps = "127.0.0.1";
    o.port = tl->port();
    CountingEntryPoint other;
    TransportLayer second(o, &other);
    Status s = second.listen();
    EXPECT_EQ(s.code(), static_cast<int>(ErrorCodes::SocketException));
    EXPECT_NE(s.reason().find("Address already in use"), std::string::npos) << s.reason();
}

TEST_F(TransportLayerTest, ShutdownEndsOpenSessions) {
    int fd = connectTcp(tl->port());
    roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"));
    EXPECT_TRUE(tl->shutdown());
    EXPECT_TRUE(peerClosed(fd));
    EXPECT_EQ(sep.disconnects, 1);
    EXPECT_EQ(connectionStats().current, 0);
    EXPECT_LT(connectTcp(tl->port()), 0);  // no longer listening
    ::close(fd);
}

TEST_F(TransportLayerTest, ShutdownWaitsForRunningCommand) {
    int fd = connectTcp(tl->port());
    Message m = buildOpMsg(fromjson(R"({"sleep": 1, "$db": "admin"})"), 1, 0);
    ASSERT_TRUE(sendAll(fd, m.buf().data(), m.size()));
    EXPECT_TRUE(eventually([&] { return sep.calls == 1; }));
    EXPECT_TRUE(tl->shutdown());
    EXPECT_EQ(connectionStats().current, 0);
    ::close(fd);
}

TEST(TransportLayerOptions, MaxConnectionsRejectsExtraClients) {
    CountingEntryPoint sep;
    TransportLayer::Options o;
    o.bindIps = "localhost";
    o.port = 0;
    o.maxConns = 1;
    TransportLayer tl(o, &sep);
    ASSERT_TRUE(tl.listen().isOK());
    tl.start();
    long long rejectedBefore = connectionStats().rejected;
    int a = connectTcp(tl.port());
    roundTrip(a, fromjson(R"({"ping": 1, "$db": "admin"})"));
    EXPECT_EQ(connectionStats().available, 0);
    int b = connectTcp(tl.port());
    EXPECT_TRUE(peerClosed(b));
    EXPECT_EQ(connectionStats().rejected - rejectedBefore, 1);
    ::close(a);
    ::close(b);
    EXPECT_TRUE(tl.shutdown());
}

TEST(TransportLayerOptions, UnixSocketAndMultipleAddresses) {
    CountingEntryPoint sep;
    TransportLayer::Options o;
    o.bindIps = "127.0.0.1, localhost";  // duplicates collapse
    o.port = 0;
    o.unixSocketPath = "/tmp/transport_layer_test-" + std::to_string(::getpid()) + ".sock";
    TransportLayer tl(o, &sep);
    ASSERT_TRUE(tl.listen().isOK());
    EXPECT_EQ(tl.boundAddresses(), (std::vector<std::string>{"127.0.0.1", o.unixSocketPath}));
    tl.start();

    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, o.unixSocketPath.c_str());
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    BSONObj r = roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"));
    EXPECT_EQ(r["remote"].str().rfind("anonymous unix socket:", 0), 0u);
    ::close(fd);
    EXPECT_TRUE(tl.shutdown());
    EXPECT_NE(::access(o.unixSocketPath.c_str(), F_OK), 0);  // removed at shutdown
}

TEST(TransportLayerOptions, Ipv6Loopback) {
    CountingEntryPoint sep;
    TransportLayer::Options o;
    o.bindIps = "::1";
    o.port = 0;
    TransportLayer tl(o, &sep);
    if (!tl.listen().isOK()) GTEST_SKIP() << "no IPv6 on this machine";
    tl.start();
    int fd = ::socket(AF_INET6, SOCK_STREAM, 0);
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_port = htons(tl.port());
    inet_pton(AF_INET6, "::1", &a.sin6_addr);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    BSONObj r = roundTrip(fd, fromjson(R"({"ping": 1, "$db": "admin"})"));
    EXPECT_EQ(r["remote"].str().rfind("[::1]:", 0), 0u);
    ::close(fd);
    EXPECT_TRUE(tl.shutdown());
}

TEST(TransportLayerOptions, BadOptionsAreErrors) {
    CountingEntryPoint sep;
    TransportLayer::Options o;
    o.port = 0;
    o.bindIps = "no-such-host.invalid";
    EXPECT_FALSE(TransportLayer(o, &sep).listen().isOK());
    o.bindIps = "127.0.0.1";
    o.enabledCompressors = "snappy,brotli";
    EXPECT_EQ(TransportLayer(o, &sep).listen().code(), static_cast<int>(ErrorCodes::BadValue));
    o.enabledCompressors = "snappy,zstd,zlib";
    o.port = 70000;
    EXPECT_EQ(TransportLayer(o, &sep).listen().code(), static_cast<int>(ErrorCodes::BadValue));
}

}  // namespace
}  // namespace mongo::transport
