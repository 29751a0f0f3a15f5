#include "mongo/db/repl/is_self.h"

#include <cctype>
#include <mutex>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/db/repl/repl_config.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {

namespace {
std::mutex gMutex;
std::set<std::string>& knownSelf() {
    static std::set<std::string> s;  // guarded by gMutex
    return s;
}

std::string lower(const std::string& s) {
    std::string out = s;
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

const OID& processInstanceId() {
    static const OID id = OID::gen();
    return id;
}

bool isSelfByNetwork(const std::string& host, int timeoutMillis) {
    const std::string key = lower(host);
    {
        std::lock_guard<std::mutex> lk(gMutex);
        if (knownSelf().count(key)) return true;
    }
    RemoteClient client(host, timeoutMillis);
    BSONObjBuilder cmd;
    cmd.append("_isSelf", 1);
    auto reply = client.runCommand("admin", cmd.obj());
    if (!reply.isOK()) return false;
    BSONElement id = reply.getValue()["id"];
    if (id.type() != jstOID || !(id.oid() == processInstanceId())) return false;
    {
        std::lock_guard<std::mutex> lk(gMutex);
        knownSelf().insert(key);
    }
    LOGV2(4781200, Replication, "A configured host reaches this node", logv2::attrs("host", host));
    return true;
}

int findSelfInConfig(const ReplSetConfig& config, const std::vector<std::string>& selfHosts, bool allowNetwork) {
    const int local = config.findSelf(selfHosts);
    if (local >= 0 || !allowNetwork) return local;
    for (size_t i = 0; i < config.members.size(); ++i)
        if (isSelfByNetwork(config.members[i].host)) return int(i);
    return -1;
}

}  // namespace repl
}  // namespace mongo
