#pragma once
// How mongod's options are read (internal to server_options.cpp and its unit tests): the
// table of every option (config-file path, command-line name, type, help), the command-line
// description and its pre-pass, the YAML config file flattened to {dotted path: text}, and
// the conversion of that text to a typed BSON value. Nothing here checks ranges or
// combinations (server_options_apply.h does) or touches global state.
//
// Pure functions over constant tables (reading the config file apart): callable from any thread.
#include <boost/program_options.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace option_parsing {

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

// Every option: mongod's own, plus those recognised only to be refused unless they ask for
// nothing (protection_options.h, replication_options.h), so that both the command line and the
// config file name them.
const std::vector<OptionSpec>& allOptions();
// The option at a config-file path, or nullptr.
const OptionSpec* findByDotted(const std::string& dotted);

// A bad-options error (BadValue; mongod exits with code 2 for it).
Status badOption(const std::string& msg);

// Whole-string conversions: false on any trailing text, overflow or (double) non-finite value.
bool parseLongStrict(const std::string& s, long long* out);
bool parseDoubleStrict(const std::string& s, double* out);
// true/1 or false/0.
bool parseBool(const std::string& s, bool* out);

// Appends {dotted: typed value} to flat, or explains why raw does not fit the option's type.
Status convertValue(const OptionSpec& spec, const std::string& raw, BSONObjBuilder& flat);

struct ConfigFileValues {
    std::vector<std::pair<std::string, std::string>> options;        // dotted -> scalar text
    std::vector<std::pair<std::string, std::string>> setParameters;  // name -> value text
};
// Reads the YAML config file at path. Unknown paths and maps where a value belongs are errors.
Status readConfigFile(const std::string& path, ConfigFileValues* out);

// The command-line options (also the --help text).
boost::program_options::options_description cliOptions();
// Rewrites what boost cannot parse as mongod does: -vvv (verbosity count, added to
// *verbosity and removed) and "--dedup false" (a boolean option followed by its value as a
// separate word, joined into --dedup=false).
std::vector<std::string> preprocessArgs(const std::vector<std::string>& args, int* verbosity);

}  // namespace option_parsing
}  // namespace mongo
