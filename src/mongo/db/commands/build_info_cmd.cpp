// buildInfo (alias buildinfo): the server's version and how it was built.
#include <sys/utsname.h>

#include "mongo/db/commands/build_info.h"

#include "mongo/db/allocator/allocator.h"
#include "mongo/db/commands/command.h"

#ifndef MONGO_GIT_VERSION
#define MONGO_GIT_VERSION "unknown"
#endif

namespace mongo {

namespace {

std::string targetArch() {
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#else
    struct utsname u;
    return uname(&u) == 0 ? u.machine : "unknown";
#endif
}

std::string compilerDescription() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("gcc ") + __VERSION__;
#else
    return "unknown";
#endif
}

class BuildInfoCmd : public Command {
public:
    BuildInfoCmd() : Command("buildInfo", {"buildinfo"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override {
        return "get version #, etc.\n{ buildinfo:1 }";
    }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder& result) override { appendBuildInfo(result); }
} buildInfoCmd;

}  // namespace

void appendBuildInfo(BSONObjBuilder& result) {
    result.append("version", kServerVersion);
    result.append("gitVersion", MONGO_GIT_VERSION);
    result.append("modules", BSONArray());
    result.append("allocator", allocator::name());
    result.append("javascriptEngine", "none");
    result.append("sysInfo", "deprecated");
    {
        BSONArrayBuilder& va = result.subarrayStart("versionArray");
        for (int v : kServerVersionArray) va.append(v);
        va.doneFast();
    }
    {
        BSONObjBuilder& ssl = result.subobjStart("openssl");
        ssl.append("running", "disabled");
        ssl.append("compiled", "disabled");
        ssl.doneFast();
    }
    {
        BSONObjBuilder& env = result.subobjStart("buildEnvironment");
        env.append("distmod", "");
        env.append("distarch", targetArch());
        env.append("cc", compilerDescription());
        env.append("cxx", compilerDescription());
        env.append("target_arch", targetArch());
        env.append("target_os", "linux");
        env.doneFast();
    }
    result.appendInt("bits", static_cast<int>(sizeof(void*) * 8));
#ifdef NDEBUG
    result.append("debug", false);
#else
    result.append("debug", true);
#endif
    result.appendInt("maxBsonObjectSize", BSONObjMaxUserSize);
    {
        BSONArrayBuilder& se = result.subarrayStart("storageEngines");
        se.append("wiredTiger");
        se.doneFast();
    }
}

std::string versionBanner() {
    std::string s = std::string("db version v") + kServerVersion + "\n";
    s += "Build Info: {\n";
    s += std::string("    \"version\": \"") + kServerVersion + "\",\n";
    s += std::string("    \"gitVersion\": \"") + MONGO_GIT_VERSION + "\",\n";
    s += "    \"modules\": [],\n";
    s += std::string("    \"allocator\": \"") + allocator::name() + "\",\n";
    s += "    \"environment\": {\n";
    s += "        \"distarch\": \"" + targetArch() + "\",\n";
    s += "        \"target_arch\": \"" + targetArch() + "\"\n";
    s += "    }\n";
    s += "}\n";
    return s;
}

}  // namespace mongo
