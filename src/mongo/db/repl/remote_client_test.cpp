// RemoteClient against a fake member in a state that advertises no sessions (as STARTUP2 or
// RECOVERING do): libmongoc must not rescan the live connection between or inside commands.
// With a short heartbeatFrequencyMS it did, and when that rescan's hello failed (the member
// shutting down) libmongoc 1.23 destroyed the connection under the command being sent and
// aborted the process (remote_client.cpp, connect()).
#include "mongo/db/repl/remote_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/transport/service_entry_point.h"
#include "mongo/transport/transport_layer.h"

namespace mongo {
namespace repl {
namespace {

// Answers hello as a replica-set member that is neither primary nor secondary (no
// logicalSessionTimeoutMinutes), anything else with ok: 1; counts hellos per connection.
class FakeRecoveringMember : public ServiceEntryPoint {
public:
    BSONObj handleRequest(Client* client, const OpMsgRequest& request) override {
        const std::string name = request.commandName();
        BSONObjBuilder b;
        if (name == "hello" || name == "isMaster" || name == "ismaster") {
            {
                std::lock_guard<std::mutex> lk(_mutex);
                ++_hellos[client->id()];
            }
            b.append("isWritablePrimary", false);
            b.append("secondary", false);
            b.append("setName", "rs");
            b.append("maxWireVersion", 21);
            b.append("minWireVersion", 0);
            b.append("maxBsonObjectSize", 16 * 1024 * 1024);
            b.append("maxMessageSizeBytes", 48000000);
            b.append("maxWriteBatchSize", 100000);
        } else {
            std::lock_guard<std::mutex> lk(_mutex);
            ++_commands;
        }
        b.append("ok", 1.0);
        return b.obj();
    }
    std::map<long long, int> hellos() {
        std::lock_guard<std::mutex> lk(_mutex);
        return _hellos;
    }
    int commands() {
        std::lock_guard<std::mutex> lk(_mutex);
        return _commands;
    }

private:
    std::mutex _mutex;
    std::map<long long, int> _hellos;  // by connection
    int _commands = 0;
};

TEST(RemoteClientTest, ALiveConnectionIsNeverRescanned) {
    FakeRecoveringMember member;
    transport::TransportLayer::Options o;
    o.bindIps = "127.0.0.1";
    o.port = 0;
    transport::TransportLayer tl(o, &member);
    ASSERT_TRUE(tl.listen().isOK());
    tl.start();

    RemoteClient client("127.0.0.1:" + std::to_string(tl.port()), 2000);
    BSONObjBuilder ping;
    ping.append("ping", 1);
    const BSONObj cmd = ping.obj();
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(client.runCommand("admin", cmd).isOK());
        // Longer than libmongoc's shortest heartbeatFrequencyMS (500 ms): a client using it
        // would rescan (send another hello) before the next command.
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
    }
    EXPECT_EQ(member.commands(), 3);
    auto hellos = member.hellos();
    ASSERT_EQ(hellos.size(), 1u) << "one connection for the three commands";
    EXPECT_EQ(hellos.begin()->second, 1) << "the connection's handshake only: no rescan";
    EXPECT_TRUE(tl.shutdown());
}

}  // namespace
}  // namespace repl
}  // namespace mongo
