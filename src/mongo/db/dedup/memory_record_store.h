#pragma once
// An in-memory RecordStore: the storage side of the engine for unit tests and dedup_bench.
// It keeps each record's stored form, and counts reads and writes so tests and the benchmark
// can see the I/O the engine causes.
// Thread-safety: thread-safe (one internal mutex).
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "mongo/db/dedup/dedup_engine.h"

namespace mongo {
namespace dedup {

class MemoryRecordStore : public RecordStore {
public:
    // Storage-layer operations (what the server's record store does on client writes).
    void putRaw(std::string_view ns, int64_t id, std::string_view bytes);
    void put(std::string_view ns, int64_t id, std::string stored);
    void remove(std::string_view ns, int64_t id);
    bool contains(std::string_view ns, int64_t id) const;
    // Applies what the engine asks on an update / delete.
    void apply(std::string_view ns, const UpdatePlan& plan);
    void apply(std::string_view ns, const DeletePlan& plan);

    // RecordStore (writeStored keeps a retained record's flag, as mongod's record store does)
    Status readStored(std::string_view ns, int64_t id, std::string* out) override;
    Status writeStored(std::string_view ns, int64_t id, std::string_view stored) override;
    Status removeRetained(std::string_view ns, int64_t id) override;

    // Visits every (ns, id, stored form) in key order.
    void forEach(const std::function<void(const std::string&, int64_t, const std::string&)>& f) const;
    uint64_t storedBytes() const;
    size_t size() const;
    uint64_t reads() const;
    uint64_t writeBacks() const;
    // When set, writeStored fails (to test failed write-backs).
    void failWrites(bool fail);

private:
    mutable std::mutex _mu;
    std::map<std::pair<std::string, int64_t>, std::string> _recs;
    uint64_t _reads = 0, _writeBacks = 0;
    bool _failWrites = false;
};

}  // namespace dedup
}  // namespace mongo
