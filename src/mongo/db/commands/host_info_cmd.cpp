// hostInfo: the machine the server runs on (system, os, extra), from uname, sysconf, /proc
// and /etc/os-release, in mongod's Linux shape.
#include <fstream>
#include <gnu/libc-version.h>
#include <set>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mongo/db/commands/command.h"

namespace mongo {
namespace {

std::string readFirstLine(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// PRETTY_NAME from /etc/os-release ("Debian GNU/Linux 12 (bookworm)").
std::string osName() {
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
        std::string v = line.substr(12);
        if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
        return v;
    }
    return "Linux";
}

struct CpuInfo {
    std::string modelName, mhz, flags;
    int physicalCores = 0, sockets = 0;
};

CpuInfo readCpuInfo() {
    CpuInfo info;
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    std::set<std::string> sockets;
    std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
    std::string physId;
    auto value = [](const std::string& l) {
        auto c = l.find(':');
        if (c == std::string::npos) return std::string();
        auto b = l.find_first_not_of(" \t", c + 1);
        return b == std::string::npos ? std::string() : l.substr(b);
    };
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 && info.modelName.empty()) info.modelName = value(line);
        else if (line.rfind("cpu MHz", 0) == 0 && info.mhz.empty()) info.mhz = value(line);
        else if (line.rfind("flags", 0) == 0 && info.flags.empty()) info.flags = value(line);
        else if (line.rfind("physical id", 0) == 0) sockets.insert(physId = value(line));
        else if (line.rfind("core id", 0) == 0) cores.insert({physId, value(line)});
    }
    info.sockets = static_cast<int>(sockets.size());
    info.physicalCores = static_cast<int>(cores.size());
    return info;
}

class HostInfoCmd : public Command {
public:
    HostInfoCmd() : Command("hostInfo") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::hostInfo}); }
    std::string help() const override { return "returns information about the daemon's host"; }

    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override {
        struct utsname u;
        uname(&u);
        const long long pageSize = sysconf(_SC_PAGESIZE);
        const long long numPages = sysconf(_SC_PHYS_PAGES);
        const long long memMB = pageSize * numPages / (1024 * 1024);
        long long limitMB = memMB;
        // A cgroup (v2) memory limit lower than the machine's memory is what the process gets.
        std::string cg = readFirstLine("/sys/fs/cgroup/memory.max");
        if (!cg.empty() && cg != "max") limitMB = std::min(limitMB, std::atoll(cg.c_str()) / (1024 * 1024));
        const int cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
        CpuInfo cpu = readCpuInfo();
        char host[256] = "localhost";
        gethostname(host, sizeof host - 1);

        BSONObjBuilder& sys = result.subobjStart("system");
        sys.append("currentTime", Date_t::now());
        sys.append("hostname", std::string(host));
        sys.appendInt("cpuAddrSize", static_cast<int>(sizeof(void*) * 8));
        sys.appendLong("memSizeMB", memMB);
        sys.appendLong("memLimitMB", limitMB);
        sys.appendInt("numCores", cores);
        sys.appendInt("numCoresAvailableToProcess", cores);
        sys.appendInt("numPhysicalCores", cpu.physicalCores > 0 ? cpu.physicalCores : cores);
        sys.appendInt("numCpuSockets", cpu.sockets > 0 ? cpu.sockets : 1);
        sys.append("cpuArch", std::string(u.machine));
        sys.append("numaEnabled", false);
        sys.appendInt("numNumaNodes", 1);
        sys.doneFast();

        BSONObjBuilder& os = result.subobjStart("os");
        os.append("type", "Linux");
        os.append("name", osName());
        os.append("version", std::string("Kernel ") + u.release);
        os.doneFast();

        struct rlimit rl {};
        getrlimit(RLIMIT_NOFILE, &rl);
        BSONObjBuilder& extra = result.subobjStart("extra");
        extra.append("versionString", readFirstLine("/proc/version"));
        extra.append("libcVersion", std::string(gnu_get_libc_version()));
        extra.append("kernelVersion", std::string(u.release));
        extra.append("cpuString", cpu.modelName);
        extra.append("cpuFrequencyMHz", cpu.mhz);
        extra.append("cpuFeatures", cpu.flags);
        extra.appendLong("pageSize", pageSize);
        extra.appendInt("numPages", static_cast<int>(numPages));
        extra.appendInt("maxOpenFiles", static_cast<int>(rl.rlim_cur == RLIM_INFINITY ? -1 : rl.rlim_cur));
        extra.appendInt("physicalCores", cpu.physicalCores > 0 ? cpu.physicalCores : cores);
        extra.doneFast();
    }
} hostInfoCmd;

}  // namespace
}  // namespace mongo
