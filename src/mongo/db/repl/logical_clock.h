#pragma once
// LogicalClock: the node's cluster time, MongoDB's hybrid logical clock. It hands out the
// timestamps of oplog entries (and of the writes they record): each is
// max(wall-clock seconds, last + 1), so values only grow even when the wall clock goes back,
// and many fit in one second (the increment counts them). advanceClusterTime moves it forward
// (the newest oplog entry found at startup; later, $clusterTime gossip and applied entries)
// and never back.
// Thread safe: one mutex-free atomic.
#include <atomic>
#include <cstdint>
#include <functional>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

class LogicalClock {
public:
    // nowSecs: the wall clock in seconds since the epoch (tests pass their own).
    explicit LogicalClock(std::function<uint64_t()> nowSecs = {});

    // The process-wide clock.
    static LogicalClock* get();

    // Reserves n (>= 1) consecutive timestamps and returns the first. Every later call
    // returns larger ones.
    Timestamp reserveTicks(uint64_t n = 1);
    // The newest time handed out or advanced to (Timestamp(0, 0) before any).
    Timestamp getClusterTime() const { return Timestamp::fromULL(_last.load()); }
    // Moves the clock to at least t (no effect if it is already past it).
    void advanceClusterTime(Timestamp t);

private:
    std::function<uint64_t()> _nowSecs;
    std::atomic<uint64_t> _last{0};
};

}  // namespace repl
}  // namespace mongo
