#include "mongo/db/dedup/source_selection.h"

#include <algorithm>

namespace mongo {
namespace dedup {

std::vector<SelectionCandidate> tallyCandidates(std::vector<uint32_t> ptrs) {
    std::sort(ptrs.begin(), ptrs.end());
    std::vector<SelectionCandidate> out;
    for (size_t i = 0; i < ptrs.size();) {
        size_t j = i;
        while (j < ptrs.size() && ptrs[j] == ptrs[i])
            ++j;
        SelectionCandidate c;
        c.ptr = ptrs[i];
        c.shared = static_cast<uint32_t>(j - i);
        out.push_back(c);
        i = j;
    }
    return out;
}

int selectSource(const std::vector<SelectionCandidate>& cands, uint32_t reward) {
    int best = -1;
    uint64_t bestScore = 0;
    for (size_t i = 0; i < cands.size(); ++i) {
        const SelectionCandidate& c = cands[i];
        uint64_t score = uint64_t(c.shared) + (c.cached ? reward : 0);
        if (best < 0 || score > bestScore || (score == bestScore && c.seq > cands[best].seq)) {
            best = static_cast<int>(i);
            bestScore = score;
        }
    }
    return best;
}

}  // namespace dedup
}  // namespace mongo
