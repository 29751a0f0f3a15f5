#pragma once
// Structured logging in mongod's format: one JSON object per line,
//   {"t":{"$date":...},"s":"I","c":"NETWORK","id":22943,"ctx":"listener","msg":"...","attr":{...}}
// The last lines are kept in memory for the getLog command ("global", "startupWarnings").
// Thread safe.
#include <string>
#include <string_view>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::logv2 {

enum class Severity { Fatal, Error, Warning, Info, Debug1, Debug2 };
enum class Component { Default, Control, Network, Command, Query, Storage, Write, Index, Replication, Dedup, Election, Access, Transaction };

// Sends output to a file (appending) instead of stdout. Returns false if it cannot be opened.
bool setLogFile(const std::string& path);
// Debug levels above this are dropped (0: none).
void setVerbosity(int level);
int verbosity();
// Name of the calling thread in the "ctx" field ("conn12", "initandlisten", ...).
void setThreadName(std::string name);
const std::string& threadName();

void log(Severity s, Component c, int id, std::string_view msg, const BSONObj& attr = BSONObj());
// A warning that is also listed by getLog: "startupWarnings".
void startupWarning(int id, std::string_view msg, const BSONObj& attr = BSONObj());

// Recent log lines (oldest first), as JSON strings.
std::vector<std::string> recentLines();
std::vector<std::string> startupWarningLines();
long long totalLinesWritten();

// attrs("port", 27017, "host", h): builds the "attr" object from name/value pairs.
inline void appendAttrs(BSONObjBuilder&) {}
template <typename V, typename... Rest>
void appendAttrs(BSONObjBuilder& b, std::string_view name, const V& v, const Rest&... rest) {
    b.append(name, v);
    appendAttrs(b, rest...);
}
template <typename... Args>
BSONObj attrs(const Args&... args) {
    BSONObjBuilder b;
    appendAttrs(b, args...);
    return b.obj();
}

}  // namespace mongo::logv2

#define LOGV2(ID, COMPONENT, MSG, ...) \
    ::mongo::logv2::log(::mongo::logv2::Severity::Info, ::mongo::logv2::Component::COMPONENT, ID, MSG, ##__VA_ARGS__)
#define LOGV2_WARNING(ID, COMPONENT, MSG, ...) \
    ::mongo::logv2::log(::mongo::logv2::Severity::Warning, ::mongo::logv2::Component::COMPONENT, ID, MSG, ##__VA_ARGS__)
#define LOGV2_ERROR(ID, COMPONENT, MSG, ...) \
    ::mongo::logv2::log(::mongo::logv2::Severity::Error, ::mongo::logv2::Component::COMPONENT, ID, MSG, ##__VA_ARGS__)
#define LOGV2_DEBUG(ID, LEVEL, COMPONENT, MSG, ...)                                                          \
    do {                                                                                                     \
        if (::mongo::logv2::verbosity() >= (LEVEL))                                                          \
            ::mongo::logv2::log(static_cast<::mongo::logv2::Severity>(3 + (LEVEL)),                          \
                                ::mongo::logv2::Component::COMPONENT, ID, MSG, ##__VA_ARGS__);               \
    } while (0)
