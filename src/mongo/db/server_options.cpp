#include "mongo/db/server_options.h"

#include "mongo/db/dedup/chain_policy.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/test_commands.h"
#include "mongo/db/protection_options.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace po = boost::program_options;

namespace mongo {

ServerGlobalParams& serverGlobalParams() {
    static ServerGlobalParams* p = new ServerGlobalParams();  // never destroyed: read at exit
    return *p;
}

namespace {

constexpr int kBadOptionsExitCode = 2;  // mongod's ExitCode::badOptions

enum class OptType {
    kString,
    kInt,
    kLong,
    kDouble,
    kBool,     // config file only: true/false
    kSwitch,   // command line: present = true (no value)
    kOptBool,  // command line: --x, --x=false, --x false
};

// One option, named by its config-file path (which is also its place in getCmdLineOpts'
// "parsed") and, if it has one, its command-line name.
struct OptionSpec {
    const char* dotted;
    const char* cli;  // nullptr: config file only
    OptType type;
    const char* help;
};

const OptionSpec kOptions[] = {
    {"net.port", "port", OptType::kInt, "specify port number - 27017 by default"},
    {"net.bindIp", "bind_ip", OptType::kString,
     "comma separated list of ip addresses to listen on - localhost by default"},
    {"net.bindIpAll", "bind_ip_all", OptType::kSwitch, "bind to all ip addresses"},
    {"net.ipv6", "ipv6", OptType::kSwitch, "enable IPv6 support (disabled by default)"},
    {"net.maxIncomingConnections", "maxConns", OptType::kInt, "max number of simultaneous connections"},
    {"net.compression.compressors", "networkMessageCompressors", OptType::kString,
     "comma-separated list of compressors to use for network messages (snappy, zstd, zlib) or "
     "'disabled' - snappy,zstd,zlib by default"},
    {"net.unixDomainSocket.enabled", nullptr, OptType::kBool, nullptr},
    {"net.unixDomainSocket.pathPrefix", "unixSocketPrefix", OptType::kString,
     "alternative directory for UNIX domain sockets (defaults to /tmp)"},
    {"storage.dbPath", "dbpath", OptType::kString, "directory for datafiles - defaults to /data/db"},
    {"storage.engine", "storageEngine", OptType::kString, "what storage engine to use - defaults to wiredTiger"},
    {"storage.journal.enabled", "journal", OptType::kSwitch, "enable journaling (always on)"},
    {"storage.directoryPerDB", "directoryperdb", OptType::kSwitch,
     "each database will be stored in a separate directory"},
    {"storage.syncPeriodSecs", "syncdelay", OptType::kDouble, "seconds between disk syncs"},
    {"storage.wiredTiger.engineConfig.cacheSizeGB", "wiredTigerCacheSizeGB", OptType::kDouble,
     "maximum amount of memory to allocate for cache; defaults to 1/2 of physical RAM"},
    {"storage.wiredTiger.engineConfig.journalCompressor", "wiredTigerJournalCompressor", OptType::kString,
     "use a compressor for log records [none|snappy|zlib|zstd]"},
    {"storage.wiredTiger.collectionConfig.blockCompressor", "wiredTigerCollectionBlockCompressor",
     OptType::kString, "block compression algorithm for collection data [none|snappy|zlib|zstd]"},
    {"storage.dedup.enabled", "dedup", OptType::kOptBool, "store documents deduplicated against similar ones"},
    {"storage.dedup.chunkSize", "dedupChunkSize", OptType::kInt, "dedup chunk size in bytes (64..4096) - 64"},
    {"storage.dedup.sketchSize", "dedupSketchSize", OptType::kInt, "features per dedup sketch (K) - 16"},
    {"storage.dedup.anchorInterval", "dedupAnchorInterval", OptType::kInt, "dedup anchor interval - 64"},
    {"storage.dedup.hopDistance", "dedupHopDistance", OptType::kInt, "dedup hop distance - 16"},
    {"storage.dedup.sourceCacheMB", "dedupSourceCacheMB", OptType::kInt, "dedup source document cache, MB - 32"},
    {"storage.dedup.writeBackCacheMB", "dedupWriteBackCacheMB", OptType::kInt, "dedup write-back cache, MB - 8"},
    {"storage.dedup.governorThreshold", "dedupGovernorThreshold", OptType::kDouble,
     "dedup governor: minimum compression ratio worth deduplicating for - 1.1"},
    {"storage.dedup.governorWindow", "dedupGovernorWindow", OptType::kLong,
     "dedup governor: documents per measurement window - 100000"},
    {"storage.dedup.sizeFilter", "dedupSizeFilter", OptType::kOptBool,
     "skip documents below the database's 40th-percentile size (true/false) - false"},
    {"storage.dedup.chainScheme", "dedupChainScheme", OptType::kString,
     "how versions are chained [hop|bounded-hop|backward|version-jumping] - hop"},
    {"storage.dedup.backlogMB", "dedupBacklogMB", OptType::kInt,
     "bytes of committed inserts that may wait for the dedup encoder, MB (1..4096) - 16"},
    {"storage.dedup.backlogPolicy", "dedupBacklogPolicy", OptType::kString,
     "when the dedup backlog is full [storeRaw|throttle]: store the insert whole, or make the writer wait - storeRaw"},
    {"storage.dedup.autoCompact", "dedupAutoCompact", OptType::kOptBool,
     "return free space in data files to the file system in the background (true/false) - true"},
    {"systemLog.path", "logpath", OptType::kString, "log file to send write to instead of stdout"},
    {"systemLog.destination", nullptr, OptType::kString, nullptr},
    {"systemLog.logAppend", "logappend", OptType::kSwitch, "append to logpath instead of over-writing"},
    {"systemLog.logRotate", "logRotate", OptType::kString, "set the log rotation behavior (rename|reopen)"},
    {"systemLog.verbosity", nullptr, OptType::kInt, nullptr},
    {"systemLog.quiet", "quiet", OptType::kSwitch, "quieter output"},
    {"processManagement.pidFilePath", "pidfilepath", OptType::kString, "full path to pidfile"},
    {"processManagement.fork", nullptr, OptType::kBool, nullptr},
    {"operationProfiling.mode", nullptr, OptType::kString, nullptr},
    {"operationProfiling.slowOpThresholdMs", "slowms", OptType::kInt,
     "value of slow for profile and console log"},
    {"operationProfiling.slowOpSampleRate", "slowOpSampleRate", OptType::kDouble,
     "fraction of slow ops to include in the profile and console log"},
    {"replication.replSetName", nullptr, OptType::kString, nullptr},
    {"replication.replSet", "replSet", OptType::kString, "arg is <setname>[/<optionalseedhostlist>]"},
    {"replication.oplogSizeMB", "oplogSize", OptType::kLong, "size to use (in MB) for replication op log"},
    {"security.javascriptEnabled", nullptr, OptType::kBool, nullptr},
};

// kOptions plus the protection options this server recognises only to refuse them
// (protection_options.h), so that both the command line and the config file name them.
const std::vector<OptionSpec>& allOptions() {
    static const std::vector<OptionSpec> all = [] {
        std::vector<OptionSpec> v(std::begin(kOptions), std::end(kOptions));
        for (const ProtectionOption& o : protectionOptions())
            v.push_back({o.dotted, o.cli, o.isSwitch ? OptType::kOptBool : OptType::kString,
                         o.isSwitch ? "not supported by this server (refused unless false)"
                         : std::strcmp(o.dotted, "net.tls.mode") == 0 || std::strcmp(o.dotted, "net.ssl.mode") == 0
                             ? "not supported by this server: only 'disabled' is accepted"
                             : "not supported by this server (refused)"});
        return v;
    }();
    return all;
}

const OptionSpec* findByDotted(const std::string& dotted) {
    for (auto& o : allOptions())
        if (dotted == o.dotted) return &o;
    return nullptr;
}

Status badOption(const std::string& msg) { return Status(ErrorCodes::BadValue, msg); }

bool parseLongStrict(const std::string& s, long long* out) {
    if (s.empty()) return false;
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *out = v;
    return true;
}

bool parseDoubleStrict(const std::string& s, double* out) {
    if (s.empty()) return false;
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
    *out = v;
    return true;
}

bool parseBool(const std::string& s, bool* out) {
    if (s == "true" || s == "1") {
        *out = true;
        return true;
    }
    if (s == "false" || s == "0") {
        *out = false;
        return true;
    }
    return false;
}

// Appends {dotted: typed value} to flat, or explains why raw does not fit the option's type.
Status convertValue(const OptionSpec& spec, const std::string& raw, BSONObjBuilder& flat) {
    const std::string name = spec.dotted;
    switch (spec.type) {
        case OptType::kString:
            flat.append(name, raw);
            return Status::OK();
        case OptType::kInt: {
            long long v;
            if (!parseLongStrict(raw, &v) || v < std::numeric_limits<int>::min() ||
                v > std::numeric_limits<int>::max())
                return badOption("Error parsing option \"" + name + "\" as int: '" + raw + "'");
            flat.appendInt(name, static_cast<int>(v));
            return Status::OK();
        }
        case OptType::kLong: {
            long long v;
            if (!parseLongStrict(raw, &v)) return badOption("Error parsing option \"" + name + "\" as long: '" + raw + "'");
            flat.appendLong(name, v);
            return Status::OK();
        }
        case OptType::kDouble: {
            double v;
            if (!parseDoubleStrict(raw, &v))
                return badOption("Error parsing option \"" + name + "\" as double: '" + raw + "'");
            flat.append(name, v);
            return Status::OK();
        }
        case OptType::kBool:
        case OptType::kSwitch:
        case OptType::kOptBool: {
            bool v;
            if (!parseBool(raw, &v))
                return badOption("Error parsing option \"" + name + "\" as bool: '" + raw + "' (expected true or false)");
            flat.append(name, v);
            return Status::OK();
        }
    }
    return Status::OK();
}

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, ',')) {
        auto b = cur.find_first_not_of(" \t");
        auto e = cur.find_last_not_of(" \t");
        if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
    }
    return out;
}

bool isKnownCompressor(const std::string& c) { return c == "none" || c == "snappy" || c == "zlib" || c == "zstd"; }

// ---- YAML config file ----

std::string yamlToJson(const YAML::Node& n) {
    if (n.IsMap()) {
        std::string out = "{";
        bool first = true;
        for (auto it = n.begin(); it != n.end(); ++it) {
            if (!first) out += ",";
            first = false;
            out += "\"" + it->first.as<std::string>() + "\":" + yamlToJson(it->second);
        }
        return out + "}";
    }
    if (n.IsSequence()) {
        std::string out = "[";
        for (size_t i = 0; i < n.size(); i++) out += (i ? "," : "") + yamlToJson(n[i]);
        return out + "]";
    }
    if (n.IsNull()) return "null";
    std::string s = n.Scalar();
    long long l;
    double d;
    bool b;
    if (n.Tag() != "!" && (parseLongStrict(s, &l) || parseDoubleStrict(s, &d) || (s != "0" && s != "1" && parseBool(s, &b))))
        return s;
    std::string esc;
    for (char c : s) {
        if (c == '"' || c == '\\') esc += '\\';
        esc += c;
    }
    return "\"" + esc + "\"";
}

struct ConfigFileValues {
    std::vector<std::pair<std::string, std::string>> options;        // dotted -> scalar text
    std::vector<std::pair<std::string, std::string>> setParameters;  // name -> value text
};

Status flattenYaml(const YAML::Node& node, const std::string& prefix, ConfigFileValues* out) {
    for (auto it = node.begin(); it != node.end(); ++it) {
        std::string key = it->first.as<std::string>();
        std::string dotted = prefix.empty() ? key : prefix + "." + key;
        const YAML::Node v = it->second;  // a copy: the iterator yields a temporary pair
        if (dotted == "setParameter") {
            if (v.IsNull()) continue;
            if (!v.IsMap()) return badOption("setParameter in the config file must be a map of parameter names to values");
            for (auto p = v.begin(); p != v.end(); ++p) {
                const YAML::Node pv = p->second;
                out->setParameters.emplace_back(p->first.as<std::string>(),
                                                pv.IsScalar() ? pv.Scalar() : yamlToJson(pv));
            }
            continue;
        }
        if (v.IsNull()) continue;
        if (v.IsMap()) {
            if (findByDotted(dotted)) return badOption("Option \"" + dotted + "\" must be a value, not a map");
            if (isProtectionOption(dotted)) return badOption(*unsupportedProtectionSection(dotted));
            Status s = flattenYaml(v, dotted, out);
            if (!s.isOK()) return s;
            continue;
        }
        if (!findByDotted(dotted)) {
            if (auto msg = unsupportedProtectionSection(dotted)) return badOption(*msg);
            return badOption("Unrecognized option: " + dotted);
        }
        if (v.IsSequence()) {
            // bindIp / compressors may be written as YAML lists.
            std::string joined;
            for (size_t i = 0; i < v.size(); i++) {
                if (!v[i].IsScalar()) return badOption("Option \"" + dotted + "\" must be a list of values");
                joined += (i ? "," : "") + v[i].Scalar();
            }
            out->options.emplace_back(dotted, joined);
        } else {
            out->options.emplace_back(dotted, v.Scalar());
        }
    }
    return Status::OK();
}

Status readConfigFile(const std::string& path, ConfigFileValues* out) {
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
        return badOption("Error reading config file: No such file or directory: " + path);
    } catch (const YAML::Exception& e) {
        return badOption(std::string("Error parsing YAML config file: ") + e.what());
    }
    if (root.IsNull()) return Status::OK();
    if (!root.IsMap()) return badOption("Error parsing YAML config file: the top level must be a map of options");
    try {
        return flattenYaml(root, "", out);
    } catch (const YAML::Exception& e) {
        return badOption(std::string("Error parsing YAML config file: ") + e.what());
    }
}

// ---- command line ----

po::options_description cliOptions() {
    po::options_description general("General options");
    general.add_options()("help,h", "show this usage information")("version", "show version information")(
        "config,f", po::value<std::string>(), "configuration file specifying additional options")(
        "verbose,v", "be more verbose (include multiple times for more verbosity e.g. -vvvvv)")(
        "setParameter", po::value<std::vector<std::string>>()->composing(), "Set a configurable parameter")(
        "nounixsocket", "disable listening on unix sockets")(
        "auth", "run with security: not supported by this server (refused)")("noauth", "run without security")("noscripting", "disable scripting engine")(
        "profile", po::value<std::string>(), "0=off 1=slow, 2=all");
    for (auto& o : allOptions()) {
        if (!o.cli) continue;
        switch (o.type) {
            case OptType::kSwitch:
                general.add_options()(o.cli, po::value<std::string>()->zero_tokens()->implicit_value("true"), o.help);
                break;
            case OptType::kOptBool:
                general.add_options()(o.cli, po::value<std::string>()->implicit_value("true"), o.help);
                break;
            default:
                general.add_options()(o.cli, po::value<std::string>(), o.help);
        }
    }
    return general;
}

// Rewrites what boost cannot parse as mongod does: -vvv (verbosity count) and
// "--dedup false" (a boolean option followed by its value as a separate word).
std::vector<std::string> preprocessArgs(const std::vector<std::string>& args, int* verbosity) {
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); i++) {
        const std::string& a = args[i];
        if (a.size() >= 2 && a[0] == '-' && a.find_first_not_of('v', 1) == std::string::npos) {
            *verbosity += static_cast<int>(a.size() - 1);
            continue;
        }
        if (a == "--verbose") {
            *verbosity += 1;
            continue;
        }
        if (a.rfind("--verbose=", 0) == 0) {
            std::string v = a.substr(10);
            long long n;
            if (!v.empty() && v.find_first_not_of('v') == std::string::npos)
                *verbosity += static_cast<int>(v.size());
            else if (parseLongStrict(v, &n))
                *verbosity += static_cast<int>(n);
            else
                out.push_back(a);  // boost reports it
            continue;
        }
        bool optBool = false;
        for (auto& o : allOptions())
            if (o.cli && o.type == OptType::kOptBool && a == std::string("--") + o.cli) optBool = true;
        bool b;
        if (optBool && i + 1 < args.size() && parseBool(args[i + 1], &b)) {
            out.push_back(a + "=" + args[i + 1]);
            i++;
            continue;
        }
        out.push_back(a);
    }
    return out;
}

// Builds getCmdLineOpts' nested "parsed" from {dotted: value} (sorted by path).
void appendNested(BSONObjBuilder& b, const std::vector<BSONElement>& elems, size_t depth) {
    size_t i = 0;
    while (i < elems.size()) {
        std::string name(elems[i].fieldNameStringData());
        // The path component at this depth.
        size_t start = 0;
        for (size_t d = 0; d < depth; d++) start = name.find('.', start) + 1;
        size_t dot = name.find('.', start);
        if (dot == std::string::npos) {
            b.appendAs(elems[i], name.substr(start));
            i++;
            continue;
        }
        std::string component = name.substr(start, dot - start);
        std::string prefix = name.substr(0, dot + 1);
        std::vector<BSONElement> group;
        while (i < elems.size() && std::string(elems[i].fieldNameStringData()).rfind(prefix, 0) == 0)
            group.push_back(elems[i++]);
        BSONObjBuilder& sub = b.subobjStart(component);
        appendNested(sub, group, depth + 1);
        sub.doneFast();
    }
}

Status checkStartupParameterName(const std::string& name) {
    if (name.rfind("failpoint.", 0) == 0) {
        if (globalFailPointRegistry().find(name.substr(10))) return Status::OK();
        return badOption("Unknown --setParameter '" + name + "'");
    }
    ServerParameter* p = ServerParameterSet::global().find(name);
    if (!p) return badOption("Unknown --setParameter '" + name + "'");
    if (!p->allowedToChangeAtStartup())
        return badOption("Cannot use --setParameter to set \"" + name + "\" at startup");
    return Status::OK();
}

// Copies the typed, merged options into params, checking ranges and combinations.
Status applyOptions(const BSONObj& flat, ServerGlobalParams* p) {
    bool destinationFile = false;
    bool bindIpGiven = false;
    for (auto e : flat) {
        const std::string k(e.fieldNameStringData());
        auto intIn = [&](long long lo, long long hi, auto* out) -> Status {
            long long v = e.numberLong();
            if (v < lo || v > hi)
                return badOption(k + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                 ", got " + std::to_string(v));
            *out = static_cast<std::remove_pointer_t<decltype(out)>>(v);
            return Status::OK();
        };
        Status s = Status::OK();
        if (k == "net.port") {
            s = intIn(0, 65535, &p->port);
        } else if (k == "net.bindIp") {
            p->bindIps = splitList(e.str());
            bindIpGiven = true;
            if (p->bindIps.empty()) s = badOption("net.bindIp must name at least one address");
        } else if (k == "net.bindIpAll") {
            p->bindIpAll = e.boolean();
        } else if (k == "net.ipv6") {
            p->ipv6 = e.boolean();
        } else if (k == "net.maxIncomingConnections") {
            s = intIn(1, std::numeric_limits<int>::max(), &p->maxIncomingConnections);
        } else if (k == "net.compression.compressors") {
            p->networkCompressors.clear();
            for (auto& c : splitList(e.str())) {
                if (c == "disabled") {
                    p->networkCompressors.clear();
                    break;
                }
                if (c != "snappy" && c != "zstd" && c != "zlib" && c != "noop")
                    return badOption("Invalid network message compressor specified in configuration: " + c);
                if (std::find(p->networkCompressors.begin(), p->networkCompressors.end(), c) ==
                    p->networkCompressors.end())
                    p->networkCompressors.push_back(c);
            }
        } else if (k == "net.unixDomainSocket.enabled") {
            p->unixSocketEnabled = e.boolean();
        } else if (k == "net.unixDomainSocket.pathPrefix") {
            p->unixSocketPrefix = e.str();
        } else if (k == "storage.dbPath") {
            p->dbPath = e.str();
            if (p->dbPath.empty()) s = badOption("storage.dbPath must not be empty");
        } else if (k == "storage.engine") {
            if (e.str() != "wiredTiger")
                s = badOption("Cannot start server with an unknown storage engine: " + e.str());
        } else if (k == "storage.journal.enabled") {
            p->journalEnabled = e.boolean();
        } else if (k == "storage.directoryPerDB") {
            p->directoryPerDB = e.boolean();
        } else if (k == "storage.syncPeriodSecs") {
            p->syncPeriodSecs = e.numberDouble();
            if (p->syncPeriodSecs < 0 || p->syncPeriodSecs > 9.0 * 1000 * 1000)
                s = badOption("storage.syncPeriodSecs must be between 0 and 9000000");
        } else if (k == "storage.wiredTiger.engineConfig.cacheSizeGB") {
            p->wiredTigerCacheSizeGB = e.numberDouble();
            if (p->wiredTigerCacheSizeGB < 0.25 || p->wiredTigerCacheSizeGB > 10000)
                s = badOption("storage.wiredTiger.engineConfig.cacheSizeGB must be between 0.25 and 10000");
        } else if (k == "storage.wiredTiger.engineConfig.journalCompressor") {
            p->wiredTigerJournalCompressor = e.str();
            if (!isKnownCompressor(e.str()))
                s = badOption("Bad value for storage.wiredTiger.engineConfig.journalCompressor: '" + e.str() +
                              "' (must be one of none, snappy, zlib, zstd)");
        } else if (k == "storage.wiredTiger.collectionConfig.blockCompressor") {
            p->wiredTigerCollectionBlockCompressor = e.str();
            if (!isKnownCompressor(e.str()))
                s = badOption("Bad value for storage.wiredTiger.collectionConfig.blockCompressor: '" + e.str() +
                              "' (must be one of none, snappy, zlib, zstd)");
        } else if (k == "storage.dedup.enabled") {
            p->dedup.enabled = e.boolean();
        } else if (k == "storage.dedup.chunkSize") {
            s = intIn(64, 4096, &p->dedup.chunkSize);
        } else if (k == "storage.dedup.sketchSize") {
            s = intIn(1, 64, &p->dedup.sketchSize);
        } else if (k == "storage.dedup.anchorInterval") {
            s = intIn(1, std::numeric_limits<int>::max(), &p->dedup.anchorInterval);
        } else if (k == "storage.dedup.hopDistance") {
            s = intIn(1, std::numeric_limits<int>::max(), &p->dedup.hopDistance);
        } else if (k == "storage.dedup.sourceCacheMB") {
            s = intIn(0, 1024 * 1024, &p->dedup.sourceCacheMB);
        } else if (k == "storage.dedup.writeBackCacheMB") {
            s = intIn(0, 1024 * 1024, &p->dedup.writeBackCacheMB);
        } else if (k == "storage.dedup.governorThreshold") {
            p->dedup.governorThreshold = e.numberDouble();
            if (!(p->dedup.governorThreshold > 0)) s = badOption("storage.dedup.governorThreshold must be positive");
        } else if (k == "storage.dedup.governorWindow") {
            s = intIn(1, std::numeric_limits<long long>::max(), &p->dedup.governorWindow);
        } else if (k == "storage.dedup.sizeFilter") {
            p->dedup.sizeFilter = e.boolean();
        } else if (k == "storage.dedup.chainScheme") {
            p->dedup.chainScheme = e.str();
            dedup::ChainScheme ignored;
            if (!dedup::parseChainScheme(e.str().c_str(), &ignored))
                s = badOption("Bad value for storage.dedup.chainScheme: '" + e.str() +
                              "' (must be one of hop, bounded-hop, backward, version-jumping)");
        } else if (k == "storage.dedup.backlogMB") {
            s = intIn(1, 4096, &p->dedup.backlogMB);
        } else if (k == "storage.dedup.backlogPolicy") {
            p->dedup.backlogPolicy = e.str();
            if (e.str() != "storeRaw" && e.str() != "throttle")
                s = badOption("Bad value for storage.dedup.backlogPolicy: '" + e.str() +
                              "' (must be one of storeRaw, throttle)");
        } else if (k == "storage.dedup.autoCompact") {
            p->dedup.autoCompact = e.boolean();
        } else if (k == "systemLog.path") {
            p->logPath = e.str();
        } else if (k == "systemLog.destination") {
            if (e.str() == "file")
                destinationFile = true;
            else if (e.str() == "syslog")
                s = badOption("systemLog.destination: syslog is not supported by this server");
            else
                s = badOption("Bad value for systemLog.destination: " + e.str());
        } else if (k == "systemLog.logAppend") {
            p->logAppend = e.boolean();
        } else if (k == "systemLog.logRotate") {
            p->logRotate = e.str();
            if (p->logRotate != "rename" && p->logRotate != "reopen")
                s = badOption("Bad value for logRotate: " + p->logRotate + " (must be rename or reopen)");
        } else if (k == "systemLog.verbosity") {
            s = intIn(0, 5, &p->verbosity);
        } else if (k == "systemLog.quiet") {
            p->quiet = e.boolean();
        } else if (k == "processManagement.pidFilePath") {
            p->pidFilePath = e.str();
        } else if (k == "processManagement.fork") {
            if (e.boolean()) s = badOption("processManagement.fork is not supported by this server");
        } else if (k == "operationProfiling.mode") {
            const std::string m = e.str();
            if (m == "off")
                p->profileLevel = 0;
            else if (m == "slowOp")
                p->profileLevel = 1;
            else if (m == "all")
                p->profileLevel = 2;
            else
                s = badOption("Bad value for operationProfiling.mode: " + m + " (must be off, slowOp or all)");
        } else if (k == "operationProfiling.slowOpThresholdMs") {
            p->slowOpThresholdMs = e.numberInt();
        } else if (k == "operationProfiling.slowOpSampleRate") {
            p->slowOpSampleRate = e.numberDouble();
            if (!(p->slowOpSampleRate >= 0 && p->slowOpSampleRate <= 1))
                s = badOption("operationProfiling.slowOpSampleRate must be between 0.0 and 1.0");
        } else if (k == "replication.replSetName" || k == "replication.replSet") {
            // "<name>[/<seed list>]": only the name matters here.
            p->replSetName = e.str().substr(0, e.str().find('/'));
            if (p->replSetName.empty()) s = badOption(k + " must not be empty");
        } else if (k == "replication.oplogSizeMB") {
            s = intIn(0, 1024LL * 1024 * 1024, &p->oplogSizeMB);
        } else if (isProtectionOption(k)) {
            // Refused unless it turns the protection off: the server must not run unprotected
            // while its options (and getCmdLineOpts) say otherwise.
            s = checkProtectionOption(k, e);
        } else if (k == "security.javascriptEnabled") {
            p->javascriptEnabled = e.boolean();
        }
        if (!s.isOK()) return s;
    }
    if (p->bindIpAll && bindIpGiven) return badOption("net.bindIp and net.bindIpAll are mutually exclusive");
    // As mongod: a log path only takes effect with destination "file" (--logpath implies it).
    if (destinationFile && p->logPath.empty())
        return badOption("systemLog.path is required if systemLog.destination is to a file");
    if (!destinationFile) p->logPath.clear();
    if (p->logAppend && p->logPath.empty()) p->logAppend = false;
    return Status::OK();
}

}  // namespace

std::string serverOptionsHelp() {
    std::ostringstream os;
    os << "Usage: mongod [options]\n\n" << cliOptions();
    return os.str();
}

StatusWith<ParsedServerOptions> parseServerOptions(const std::vector<std::string>& argv) {
    ParsedServerOptions result;
    ServerGlobalParams& p = result.params;
    p.argv = argv;

    int cliVerbosity = 0;
    std::vector<std::string> args =
        preprocessArgs(std::vector<std::string>(argv.begin() + (argv.empty() ? 0 : 1), argv.end()), &cliVerbosity);

    po::variables_map vm;
    try {
        auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        // parsed_options points into the description: it must outlive store().
        const po::options_description desc = cliOptions();
        po::parsed_options parsedArgs = po::command_line_parser(args).options(desc).style(style).run();
        // Words that are not options (mongod takes no positional arguments).
        auto stray = po::collect_unrecognized(parsedArgs.options, po::include_positional);
        if (!stray.empty())
            return badOption("Error parsing command line: too many positional options have been specified on the "
                             "command line ('" + stray.front() + "')\ntry 'mongod --help' for more information");
        po::store(parsedArgs, vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return badOption(std::string("Error parsing command line: ") + e.what() +
                         "\ntry 'mongod --help' for more information");
    }

    if (vm.count("help")) {
        result.action = OptionsAction::kPrintHelp;
        return result;
    }
    if (vm.count("version")) {
        result.action = OptionsAction::kPrintVersion;
        return result;
    }

    // Raw values, config file first so the command line overrides it.
    std::map<std::string, std::string> raw;
    std::vector<std::pair<std::string, std::string>> setParams;
    if (vm.count("config")) {
        p.configFile = vm["config"].as<std::string>();
        ConfigFileValues cfg;
        Status s = readConfigFile(p.configFile, &cfg);
        if (!s.isOK()) return s;
        for (auto& [k, v] : cfg.options) raw[k] = v;
        setParams = cfg.setParameters;
    }
    for (auto& o : allOptions())
        if (o.cli && vm.count(o.cli)) raw[o.dotted] = vm[o.cli].as<std::string>();
    if (vm.count("logpath")) raw["systemLog.destination"] = "file";
    if (vm.count("nounixsocket")) raw["net.unixDomainSocket.enabled"] = "false";
    if (vm.count("auth")) raw["security.authorization"] = "enabled";
    if (vm.count("noauth")) raw["security.authorization"] = "disabled";
    if (vm.count("auth") && vm.count("noauth")) return badOption("--auth and --noauth are mutually exclusive");
    if (vm.count("noscripting")) raw["security.javascriptEnabled"] = "false";
    if (cliVerbosity > 0) raw["systemLog.verbosity"] = std::to_string(cliVerbosity);
    if (vm.count("profile")) {
        const std::string v = vm["profile"].as<std::string>();
        if (v == "0") raw["operationProfiling.mode"] = "off";
        else if (v == "1") raw["operationProfiling.mode"] = "slowOp";
        else if (v == "2") raw["operationProfiling.mode"] = "all";
        else return badOption("Bad value for --profile: " + v + " (must be 0, 1 or 2)");
    }
    if (vm.count("setParameter")) {
        for (auto& kv : vm["setParameter"].as<std::vector<std::string>>()) {
            auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) return badOption("Illegal option assignment: \"" + kv + "\"");
            setParams.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        }
    }

    // Typed values, sorted by path (std::map order) so "parsed" can be nested in one pass.
    BSONObjBuilder flatB;
    for (auto& [k, v] : raw) {
        Status s = convertValue(*findByDotted(k), v, flatB);
        if (!s.isOK()) return s;
    }
    BSONObj flat = flatB.obj();
    Status s = applyOptions(flat, &p);
    if (!s.isOK()) return s;

    // setParameter: the last value given for a name wins (command line after config file).
    std::map<std::string, std::string> lastByName;
    for (auto& [name, value] : setParams) {
        Status st = checkStartupParameterName(name);
        if (!st.isOK()) return st;
        lastByName[name] = value;
    }
    p.setParameters = setParams;

    BSONObjBuilder parsed;
    if (!p.configFile.empty()) parsed.append("config", p.configFile);
    std::vector<BSONElement> elems;
    for (auto e : flat) elems.push_back(e);
    appendNested(parsed, elems, 0);
    if (!lastByName.empty()) {
        BSONObjBuilder& sp = parsed.subobjStart("setParameter");
        for (auto& [name, value] : lastByName) sp.append(name, value);
        sp.doneFast();
    }
    p.parsedOptions = parsed.obj();
    return result;
}

Status applyStartupServerParameters(const ServerGlobalParams& params) {
    auto& set = ServerParameterSet::global();
    if (params.verbosity > 0) {
        Status s = set.find("logLevel")->setFromString(std::to_string(params.verbosity));
        if (!s.isOK()) return s;
    }
    if (params.quiet) {
        Status s = set.find("quiet")->setFromString("true");
        if (!s.isOK()) return s;
    }
    std::vector<std::pair<std::string, std::string>> failPoints;
    for (auto& [name, value] : params.setParameters) {
        if (name.rfind("failpoint.", 0) == 0) {
            failPoints.emplace_back(name, value);
            continue;
        }
        Status st = checkStartupParameterName(name);
        if (!st.isOK()) return st;
        Status s = set.find(name)->setFromString(value);
        if (!s.isOK()) return badOption("Bad value for parameter \"" + name + "\": " + s.reason());
    }
    // Fail points are test-only: settable only when test commands are enabled (as mongod).
    for (auto& [name, value] : failPoints) {
        FailPoint* fp = globalFailPointRegistry().find(name.substr(10));
        if (!testCommandsEnabled() || !fp) return badOption("Unknown --setParameter '" + name + "'");
        try {
            auto opts = FailPoint::parseBSON(fromjson(value));
            if (!opts.isOK()) return badOption("Bad value for parameter \"" + name + "\": " + opts.getStatus().reason());
            fp->setMode(opts.getValue());
        } catch (const DBException& ex) {
            return badOption("Bad value for parameter \"" + name + "\": " + ex.reason());
        }
    }
    return Status::OK();
}

void initializeServerOptionsOrExit(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    auto sw = parseServerOptions(args);
    if (!sw.isOK()) {
        std::cerr << sw.getStatus().reason() << std::endl;
        std::exit(kBadOptionsExitCode);
    }
    ParsedServerOptions& parsed = sw.getValue();
    if (parsed.action == OptionsAction::kPrintHelp) {
        std::cout << serverOptionsHelp() << std::flush;
        std::exit(0);
    }
    if (parsed.action == OptionsAction::kPrintVersion) {
        std::cout << versionBanner() << std::flush;
        std::exit(0);
    }
    Status s = applyStartupServerParameters(parsed.params);
    if (!s.isOK()) {
        std::cerr << s.reason() << std::endl;
        std::exit(kBadOptionsExitCode);
    }
    serverGlobalParams() = std::move(parsed.params);
    registerTestCommandsIfEnabled();
}

namespace {
// Renames path to path.<UTC time> (mongod's rotated-log name). A missing file is fine.
Status renameAside(const std::string& path) {
    std::time_t t = std::time(nullptr);
    struct tm tm;
    gmtime_r(&t, &tm);
    char suffix[32];
    strftime(suffix, sizeof suffix, "%Y-%m-%dT%H-%M-%S", &tm);
    std::string target = path + "." + suffix;
    // Two rotations within a second must not overwrite the first one's file.
    struct stat st;
    for (int n = 1; ::stat(target.c_str(), &st) == 0; n++) target = path + "." + suffix + "." + std::to_string(n);
    if (std::rename(path.c_str(), target.c_str()) != 0 && errno != ENOENT)
        return Status(ErrorCodes::FileStreamFailed,
                      "Failed to rename '" + path + "' to '" + target + "': " + std::strerror(errno));
    return Status::OK();
}
}  // namespace

Status rotateLogFile(const ServerGlobalParams& params) {
    if (params.logPath.empty()) return Status::OK();  // stdout: nothing to rotate
    if (params.logRotate == "rename") {
        Status s = renameAside(params.logPath);
        if (!s.isOK()) return s;
    }
    if (!logv2::setLogFile(params.logPath))
        return Status(ErrorCodes::FileStreamFailed,
                      "Failed to open log file '" + params.logPath + "' after rotation: " + std::strerror(errno));
    return Status::OK();
}

Status initializeLogFile(const ServerGlobalParams& params) {
    if (params.logPath.empty()) return Status::OK();
    struct stat st;
    if (!params.logAppend && ::stat(params.logPath.c_str(), &st) == 0) {
        Status s = renameAside(params.logPath);
        if (!s.isOK()) return s;
    }
    if (!logv2::setLogFile(params.logPath))
        return Status(ErrorCodes::FileStreamFailed,
                      "Failed to open log file '" + params.logPath + "': " + std::strerror(errno));
    return Status::OK();
}

Status writePidFile(const ServerGlobalParams& params) {
    if (params.pidFilePath.empty()) return Status::OK();
    FILE* f = std::fopen(params.pidFilePath.c_str(), "w");
    if (!f)
        return Status(ErrorCodes::FileStreamFailed,
                      "Can't open " + params.pidFilePath + " for write: " + std::strerror(errno));
    std::fprintf(f, "%d\n", static_cast<int>(getpid()));
    std::fclose(f);
    return Status::OK();
}

}  // namespace mongo
