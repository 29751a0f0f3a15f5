#include "mongo/db/server_options.h"

// Start-up options, top level: merges the command line over the config file
// (server_options_parse.h reads both), has the values checked into ServerGlobalParams
// (server_options_apply.h), builds getCmdLineOpts' "parsed", applies --setParameter, and
// handles the process files the options name (log file, pid file).

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/test_commands.h"
#include "mongo/db/server_options_apply.h"
#include "mongo/db/server_options_parse.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/fail_point.h"
#include "mongo/util/log.h"

namespace po = boost::program_options;

namespace mongo {

using option_parsing::allOptions;
using option_parsing::applyOptions;
using option_parsing::badOption;
using option_parsing::cliOptions;
using option_parsing::ConfigFileValues;
using option_parsing::convertValue;
using option_parsing::findByDotted;
using option_parsing::preprocessArgs;
using option_parsing::readConfigFile;

ServerGlobalParams& serverGlobalParams() {
    static ServerGlobalParams* p = new ServerGlobalParams();  // never destroyed: read at exit
    return *p;
}

namespace {

constexpr int kBadOptionsExitCode = 2;  // mongod's ExitCode::badOptions

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
