// mongod: options -> logging -> storage engine -> catalog -> listener; waits for a signal or
// the shutdown command, then shuts down cleanly (listener, cursors, checkpoint, lock file).
#include <signal.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/allocator/memory_releaser.h"
#include "mongo/db/catalog/catalog_open.h"
#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/transport/network_stats.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/repl/dedup/dedup_repl_stats.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/server_options.h"
#include "mongo/db/service_context.h"
#include "mongo/db/service_entry_point_mongod.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/db/storage/storage_engine.h"
#include "mongo/db/session/logical_session_cache.h"
#include "mongo/db/transaction/transaction_reaper.h"
#include "mongo/db/ttl/ttl_monitor.h"
#include "mongo/transport/transport_layer.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

std::mutex gShutdownMutex;
std::condition_variable gShutdownCv;
bool gShutdownRequested = false;
int gShutdownSignal = 0;

void triggerShutdown(int sig) {
    std::lock_guard<std::mutex> lk(gShutdownMutex);
    gShutdownRequested = true;
    gShutdownSignal = sig;
    gShutdownCv.notify_all();
}

// Signals are blocked in every thread and taken synchronously here, so shutdown runs on a
// normal thread (not in a signal handler).
void signalThread(sigset_t set) {
    logv2::setThreadName("signalProcessingThread");
    int sig = 0;
    while (sigwait(&set, &sig) == 0) {
        if (sig == SIGUSR1) {
            rotateLogFile(serverGlobalParams());
            continue;
        }
        LOGV2(23377, Control, "Received signal", logv2::attrs("signal", sig, "error", strsignal(sig)));
        triggerShutdown(sig);
        return;
    }
}

void cursorReaper() {
    logv2::setThreadName("clientcursormon");
    std::unique_lock<std::mutex> lk(gShutdownMutex);
    while (!gShutdownRequested) {
        gShutdownCv.wait_for(lk, std::chrono::seconds(4));
        if (gShutdownRequested) break;
        lk.unlock();
        int n = CursorManager::get().reapIdle(std::chrono::minutes(10));
        if (n) LOGV2(20528, Query, "Cursors timed out", logv2::attrs("numTimedOut", n));
        lk.lock();
    }
}

void registerServerStatusSections(StorageEngine* eng) {
    registerServerStatusSection("connections", [](OperationContext*) {
        BSONObjBuilder b;
        transport::appendConnectionStats(b);
        return b.obj();
    });
    registerServerStatusSection("network", [](OperationContext*) {
        BSONObjBuilder b;
        transport::appendNetworkStats(b);
        return b.obj();
    });
    registerServerStatusSection("wiredTiger", [eng](OperationContext*) { return eng->kvEngine()->serverStatusSection(); });
    registerServerStatusMetric("cursor", [](OperationContext*) {
        BSONObjBuilder b;
        b.append("timedOut", CursorManager::get().timedOutTotal());
        BSONObjBuilder open;
        open.append("noTimeout", 0LL);
        open.append("total", CursorManager::get().openCount());
        b.append("open", open.obj());
        return b.obj();
    });
}

std::string hostName() {
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    return host;
}

// --replSet: this node is a replica-set member (repl/coordinator.h). The names it answers to
// ("host:port" forms of this machine and its bind addresses) decide which member of a config
// it is; replSetInitiate's default config names it "localhost:<port>" when it listens on the
// loopback only (as MongoDB since 3.6), else "<hostname>:<port>".
void startReplication(StorageEngine* eng) {
    const ServerGlobalParams& params = serverGlobalParams();
    repl::ReplicationStartupOptions o;
    o.setName = params.replSetName;
    o.oplogSizeBytes = params.oplogSizeMB > 0 ? params.oplogSizeMB * 1024 * 1024
                                              : repl::LocalOplog::defaultSizeBytes(params.dbPath);
    const std::string port = ":" + std::to_string(params.port);
    const std::string host = hostName();
    o.selfHosts = {"localhost" + port, "127.0.0.1" + port, host + port, "[::1]" + port};
    bool loopbackOnly = !params.bindIpAll;
    for (const auto& ip : params.bindIps) {
        o.selfHosts.push_back(ip + port);
        if (ip != "127.0.0.1" && ip != "localhost" && ip != "::1") loopbackOnly = false;
    }
    o.defaultHost = (loopbackOnly ? std::string("localhost") : host) + port;
    o.kv = eng->kvEngine();
    o.dbpath = params.dbPath;
    auto opCtx = makeOperationContext(internalClient());
    repl::ReplicationCoordinator::get()->startup(opCtx.get(), std::move(o));
}

int runMongod() {
    const ServerGlobalParams& params = serverGlobalParams();
    logv2::setThreadName("initandlisten");
    LOGV2(4615611, Control, "MongoDB starting",
          logv2::attrs("pid", static_cast<long long>(getpid()), "port", params.port, "dbPath", params.dbPath,
                       "architecture", "64-bit", "host", hostName()));
    BSONObjBuilder bi;
    appendBuildInfo(bi);
    LOGV2(23403, Control, "Build Info", logv2::attrs("buildInfo", bi.obj()));
    LOGV2(21951, Control, "Options set by command line", logv2::attrs("options", params.parsedOptions));
    logv2::startupWarning(22120, "Access control is not enabled for the database. Read and write access to data and "
                                 "configuration is unrestricted");

    std::unique_ptr<StorageEngine> engine;
    try {
        StorageEngineOptions so;
        so.dbpath = params.dbPath;
        so.cacheSizeGB = params.wiredTigerCacheSizeGB;
        so.blockCompressor = params.wiredTigerCollectionBlockCompressor;
        so.journalCompressor = params.wiredTigerJournalCompressor;
        so.zstdCompressionLevel = params.wiredTigerZstdCompressionLevel;
        so.journal = params.journalEnabled;
        so.syncDelaySecs = static_cast<int>(params.syncPeriodSecs);
        so.dedup = params.dedup.enabled;
        engine = StorageEngine::open(so);
    } catch (const DBException& e) {
        LOGV2_ERROR(20557, Storage, "Failed to start up WiredTiger under any compatibility version",
                    logv2::attrs("error", e.toStatus().toString()));
        LOGV2(20565, Control, "Now exiting");
        return e.code() == static_cast<int>(ErrorCodes::DBPathInUse) ? 100 : 62;
    }
    StorageEngine* eng = engine.get();
    setRecoveryUnitFactory([eng] { return eng->newRecoveryUnit(); });
    setFsyncHandler([eng] { eng->flushAllFiles(true); });
    // Installed whether or not --dedup is given: collections created under --dedup stay in
    // the dedup format and must be readable and writable by every later run.
    DedupServiceOptions dedupService = dedupServiceOptions(params.dedup);
    dedupService.dbpath = params.dbPath;
    dedupService.saveStateAtShutdown = params.replSetName.empty();
    // Forward deltas are kept only for members fetching this node's oplog (repl/dedup).
    if (params.replSetName.empty()) dedupService.forwardDeltaCacheBytes = 0;
    DedupStorage* dedupStorage = DedupStorage::install(eng, dedupEngineOptions(params.dedup), dedupService);
    openCollectionCatalog(eng);
    if (!params.replSetName.empty()) startReplication(eng);
    dedupStorage->start();
    if (params.dedup.enabled && params.dedup.autoCompact) {
        // Write-backs free space inside the files as they replace raw records with deltas;
        // later inserts reuse it, and background compaction gives back what is left. Its
        // free-space target is 1 MB (WiredTiger's least) rather than autoCompact's 20 MB:
        // after a load of 100 MB a deduplicated file holds a few MB, so 20 MB would never
        // be reached and the raw records' space would stay in the file.
        try {
            eng->kvEngine()->configureAutoCompact(AutoCompactOptions{true, false, 1});
        } catch (const DBException& e) {
            LOGV2_WARNING(8704101, Storage, "Could not start background compaction",
                          logv2::attrs("error", e.toStatus().toString()));
        }
    }
    registerServerStatusSections(eng);
    registerServerStatusSection("dedup", [dedupStorage](OperationContext*) {
        BSONObjBuilder b;
        b.appendElements(dedupStorage->serverStatusSection());
        b.append("replication", repl::DedupReplStats::get().toBSON(dedupStorage));  // repl/dedup
        return b.obj();
    });

    ServiceEntryPointMongod sep;
    transport::TransportLayer::Options to;
    if (params.bindIpAll) {
        to.bindIps = "*";
    } else {
        std::string ips;
        for (auto& ip : params.bindIps) ips += (ips.empty() ? "" : ",") + ip;
        to.bindIps = ips;
    }
    to.port = params.port;
    to.ipv6 = params.ipv6;
    to.maxConns = params.maxIncomingConnections;
    std::string comps;
    for (auto& c : params.networkCompressors) comps += (comps.empty() ? "" : ",") + c;
    to.enabledCompressors = comps.empty() ? "disabled" : comps;
    if (params.unixSocketEnabled) to.unixSocketPath = params.unixSocketPrefix + "/mongodb-" + std::to_string(params.port) + ".sock";
    transport::TransportLayer tl(to, &sep);
    Status ls = tl.listen();
    if (!ls.isOK()) {
        dedupStorage->shutdown();
        closeCollectionCatalog();
        engine->cleanShutdown();
        LOGV2(20565, Control, "Now exiting");
        return 48;  // mongod's exit code when it cannot listen
    }
    setShutdownHandler([] { triggerShutdown(0); });
    tl.start();
    std::thread reaper(cursorReaper);
    TTLMonitor::get().start();
    LogicalSessionCache::get().start();
    txn::TransactionReaper::get().start();
    allocator::MemoryReleaser::get().start();  // freed memory back to the system (tcmalloc)

    {
        std::unique_lock<std::mutex> lk(gShutdownMutex);
        gShutdownCv.wait(lk, [] { return gShutdownRequested; });
    }
    LOGV2(4784900, Control, "Shutting down", logv2::attrs("signal", gShutdownSignal));
    setGlobalInShutdown();
    // Every connection ended within the grace period: nothing writes after the dedup state is taken.
    const bool clientsGone = tl.shutdown();
    repl::ReplicationCoordinator::get()->shutdown();  // heartbeat, fetcher threads
    reaper.join();
    allocator::MemoryReleaser::get().shutdown();
    LogicalSessionCache::get().shutdown();  // before the catalog closes under its writes
    txn::TransactionReaper::get().shutdown();
    TTLMonitor::get().shutdown();  // before the catalog closes under its deletes
    CursorManager::get().killAll();
    dedupStorage->shutdown(clientsGone);
    closeCollectionCatalog();
    // The saved dedup state is written only once the data it describes is closed cleanly.
    engine->cleanShutdown([dedupStorage] { dedupStorage->writeSavedState(); });
    engine.reset();
    LOGV2(20565, Control, "Now exiting");
    LOGV2(23138, Control, "Shutting down", logv2::attrs("exitCode", 0));
    return 0;
}

}  // namespace
}  // namespace mongo

int main(int argc, char** argv) {
    mongo::initializeServerOptionsOrExit(argc, argv);
    const auto& params = mongo::serverGlobalParams();
    mongo::Status logStatus = mongo::initializeLogFile(params);
    if (!logStatus.isOK()) {
        fprintf(stderr, "Failed to open log file: %s\n", logStatus.reason().c_str());
        return 2;
    }
    // --auth / --keyFile (src/mongo/db/auth): a bad key file refuses start-up.
    mongo::auth::initializeAuthOrExit(params);
    mongo::Status pidStatus = mongo::writePidFile(params);
    if (!pidStatus.isOK()) {
        fprintf(stderr, "Failed to write pid file: %s\n", pidStatus.reason().c_str());
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(mongo::signalThread, set).detach();
    return mongo::runMongod();
}
