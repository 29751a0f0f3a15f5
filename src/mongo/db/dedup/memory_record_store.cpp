#include "mongo/db/dedup/memory_record_store.h"

namespace mongo {
namespace dedup {

void MemoryRecordStore::putRaw(std::string_view ns, int64_t id, std::string_view bytes) {
    put(ns, id, makeRawStored(bytes));
}

void MemoryRecordStore::put(std::string_view ns, int64_t id, std::string stored) {
    std::lock_guard<std::mutex> lk(_mu);
    _recs[{std::string(ns), id}] = std::move(stored);
}

void MemoryRecordStore::remove(std::string_view ns, int64_t id) {
    std::lock_guard<std::mutex> lk(_mu);
    _recs.erase({std::string(ns), id});
}

bool MemoryRecordStore::contains(std::string_view ns, int64_t id) const {
    std::lock_guard<std::mutex> lk(_mu);
    return _recs.count({std::string(ns), id}) != 0;
}

void MemoryRecordStore::apply(std::string_view ns, const UpdatePlan& plan) {
    for (const Rewrite& r : plan.rewrites)
        put(ns, r.id, r.stored);
    for (int64_t id : plan.alsoRemove)
        remove(ns, id);
}

void MemoryRecordStore::apply(std::string_view ns, const DeletePlan& plan) {
    for (int64_t id : plan.alsoRemove)
        remove(ns, id);
}

Status MemoryRecordStore::readStored(std::string_view ns, int64_t id, std::string* out) {
    std::lock_guard<std::mutex> lk(_mu);
    auto it = _recs.find({std::string(ns), id});
    if (it == _recs.end())
        return Status(ErrorCodes::NoSuchKey, "no such record");
    ++_reads;
    *out = it->second;
    return Status::OK();
}

Status MemoryRecordStore::writeStored(std::string_view ns, int64_t id, std::string_view stored) {
    std::lock_guard<std::mutex> lk(_mu);
    if (_failWrites)
        return Status(ErrorCodes::InternalError, "write failed (test)");
    auto it = _recs.find({std::string(ns), id});
    if (it == _recs.end())
        return Status(ErrorCodes::NoSuchKey, "no such record");
    // As mongod's record store does: a retained record stays retained (hidden from clients)
    // whatever new form the engine gives it.
    const bool retained = !it->second.empty() && (uint8_t(it->second[0]) & kStoredRetainedFlag);
    it->second.assign(stored.data(), stored.size());
    if (retained && !it->second.empty())
        it->second = withRetainedFlag(std::move(it->second), true);
    ++_writeBacks;
    return Status::OK();
}

Status MemoryRecordStore::removeRetained(std::string_view ns, int64_t id) {
    std::lock_guard<std::mutex> lk(_mu);
    _recs.erase({std::string(ns), id});
    return Status::OK();
}

void MemoryRecordStore::forEach(
    const std::function<void(const std::string&, int64_t, const std::string&)>& f) const {
    std::lock_guard<std::mutex> lk(_mu);
    for (const auto& [k, v] : _recs)
        f(k.first, k.second, v);
}

uint64_t MemoryRecordStore::storedBytes() const {
    std::lock_guard<std::mutex> lk(_mu);
    uint64_t n = 0;
    for (const auto& kv : _recs)
        n += kv.second.size();
    return n;
}

size_t MemoryRecordStore::size() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _recs.size();
}

uint64_t MemoryRecordStore::reads() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _reads;
}

uint64_t MemoryRecordStore::writeBacks() const {
    std::lock_guard<std::mutex> lk(_mu);
    return _writeBacks;
}

void MemoryRecordStore::failWrites(bool fail) {
    std::lock_guard<std::mutex> lk(_mu);
    _failWrites = fail;
}

}  // namespace dedup
}  // namespace mongo
