#include "mongo/db/server_options_parse.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <yaml-cpp/yaml.h>

#include "mongo/db/protection_options.h"
#include "mongo/db/replication_options.h"

namespace po = boost::program_options;

namespace mongo {
namespace option_parsing {

namespace {

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
    {"storage.wiredTiger.engineConfig.zstdCompressionLevel", "zstdDefaultCompressionLevel", OptType::kInt,
     "default compression level for zstd compressor (-7..22) - 6"},
    {"storage.wiredTiger.collectionConfig.blockCompressor", "wiredTigerCollectionBlockCompressor",
     OptType::kString, "block compression algorithm for collection data [none|snappy|zlib|zstd]"},
    {"storage.dedup.enabled", "dedup", OptType::kOptBool, "store documents deduplicated against similar ones"},
    {"storage.dedup.chunkSize", "dedupChunkSize", OptType::kInt, "dedup chunk size in bytes (64..4096) - 64"},
    {"storage.dedup.sketchSize", "dedupSketchSize", OptType::kInt, "features per dedup sketch (K) - 16"},
    {"storage.dedup.anchorInterval", "dedupAnchorInterval", OptType::kInt, "dedup anchor interval - 64"},
    {"storage.dedup.hopDistance", "dedupHopDistance", OptType::kInt, "dedup hop distance - 16"},
    {"storage.dedup.sourceCacheMB", "dedupSourceCacheMB", OptType::kInt, "dedup source document cache, MB - 32"},
    {"storage.dedup.readCacheMB", "dedupReadCacheMB", OptType::kInt,
     "dedup cache of records decoded by reads, MB (0: none) - 32"},
    {"storage.dedup.writeBackCacheMB", "dedupWriteBackCacheMB", OptType::kInt, "dedup write-back cache, MB - 8"},
    {"storage.dedup.governorThreshold", "dedupGovernorThreshold", OptType::kDouble,
     "dedup governor: minimum compression ratio worth deduplicating for - 1.1"},
    {"storage.dedup.governorWindow", "dedupGovernorWindow", OptType::kLong,
     "dedup governor: documents per measurement window - 100000"},
    {"storage.dedup.sizeFilter", "dedupSizeFilter", OptType::kOptBool,
     "skip documents below the database's 40th-percentile size (true/false) - false"},
    {"storage.dedup.chainScheme", "dedupChainScheme", OptType::kString,
     "how versions are chained [bounded-hop|hop|backward|version-jumping] - bounded-hop"},
    {"storage.dedup.maxDecodeSteps", "dedupMaxDecodeSteps", OptType::kInt,
     "most deltas a read of any document applies (0..65535); 0: the chain scheme's bound (bounded-hop: "
     "hopDistance + floor(log_hopDistance(2^32 - 1)), 23; hop, backward: none) - 0"},
    {"storage.dedup.backlogMB", "dedupBacklogMB", OptType::kInt,
     "bytes of committed inserts that may wait for the dedup encoder, MB (1..4096) - 16"},
    {"storage.dedup.backlogPolicy", "dedupBacklogPolicy", OptType::kString,
     "when the dedup backlog is full [storeRaw|throttle]: store the insert whole and deduplicate it later, or make the writer wait - storeRaw"},
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
    {"security.javascriptEnabled", nullptr, OptType::kBool, nullptr},
};

}  // namespace

// kOptions plus the protection and replication options, recognised so that they can be
// refused unless they ask for nothing (protection_options.h, replication_options.h).
const std::vector<OptionSpec>& allOptions() {
    static const std::vector<OptionSpec> all = [] {
        std::vector<OptionSpec> v(std::begin(kOptions), std::end(kOptions));
        for (const ProtectionOption& o : protectionOptions())
            v.push_back({o.dotted, o.cli, o.isSwitch ? OptType::kOptBool : OptType::kString,
                         o.isSwitch ? "not supported by this server (refused unless false)"
                         : std::strcmp(o.dotted, "net.tls.mode") == 0 || std::strcmp(o.dotted, "net.ssl.mode") == 0
                             ? "not supported by this server: only 'disabled' is accepted"
                             : "not supported by this server (refused)"});
        for (const ReplicationOption& o : replicationOptions())
            v.push_back({o.dotted, o.cli, o.isSwitch ? OptType::kOptBool : OptType::kString, o.help});
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


// ---- YAML config file ----

namespace {

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
            if (auto msg = unsupportedReplicationSection(dotted)) return badOption(*msg);
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


}  // namespace

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
        "auth", "run with security (SCRAM users and roles)")("noauth", "run without security")("noscripting", "disable scripting engine")(
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


}  // namespace option_parsing
}  // namespace mongo
