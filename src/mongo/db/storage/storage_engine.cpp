#include "mongo/db/storage/storage_engine.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/util/log.h"

namespace mongo {

std::unique_ptr<StorageEngine> StorageEngine::open(const StorageEngineOptions& options) {
    const std::string& c = options.blockCompressor;
    uassert(ErrorCodes::BadValue, "invalid value for blockCompressor: " + c,
            c == "none" || c == "snappy" || c == "zlib" || c == "zstd");
    uassert(ErrorCodes::BadValue, "cacheSizeGB must be >= 0", options.cacheSizeGB >= 0);
    struct stat st;
    uassert(ErrorCodes::NonExistentPath,
            "Data directory " + options.dbpath +
                " not found. Create the missing directory or specify another path using (1) the --dbpath "
                "command line option, or (2) by adding the 'storage.dbPath' option in the configuration file.",
            ::stat(options.dbpath.c_str(), &st) == 0 && S_ISDIR(st.st_mode));

    std::unique_ptr<StorageEngine> engine(new StorageEngine());
    engine->_options = options;
    std::string lockPath = options.dbpath + "/mongod.lock";
    int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT, 0644);
    uassert(ErrorCodes::DBPathInUse,
            "Unable to create/open the lock file: " + lockPath + " (" + std::strerror(errno) +
                "). Ensure the user executing mongod is the owner of the lock file and has the appropriate "
                "permissions. Also make sure that another mongod instance is not already running on the " +
                options.dbpath + " directory",
            fd >= 0);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        ::close(fd);
        uasserted(ErrorCodes::DBPathInUse, "Unable to lock the lock file: " + lockPath + " (" + std::strerror(err) +
                                               "). Another mongod instance is already running on the " +
                                               options.dbpath + " directory");
    }
    engine->_lockFd = fd;
    engine->_unclean = ::lseek(fd, 0, SEEK_END) > 0;
    if (engine->_unclean)
        LOGV2_WARNING(22272, Storage, "Detected unclean shutdown - Lock file is not empty",
                      logv2::attrs("lockFile", lockPath));
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size()) || ::fsync(fd) != 0)
        uasserted(ErrorCodes::DBPathInUse, "Unable to write to the lock file " + lockPath);

    engine->_kv = std::make_unique<WiredTigerKVEngine>(options);
    return engine;
}

StorageEngine::~StorageEngine() { cleanShutdown(); }

std::unique_ptr<RecordStore> StorageEngine::openCollectionRecordStore(const CollectionStorageInfo& info) {
    auto rs = _kv->getRecordStore(info.ident);
    if (_wrapper) rs = _wrapper(std::move(rs), info);
    return rs;
}

void StorageEngine::cleanShutdown(const std::function<void()>& afterClose) {
    if (_shutDown) return;
    _shutDown = true;
    if (_kv && _kv->cleanShutdown() && afterClose) afterClose();
    if (_lockFd >= 0) {
        // An empty lock file tells the next startup that this shutdown was clean.
        if (::ftruncate(_lockFd, 0) == 0) ::fsync(_lockFd);
        ::flock(_lockFd, LOCK_UN);
        ::close(_lockFd);
        _lockFd = -1;
    }
}

}  // namespace mongo
