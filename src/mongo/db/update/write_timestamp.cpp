#include "mongo/db/update/write_timestamp.h"

#include <atomic>

namespace mongo {

Timestamp nextWriteTimestamp() {
    static std::atomic<uint64_t> last{0};
    uint64_t nowSecs = static_cast<uint64_t>(Date_t::now().millis / 1000);
    uint64_t candidateBase = nowSecs << 32;
    uint64_t prev = last.load();
    while (true) {
        uint64_t next = std::max(prev + 1, candidateBase | 1);
        if (last.compare_exchange_weak(prev, next)) return Timestamp::fromULL(next);
    }
}

}  // namespace mongo
