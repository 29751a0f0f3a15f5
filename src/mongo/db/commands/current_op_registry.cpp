#include "mongo/db/commands/current_op_registry.h"

#include <chrono>
#include <ctime>
#include <map>
#include <mutex>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/session/logical_session_id.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

namespace {

// A connection as currentOp describes it. Copied from the Client on the connection's own
// thread: the Client's fields are not safe to read from other threads.
struct ClientInfo {
    std::string desc, remote;
    int64_t connectionId = 0;
    BSONObj clientMetadata;
};

struct Entry {
    OperationContext* opCtx;
    BSONObj command;
    std::string ns, opType;
    ClientInfo client;
    std::chrono::steady_clock::time_point start;
};

struct State {
    mutable std::mutex mutex;
    std::map<int64_t, Entry> ops;               // by opId
    std::map<int64_t, ClientInfo> clients;      // by connection id
};
State& state() {
    static State* s = new State();  // never destroyed: operations may end during exit
    return *s;
}

ClientInfo infoOf(const Client* c) {
    ClientInfo i;
    if (!c) return i;
    i.desc = c->desc();
    i.remote = c->remote();
    i.connectionId = c->id();
    i.clientMetadata = c->metadata;
    return i;
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

// The fields every document of one connection starts with.
void appendClientFields(BSONObjBuilder& b, const std::string& host, const ClientInfo& c) {
    b.append("type", "op");
    b.append("host", host);
    b.append("desc", c.desc);
    b.appendLong("connectionId", c.connectionId);
    b.append("client", c.remote);
    BSONElement app = c.clientMetadata["application"];
    if (app.type() == Object && app.Obj()["name"].type() == String) b.append("appName", app.Obj()["name"].str());
    if (!c.clientMetadata.isEmpty()) b.append("clientMetadata", c.clientMetadata);
}

// MongoDB's truncation of a large command in currentOp: its first 1000 characters as text.
constexpr int kMaxCommandBytes = 1000;
void appendCommand(BSONObjBuilder& b, const BSONObj& command, bool truncate) {
    if (!truncate || command.objsize() <= kMaxCommandBytes) {
        b.append("command", command);
        return;
    }
    BSONObjBuilder t;
    std::string text = command.toString();
    t.append("$truncated", text.substr(0, kMaxCommandBytes));
    if (BSONElement c = command["comment"]; !c.eoo()) t.append(c);
    b.append("command", t.obj());
}

}  // namespace

CurrentOpRegistry& CurrentOpRegistry::get() {
    static CurrentOpRegistry r;
    return r;
}

std::pair<std::string, std::string> CurrentOpRegistry::describeCommand(const std::string& cmdName,
                                                                       const OpMsgRequest& req) {
    static const std::map<std::string, std::string> kOpTypes = {
        {"find", "query"}, {"getMore", "getmore"}, {"insert", "insert"}, {"update", "update"}, {"delete", "remove"}};
    auto it = kOpTypes.find(cmdName);
    std::string op = it == kOpTypes.end() ? "command" : it->second;
    const std::string db = req.db();
    BSONElement first = req.body.firstElement();
    std::string ns = db + ".$cmd";
    if (cmdName == "getMore") {
        if (BSONElement c = req.body["collection"]; c.type() == String) ns = db + "." + c.str();
    } else if (first.type() == String && !first.valueStringData().empty()) {
        ns = db + "." + first.str();
    } else if (cmdName == "aggregate") {
        ns = db + ".$cmd.aggregate";
    }
    return {op, ns};
}

void CurrentOpRegistry::add(OperationContext* opCtx, const BSONObj& command, const std::string& ns,
                            const std::string& opType) {
    Entry e;
    e.opCtx = opCtx;
    e.command = command.getOwned();
    e.ns = ns;
    e.opType = opType;
    e.client = infoOf(opCtx->getClient());
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

void CurrentOpRegistry::noteClient(const Client* client) {
    if (!client || client->id() <= 0) return;  // internal work is not a connection
    auto& s = state();
    {
        std::lock_guard<std::mutex> lk(s.mutex);
        auto it = s.clients.find(client->id());
        // The metadata comes with the connection's first hello and never changes after it.
        if (it != s.clients.end() && (it->second.clientMetadata.objdata() == client->metadata.objdata() ||
                                      it->second.clientMetadata.binaryEqual(client->metadata)))
            return;
    }
    ClientInfo info = infoOf(client);
    std::lock_guard<std::mutex> lk(s.mutex);
    s.clients[client->id()] = std::move(info);
}

void CurrentOpRegistry::forgetClient(int64_t connectionId) {
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    s.clients.erase(connectionId);
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

std::vector<BSONObj> CurrentOpRegistry::report(const CurrentOpReportOptions& options) const {
    const std::string host = hostAndPort();
    const std::string now = isoLocalNow();
    auto& s = state();
    std::lock_guard<std::mutex> lk(s.mutex);
    std::vector<BSONObj> out;
    std::set<int64_t> busy;
    for (auto& [id, e] : s.ops) {
        busy.insert(e.client.connectionId);
        long long micros =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - e.start).count();
        BSONObjBuilder b;
        appendClientFields(b, host, e.client);
        // The lsid is set before the operation is registered and never changes: safe to read.
        if (lsidIdHex(e.opCtx->lsid)) b.append("lsid", sessionIdWithUid(e.opCtx->lsid));
        b.append("active", true);
        b.append("currentOpTime", now);
        b.append("threaded", true);
        b.appendLong("opid", id);
        b.appendLong("secs_running", micros / 1000000);
        b.appendLong("microsecs_running", micros);
        b.append("op", e.opType);
        b.append("ns", e.ns);
        b.append("redacted", false);
        appendCommand(b, e.command, options.truncateOps);
        std::string plan = e.opCtx->planSummary();
        if (!plan.empty()) b.append("planSummary", plan);
        // Reads never yield (they hold no lock writers wait for); long writes let go of the
        // write lock between units of work when background writes wait.
        b.appendInt("numYields", static_cast<int>(e.opCtx->numYields()));
        b.append("locks", BSONObj());
        b.append("waitingForLock", e.opCtx->waitingForLock());
        b.append("lockStats", BSONObj());
        b.append("waitingForFlowControl", false);
        b.append("flowControlStats", BSONObj());
        out.push_back(b.obj());
    }
    if (options.idleConnections) {
        for (auto& [id, c] : s.clients) {
            if (busy.count(id)) continue;
            BSONObjBuilder b;
            appendClientFields(b, host, c);
            b.append("active", false);
            b.append("currentOpTime", now);
            out.push_back(b.obj());
        }
    }
    return out;
}

}  // namespace mongo
