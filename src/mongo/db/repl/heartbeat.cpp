#include "mongo/db/repl/heartbeat.h"

#include <chrono>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

Status missing(const char* f) { return Status(ErrorCodes::NoSuchKey, std::string("Missing expected field \"") + f + "\""); }

StatusWith<OpTime> opTimeField(const BSONObj& o, const char* f) {
    BSONElement e = o[f];
    if (e.eoo()) return OpTime();
    if (e.type() != Object) return Status(ErrorCodes::TypeMismatch, std::string("\"") + f + "\" had the wrong type");
    return OpTime::parse(e.embeddedObject());
}

}  // namespace

BSONObj HeartbeatRequest::toBSON() const {
    BSONObjBuilder b;
    b.append("replSetHeartbeat", setName);
    b.append("configVersion", configVersion);
    b.append("configTerm", configTerm);
    b.append("hbv", 1);
    b.append("from", from);
    b.append("fromId", fromId);
    b.append("term", term);
    return b.obj();
}

StatusWith<HeartbeatRequest> HeartbeatRequest::parse(const BSONObj& cmd) {
    HeartbeatRequest r;
    BSONElement set = cmd.firstElement();
    if (set.type() != String) return Status(ErrorCodes::TypeMismatch, "replSetHeartbeat's value must be the set name");
    r.setName = set.str();
    BSONElement v = cmd["configVersion"];
    if (v.eoo()) return missing("configVersion");
    if (!v.isNumber()) return Status(ErrorCodes::TypeMismatch, "\"configVersion\" had the wrong type");
    r.configVersion = v.numberLong();
    if (BSONElement t = cmd["configTerm"]; t.isNumber()) r.configTerm = t.numberLong();
    if (BSONElement f = cmd["from"]; f.type() == String) r.from = f.str();
    if (BSONElement f = cmd["fromId"]; f.isNumber()) r.fromId = f.numberInt();
    if (BSONElement t = cmd["term"]; t.isNumber()) r.term = t.numberLong();
    return r;
}

BSONObj HeartbeatReply::toBSON() const {
    BSONObjBuilder b;
    b.append("ok", 1.0);
    b.append("set", setName);
    if (state == MemberState::kPrimary) b.append("electionTime", electionTime);
    b.append("syncingTo", syncingTo);
    b.append("term", term);
    b.append("primaryId", primaryId);
    b.append("durableOpTime", durable.toBSON());
    b.append("durableWallTime", durableWall);
    b.append("opTime", applied.toBSON());
    b.append("wallTime", appliedWall);
    b.append("state", static_cast<int>(state));
    b.append("configVersion", configVersion);
    b.append("configTerm", configTerm);
    if (!config.isEmpty()) b.append("config", config);
    BSONObjBuilder rd;
    rd.append("term", term);
    rd.append("lastOpCommitted", lastCommitted.toBSON());
    rd.append("lastCommittedWall", lastCommittedWall);
    rd.append("configVersion", configVersion);
    rd.append("configTerm", configTerm);
    rd.append("primaryIndex", primaryId);
    rd.append("isPrimary", state == MemberState::kPrimary);
    b.append("$replData", rd.obj());
    return b.obj();
}

StatusWith<HeartbeatReply> HeartbeatReply::parse(const BSONObj& o) {
    HeartbeatReply r;
    if (BSONElement s = o["set"]; s.type() == String) r.setName = s.str();
    BSONElement st = o["state"];
    if (!st.isNumber()) return missing("state");
    r.state = MemberState(st.numberInt());
    if (BSONElement t = o["term"]; t.isNumber()) r.term = t.numberLong();
    if (BSONElement p = o["primaryId"]; p.isNumber()) r.primaryId = p.numberInt();
    auto applied = opTimeField(o, "opTime");
    if (!applied.isOK()) return applied.getStatus();
    r.applied = applied.getValue();
    auto durable = opTimeField(o, "durableOpTime");
    if (!durable.isOK()) return durable.getStatus();
    r.durable = durable.getValue();
    if (BSONElement w = o["wallTime"]; w.type() == Date) r.appliedWall = w.date();
    if (BSONElement w = o["durableWallTime"]; w.type() == Date) r.durableWall = w.date();
    if (BSONElement v = o["configVersion"]; v.isNumber()) r.configVersion = v.numberLong();
    if (BSONElement v = o["configTerm"]; v.isNumber()) r.configTerm = v.numberLong();
    if (BSONElement e = o["electionTime"]; e.type() == bsonTimestamp) r.electionTime = e.timestamp();
    if (BSONElement s = o["syncingTo"]; s.type() == String) r.syncingTo = s.str();
    if (BSONElement c = o["config"]; c.type() == Object) r.config = c.embeddedObject().getOwned();
    if (BSONElement rd = o["$replData"]; rd.type() == Object) {
        auto lc = opTimeField(rd.embeddedObject(), "lastOpCommitted");
        if (!lc.isOK()) return lc.getStatus();
        r.lastCommitted = lc.getValue();
        if (BSONElement w = rd.embeddedObject()["lastCommittedWall"]; w.type() == Date) r.lastCommittedWall = w.date();
    }
    return r;
}

void MemberLinks::start(std::vector<Target> targets, long long intervalMillis, int timeoutMillis, RequestBuilder build,
                        ReplyHandler handle) {
    stop();
    std::lock_guard<std::mutex> lk(_mutex);
    _stopping = false;
    _intervalMillis = intervalMillis;
    _timeoutMillis = timeoutMillis;
    _build = std::move(build);
    _handle = std::move(handle);
    for (auto& t : targets) {
        _links.push_back(std::make_unique<Link>());
        Link* l = _links.back().get();
        l->target = t;
        l->thread = std::thread([this, l] { run(l); });
    }
}

void MemberLinks::stop() {
    std::vector<std::unique_ptr<Link>> links;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _stopping = true;
        links.swap(_links);
    }
    _cv.notify_all();
    for (auto& l : links)
        if (l->thread.joinable()) l->thread.join();
}

void MemberLinks::send(int member, BSONObj cmd, std::function<void(const Reply&)> done) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        for (auto& l : _links)
            if (l->target.member == member) l->queue.emplace_back(cmd.getOwned(), std::move(done));
    }
    _cv.notify_all();
}

void MemberLinks::heartbeatNow(int member) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        for (auto& l : _links)
            if (l->target.member == member) l->beatNow = true;
    }
    _cv.notify_all();
}

void MemberLinks::run(Link* link) {
    logv2::setThreadName("ReplCoord-" + link->target.host);
    std::unique_lock<std::mutex> lk(_mutex);
    RemoteClient client(link->target.host, _timeoutMillis);
    auto next = std::chrono::steady_clock::now();
    while (!_stopping) {
        if (!link->queue.empty()) {
            auto [cmd, done] = std::move(link->queue.front());
            link->queue.pop_front();
            lk.unlock();
            Reply r = client.runCommand("admin", cmd);
            if (done) done(r);
            lk.lock();
            continue;
        }
        auto now = std::chrono::steady_clock::now();
        if (now >= next || link->beatNow) {
            link->beatNow = false;
            next = now + std::chrono::milliseconds(_intervalMillis);
            RequestBuilder build = _build;
            ReplyHandler handle = _handle;
            lk.unlock();
            BSONObj req = build(link->target.member);
            auto start = std::chrono::steady_clock::now();
            Reply r = client.runCommand("admin", req);
            long long elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            handle(link->target.member, r, elapsed);
            lk.lock();
            continue;
        }
        _cv.wait_until(lk, next);
    }
}

}  // namespace repl
}  // namespace mongo
