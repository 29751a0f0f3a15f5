#include "mongo/db/commands/hello_cmd.h"

#include <chrono>
#include <thread>

#include "mongo/db/commands/command_test_fixture.h"
#include "mongo/db/server_options.h"

namespace mongo {
namespace {

using Clock = std::chrono::steady_clock;

class HelloTest : public CommandTest {
protected:
    void SetUp() override { serverGlobalParams().networkCompressors = {"snappy", "zstd", "zlib"}; }
    void TearDown() override { setHelloReplicationHook(nullptr); }

    BSONObj tv(long long counter) {
        BSONObjBuilder b;
        b.append("processId", topologyProcessId());
        b.appendLong("counter", counter);
        return b.obj();
    }
    BSONObj awaitable(const BSONObj& topologyVersion, long long maxAwaitTimeMS) {
        BSONObjBuilder b;
        b.append("hello", 1);
        b.append("topologyVersion", topologyVersion);
        b.appendLong("maxAwaitTimeMS", maxAwaitTimeMS);
        return b.obj();
    }
    static BSONObj metadata() {
        return fromjson(R"({"hello": 1, "client": {"driver": {"name": "pymongo", "version": "4.8"},
                            "os": {"type": "Linux"}, "application": {"name": "app1"}}})");
    }
};

TEST_F(HelloTest, StandaloneReplyShape) {
    BSONObj r = run(fromjson(R"({"hello": 1})"));
    EXPECT_TRUE(r["isWritablePrimary"].boolean());
    EXPECT_FALSE(r.hasField("ismaster"));
    EXPECT_FALSE(r.hasField("helloOk"));
    EXPECT_EQ(r["maxBsonObjectSize"].numberInt(), 16777216);
    EXPECT_EQ(r["maxMessageSizeBytes"].numberInt(), 48000000);
    EXPECT_EQ(r["maxWriteBatchSize"].numberInt(), 100000);
    EXPECT_EQ(r["localTime"].type(), Date);
    EXPECT_EQ(r["logicalSessionTimeoutMinutes"].numberInt(), 30);
    EXPECT_EQ(r["connectionId"].numberLong(), 7);
    EXPECT_EQ(r["minWireVersion"].numberInt(), 0);
    EXPECT_EQ(r["maxWireVersion"].numberInt(), 21);
    EXPECT_FALSE(r["readOnly"].boolean());
    BSONObj topo = r["topologyVersion"].Obj();
    EXPECT_EQ(topo["processId"].type(), jstOID);
    EXPECT_EQ(topo["counter"].type(), NumberLong);
    EXPECT_FALSE(r.hasField("compression"));
}

TEST_F(HelloTest, LegacyNamesAnswerIsmaster) {
    for (const char* name : {"isMaster", "ismaster"}) {
        BSONObjBuilder b;
        b.append(name, 1);
        b.append("helloOk", true);
        BSONObj r = run(b.obj());
        EXPECT_TRUE(r["ismaster"].boolean()) << name;
        EXPECT_FALSE(r.hasField("isWritablePrimary")) << name;
        EXPECT_TRUE(r["helloOk"].boolean()) << name;
    }
}

TEST_F(HelloTest, CompressionIsTheIntersectionInClientOrder) {
    BSONObj r = run(fromjson(R"({"hello": 1, "compression": ["zlib", "lz4", "snappy", "zlib"]})"));
    EXPECT_EQ(r["compression"].Obj().woCompare(fromjson(R"({"0": "zlib", "1": "snappy"})"), false), 0)
        << r.toString();
    EXPECT_EQ(client.compressors, (std::vector<std::string>{"zlib", "snappy"}));
}

TEST_F(HelloTest, LaterHelloWithoutCompressionReportsTheNegotiatedList) {
    run(fromjson(R"({"hello": 1, "compression": ["zstd"]})"));
    BSONObj r = run(fromjson(R"({"hello": 1})"));
    ASSERT_EQ(r["compression"].type(), Array);
    EXPECT_EQ(r["compression"].Obj().firstElement().str(), "zstd");
}

TEST_F(HelloTest, NoCommonCompressorMeansNoCompressionField) {
    BSONObj r = run(fromjson(R"({"hello": 1, "compression": ["lz4"]})"));
    EXPECT_FALSE(r.hasField("compression"));
    EXPECT_TRUE(client.compressors.empty());
}

TEST_F(HelloTest, DisabledServerCompressionNegotiatesNothing) {
    serverGlobalParams().networkCompressors.clear();
    BSONObj r = run(fromjson(R"({"hello": 1, "compression": ["snappy", "zstd"]})"));
    EXPECT_FALSE(r.hasField("compression"));
}

TEST_F(HelloTest, CompressionMustBeAnArrayOfStrings) {
    EXPECT_EQ(errorCode(fromjson(R"({"hello": 1, "compression": "snappy"})")), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"hello": 1, "compression": [1]})")), 14);
}

TEST_F(HelloTest, NegotiateCompressorsFunction) {
    EXPECT_EQ(negotiateCompressors({"zstd", "snappy"}, {"snappy", "zstd", "zlib"}),
              (std::vector<std::string>{"zstd", "snappy"}));
    EXPECT_TRUE(negotiateCompressors({"zstd"}, {}).empty());
    EXPECT_TRUE(negotiateCompressors({}, {"snappy"}).empty());
}

TEST_F(HelloTest, FirstHelloStoresClientMetadata) {
    run(metadata());
    EXPECT_EQ(client.metadata["application"].Obj()["name"].str(), "app1");
    EXPECT_TRUE(client.seenHello);
}

TEST_F(HelloTest, MetadataOnALaterHelloIsRejected) {
    run(metadata());
    EXPECT_EQ(errorCode(metadata()), 186);
    EXPECT_EQ(lastError, "The client metadata document may only be sent in the first hello");
}

TEST_F(HelloTest, MetadataAfterAHelloWithoutItIsRejected) {
    run(fromjson(R"({"hello": 1})"));
    EXPECT_EQ(errorCode(metadata()), 186);
}

TEST_F(HelloTest, LaterHelloWithoutMetadataIsFine) {
    run(metadata());
    EXPECT_EQ(errorCode(fromjson(R"({"isMaster": 1})")), 0);
}

TEST_F(HelloTest, InvalidMetadataIsRejected) {
    EXPECT_EQ(errorCode(fromjson(R"({"hello": 1, "client": {"os": {"type": "Linux"}}})")), 183);
    EXPECT_EQ(lastError, "Missing required sub-document 'driver' in the client metadata document");
}

TEST_F(HelloTest, ValidateClientMetadataErrors) {
    auto code = [](const char* json) {
        BSONObj o = fromjson(json);
        return validateClientMetadata(o["client"]).code();
    };
    EXPECT_EQ(code(R"({"client": {"driver": {"name": "d", "version": "1"}, "os": {"type": "Linux"}}})"), 0);
    EXPECT_EQ(code(R"({"client": 5})"), 14);
    EXPECT_EQ(code(R"({"client": {"driver": {"name": "d"}, "os": {"type": "Linux"}}})"), 183);
    EXPECT_EQ(code(R"({"client": {"driver": {"name": "d", "version": 1}, "os": {"type": "Linux"}}})"), 14);
    EXPECT_EQ(code(R"({"client": {"driver": {"name": "d", "version": "1"}}})"), 183);
    EXPECT_EQ(code(R"({"client": {"driver": {"name": "d", "version": "1"}, "os": {}}})"), 183);
    std::string longName(129, 'a');
    EXPECT_EQ(code((R"({"client": {"driver": {"name": "d", "version": "1"}, "os": {"type": "L"}, "application": {"name": ")" +
                    longName + "\"}}}").c_str()),
              184);
    std::string big(600, 'x');
    EXPECT_EQ(code((R"({"client": {"driver": {"name": "d", "version": "1"}, "os": {"type": "L"}, "extra": ")" + big +
                    "\"}}").c_str()),
              185);
}

TEST_F(HelloTest, AwaitableArgumentsMustComeTogether) {
    EXPECT_EQ(errorCode(fromjson(R"({"hello": 1, "maxAwaitTimeMS": 0})")), 31368);
    BSONObjBuilder b;
    b.append("hello", 1);
    b.append("topologyVersion", tv(topologyVersionCounter()));
    EXPECT_EQ(errorCode(b.obj()), 31368);
}

TEST_F(HelloTest, AwaitableArgumentErrors) {
    long long c = topologyVersionCounter();
    EXPECT_EQ(errorCode(awaitable(tv(c), -1)), 31373);
    BSONObjBuilder str;
    str.append("hello", 1);
    str.append("topologyVersion", tv(c));
    str.append("maxAwaitTimeMS", "soon");
    EXPECT_EQ(errorCode(str.obj()), 14);
    EXPECT_EQ(errorCode(fromjson(R"({"hello": 1, "topologyVersion": "x", "maxAwaitTimeMS": 0})")), 10065);

    BSONObjBuilder intCounter;
    intCounter.append("processId", topologyProcessId());
    intCounter.appendInt("counter", 0);
    EXPECT_EQ(errorCode(awaitable(intCounter.obj(), 0)), 14);

    BSONObjBuilder noCounter;
    noCounter.append("processId", topologyProcessId());
    EXPECT_EQ(errorCode(awaitable(noCounter.obj(), 0)), 40414);

    BSONObjBuilder extra;
    extra.append("processId", topologyProcessId());
    extra.appendLong("counter", c);
    extra.append("randomField", 1);
    EXPECT_EQ(errorCode(awaitable(extra.obj(), 0)), 40415);

    EXPECT_EQ(errorCode(awaitable(tv(-1), 0)), 31372);
    EXPECT_EQ(errorCode(awaitable(tv(c + 1), 0)), 31382);
}

TEST_F(HelloTest, AwaitableHelloWaitsForMaxAwaitTimeMS) {
    auto start = Clock::now();
    BSONObj r = run(awaitable(tv(topologyVersionCounter()), 300));
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(290));
    EXPECT_TRUE(r["isWritablePrimary"].boolean());
}

TEST_F(HelloTest, AwaitableHelloWithAnotherProcessIdAnswersAtOnce) {
    BSONObjBuilder other;
    other.append("processId", OID::gen());
    other.appendLong("counter", topologyVersionCounter() + 5);
    auto start = Clock::now();
    run(awaitable(other.obj(), 5000));
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(1000));
}

TEST_F(HelloTest, TopologyChangeWakesAwaitableHello) {
    long long c = topologyVersionCounter();
    std::thread bumper([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        bumpTopologyVersion();
    });
    auto start = Clock::now();
    BSONObj r = run(awaitable(tv(c), 10000));
    bumper.join();
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(5000));
    EXPECT_EQ(r["topologyVersion"].Obj()["counter"].numberLong(), c + 1);
}

TEST_F(HelloTest, ReplicationHookReplacesRoleFields) {
    setHelloReplicationHook([](OperationContext*, bool legacy, BSONObjBuilder& b) {
        b.append(legacy ? "ismaster" : "isWritablePrimary", false);
        b.append("secondary", true);
        b.append("setName", "rs0");
    });
    BSONObj r = run(fromjson(R"({"hello": 1})"));
    EXPECT_FALSE(r["isWritablePrimary"].boolean());
    EXPECT_TRUE(r["secondary"].boolean());
    EXPECT_EQ(r["setName"].str(), "rs0");
    EXPECT_EQ(r["maxWireVersion"].numberInt(), 21);
}

}  // namespace
}  // namespace mongo
