#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_size_storer.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

// The directory holding libwiredtiger.so; the compressor extensions are installed beside it.
std::string wiredTigerLibDir() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&wiredtiger_open), &info) && info.dli_fname) {
        std::string path = info.dli_fname;
        auto slash = path.rfind('/');
        if (slash != std::string::npos) return path.substr(0, slash);
    }
    return "";
}

bool fileExists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

long long defaultCacheSizeMB() {
    long long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    long long ramMB = pages > 0 && pageSize > 0 ? pages * pageSize / (1024 * 1024) : 2048;
    return std::max(256LL, (ramMB - 1024) / 2);
}

// WiredTiger's messages go to our log (they would otherwise print to stderr).
int onWTError(WT_EVENT_HANDLER*, WT_SESSION*, int error, const char* message) {
    LOGV2_ERROR(22435, Storage, "WiredTiger error", logv2::attrs("error", error, "message", message));
    return 0;
}
int onWTMessage(WT_EVENT_HANDLER*, WT_SESSION*, const char* message) {
    LOGV2(22430, Storage, "WiredTiger message", logv2::attrs("message", message));
    return 0;
}
WT_EVENT_HANDLER gEventHandler = {onWTError, onWTMessage, nullptr, nullptr, nullptr};

// The event handler of a compacting session. WiredTiger calls handle_general with
// WT_EVENT_COMPACT_CHECK every so often during compact; a non-zero answer stops it (compact then
// returns WT_ERROR), which is how killOp, maxTimeMS and shutdown reach a running compact.
struct CompactEventHandler {
    WT_EVENT_HANDLER wt;  // first member: WiredTiger hands &wt back to the callbacks
    OperationContext* opCtx;
};

bool compactInterrupted(OperationContext* opCtx) {
    if (!opCtx) return globalInShutdown();
    try {
        opCtx->checkForInterrupt();
        return false;
    } catch (const DBException&) {
        return true;
    }
}

int onCompactEvent(WT_EVENT_HANDLER* handler, WT_CONNECTION*, WT_SESSION*, WT_EVENT_TYPE type, void*) {
    if (type != WT_EVENT_COMPACT_CHECK) return 0;
    return compactInterrupted(reinterpret_cast<CompactEventHandler*>(handler)->opCtx) ? -1 : 0;
}

// A compressor WiredTiger can be configured with (block or journal); throws BadValue otherwise.
void checkCompressor(const char* what, const std::string& c) {
    uassert(ErrorCodes::BadValue, std::string("invalid ") + what + ": " + c,
            c == "none" || c == "snappy" || c == "zlib" || c == "zstd");
}

}  // namespace

std::string WiredTigerKVEngine::extensionsConfig() const {
    std::string dir = wiredTigerLibDir();
    std::string list;
    for (const char* name : {"snappy", "zlib", "zstd"}) {
        std::string path = dir + "/libwiredtiger_" + name + ".so";
        if (!fileExists(path)) {
            uassert(ErrorCodes::BadValue,
                    std::string("block compressor ") + name + " is not available (" + path + " missing)",
                    _options.blockCompressor != name && !(_options.journalCompressor == name && _options.journal));
            continue;
        }
        if (!list.empty()) list += ",";
        list += "\"" + path + "\"";
        // The zstd extension reads its level from the configuration it is loaded with.
        if (std::string(name) == "zstd")
            list += "=(config=[compression_level=" + std::to_string(_options.zstdCompressionLevel) + "])";
    }
    return "extensions=[" + list + "],";
}

WiredTigerKVEngine::WiredTigerKVEngine(const StorageEngineOptions& options) : _options(options) {
    checkCompressor("block compressor", _options.blockCompressor);
    long long cacheMB = _options.cacheSizeGB > 0 ? (long long)(_options.cacheSizeGB * 1024) : defaultCacheSizeMB();
    cacheMB = std::max(cacheMB, 1LL);
    if (_options.journal) ::mkdir((_options.dbpath + "/journal").c_str(), 0755);

    std::string config = "create,cache_size=" + std::to_string(cacheMB) + "M,session_max=20000,";
    config += "eviction=(threads_min=1,threads_max=4),config_base=false,statistics=(fast),";
    config += "file_manager=(close_idle_time=600,close_scan_interval=10,close_handle_minimum=2000),";
    config += extensionsConfig();
    if (_options.journal) {
        const std::string& jc = _options.journalCompressor;
        checkCompressor("journal compressor", jc);
        config += "log=(enabled=true,remove=true,path=journal" +
                  (jc == "none" ? std::string() : ",compressor=" + jc) + "),";
        config += "transaction_sync=(enabled=true,method=none),";
    } else {
        config += "log=(enabled=false),";
    }
    LOGV2(22315, Storage, "Opening WiredTiger", logv2::attrs("config", config));
    int ret = wiredtiger_open(_options.dbpath.c_str(), &gEventHandler, config.c_str(), &_conn);
    if (ret == EBUSY)
        uasserted(ErrorCodes::DBPathInUse, "Unable to lock the WiredTiger database in " + _options.dbpath +
                                               ": another mongod may be running on this dbpath");
    wtCheck(ret, "wiredtiger_open");
    _sessionCache = std::make_unique<WiredTigerSessionCache>(_conn);
    _sizeStorer = std::make_unique<WiredTigerSizeStorer>(this);
    _thread = std::thread([this] { backgroundThread(); });
}

WiredTigerKVEngine::~WiredTigerKVEngine() { cleanShutdown(); }

std::unique_ptr<RecoveryUnit> WiredTigerKVEngine::newRecoveryUnit() {
    return std::make_unique<WiredTigerRecoveryUnit>(this);
}

void WiredTigerKVEngine::createRecordStore(const std::string& ident, const RecordStoreOptions& options) {
    std::string compressor = options.blockCompressor.empty() ? _options.blockCompressor : options.blockCompressor;
    checkCompressor("block compressor", compressor);
    std::string config = "type=file,key_format=q,value_format=u,memory_page_max=10m,split_pct=90,"
                         "leaf_value_max=64MB,checksum=on,block_compressor=" +
                         (compressor == "none" ? std::string() : compressor);
    if (options.allocationSizeBytes) config += ",allocation_size=" + std::to_string(options.allocationSizeBytes) + "B";
    if (options.leafPageMaxBytes) config += ",leaf_page_max=" + std::to_string(options.leafPageMaxBytes) + "B";
    if (options.firstFitAllocation) config += ",block_allocation=first";
    if (!options.logged) config += ",log=(enabled=false)";
    auto session = _sessionCache->getSession();
    int ret = session->get()->create(session->get(), uriFor(ident).c_str(), config.c_str());
    _sessionCache->releaseSession(std::move(session));
    wtCheck(ret, "create " + ident);
}

std::unique_ptr<RecordStore> WiredTigerKVEngine::getRecordStore(const std::string& ident) {
    return std::make_unique<WiredTigerRecordStore>(this, ident);
}

void WiredTigerKVEngine::createSortedDataInterface(const std::string& ident, const SortedDataOptions& options) {
    std::string config = "type=file,key_format=u,value_format=u,prefix_compression=true,"
                         "internal_page_max=16k,leaf_page_max=16k,checksum=on,block_compressor=";
    auto session = _sessionCache->getSession();
    int ret = session->get()->create(session->get(), uriFor(ident).c_str(), config.c_str());
    _sessionCache->releaseSession(std::move(session));
    wtCheck(ret, "create " + ident);
}

std::unique_ptr<SortedDataInterface> WiredTigerKVEngine::getSortedDataInterface(const std::string& ident,
                                                                                const SortedDataOptions& options) {
    return std::make_unique<WiredTigerIndex>(this, ident, options);
}

bool WiredTigerKVEngine::tryDrop(const std::string& uri) {
    WT_SESSION* s = nullptr;
    invariantWTOK(_conn->open_session(_conn, nullptr, nullptr, &s));
    int ret = s->drop(s, uri.c_str(), "force=true");
    s->close(s, nullptr);
    if (ret == EBUSY) return false;
    if (ret != 0)
        LOGV2_WARNING(22341, Storage, "Failed to drop table",
                      logv2::attrs("uri", uri, "error", ret, "message", wiredtiger_strerror(ret)));
    _sessionCache->clearDropPending(uri);
    return true;
}

void WiredTigerKVEngine::dropIdent(const std::string& ident) {
    std::string uri = uriFor(ident);
    // The catalog change that forgot this ident must be durable before the table disappears.
    waitUntilDurable();
    _sessionCache->markDropPending(uri);
    if (!tryDrop(uri))
        LOGV2(22342, Storage, "Table is in use, its drop is queued", logv2::attrs("uri", uri));
}

size_t WiredTigerKVEngine::numPendingDrops() const { return _sessionCache->pendingDrops().size(); }

void WiredTigerKVEngine::retryPendingDrops() {
    for (const auto& uri : _sessionCache->pendingDrops()) tryDrop(uri);
}

bool WiredTigerKVEngine::hasIdent(const std::string& ident) {
    auto session = _sessionCache->getSession();
    WT_SESSION* s = session->get();
    WT_CURSOR* c = nullptr;
    wtCheck(s->open_cursor(s, "metadata:", nullptr, nullptr, &c), "open metadata");
    std::string uri = uriFor(ident);
    c->set_key(c, uri.c_str());
    int ret = c->search(c);
    c->close(c);
    _sessionCache->releaseSession(std::move(session));
    return ret == 0;
}

std::vector<std::string> WiredTigerKVEngine::getAllIdents() {
    std::vector<std::string> out;
    auto session = _sessionCache->getSession();
    WT_SESSION* s = session->get();
    WT_CURSOR* c = nullptr;
    wtCheck(s->open_cursor(s, "metadata:", nullptr, nullptr, &c), "open metadata");
    while (c->next(c) == 0) {
        const char* key;
        invariantWTOK(c->get_key(c, &key));
        std::string_view k(key);
        if (k.rfind("table:", 0) == 0) out.emplace_back(k.substr(6));
    }
    c->close(c);
    _sessionCache->releaseSession(std::move(session));
    return out;
}

long long WiredTigerKVEngine::identSize(const std::string& ident) {
    struct stat st;
    if (::stat((_options.dbpath + "/" + ident + ".wt").c_str(), &st) != 0) return 0;
    return (long long)st.st_size;
}

SizeStorer* WiredTigerKVEngine::sizeStorer() { return _sizeStorer.get(); }

long long WiredTigerKVEngine::compactIdent(OperationContext* opCtx, const std::string& ident,
                                           const CompactIdentOptions& options) {
    uassert(ErrorCodes::BadValue, "freeSpaceTargetMB must not be negative", options.freeSpaceTargetMB >= 0);
    uassert(ErrorCodes::ShutdownInProgress, "The storage engine is shut down", _conn != nullptr);
    const std::string uri = uriFor(ident);
    const long long targetMB = options.freeSpaceTargetMB > 0 ? options.freeSpaceTargetMB : kDefaultFreeSpaceTargetMB;
    // timeout=0: no time limit of WiredTiger's own; interruption comes through the event handler.
    const std::string config = "timeout=0,free_space_target=" + std::to_string(targetMB) + "MB";

    CompactEventHandler handler{{onWTError, onWTMessage, nullptr, nullptr, onCompactEvent}, opCtx};
    WT_SESSION* s = nullptr;
    wtCheck(_conn->open_session(_conn, &handler.wt, nullptr, &s), "open_session for compact");
    struct SessionCloser {
        WT_SESSION* s;
        ~SessionCloser() { s->close(s, nullptr); }
    } closer{s};

    const long long before = identSize(ident);
    int ret = 0;
    // EBUSY: a checkpoint holds the table, or eviction is stuck; both pass.
    const int kAttempts = 10;
    for (int attempt = 1; attempt <= kAttempts; ++attempt) {
        ret = s->compact(s, uri.c_str(), config.c_str());
        if (ret != EBUSY || attempt == kAttempts || compactInterrupted(opCtx)) break;
        LOGV2_DEBUG(7386701, 1, Storage, "Compact found the table busy, retrying",
                    logv2::attrs("uri", uri, "attempt", attempt));
        std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
    }
    if (ret != 0 && opCtx && compactInterrupted(opCtx)) opCtx->checkForInterrupt();  // throws its error
    if (ret != 0 && !opCtx && globalInShutdown())
        uasserted(ErrorCodes::InterruptedAtShutdown, "compact of " + uri + " interrupted at shutdown");
    if (ret == EBUSY)
        uasserted(ErrorCodes::Interrupted, "Compaction interrupted on " + uri +
                                               ": the table stayed busy (checkpoint or cache eviction pressure)");
    wtCheck(ret, "compact " + ident);

    // WiredTiger compact moves live pages towards the start of the file and lets the next
    // checkpoint cut the free tail off. A table whose every record was removed has no pages to
    // move: its last checkpoint's extent list sits at the end of the file, and as the tree stays
    // clean no later checkpoint touches the file, so the free space would stay in it forever.
    // Two forced checkpoints fix that: the first writes the extent list into the free space at
    // the front, the second (once the old list's block is free) truncates the tail.
    if (reusableBytes(s, uri) >= targetMB * 1024 * 1024) {
        std::lock_guard<std::mutex> lk(_checkpointMutex);
        for (int i = 0; i < 2 && ret == 0; ++i) ret = s->checkpoint(s, "force=true");
        wtCheck(ret, "checkpoint after compact of " + ident);
    }
    return before - identSize(ident);
}

long long WiredTigerKVEngine::identFreeBytes(const std::string& ident) {
    if (!_conn) return 0;
    auto session = _sessionCache->getSession();
    long long n = reusableBytes(session->get(), uriFor(ident));
    _sessionCache->releaseSession(std::move(session));
    return n;
}

std::string WiredTigerKVEngine::identCreationString(const std::string& ident) {
    if (!_conn) return std::string();
    auto session = _sessionCache->getSession();
    WT_SESSION* s = session->get();
    // "metadata:create" holds each object's creation configuration (not its later state).
    WT_CURSOR* c = nullptr;
    std::string out;
    if (s->open_cursor(s, "metadata:create", nullptr, nullptr, &c) == 0) {
        const std::string uri = uriFor(ident);
        c->set_key(c, uri.c_str());
        const char* value = nullptr;
        if (c->search(c) == 0 && c->get_value(c, &value) == 0 && value) out = value;
        c->close(c);
    }
    _sessionCache->releaseSession(std::move(session));
    return out;
}

void WiredTigerKVEngine::configureAutoCompact(const AutoCompactOptions& options) {
    uassert(ErrorCodes::BadValue, "freeSpaceTargetMB must be at least 1", options.freeSpaceTargetMB >= 0);
    uassert(ErrorCodes::ShutdownInProgress, "The storage engine is shut down", _conn != nullptr);
    std::lock_guard<std::mutex> lk(_autoCompactMutex);
    if (options.enable && _autoCompact.load())
        uasserted(ErrorCodes::ObjectIsBusy,
                  "Background compaction is already enabled; stop it with {autoCompact: false} before starting it "
                  "again with other options");
    std::string config = "background=false";
    if (options.enable) {
        const long long target = options.freeSpaceTargetMB > 0 ? options.freeSpaceTargetMB : kDefaultFreeSpaceTargetMB;
        config = "background=true,free_space_target=" + std::to_string(target) + "MB";
        if (options.runOnce) config += ",run_once=true";
    }
    // Compact must not run on a session with a transaction: a session of its own.
    WT_SESSION* s = nullptr;
    wtCheck(_conn->open_session(_conn, nullptr, nullptr, &s), "open_session for autoCompact");
    // EBUSY while WiredTiger's compaction thread is still starting or stopping from the last
    // change (a second {autoCompact: false} right after the first): it settles within moments.
    int ret = s->compact(s, nullptr, config.c_str());
    for (int tries = 0; ret == EBUSY && tries < 100; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ret = s->compact(s, nullptr, config.c_str());
    }
    s->close(s, nullptr);
    if (ret == EBUSY)
        uasserted(ErrorCodes::ObjectIsBusy, "Background compaction is busy; retry");
    wtCheck(ret, "background compaction (" + config + ")");
    _autoCompact.store(options.enable && !options.runOnce);
    LOGV2(8704100, Storage, options.enable ? "Background compaction enabled" : "Background compaction disabled",
          logv2::attrs("config", config));
}

long long WiredTigerKVEngine::reusableBytes(WT_SESSION* s, const std::string& uri) {
    WT_CURSOR* c = nullptr;
    if (s->open_cursor(s, ("statistics:" + uri).c_str(), nullptr, "statistics=(fast)", &c) != 0) return 0;
    c->set_key(c, WT_STAT_DSRC_BLOCK_REUSE_BYTES);
    int64_t value = 0;
    if (c->search(c) == 0) {
        const char* desc;
        const char* pvalue;
        c->get_value(c, &desc, &pvalue, &value);
    }
    c->close(c);
    return (long long)value;
}

void WiredTigerKVEngine::flushAllFiles(bool sync) {
    std::lock_guard<std::mutex> lk(_checkpointMutex);
    if (!_conn) return;
    auto session = _sessionCache->getSession();
    int ret = session->get()->checkpoint(session->get(), nullptr);
    if (ret == 0 && _options.journal && sync) ret = session->get()->log_flush(session->get(), "sync=on");
    _sessionCache->releaseSession(std::move(session));
    wtCheck(ret, "checkpoint");
}

void WiredTigerKVEngine::waitUntilDurable() {
    if (!_options.journal) {
        flushAllFiles(true);
        return;
    }
    auto session = _sessionCache->getSession();
    int ret = session->get()->log_flush(session->get(), "sync=on");
    _sessionCache->releaseSession(std::move(session));
    wtCheck(ret, "log_flush");
}

void WiredTigerKVEngine::backgroundThread() {
    using Clock = std::chrono::steady_clock;
    auto interval = std::chrono::milliseconds(std::max(1, std::min(_options.journalCommitIntervalMs, 1000)));
    auto lastCheckpoint = Clock::now(), lastDropRetry = Clock::now();
    WT_SESSION* s = nullptr;
    invariantWTOK(_conn->open_session(_conn, nullptr, nullptr, &s));
    std::unique_lock<std::mutex> lk(_threadMutex);
    while (!_stopping) {
        _threadCv.wait_for(lk, interval);
        if (_stopping) break;
        lk.unlock();
        auto now = Clock::now();
        if (_options.journal && _commitsSinceFlush.exchange(0) > 0) {
            int ret = s->log_flush(s, "sync=on");
            if (ret) LOGV2_WARNING(22419, Storage, "journal flush failed", logv2::attrs("error", ret));
        }
        if (now - lastDropRetry >= std::chrono::seconds(1)) {
            lastDropRetry = now;
            retryPendingDrops();
            _sessionCache->closeExpiredIdleSessions();
        }
        if (_options.syncDelaySecs > 0 && now - lastCheckpoint >= std::chrono::seconds(_options.syncDelaySecs)) {
            lastCheckpoint = now;
            std::lock_guard<std::mutex> ck(_checkpointMutex);
            int ret = s->checkpoint(s, nullptr);
            if (ret) LOGV2_WARNING(22429, Storage, "checkpoint failed", logv2::attrs("error", ret));
        }
        lk.lock();
    }
    s->close(s, nullptr);
}

bool WiredTigerKVEngine::cleanShutdown() {
    if (_shutDown) return _closedCleanly;
    _shutDown = true;
    {
        std::lock_guard<std::mutex> lk(_threadMutex);
        _stopping = true;
    }
    _threadCv.notify_all();
    if (_thread.joinable()) _thread.join();
    retryPendingDrops();
    _sessionCache->closeAll();
    std::lock_guard<std::mutex> lk(_checkpointMutex);
    LOGV2(4795902, Storage, "Closing WiredTiger", logv2::attrs("dbpath", _options.dbpath));
    // Closing the connection takes a final checkpoint of every table.
    int ret = _conn->close(_conn, nullptr);
    _conn = nullptr;
    _sessionCache->markConnectionClosed();
    if (ret) LOGV2_ERROR(4795903, Storage, "WiredTiger close failed", logv2::attrs("error", ret));
    _closedCleanly = ret == 0;
    return _closedCleanly;
}

BSONObj WiredTigerKVEngine::serverStatusSection() {
    BSONObjBuilder b;
    if (!_conn) return b.obj();
    auto session = _sessionCache->getSession();
    WT_SESSION* s = session->get();
    WT_CURSOR* c = nullptr;
    if (s->open_cursor(s, "statistics:", nullptr, "statistics=(fast)", &c) == 0) {
        auto stat = [&](int key) -> long long {
            c->set_key(c, key);
            if (c->search(c) != 0) return 0;
            const char* desc;
            const char* pvalue;
            int64_t value = 0;
            c->get_value(c, &desc, &pvalue, &value);
            return (long long)value;
        };
        BSONObjBuilder& cache = b.subobjStart("cache");
        cache.append("bytes currently in the cache", stat(WT_STAT_CONN_CACHE_BYTES_INUSE));
        cache.append("maximum bytes configured", stat(WT_STAT_CONN_CACHE_BYTES_MAX));
        cache.append("tracked dirty bytes in the cache", stat(WT_STAT_CONN_CACHE_BYTES_DIRTY));
        cache.doneFast();
        c->close(c);
    }
    _sessionCache->releaseSession(std::move(session));
    return b.obj();
}

}  // namespace mongo

namespace mongo {

namespace {
std::string hexTs(uint64_t ts) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%llx", static_cast<unsigned long long>(ts));
    return buf;
}
}  // namespace

uint64_t WiredTigerKVEngine::queryTimestamp(const char* which) const {
    char buf[17 + 8] = {0};  // a NUL-terminated hex 8-byte timestamp (17 bytes)
    int ret = _conn->query_timestamp(_conn, buf, (std::string("get=") + which).c_str());
    wtCheck(ret, std::string("query_timestamp(") + which + ")");
    return std::strtoull(buf, nullptr, 16);
}

void WiredTigerKVEngine::setStableTimestamp(uint64_t ts) {
    std::lock_guard<std::mutex> lk(_timestampMutex);
    if (ts == 0 || ts <= queryTimestamp("stable_timestamp")) return;
    std::string cfg = "stable_timestamp=" + hexTs(ts);
    wtCheck(_conn->set_timestamp(_conn, cfg.c_str()), "set_timestamp(stable)");
}

void WiredTigerKVEngine::setOldestTimestamp(uint64_t ts) {
    std::lock_guard<std::mutex> lk(_timestampMutex);
    uint64_t stable = queryTimestamp("stable_timestamp");
    if (ts > stable) ts = stable;  // WiredTiger requires oldest <= stable
    if (ts == 0 || ts <= queryTimestamp("oldest_timestamp")) return;
    std::string cfg = "oldest_timestamp=" + hexTs(ts);
    wtCheck(_conn->set_timestamp(_conn, cfg.c_str()), "set_timestamp(oldest)");
}

void WiredTigerKVEngine::setStableAndOldestTimestamp(uint64_t ts) {
    std::lock_guard<std::mutex> lk(_timestampMutex);
    // One set_timestamp call for both (the per-commit cost of a replica set's majority
    // point); oldest never passes stable since both get the same value.
    if (ts == 0 || ts <= queryTimestamp("stable_timestamp")) return;
    std::string cfg = "stable_timestamp=" + hexTs(ts) + ",oldest_timestamp=" + hexTs(ts);
    wtCheck(_conn->set_timestamp(_conn, cfg.c_str()), "set_timestamp(stable, oldest)");
}

// isync: initial sync starts the member's timestamps over (WiredTiger's force=true allows
// moving them backwards).
void WiredTigerKVEngine::resetStableAndOldestTimestamp(uint64_t ts) {
    std::lock_guard<std::mutex> lk(_timestampMutex);
    if (ts == 0) return;
    std::string cfg = "stable_timestamp=" + hexTs(ts) + ",oldest_timestamp=" + hexTs(ts) + ",force=true";
    wtCheck(_conn->set_timestamp(_conn, cfg.c_str()), "set_timestamp(stable, oldest, force)");
}

uint64_t WiredTigerKVEngine::stableTimestamp() const { return queryTimestamp("stable_timestamp"); }
uint64_t WiredTigerKVEngine::oldestTimestamp() const { return queryTimestamp("oldest_timestamp"); }
uint64_t WiredTigerKVEngine::allDurableTimestamp() const { return queryTimestamp("all_durable"); }
uint64_t WiredTigerKVEngine::recoveryTimestamp() const { return queryTimestamp("recovery"); }

}  // namespace mongo
