#include "mongo/db/server_options.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

StatusWith<ParsedServerOptions> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "mongod");
    return parseServerOptions(args);
}

ServerGlobalParams parseOK(std::vector<std::string> args) {
    auto sw = parse(std::move(args));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().toString();
    return sw.isOK() ? sw.getValue().params : ServerGlobalParams();
}

std::string parseError(std::vector<std::string> args) {
    auto sw = parse(std::move(args));
    EXPECT_FALSE(sw.isOK());
    return sw.isOK() ? "" : sw.getStatus().reason();
}

// A config file in a temporary directory, removed at the end of the test.
class ConfigFile {
public:
    explicit ConfigFile(const std::string& yaml) {
        char tmpl[] = "/tmp/server_options_test_XXXXXX";
        int fd = mkstemp(tmpl);
        _path = tmpl;
        ::close(fd);
        std::ofstream(_path) << yaml;
    }
    ~ConfigFile() { std::remove(_path.c_str()); }
    const std::string& path() const { return _path; }

private:
    std::string _path;
};

TEST(ServerOptions, DefaultsWithoutArguments) {
    auto p = parseOK({});
    EXPECT_EQ(p.port, 27017);
    EXPECT_EQ(p.bindIps, std::vector<std::string>{"127.0.0.1"});
    EXPECT_FALSE(p.bindIpAll);
    EXPECT_EQ(p.dbPath, "/data/db");
    EXPECT_EQ(p.wiredTigerCollectionBlockCompressor, "snappy");
    EXPECT_EQ(p.networkCompressors, (std::vector<std::string>{"snappy", "zstd", "zlib"}));
    EXPECT_FALSE(p.dedup.enabled);
    EXPECT_EQ(p.dedup.chunkSize, 64);
    EXPECT_EQ(p.dedup.sketchSize, 16);
    EXPECT_EQ(p.dedup.anchorInterval, 64);
    EXPECT_EQ(p.dedup.hopDistance, 16);
    EXPECT_EQ(p.dedup.sourceCacheMB, 32);
    EXPECT_EQ(p.dedup.writeBackCacheMB, 8);
    EXPECT_DOUBLE_EQ(p.dedup.governorThreshold, 1.1);
    EXPECT_EQ(p.dedup.governorWindow, 100000);
    EXPECT_FALSE(p.dedup.sizeFilter);
    EXPECT_EQ(p.dedup.chainScheme, "bounded-hop");
    EXPECT_EQ(p.dedup.maxDecodeSteps, 0);
    EXPECT_TRUE(p.parsedOptions.isEmpty());
}

TEST(ServerOptions, CommandLineNetAndStorage) {
    auto p = parseOK({"--port", "27018", "--bind_ip", "127.0.0.1, ::1", "--dbpath", "/tmp/db",
                      "--wiredTigerCacheSizeGB", "0.5", "--wiredTigerCollectionBlockCompressor", "zstd",
                      "--networkMessageCompressors", "zlib,snappy"});
    EXPECT_EQ(p.port, 27018);
    EXPECT_EQ(p.bindIps, (std::vector<std::string>{"127.0.0.1", "::1"}));
    EXPECT_EQ(p.dbPath, "/tmp/db");
    EXPECT_DOUBLE_EQ(p.wiredTigerCacheSizeGB, 0.5);
    EXPECT_EQ(p.wiredTigerCollectionBlockCompressor, "zstd");
    EXPECT_EQ(p.networkCompressors, (std::vector<std::string>{"zlib", "snappy"}));
}

TEST(ServerOptions, EqualsFormAndBindIpAll) {
    auto p = parseOK({"--port=1234", "--bind_ip_all"});
    EXPECT_EQ(p.port, 1234);
    EXPECT_TRUE(p.bindIpAll);
}

TEST(ServerOptions, CompressorsDisabled) {
    auto p = parseOK({"--networkMessageCompressors", "disabled"});
    EXPECT_TRUE(p.networkCompressors.empty());
}

TEST(ServerOptions, VerbosityFlags) {
    EXPECT_EQ(parseOK({"-v"}).verbosity, 1);
    EXPECT_EQ(parseOK({"-vvv"}).verbosity, 3);
    EXPECT_EQ(parseOK({"-v", "-vv"}).verbosity, 3);
    EXPECT_EQ(parseOK({"--verbose"}).verbosity, 1);
    EXPECT_EQ(parseOK({"-vv"}).parsedOptions["systemLog"].Obj()["verbosity"].numberInt(), 2);
}

TEST(ServerOptions, LogPathImpliesFileDestination) {
    auto p = parseOK({"--logpath", "/tmp/x.log", "--logappend"});
    EXPECT_EQ(p.logPath, "/tmp/x.log");
    EXPECT_TRUE(p.logAppend);
    BSONObj sl = p.parsedOptions["systemLog"].Obj();
    EXPECT_EQ(sl["destination"].str(), "file");
    EXPECT_EQ(sl["path"].str(), "/tmp/x.log");
    EXPECT_TRUE(sl["logAppend"].boolean());
}

TEST(ServerOptions, DedupOptionsFromCommandLine) {
    auto p = parseOK({"--dedup", "--dedupChunkSize", "128", "--dedupSketchSize", "12", "--dedupAnchorInterval", "32",
                      "--dedupHopDistance", "8", "--dedupSourceCacheMB", "64", "--dedupWriteBackCacheMB", "16",
                      "--dedupGovernorThreshold", "1.5", "--dedupGovernorWindow", "5000", "--dedupSizeFilter",
                      "false"});
    EXPECT_TRUE(p.dedup.enabled);
    EXPECT_EQ(p.dedup.chunkSize, 128);
    EXPECT_EQ(p.dedup.sketchSize, 12);
    EXPECT_EQ(p.dedup.anchorInterval, 32);
    EXPECT_EQ(p.dedup.hopDistance, 8);
    EXPECT_EQ(p.dedup.sourceCacheMB, 64);
    EXPECT_EQ(p.dedup.writeBackCacheMB, 16);
    EXPECT_DOUBLE_EQ(p.dedup.governorThreshold, 1.5);
    EXPECT_EQ(p.dedup.governorWindow, 5000);
    EXPECT_FALSE(p.dedup.sizeFilter);
    BSONObj dedup = p.parsedOptions["storage"].Obj()["dedup"].Obj();
    EXPECT_TRUE(dedup["enabled"].boolean());
    EXPECT_EQ(dedup["chunkSize"].numberInt(), 128);
    EXPECT_FALSE(dedup["sizeFilter"].boolean());
}

TEST(ServerOptions, DedupBooleanForms) {
    EXPECT_FALSE(parseOK({"--dedup=false"}).dedup.enabled);
    EXPECT_TRUE(parseOK({"--dedup", "true"}).dedup.enabled);
    EXPECT_TRUE(parseOK({"--dedupSizeFilter=true"}).dedup.sizeFilter);
    EXPECT_TRUE(parseOK({"--dedup", "--port", "1"}).dedup.enabled);
}

TEST(ServerOptions, DedupChunkSizeOutOfRangeIsAnError) {
    EXPECT_NE(parseError({"--dedupChunkSize", "32"}).find("storage.dedup.chunkSize"), std::string::npos);
    EXPECT_NE(parseError({"--dedupChunkSize", "8192"}).find("between 64 and 4096"), std::string::npos);
    EXPECT_EQ(parseOK({"--dedupChunkSize", "4096"}).dedup.chunkSize, 4096);
}

// The decode bound (--dedupMaxDecodeSteps): 0 is the scheme's own, else 1..65535.
TEST(ServerOptions, DedupMaxDecodeSteps) {
    auto p = parseOK({"--dedup", "--dedupMaxDecodeSteps", "12"});
    EXPECT_EQ(p.dedup.maxDecodeSteps, 12);
    EXPECT_EQ(p.parsedOptions["storage"].Obj()["dedup"].Obj()["maxDecodeSteps"].numberInt(), 12);
    EXPECT_EQ(parseOK({"--dedupMaxDecodeSteps", "0"}).dedup.maxDecodeSteps, 0);
    EXPECT_EQ(parseOK({"--dedupMaxDecodeSteps", "65535"}).dedup.maxDecodeSteps, 65535);
    EXPECT_NE(parseError({"--dedupMaxDecodeSteps", "-1"}).find("storage.dedup.maxDecodeSteps must be between 0 and 65535"),
              std::string::npos);
    EXPECT_NE(parseError({"--dedupMaxDecodeSteps", "65536"}).find("between 0 and 65535"), std::string::npos);
    parseError({"--dedupMaxDecodeSteps", "ten"});
    EXPECT_NE(serverOptionsHelp().find("--dedupMaxDecodeSteps"), std::string::npos);
}

TEST(ServerOptions, BadBlockCompressorIsAnError) {
    std::string err = parseError({"--wiredTigerCollectionBlockCompressor", "lz5"});
    EXPECT_NE(err.find("lz5"), std::string::npos);
    EXPECT_NE(err.find("none, snappy, zlib, zstd"), std::string::npos);
}

TEST(ServerOptions, JournalCompressorAndZstdLevel) {
    auto d = parseOK({});
    EXPECT_EQ(d.wiredTigerJournalCompressor, "snappy");
    EXPECT_EQ(d.wiredTigerZstdCompressionLevel, 6);
    auto p = parseOK({"--wiredTigerJournalCompressor", "zstd", "--zstdDefaultCompressionLevel", "-3"});
    EXPECT_EQ(p.wiredTigerJournalCompressor, "zstd");
    EXPECT_EQ(p.wiredTigerZstdCompressionLevel, -3);
    EXPECT_NE(parseError({"--zstdDefaultCompressionLevel", "23"}).find("between -7 and 22"), std::string::npos);
    EXPECT_NE(parseError({"--zstdDefaultCompressionLevel", "-8"}).find("between -7 and 22"), std::string::npos);
    EXPECT_NE(parseError({"--wiredTigerJournalCompressor", "lz4"}).find("lz4"), std::string::npos);
}

TEST(ServerOptions, UnknownOptionIsAnError) {
    std::string err = parseError({"--frobnicate"});
    EXPECT_NE(err.find("Error parsing command line"), std::string::npos);
    EXPECT_NE(err.find("frobnicate"), std::string::npos);
    EXPECT_NE(err.find("mongod --help"), std::string::npos);
}

TEST(ServerOptions, AbbreviatedOptionIsNotAccepted) {
    parseError({"--dbp", "/tmp"});
}

TEST(ServerOptions, PositionalArgumentIsAnError) { parseError({"stray"}); }

TEST(ServerOptions, BadNumbersAreErrors) {
    EXPECT_NE(parseError({"--port", "abc"}).find("net.port"), std::string::npos);
    EXPECT_NE(parseError({"--port", "70000"}).find("between 0 and 65535"), std::string::npos);
    parseError({"--port", "12x"});
    parseError({"--wiredTigerCacheSizeGB", "lots"});
}

TEST(ServerOptions, MissingValueIsAnError) { parseError({"--port"}); }

TEST(ServerOptions, HelpAndVersionActions) {
    auto h = parse({"--help"});
    ASSERT_TRUE(h.isOK());
    EXPECT_EQ(h.getValue().action, OptionsAction::kPrintHelp);
    auto v = parse({"--version"});
    ASSERT_TRUE(v.isOK());
    EXPECT_EQ(v.getValue().action, OptionsAction::kPrintVersion);
    EXPECT_NE(serverOptionsHelp().find("--dbpath"), std::string::npos);
    EXPECT_NE(serverOptionsHelp().find("--dedupChunkSize"), std::string::npos);
}

TEST(ServerOptions, SetParameterKnownNamesAreKept) {
    auto p = parseOK({"--setParameter", "enableTestCommands=1", "--setParameter", "logLevel=2"});
    ASSERT_EQ(p.setParameters.size(), 2u);
    EXPECT_EQ(p.setParameters[0], (std::pair<std::string, std::string>{"enableTestCommands", "1"}));
    BSONObj sp = p.parsedOptions["setParameter"].Obj();
    EXPECT_EQ(sp["enableTestCommands"].str(), "1");
    EXPECT_EQ(sp["logLevel"].str(), "2");
}

TEST(ServerOptions, SetParameterUnknownNameIsAnError) {
    EXPECT_NE(parseError({"--setParameter", "noSuchParameter=1"}).find("Unknown --setParameter 'noSuchParameter'"),
              std::string::npos);
}

TEST(ServerOptions, SetParameterWithoutEqualsIsAnError) {
    EXPECT_NE(parseError({"--setParameter", "enableTestCommands"}).find("Illegal option assignment"),
              std::string::npos);
}

TEST(ServerOptions, SetParameterNotSettableAtStartupIsAnError) {
    parseError({"--setParameter", "featureCompatibilityVersion=6.0"});
}

// --replSet <name> makes a replica-set member (with --oplogSize sizing its oplog); what the
// server cannot do yet is refused (replication_options.h).
TEST(ServerOptions, ReplSetNameAndOplogSizeAreAccepted) {
    auto p = parseOK({"--replSet", "rs0", "--oplogSize", "64"});
    EXPECT_EQ(p.replSetName, "rs0");
    EXPECT_EQ(p.oplogSizeMB, 64);
    p = parseOK({"--replSet=rs1"});
    EXPECT_EQ(p.replSetName, "rs1");
    EXPECT_EQ(p.oplogSizeMB, 0);
    ConfigFile cfg("replication:\n  replSetName: rs2\n  oplogSizeMB: 990\n");
    p = parseOK({"--config", cfg.path()});
    EXPECT_EQ(p.replSetName, "rs2");
    EXPECT_EQ(p.oplogSizeMB, 990);
}

TEST(ServerOptions, WhatCannotWorkYetIsRefused) {
    EXPECT_NE(parseError({"--replSet", "rs0/host1:27017"}).find("a seed list is not supported"), std::string::npos);
    EXPECT_NE(parseError({"--replSet", ""}).find("empty replica set name"), std::string::npos);
    EXPECT_NE(parseError({"--oplogSize", "1024"}).find("without --replSet"), std::string::npos);
    EXPECT_NE(parseError({"--replSet", "rs0", "--oplogSize", "0"}).find("greater than 0"), std::string::npos);
    EXPECT_NE(parseError({"--replSet", "rs0", "--oplogSize", "x"}).find("greater than 0"), std::string::npos);
    EXPECT_NE(parseError({"--enableMajorityReadConcern", "false"}).find("cannot be disabled"), std::string::npos);
    for (const std::string yaml : {"replication:\n  replSet: rs0/h:1\n", "replication:\n  oplogSizeMB: 50\n",
                                   "replication:\n  enableMajorityReadConcern: false\n",
                                   "replication:\n  secondaryIndexPrefetch: all\n"}) {
        ConfigFile cfg(yaml);
        std::string msg = parseError({"--config", cfg.path()});
        EXPECT_NE(msg.find("replication."), std::string::npos) << yaml << msg;
    }
}

// MongoDB 5.0+ fixes enableMajorityReadConcern to true: saying so asks for nothing new.
TEST(ServerOptions, MajorityReadConcernTrueIsAccepted) {
    auto p = parseOK({"--enableMajorityReadConcern"});
    EXPECT_TRUE(p.parsedOptions["replication"].Obj()["enableMajorityReadConcern"].boolean());
    EXPECT_TRUE(p.replSetName.empty());
    p = parseOK({"--enableMajorityReadConcern", "true"});
    EXPECT_TRUE(p.replSetName.empty());
    ConfigFile cfg("replication:\n  enableMajorityReadConcern: true\n");
    p = parseOK({"--config", cfg.path()});
    EXPECT_EQ(p.parsedOptions.woCompare(fromjson(R"({"config": ")" + cfg.path() +
                                                 R"(", "replication": {"enableMajorityReadConcern": true}})")),
              0)
        << p.parsedOptions.toString();
    EXPECT_TRUE(p.replSetName.empty());
}

TEST(ServerOptions, HelpSaysSeedListsAreNotSupported) {
    std::string help = serverOptionsHelp();
    auto at = help.find("--replSet");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(help.find("a seed list is not", at), std::string::npos);
}

TEST(ServerOptions, ArgvAndParsedAreKept) {
    auto p = parseOK({"--port", "27019", "--dbpath", "/d"});
    EXPECT_EQ(p.argv, (std::vector<std::string>{"mongod", "--port", "27019", "--dbpath", "/d"}));
    EXPECT_EQ(p.parsedOptions.woCompare(fromjson(R"({"net": {"port": 27019}, "storage": {"dbPath": "/d"}})")), 0)
        << p.parsedOptions.toString();
}

TEST(ServerOptions, YamlConfigFile) {
    ConfigFile cfg(R"(
net:
  port: 27020
  bindIp: 0.0.0.0
  compression:
    compressors: zstd
storage:
  dbPath: /var/lib/mongo
  journal:
    enabled: true
  wiredTiger:
    engineConfig:
      cacheSizeGB: 1.5
    collectionConfig:
      blockCompressor: zlib
  dedup:
    enabled: true
    chunkSize: 256
    sketchSize: 16
    anchorInterval: 128
    hopDistance: 4
    sourceCacheMB: 10
    writeBackCacheMB: 2
    governorThreshold: 1.25
    governorWindow: 777
    sizeFilter: false
    maxDecodeSteps: 9
systemLog:
  destination: file
  path: /tmp/mongod.log
  logAppend: true
  verbosity: 2
setParameter:
  enableTestCommands: 1
replication:
  enableMajorityReadConcern: true
)");
    auto p = parseOK({"--config", cfg.path()});
    EXPECT_EQ(p.port, 27020);
    EXPECT_EQ(p.bindIps, std::vector<std::string>{"0.0.0.0"});
    EXPECT_EQ(p.networkCompressors, std::vector<std::string>{"zstd"});
    EXPECT_EQ(p.dbPath, "/var/lib/mongo");
    EXPECT_DOUBLE_EQ(p.wiredTigerCacheSizeGB, 1.5);
    EXPECT_EQ(p.wiredTigerCollectionBlockCompressor, "zlib");
    EXPECT_TRUE(p.dedup.enabled);
    EXPECT_EQ(p.dedup.chunkSize, 256);
    EXPECT_EQ(p.dedup.sketchSize, 16);
    EXPECT_EQ(p.dedup.anchorInterval, 128);
    EXPECT_EQ(p.dedup.hopDistance, 4);
    EXPECT_EQ(p.dedup.sourceCacheMB, 10);
    EXPECT_EQ(p.dedup.writeBackCacheMB, 2);
    EXPECT_DOUBLE_EQ(p.dedup.governorThreshold, 1.25);
    EXPECT_EQ(p.dedup.governorWindow, 777);
    EXPECT_FALSE(p.dedup.sizeFilter);
    EXPECT_EQ(p.dedup.maxDecodeSteps, 9);
    EXPECT_EQ(p.logPath, "/tmp/mongod.log");
    EXPECT_TRUE(p.logAppend);
    EXPECT_EQ(p.verbosity, 2);
    EXPECT_TRUE(p.replSetName.empty());
    EXPECT_EQ(p.configFile, cfg.path());
    EXPECT_EQ(p.parsedOptions["config"].str(), cfg.path());
    EXPECT_EQ(p.parsedOptions["net"].Obj()["port"].numberInt(), 27020);
    EXPECT_EQ(p.parsedOptions["setParameter"].Obj()["enableTestCommands"].str(), "1");
    ASSERT_EQ(p.setParameters.size(), 1u);
}

TEST(ServerOptions, ShortConfigFlag) {
    ConfigFile cfg("net:\n  port: 27021\n");
    EXPECT_EQ(parseOK({"-f", cfg.path()}).port, 27021);
}

TEST(ServerOptions, CommandLineOverridesConfigFile) {
    ConfigFile cfg("net:\n  port: 27020\nstorage:\n  dbPath: /from/config\n  dedup:\n    chunkSize: 256\n");
    auto p = parseOK({"--config", cfg.path(), "--port", "27030", "--dedupChunkSize", "512"});
    EXPECT_EQ(p.port, 27030);
    EXPECT_EQ(p.dbPath, "/from/config");
    EXPECT_EQ(p.dedup.chunkSize, 512);
    EXPECT_EQ(p.parsedOptions["net"].Obj()["port"].numberInt(), 27030);
}

TEST(ServerOptions, CommandLineSetParameterOverridesConfigFile) {
    ConfigFile cfg("setParameter:\n  logLevel: 1\n");
    auto p = parseOK({"--config", cfg.path(), "--setParameter", "logLevel=3"});
    EXPECT_EQ(p.parsedOptions["setParameter"].Obj()["logLevel"].str(), "3");
    ASSERT_EQ(p.setParameters.size(), 2u);
    EXPECT_EQ(p.setParameters.back().second, "3");  // applied last, so it wins
}

TEST(ServerOptions, YamlUnknownKeyIsAnError) {
    ConfigFile cfg("net:\n  prot: 1\n");
    EXPECT_NE(parseError({"--config", cfg.path()}).find("Unrecognized option: net.prot"), std::string::npos);
}

TEST(ServerOptions, YamlSyntaxErrorIsAnError) {
    ConfigFile cfg("net:\n  port: [1, 2\n");
    EXPECT_NE(parseError({"--config", cfg.path()}).find("Error parsing YAML config file"), std::string::npos);
}

TEST(ServerOptions, YamlBadValueIsAnError) {
    ConfigFile cfg("storage:\n  wiredTiger:\n    collectionConfig:\n      blockCompressor: brotli\n");
    EXPECT_NE(parseError({"--config", cfg.path()}).find("brotli"), std::string::npos);
}

TEST(ServerOptions, MissingConfigFileIsAnError) {
    EXPECT_NE(parseError({"--config", "/nonexistent/mongod.conf"}).find("/nonexistent/mongod.conf"), std::string::npos);
}

TEST(ServerOptions, YamlPathWithoutFileDestinationLogsToStdout) {
    ConfigFile cfg("systemLog:\n  path: /tmp/ignored.log\n");
    EXPECT_EQ(parseOK({"--config", cfg.path()}).logPath, "");
}

TEST(ServerOptions, YamlFileDestinationWithoutPathIsAnError) {
    ConfigFile cfg("systemLog:\n  destination: file\n");
    parseError({"--config", cfg.path()});
}

TEST(ServerOptions, BindIpAndBindIpAllConflict) { parseError({"--bind_ip", "1.2.3.4", "--bind_ip_all"}); }

TEST(ServerOptions, UnknownStorageEngineIsAnError) { parseError({"--storageEngine", "inMemory"}); }

TEST(ServerOptions, UnknownNetworkCompressorIsAnError) { parseError({"--networkMessageCompressors", "lz4"}); }

TEST(ServerOptions, ProfileOptions) {
    auto p = parseOK({"--profile", "1", "--slowms", "50", "--slowOpSampleRate", "0.5"});
    EXPECT_EQ(p.profileLevel, 1);
    EXPECT_EQ(p.slowOpThresholdMs, 50);
    EXPECT_DOUBLE_EQ(p.slowOpSampleRate, 0.5);
    parseError({"--profile", "3"});
}

TEST(ServerOptions, ApplyStartupParametersSetsThem) {
    auto p = parseOK({"--setParameter", "cursorTimeoutMillis=1234"});
    ASSERT_TRUE(applyStartupServerParameters(p).isOK());
    EXPECT_EQ(cursorTimeoutMillis(), 1234);
    ASSERT_TRUE(applyStartupServerParameters(parseOK({"--setParameter", "cursorTimeoutMillis=600000"})).isOK());
}

TEST(ServerOptions, ApplyStartupParametersRejectsBadValues) {
    auto p = parseOK({"--setParameter", "cursorTimeoutMillis=soon"});
    Status s = applyStartupServerParameters(p);
    EXPECT_FALSE(s.isOK());
    EXPECT_NE(s.reason().find("cursorTimeoutMillis"), std::string::npos);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(ServerOptions, WritePidFile) {
    ConfigFile pidFile("");
    ServerGlobalParams p;
    p.pidFilePath = pidFile.path();
    ASSERT_TRUE(writePidFile(p).isOK());
    std::ifstream in(pidFile.path());
    int pid = 0;
    in >> pid;
    EXPECT_EQ(pid, static_cast<int>(getpid()));
    p.pidFilePath = "/nonexistent-dir/x.pid";
    EXPECT_FALSE(writePidFile(p).isOK());
    p.pidFilePath.clear();
    EXPECT_TRUE(writePidFile(p).isOK());
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(ServerOptions, RotateLogFileWithoutLogPathDoesNothing) {
    ServerGlobalParams p;
    EXPECT_TRUE(rotateLogFile(p).isOK());
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

// Protections the server does not implement (protection_options.h) are refused, never
// accepted and ignored; the values that turn them off are accepted.
TEST(ServerOptions, AuthAndKeyFileAreAccepted) {
    auto p = parseOK({"--auth"});
    EXPECT_TRUE(p.authorization);
    EXPECT_EQ(p.parsedOptions["security"].Obj()["authorization"].str(), "enabled");
    ConfigFile cfg("security:\n  authorization: enabled\n  keyFile: /etc/key\n  clusterAuthMode: keyFile\n");
    p = parseOK({"--config", cfg.path()});
    EXPECT_TRUE(p.authorization);
    EXPECT_EQ(p.keyFile, "/etc/key");  // read and checked at start-up (auth/auth_options.h)
    EXPECT_EQ(p.clusterAuthMode, "keyFile");
    p = parseOK({"--keyFile", "/etc/key", "--clusterAuthMode", "keyFile"});
    EXPECT_EQ(p.parsedOptions["security"].Obj()["keyFile"].str(), "/etc/key");
    ConfigFile bad("security:\n  authorization: maybe\n");
    std::string msg = parseError({"--config", bad.path()});
    EXPECT_NE(msg.find("must be enabled or disabled"), std::string::npos) << msg;
    msg = parseError({"--clusterAuthMode", "x509"});
    EXPECT_NE(msg.find("key file"), std::string::npos) << msg;
}

TEST(ServerOptions, NoAuthIsAccepted) {
    auto p = parseOK({"--noauth"});
    EXPECT_EQ(p.parsedOptions["security"].Obj()["authorization"].str(), "disabled");
    ConfigFile cfg("security:\n  authorization: disabled\n  javascriptEnabled: false\n");
    p = parseOK({"--config", cfg.path()});
    EXPECT_EQ(p.parsedOptions["security"].Obj()["authorization"].str(), "disabled");
    EXPECT_FALSE(p.javascriptEnabled);
    // The command line overrides the config file.
    EXPECT_TRUE(parseOK({"--config", cfg.path(), "--auth"}).authorization);
}

TEST(ServerOptions, ProtectionOptionsOnTheCommandLineAreRefused) {
    const std::vector<std::vector<std::string>> cases = {
        {"--clusterAuthMode", "x509"},
        {"--enableEncryption"},
        {"--encryptionKeyFile", "/etc/ek"},
        {"--encryptionCipherMode", "AES256-CBC"},
        {"--redactClientLogData"},
        {"--clusterIpSourceAllowlist", "10.0.0.0/8"},
        {"--tlsMode", "requireTLS"},
        {"--tlsMode", "allowTLS"},
        {"--tlsMode", "preferTLS"},
        {"--sslMode", "requireSSL"},
        {"--tlsCertificateKeyFile", "/etc/cert.pem"},
        {"--tlsCAFile", "/etc/ca.pem"},
        {"--tlsAllowInvalidCertificates"},
        {"--tlsFIPSMode"},
        {"--sslPEMKeyFile", "/etc/cert.pem"},
        {"--sslOnNormalPorts"},
        {"--auditDestination", "file"},
    };
    for (const auto& args : cases) {
        std::string msg = parseError(args);
        EXPECT_NE(msg.find("Unsupported option"), std::string::npos) << args[0] << ": " << msg;
        EXPECT_NE(msg.find(args[0]), std::string::npos) << args[0] << ": " << msg;
    }
    EXPECT_NE(parseError({"--tlsMode", "requireTLS"}).find("does not support TLS"), std::string::npos);
    EXPECT_NE(parseError({"--enableEncryption"}).find("no encryption at rest"), std::string::npos);
    EXPECT_NE(parseError({"--auditDestination", "file"}).find("no auditing"), std::string::npos);
}

// transitionToAuth (a rolling move to key-file authentication) needs the key file it
// authenticates with, and contradicts --auth (it enforces no access control).
TEST(ServerOptions, TransitionToAuthNeedsAKeyFileAndNoAuth) {
    EXPECT_NE(parseError({"--transitionToAuth"}).find("must be used with keyFile"), std::string::npos);
    ConfigFile alone("security:\n  transitionToAuth: true\n");
    EXPECT_NE(parseError({"--config", alone.path()}).find("must be used with keyFile"), std::string::npos);
    auto p = parseOK({"--transitionToAuth", "--keyFile", "/etc/mongo.key"});
    EXPECT_TRUE(p.transitionToAuth);
    EXPECT_TRUE(p.parsedOptions["security"].Obj()["transitionToAuth"].trueValue());
    EXPECT_NE(parseError({"--transitionToAuth", "--keyFile", "/etc/mongo.key", "--auth"}).find("cannot be used with"),
              std::string::npos);
}

TEST(ServerOptions, ProtectionOptionsInTheConfigFileAreRefused) {
    const std::vector<std::string> cases = {
        "security:\n  clusterAuthMode: sendKeyFile\n",
        "security:\n  enableEncryption: true\n",
        "security:\n  redactClientLogData: true\n",
        "security:\n  kmip:\n    serverName: kmip.example\n",
        "security:\n  sasl:\n    hostName: h\n",
        "security:\n  ldap:\n    servers: ldap.example\n",
        "net:\n  tls:\n    mode: requireTLS\n    certificateKeyFile: /etc/cert.pem\n",
        "net:\n  tls:\n    certificateKeyFile: /etc/cert.pem\n",
        "net:\n  ssl:\n    mode: preferSSL\n",
        "auditLog:\n  destination: file\n  path: /tmp/audit.json\n",
    };
    for (const auto& yaml : cases) {
        ConfigFile cfg(yaml);
        std::string msg = parseError({"--config", cfg.path()});
        EXPECT_NE(msg.find("Unsupported option"), std::string::npos) << yaml << msg;
    }
}

TEST(ServerOptions, OptionsThatTurnProtectionOffAreAccepted) {
    auto p = parseOK({"--tlsMode", "disabled", "--sslMode", "disabled", "--transitionToAuth", "false",
                      "--enableEncryption=false", "--redactClientLogData", "false"});
    BSONObj parsed = p.parsedOptions;
    EXPECT_EQ(parsed["net"].Obj()["tls"].Obj()["mode"].str(), "disabled");
    EXPECT_EQ(parsed["net"].Obj()["ssl"].Obj()["mode"].str(), "disabled");
    EXPECT_FALSE(parsed["security"].Obj()["transitionToAuth"].boolean());
    EXPECT_FALSE(parsed["security"].Obj()["enableEncryption"].boolean());
    ConfigFile cfg("net:\n  tls:\n    mode: disabled\nsecurity:\n  authorization: disabled\n  transitionToAuth: false\n");
    p = parseOK({"--config", cfg.path()});
    EXPECT_EQ(p.parsedOptions["net"].Obj()["tls"].Obj()["mode"].str(), "disabled");
}

TEST(ServerOptions, HelpMarksProtectionOptionsAsRefused) {
    std::string help = serverOptionsHelp();
    auto at = help.find("--tlsMode");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(help.find("not supported by this server", at), std::string::npos);
}

}  // namespace
}  // namespace mongo
