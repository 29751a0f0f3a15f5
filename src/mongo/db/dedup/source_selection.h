#pragma once
// Cache-aware source selection (thesis Algorithm 2): among the records that share features
// with the new record, score each by the number of shared features plus `reward` if it is
// in the source record cache, and pick the highest score; ties go to the newest record
// (updates are usually incremental, so newer is usually more similar).
// Thread-safety: stateless functions.
#include <cstdint>
#include <vector>

namespace mongo {
namespace dedup {

struct SelectionCandidate {
    uint32_t ptr = 0;     // record pointer
    uint32_t shared = 0;  // features in common with the new record
    uint64_t seq = 0;     // insertion order, larger is newer
    bool cached = false;  // in the source record cache
};

// Folds index lookup results (one pointer per matching feature, duplicates allowed) into
// one candidate per record with its shared-feature count. seq and cached are left 0/false.
std::vector<SelectionCandidate> tallyCandidates(std::vector<uint32_t> ptrs);

// Index into `cands` of the chosen source, or -1 if there is none.
int selectSource(const std::vector<SelectionCandidate>& cands, uint32_t reward);

}  // namespace dedup
}  // namespace mongo
