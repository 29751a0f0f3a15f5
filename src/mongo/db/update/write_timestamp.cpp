#include "mongo/db/update/write_timestamp.h"

#include "mongo/db/repl/logical_clock.h"

namespace mongo {

// One clock for the process: the values never go behind the oplog's timestamps.
Timestamp nextWriteTimestamp() { return repl::LogicalClock::get()->reserveTicks(); }

}  // namespace mongo
