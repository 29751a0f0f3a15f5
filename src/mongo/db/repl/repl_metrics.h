#pragma once
// serverStatus().metrics.repl.network, as MongoDB's: what a member's fetcher received from its
// sync source (entries and their bytes as sent, so forward-encoded inserts count at their
// encoded size; oplog_delta_encoding.h) and its getMores.
// Thread safety: relaxed atomic counters.
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

// A batch of fetched entries (find's firstBatch or a getMore's nextBatch).
void noteBatchReceived(const std::vector<BSONElement>& batch);
// A getMore on the sync source's oplog took this long.
void noteOplogGetMore(long long millis);

}  // namespace repl
}  // namespace mongo
