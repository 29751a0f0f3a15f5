// serverStatus: process facts plus every registered section, and the section registry.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <unistd.h>

#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/db/server_options.h"

namespace mongo {

namespace {

struct Registry {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<ServerStatusSection>> sections;
    std::map<std::string, std::function<BSONObj(OperationContext*)>> metrics;
};
Registry& registry() {
    static Registry* r = new Registry();  // never destroyed: sections may be read at exit
    return *r;
}

class FunctionSection : public ServerStatusSection {
public:
    FunctionSection(std::string name, std::function<BSONObj(OperationContext*)> fn, bool byDefault)
        : ServerStatusSection(std::move(name)), _fn(std::move(fn)), _byDefault(byDefault) {}
    bool includeByDefault() const override { return _byDefault; }
    BSONObj generate(OperationContext* opCtx) override { return _fn(opCtx); }

private:
    std::function<BSONObj(OperationContext*)> _fn;
    bool _byDefault;
};

const auto kProcessStartSteady = std::chrono::steady_clock::now();

std::string hostName() {
    char buf[256];
    if (gethostname(buf, sizeof buf) != 0) return "localhost";
    buf[sizeof buf - 1] = 0;
    return buf;
}

// MongoDB's prettyHostName: the port is shown unless it is the default.
std::string prettyHostName() {
    int port = serverGlobalParams().port;
    return port == 27017 ? hostName() : hostName() + ":" + std::to_string(port);
}

// VmRSS / VmSize from /proc/self/status, in MB.
void readProcMemory(long long* residentMB, long long* virtualMB) {
    *residentMB = *virtualMB = 0;
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        auto kb = [&](const char* key) -> long long {
            return line.rfind(key, 0) == 0 ? std::atoll(line.c_str() + std::strlen(key)) : -1;
        };
        long long v;
        if ((v = kb("VmRSS:")) >= 0) *residentMB = v / 1024;
        if ((v = kb("VmSize:")) >= 0) *virtualMB = v / 1024;
    }
}

// Sections built in here; a registered section of the same name takes precedence.
std::map<std::string, std::shared_ptr<ServerStatusSection>> defaultSections() {
    std::map<std::string, std::shared_ptr<ServerStatusSection>> m;
    auto add = [&](const char* name, std::function<BSONObj(OperationContext*)> fn) {
        m[name] = std::make_shared<FunctionSection>(name, std::move(fn), true);
    };
    add("asserts", [](OperationContext*) { return globalAssertionCounters().toBSON(); });
    add("opcounters", [](OperationContext*) { return globalOpCounters().toBSON(); });
    add("mem", [](OperationContext*) {
        long long res, virt;
        readProcMemory(&res, &virt);
        BSONObjBuilder b;
        b.appendInt("bits", static_cast<int>(sizeof(void*) * 8));
        b.appendNumber("resident", res);
        b.appendNumber("virtual", virt);
        b.append("supported", true);
        return b.obj();
    });
    add("storageEngine", [](OperationContext*) {
        BSONObjBuilder b;
        b.append("name", "wiredTiger");
        b.append("supportsCommittedReads", true);
        b.append("supportsSnapshotReadConcern", true);
        b.append("readOnly", false);
        b.append("persistent", true);
        return b.obj();
    });
    add("metrics", [](OperationContext* opCtx) {
        BSONObjBuilder b;
        {
            // One entry per command (aliases share their command's counters), by name.
            std::map<std::string, Command*> byName;
            for (auto& [name, cmd] : allCommands()) byName[cmd->name()] = cmd;
            BSONObjBuilder& cmds = b.subobjStart("commands");
            for (auto& [name, cmd] : byName) {
                BSONObjBuilder& c = cmds.subobjStart(name);
                c.appendLong("failed", cmd->failed.load());
                c.appendLong("total", cmd->calls.load());
                c.doneFast();
            }
            cmds.doneFast();
        }
        for (auto& [name, fn] : serverStatusMetrics()) {
            if (name == "commands") continue;
            BSONObj sub = fn(opCtx);
            if (!sub.isEmpty()) b.append(name, sub);
        }
        return b.obj();
    });
    return m;
}

class ServerStatusCmd : public Command {
public:
    ServerStatusCmd() : Command("serverStatus") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::serverStatus}); }
    std::string help() const override {
        return "returns lots of administrative server statistics";
    }

    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        const BSONObj& cmd = request.body;
        auto now = std::chrono::steady_clock::now();
        long long uptimeMillis =
            std::chrono::duration_cast<std::chrono::milliseconds>(now - kProcessStartSteady).count();

        result.append("host", prettyHostName());
        result.append("version", kServerVersion);
        result.append("process", "mongod");
        result.appendLong("pid", static_cast<long long>(getpid()));
        result.append("uptime", static_cast<double>(uptimeMillis / 1000));
        result.appendLong("uptimeMillis", uptimeMillis);
        result.appendLong("uptimeEstimate", uptimeMillis / 1000);
        result.append("localTime", Date_t::now());

        auto sections = defaultSections();
        for (auto& s : serverStatusSections()) sections[s->name()] = s;
        for (auto& [name, section] : sections) {
            BSONElement want = cmd[name];
            bool include = want.eoo() ? section->includeByDefault() : want.trueValue();
            if (!include) continue;
            BSONObj doc = section->generate(opCtx);
            if (!doc.isEmpty()) result.append(name, doc);
        }
    }
} serverStatusCmd;

}  // namespace

void registerServerStatusSection(std::unique_ptr<ServerStatusSection> section) {
    auto& r = registry();
    std::shared_ptr<ServerStatusSection> s(std::move(section));
    std::lock_guard<std::mutex> lk(r.mutex);
    r.sections[s->name()] = std::move(s);
}

void registerServerStatusSection(std::string name, std::function<BSONObj(OperationContext*)> generate,
                                 bool includeByDefault) {
    registerServerStatusSection(
        std::make_unique<FunctionSection>(std::move(name), std::move(generate), includeByDefault));
}

void registerServerStatusMetric(std::string name, std::function<BSONObj(OperationContext*)> generate) {
    auto& r = registry();
    std::lock_guard<std::mutex> lk(r.mutex);
    r.metrics[std::move(name)] = std::move(generate);
}

std::vector<std::shared_ptr<ServerStatusSection>> serverStatusSections() {
    auto& r = registry();
    std::lock_guard<std::mutex> lk(r.mutex);
    std::vector<std::shared_ptr<ServerStatusSection>> out;
    for (auto& [name, s] : r.sections) out.push_back(s);
    return out;
}

std::vector<std::pair<std::string, std::function<BSONObj(OperationContext*)>>> serverStatusMetrics() {
    auto& r = registry();
    std::lock_guard<std::mutex> lk(r.mutex);
    return {r.metrics.begin(), r.metrics.end()};
}

}  // namespace mongo
