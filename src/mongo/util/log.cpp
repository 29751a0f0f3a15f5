#include "mongo/util/log.h"

#include <atomic>
#include <cstdio>
#include <ctime>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <sys/time.h>

namespace mongo::logv2 {
namespace {
std::mutex gMutex;
FILE* gOut = stdout;
std::deque<std::string> gRecent;          // guarded by gMutex
std::vector<std::string> gStartupWarnings;  // guarded by gMutex
std::atomic<long long> gTotal{0};
std::atomic<int> gVerbosity{0};
constexpr size_t kRecentMax = 1024;
thread_local std::string tThreadName = "main";

const char* severityCode(Severity s) {
    switch (s) {
        case Severity::Fatal: return "F";
        case Severity::Error: return "E";
        case Severity::Warning: return "W";
        case Severity::Info: return "I";
        case Severity::Debug1: return "D1";
        case Severity::Debug2: return "D2";
    }
    return "I";
}

const char* componentName(Component c) {
    switch (c) {
        case Component::Default: return "-";
        case Component::Control: return "CONTROL";
        case Component::Network: return "NETWORK";
        case Component::Command: return "COMMAND";
        case Component::Query: return "QUERY";
        case Component::Storage: return "STORAGE";
        case Component::Write: return "WRITE";
        case Component::Index: return "INDEX";
        case Component::Replication: return "REPL";
        case Component::Dedup: return "DEDUP";
        case Component::Election: return "ELECTION";
        case Component::Access: return "ACCESS";
        case Component::Transaction: return "TXN";
    }
    return "-";
}

std::string isoNow() {
    struct timeval tv;
    gettimeofday(&tv, nullptr);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char buf[64];
    size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, sizeof buf - n, ".%03d+00:00", static_cast<int>(tv.tv_usec / 1000));
    return buf;
}

std::string jsonEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char b[8];
                    snprintf(b, sizeof b, "\\u%04x", c);
                    out += b;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out;
}

std::string compactJson(const BSONObj& o) {
    // libbson prints {"a" : 1}; mongod prints {"a":1}. Remove the spaces outside strings.
    std::string j = o.jsonString(), out;
    out.reserve(j.size());
    bool inStr = false;
    for (size_t i = 0; i < j.size(); i++) {
        char c = j[i];
        if (inStr) {
            out += c;
            if (c == '\\' && i + 1 < j.size()) out += j[++i];
            else if (c == '"') inStr = false;
        } else if (c == '"') {
            inStr = true;
            out += c;
        } else if (c != ' ') {
            out += c;
        }
    }
    return out;
}

void emit(Severity s, Component c, int id, std::string_view msg, const BSONObj& attr, bool startup) {
    std::string line = "{\"t\":{\"$date\":\"" + isoNow() + "\"},\"s\":\"" + severityCode(s) + "\",\"c\":\"" +
                       componentName(c) + "\",\"id\":" + std::to_string(id) + ",\"ctx\":\"" +
                       jsonEscape(tThreadName) + "\",\"msg\":\"" + jsonEscape(msg) + "\"";
    if (!attr.isEmpty()) line += ",\"attr\":" + compactJson(attr);
    line += "}";
    std::lock_guard<std::mutex> lk(gMutex);
    fputs(line.c_str(), gOut);
    fputc('\n', gOut);
    fflush(gOut);
    gRecent.push_back(line);
    if (gRecent.size() > kRecentMax) gRecent.pop_front();
    if (startup) gStartupWarnings.push_back(line);
    gTotal++;
}
}  // namespace

bool setLogFile(const std::string& path) {
    FILE* f = fopen(path.c_str(), "a");
    if (!f) return false;
    std::lock_guard<std::mutex> lk(gMutex);
    if (gOut != stdout) fclose(gOut);
    gOut = f;
    return true;
}

void setVerbosity(int level) { gVerbosity = level; }
int verbosity() { return gVerbosity; }
void setThreadName(std::string name) {
    // The OS name too (15 bytes at most), as mongod names its threads: top -H, perf and gdb
    // then tell the connection threads from the fetcher, the applier and the links.
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
    tThreadName = std::move(name);
}
const std::string& threadName() { return tThreadName; }

void log(Severity s, Component c, int id, std::string_view msg, const BSONObj& attr) {
    emit(s, c, id, msg, attr, false);
}

void startupWarning(int id, std::string_view msg, const BSONObj& attr) {
    emit(Severity::Warning, Component::Control, id, msg, attr, true);
}

std::vector<std::string> recentLines() {
    std::lock_guard<std::mutex> lk(gMutex);
    return {gRecent.begin(), gRecent.end()};
}

std::vector<std::string> startupWarningLines() {
    std::lock_guard<std::mutex> lk(gMutex);
    return gStartupWarnings;
}

long long totalLinesWritten() { return gTotal; }

}  // namespace mongo::logv2
