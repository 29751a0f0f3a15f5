#include "mongo/db/server_options_apply.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <type_traits>

#include "mongo/db/dedup/chain_policy.h"
#include "mongo/db/protection_options.h"
#include "mongo/db/replication_options.h"
#include "mongo/db/server_options_parse.h"

namespace mongo {
namespace option_parsing {

namespace {

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

}  // namespace

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
        } else if (k == "storage.wiredTiger.engineConfig.zstdCompressionLevel") {
            s = intIn(-7, 22, &p->wiredTigerZstdCompressionLevel);
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
        } else if (k == "storage.dedup.readCacheMB") {
            s = intIn(0, 1024 * 1024, &p->dedup.readCacheMB);
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
                              "' (must be one of bounded-hop, hop, backward, version-jumping)");
        } else if (k == "storage.dedup.maxDecodeSteps") {
            s = intIn(0, 65535, &p->dedup.maxDecodeSteps);
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
        } else if (isReplicationOption(k)) {
            // Accepted only for what the server can do (replication_options.h).
            s = checkReplicationOption(k, e);
            if (s.isOK() && (k == "replication.replSetName" || k == "replication.replSet")) p->replSetName = e.str();
            if (s.isOK() && k == "replication.oplogSizeMB") p->oplogSizeMB = *oplogSizeMBFromOption(e);
        } else if (isProtectionOption(k)) {
            // Refused unless it turns the protection off: the server must not run unprotected
            // while its options (and getCmdLineOpts) say otherwise.
            s = checkProtectionOption(k, e);
            if (s.isOK() && k == "security.authorization") p->authorization = e.str() == "enabled";
            if (s.isOK() && k == "security.keyFile") p->keyFile = e.str();
            if (s.isOK() && k == "security.clusterAuthMode") p->clusterAuthMode = e.str();
            if (s.isOK() && k == "security.transitionToAuth") p->transitionToAuth = e.trueValue();
        } else if (k == "security.javascriptEnabled") {
            p->javascriptEnabled = e.boolean();
        }
        if (!s.isOK()) return s;
    }
    if (p->transitionToAuth && p->keyFile.empty())
        return badOption("--transitionToAuth must be used with keyFile or x509 authentication");
    if (p->transitionToAuth && p->authorization)
        return badOption("security.transitionToAuth (--transitionToAuth) cannot be used with security.authorization: "
                         "enabled (--auth): a member in transition does not enforce access control");
    if (p->clusterAuthMode == "keyFile" && p->keyFile.empty())
        return badOption("security.clusterAuthMode keyFile (--clusterAuthMode keyFile) requires a key file "
                         "(--keyFile / security.keyFile)");
    if (p->oplogSizeMB > 0 && p->replSetName.empty())
        return badOption("Unsupported option replication.oplogSizeMB (--oplogSize) without --replSet: only a replica "
                         "set member has an oplog");
    if (p->bindIpAll && bindIpGiven) return badOption("net.bindIp and net.bindIpAll are mutually exclusive");
    // As mongod: a log path only takes effect with destination "file" (--logpath implies it).
    if (destinationFile && p->logPath.empty())
        return badOption("systemLog.path is required if systemLog.destination is to a file");
    if (!destinationFile) p->logPath.clear();
    if (p->logAppend && p->logPath.empty()) p->logAppend = false;
    return Status::OK();
}

}  // namespace option_parsing
}  // namespace mongo
