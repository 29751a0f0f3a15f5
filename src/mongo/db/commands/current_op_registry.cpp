#include "mongo/db/commands/current_op_registry.h"

#include "mongo/db/commands/command_helpers.h"

#include <chrono>
#include <ctime>
#include <map>
#include <mutex>
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/server_options.h"

namespace mongo {

namespace {

struct Entry {
    OperationContext* opCtx;
    BSONObj command;
    std::string ns, opType;
    // Copied from the Client at registration, on the operation's own thread: the Client's
    // fields are not safe to read from other threads.
    std::string desc, remote;
    int64_t connectionId = 0;
    BSONObj clientMetadata, lsid;
    std::chrono::steady_clock::time_point start;
};

struct State {
    mutable std::mutex mutex;
    std::map<int64_t, Entry> ops;  // by opId
};
State& state() {
    static State* s = new State();  // never destroyed: operations may end during exit
    return *s;
}

std::string isoLocalNow() {
    auto now = std::chrono::system_clock::now();
    std::time_t t = std::chrono::system_clock::to_time_t(now);
    long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    struct tm tm;
    localtime_r(&t, &tm);
    char buf[64], tz[8];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    strftime(tz, sizeof tz, "%z", &tm);  // +0100 -> +01:00
    std::string z(tz);
    if (z.size() == 5) z = z.substr(0, 3) + ":" + z.substr(3);
    char out[96];
    snprintf(out, sizeof out, "%s.%03ld%s", buf, ms, z.c_str());
    return out;
}

}  // namespace

CurrentOpRegistry& CurrentOpRegistry::get() {
    static CurrentOpRegistry r;
    return r;
}

void CurrentOpRegistry::add(OperationContext* opCtx, const BSONObj& command, const std::string& ns,
                            const std::string& opType) {
    Entry e;
    e.opCtx = opCtx;
    e.command = command.getOwned();
    e.ns = ns;
    e.opType = opType;
    if (Client* c = opCtx->getClient()) {
        e.desc = c->desc();
        e.remote = c->remote();
        e.connectionId = c->id();
        e.clientMetadata = c->metadata;
    }
    e.lsid = opCtx->lsid.getOwned();
    e.start = std::chrono::steady_clock::now();
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    s.ops[opCtx->opId()] = std::move(e);
}

void CurrentOpRegistry::remove(OperationContext* opCtx) {
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    auto it = s.ops.find(opCtx->opId());
    if (it != s.ops.end() && it->second.opCtx == opCtx) s.ops.erase(it);
}

bool CurrentOpRegistry::contains(int64_t opId) const {
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    return s.ops.count(opId) > 0;
}

bool CurrentOpRegistry::kill(int64_t opId) {
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    auto it = s.ops.find(opId);
    if (it == s.ops.end()) return false;
    it->second.opCtx->markKilled();
    return true;
}

size_t CurrentOpRegistry::killIf(const std::function<bool(const OperationContext*)>& pred) {
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    size_t n = 0;
    for (auto& [id, e] : s.ops) {
        if (pred(e.opCtx)) {
            e.opCtx->markKilled();
            n++;
        }
    }
    return n;
}

std::vector<BSONObj> CurrentOpRegistry::report() const {
    const std::string host = hostAndPort();
    const std::string now = isoLocalNow();
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    std::vector<BSONObj> out;
    for (auto& [id, e] : s.ops) {
        long long micros =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - e.start).count();
        BSONObjBuilder b;
        b.append("type", "op");
        b.append("host", host);
        b.append("desc", e.desc);
        b.appendLong("connectionId", e.connectionId);
        b.append("client", e.remote);
        BSONElement app = e.clientMetadata["application"];
        if (app.type() == Object && app.Obj()["name"].type() == String) b.append("appName", app.Obj()["name"].str());
        if (!e.clientMetadata.isEmpty()) b.append("clientMetadata", e.clientMetadata);
        b.append("active", true);
        b.append("currentOpTime", now);
        b.append("effectiveUsers", BSONArray());
        b.append("threaded", true);
        b.appendLong("opid", id);
        if (!e.lsid.isEmpty()) b.append("lsid", e.lsid);
        b.appendLong("secs_running", micros / 1000000);
        b.appendLong("microsecs_running", micros);
        b.append("op", e.opType);
        b.append("ns", e.ns);
        b.append("redacted", false);
        b.append("command", e.command);
        b.appendInt("numYields", 0);
        b.append("locks", BSONObj());
        b.append("waitingForLock", false);
        b.append("lockStats", BSONObj());
        b.append("waitingForFlowControl", false);
        b.append("flowControlStats", BSONObj());
        out.push_back(b.obj());
    }
    return out;
}

}  // namespace mongo
