#pragma once
// Heartbeats between members: the replSetHeartbeat request and reply documents (MongoDB
// 7.0's fields), and MemberLinks, the node's outgoing connections to the other members of
// its config: one thread per member that sends a heartbeat every heartbeatIntervalMillis and
// runs the other member-to-member commands queued for that member (vote requests, position
// updates), so a slow or dead member never delays the others.
//
// Request:  {replSetHeartbeat: <set>, configVersion, configTerm, hbv: 1, from: "<host>",
//            fromId, term}
// Reply:    {ok: 1, set, electionTime (primary only), syncingTo, term, primaryId,
//            durableOpTime, durableWallTime, opTime, wallTime, state, configVersion,
//            configTerm, config (only when the requester's config is older), $replData:
//            {term, lastOpCommitted, lastCommittedWall, configVersion, configTerm,
//            replicaSetId, primaryIndex, isPrimary}}
// Thread safety: MemberLinks is thread safe; its callbacks run on the member threads.
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/member_state.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

struct HeartbeatRequest {
    std::string setName;
    long long configVersion = -2;  // -2: the sender has no config (MongoDB's value)
    long long configTerm = OpTime::kUninitializedTerm;
    std::string from;
    int fromId = -1;
    long long term = OpTime::kUninitializedTerm;

    BSONObj toBSON() const;
    // TypeMismatch / NoSuchKey for malformed requests.
    static StatusWith<HeartbeatRequest> parse(const BSONObj& cmd);
};

struct HeartbeatReply {
    std::string setName;
    MemberState state = MemberState::kUnknown;
    long long term = OpTime::kUninitializedTerm;
    int primaryId = -1;
    OpTime applied, durable;
    Date_t appliedWall, durableWall;
    long long configVersion = -2, configTerm = OpTime::kUninitializedTerm;
    Timestamp electionTime;  // primary only
    std::string syncingTo;
    BSONObj config;          // the sender's config when ours is older, else empty
    OpTime lastCommitted;    // $replData.lastOpCommitted
    Date_t lastCommittedWall;

    BSONObj toBSON() const;
    static StatusWith<HeartbeatReply> parse(const BSONObj& reply);
};

class MemberLinks {
public:
    using Reply = StatusWith<BSONObj>;
    // Builds the heartbeat to send to member index i (called on i's thread, each interval).
    using RequestBuilder = std::function<BSONObj(int member)>;
    // A heartbeat's outcome; elapsedMillis: its round trip.
    using ReplyHandler = std::function<void(int member, const Reply& reply, long long elapsedMillis)>;

    struct Target {
        int member;        // index in the config
        std::string host;  // "host:port"
    };

    MemberLinks() = default;
    ~MemberLinks() { stop(); }

    // Starts one thread per target (stopping the previous ones first).
    void start(std::vector<Target> targets, long long intervalMillis, int timeoutMillis, RequestBuilder build,
               ReplyHandler handle);
    // Stops every thread: waits for the commands they are running (bounded by the timeout).
    void stop();
    // Runs cmd on member's thread soon (admin db); done gets the outcome on that thread.
    // Ignored when member has no thread.
    void send(int member, BSONObj cmd, std::function<void(const Reply&)> done);
    // Sends member's heartbeat now rather than at the next interval.
    void heartbeatNow(int member);

private:
    struct Link {
        Target target;
        std::thread thread;
        std::deque<std::pair<BSONObj, std::function<void(const Reply&)>>> queue;
        bool beatNow = false;
    };
    void run(Link* link);

    std::mutex _mutex;
    std::condition_variable _cv;
    bool _stopping = false;
    long long _intervalMillis = 2000;
    int _timeoutMillis = 10000;
    RequestBuilder _build;
    ReplyHandler _handle;
    std::vector<std::unique_ptr<Link>> _links;
};

}  // namespace repl
}  // namespace mongo
