#pragma once
// The server's locking, deliberately simple:
//   - the catalog lock: shared by every command that uses a Collection*, exclusive for DDL
//     (create/drop/rename collection, create/drop index, dropDatabase);
//   - the write lock: serialises document writes, so WiredTiger never reports write conflicts
//     between our own writers, while readers run concurrently on snapshots.
// Lock order: catalog lock, then write lock.
#include <mutex>
#include <shared_mutex>

namespace mongo {

std::shared_mutex& catalogMutex();
std::mutex& writeMutex();

// A command reading documents.
class CatalogReadLock {
public:
    CatalogReadLock() : _lk(catalogMutex()) {}

private:
    std::shared_lock<std::shared_mutex> _lk;
};

// A command writing documents (may create a collection implicitly through upgradeToDDL).
class CollectionWriteLock {
public:
    CollectionWriteLock() : _cat(catalogMutex()), _w(writeMutex()) {}

    // Between two units of work of a long write: lets others write, keeping the catalog lock
    // (the caller's Collection* stays valid), runs `whileReleased`, takes the write lock again.
    template <typename F>
    void yieldWrites(F&& whileReleased) {
        _w.unlock();
        struct Relock {
            std::unique_lock<std::mutex>& w;
            ~Relock() { w.lock(); }
        } relock{_w};
        whileReleased();
    }

private:
    std::shared_lock<std::shared_mutex> _cat;
    std::unique_lock<std::mutex> _w;
};

// A command changing the catalog.
class CatalogDDLLock {
public:
    CatalogDDLLock() : _cat(catalogMutex()), _w(writeMutex()) {}

private:
    std::unique_lock<std::shared_mutex> _cat;
    std::unique_lock<std::mutex> _w;
};

}  // namespace mongo
