#pragma once
// mongod's startup options: command line (boost.program_options) and YAML config file
// (--config/-f, yaml-cpp), with mongod's names and nesting. Options given on the command line
// override the config file. Anything unknown or malformed is a startup error (exit code 2,
// mongod's BadOptions), never silently ignored.
//
// main() calls initializeServerOptionsOrExit(argc, argv) first; afterwards
// serverGlobalParams() is read-only (read it from any thread without locking).
#include <string>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

// Deduplicating storage (storage.dedup.*, --dedup*). Parsed and range-checked here; the
// dedup layer gives the values their meaning.
struct DedupOptions {
    bool enabled = false;               // --dedup
    int chunkSize = 64;                 // --dedupChunkSize: bytes, 64..4096
    // Defaults chosen by the server benchmark (buildscripts/bench/dedup_server/REPORT.md): on
    // peps-history (dedup + zstd) K=16 without the size filter stores 28.4x against 21.3x with
    // the paper's K=8 and 40th-percentile filter, for a little more index memory and encoding.
    int sketchSize = 16;                // --dedupSketchSize: features per sketch (K), 1..64
    int anchorInterval = 64;            // --dedupAnchorInterval: >= 1
    int hopDistance = 16;               // --dedupHopDistance: >= 1
    int sourceCacheMB = 32;             // --dedupSourceCacheMB: >= 0
    int readCacheMB = 32;               // --dedupReadCacheMB: >= 0 (0: no decoded record cache)
    int writeBackCacheMB = 8;           // --dedupWriteBackCacheMB: >= 0
    double governorThreshold = 1.1;     // --dedupGovernorThreshold: > 0
    long long governorWindow = 100000;  // --dedupGovernorWindow: >= 1
    bool sizeFilter = false;            // --dedupSizeFilter
    // bounded-hop: the only scheme whose decode steps stay bounded whatever the history length
    // (hop: about H - 1 steps per level of H^l, 42-50 measured on the benchmark data sets).
    std::string chainScheme = "bounded-hop";  // --dedupChainScheme: bounded-hop, hop, backward, version-jumping
    int maxDecodeSteps = 0;  // --dedupMaxDecodeSteps: 0 (the scheme's bound, 23 for bounded-hop) or 1..65535
    // The encoder's backlog: committed inserts not yet deduplicated, at most this many bytes
    // (a fraction of a second to a few seconds of encoding). When it is full, backlogPolicy
    // says what happens to the next insert: "storeRaw" stores it whole (counted in
    // serverStatus().dedup.backlog.storedRaw), "throttle" makes the writer wait for room.
    int backlogMB = 16;                     // --dedupBacklogMB: 1..4096
    std::string backlogPolicy = "storeRaw";  // --dedupBacklogPolicy: storeRaw, throttle
    // WiredTiger's background compaction returns the space write-backs free to the file
    // system (MongoDB's autoCompact, on by default under --dedup; the command turns it off).
    bool autoCompact = true;  // --dedupAutoCompact
};

struct ServerGlobalParams {
    // net
    int port = 27017;
    std::vector<std::string> bindIps{"127.0.0.1"};  // ignored when bindIpAll
    bool bindIpAll = false;
    bool ipv6 = false;
    int maxIncomingConnections = 1000000;
    // Compressors the server offers in hello, in preference order; empty = "disabled".
    std::vector<std::string> networkCompressors{"snappy", "zstd", "zlib"};
    bool unixSocketEnabled = true;
    std::string unixSocketPrefix = "/tmp";

    // storage
    std::string dbPath = "/data/db";
    bool journalEnabled = true;
    bool directoryPerDB = false;
    double syncPeriodSecs = 60;
    double wiredTigerCacheSizeGB = 0;  // 0: WiredTiger's default sizing
    std::string wiredTigerJournalCompressor = "snappy";
    int wiredTigerZstdCompressionLevel = 6;  // -7..22, as MongoDB
    std::string wiredTigerCollectionBlockCompressor = "snappy";  // none|snappy|zlib|zstd
    DedupOptions dedup;

    // systemLog
    std::string logPath;  // empty: log to stdout
    bool logAppend = false;
    std::string logRotate = "rename";  // rename | reopen
    int verbosity = 0;
    bool quiet = false;

    // processManagement
    std::string pidFilePath;

    // operationProfiling (initial values for the profile command)
    int profileLevel = 0;  // 0 off, 1 slowOp, 2 all
    int slowOpThresholdMs = 100;
    double slowOpSampleRate = 1.0;

    // replication (replication_options.h): the replica set this node is a member of ("" =
    // standalone) and the size of the oplog it creates at replSetInitiate (0 = MongoDB's
    // default, 5% of free disk within [990 MB, 50 GB]).
    std::string replSetName;
    long long oplogSizeMB = 0;

    // security: authentication and access control (src/mongo/db/auth). There is no TLS,
    // encryption at rest or auditing; the options that would turn them on are refused at
    // start-up (protection_options.h).
    bool authorization = false;   // --auth / security.authorization: enabled (a key file implies it)
    std::string keyFile;          // --keyFile / security.keyFile: read and checked at start-up
    std::string clusterAuthMode;  // --clusterAuthMode: "keyFile" or empty
    // --transitionToAuth / security.transitionToAuth: members authenticate to each other with
    // the key file and accept connections that do not; access control is not enforced (for a
    // rolling move of a set to key-file authentication, as MongoDB's).
    bool transitionToAuth = false;
    bool javascriptEnabled = true;  // there is no JavaScript engine either way

    // --setParameter / setParameter: in the order given; config file first, then command line.
    std::vector<std::pair<std::string, std::string>> setParameters;

    std::string configFile;
    std::vector<std::string> argv;
    // getCmdLineOpts' "parsed": every option given, nested as mongod shows it
    // ({net: {port: 27018}, storage: {dbPath: "/x"}, config: "/etc/mongod.conf", ...}).
    BSONObj parsedOptions;
};

// The process's options. Mutable only during startup (before the listener starts).
ServerGlobalParams& serverGlobalParams();

enum class OptionsAction { kRun, kPrintHelp, kPrintVersion };

struct ParsedServerOptions {
    OptionsAction action = OptionsAction::kRun;
    ServerGlobalParams params;
};

// Parses argv (argv[0] is the program name) and the config file it names. Pure apart from
// reading that file. Errors are BadValue / FailedToParse with a message for the user.
// --setParameter names are checked against the server parameter set (unknown or not
// settable at startup is an error) but not applied; see applyStartupServerParameters.
StatusWith<ParsedServerOptions> parseServerOptions(const std::vector<std::string>& argv);

// Sets the server parameters named by params.setParameters (and logLevel from verbosity).
Status applyStartupServerParameters(const ServerGlobalParams& params);

// Usage text for --help.
std::string serverOptionsHelp();

// For main(): parses options into serverGlobalParams(), applies the startup parameters and
// registers the test-only commands when enableTestCommands is set.
// --help / --version print to stdout and exit(0); bad options print to stderr and exit(2).
void initializeServerOptionsOrExit(int argc, char** argv);

// Sends the log to systemLog.path, as mongod: without logAppend an existing file is first
// renamed to <path>.<UTC time>. Nothing to do when logging to stdout.
Status initializeLogFile(const ServerGlobalParams& params);
// Starts a new log file (the logRotate command, SIGUSR1): with systemLog.logRotate "rename"
// the current file becomes <path>.<UTC time>; with "reopen" the file is reopened in place.
Status rotateLogFile(const ServerGlobalParams& params);
// Writes the process id to processManagement.pidFilePath, if one was given.
Status writePidFile(const ServerGlobalParams& params);

}  // namespace mongo
