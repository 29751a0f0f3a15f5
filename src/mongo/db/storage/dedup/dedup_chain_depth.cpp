// longestStoredChain (dedup_storage.h): the decode bound as the stored forms show it.
#include <unordered_map>
#include <vector>

#include "mongo/db/dedup/stored_form.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/db/storage/record_store.h"

namespace mongo {

long long longestStoredChain(OperationContext* opCtx, const mongo::RecordStore& stored) {
    // Every record's base (0: stored raw, or unreadable: decoding stops there).
    std::unordered_map<int64_t, int64_t> baseOf;
    auto cursor = stored.getCursor(opCtx, true);
    while (auto e = cursor->next()) {
        const int64_t id = e->id.repr();
        dedup::StoredView v;
        baseOf[id] = dedup::parseStored(id, e->data.view(), &v).isOK() && v.isDelta ? v.baseId : 0;
        if ((baseOf.size() & 1023) == 0) opCtx->checkForInterrupt();
    }
    // Depths memoised along each walk: linear overall.
    std::unordered_map<int64_t, long long> depth;
    depth.reserve(baseOf.size());
    long long longest = 0;
    std::vector<int64_t> path;
    for (const auto& entry : baseOf) {
        path.clear();
        int64_t n = entry.first;
        long long known = -1;  // depth of the record the walk stopped at, -1: a raw or missing base
        while (true) {
            auto d = depth.find(n);
            if (d != depth.end()) {
                known = d->second;
                break;
            }
            auto b = baseOf.find(n);
            if (b == baseOf.end()) break;  // a missing base: validate reports it
            path.push_back(n);
            if (b->second == 0 || path.size() > baseOf.size()) {
                // A raw record ends the walk at depth 0 (it is on the path: known = -1); so
                // does a loop, which validate reports as undecodable.
                break;
            }
            n = b->second;
        }
        for (size_t i = path.size(); i-- > 0;) depth[path[i]] = ++known;
        if (!path.empty()) longest = std::max(longest, depth[path.front()]);
        if ((depth.size() & 1023) == 0) opCtx->checkForInterrupt();
    }
    return longest;
}

}  // namespace mongo
