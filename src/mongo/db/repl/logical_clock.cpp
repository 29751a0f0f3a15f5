#include "mongo/db/repl/logical_clock.h"

#include "mongo/base/status.h"

namespace mongo {
namespace repl {

LogicalClock::LogicalClock(std::function<uint64_t()> nowSecs) : _nowSecs(std::move(nowSecs)) {
    if (!_nowSecs) _nowSecs = [] { return static_cast<uint64_t>(Date_t::now().millis / 1000); };
}

LogicalClock* LogicalClock::get() {
    static LogicalClock clock;
    return &clock;
}

Timestamp LogicalClock::reserveTicks(uint64_t n) {
    invariant(n >= 1);
    // The first tick of the current second is (secs, 1): increment 0 is left to Timestamp(s, 0)
    // values, which mean "unset" to several of MongoDB's readers.
    const uint64_t floor = (_nowSecs() << 32) | 1;
    uint64_t prev = _last.load();
    while (true) {
        uint64_t first = std::max(prev + 1, floor);
        // Never hand out an increment of 0 by carrying into the next second.
        if ((first & 0xffffffffULL) == 0) first += 1;
        uint64_t last = first + (n - 1);
        if (_last.compare_exchange_weak(prev, last)) return Timestamp::fromULL(first);
    }
}

void LogicalClock::advanceClusterTime(Timestamp t) {
    uint64_t v = t.asULL();
    uint64_t prev = _last.load();
    while (prev < v && !_last.compare_exchange_weak(prev, v)) {
    }
}

}  // namespace repl
}  // namespace mongo
