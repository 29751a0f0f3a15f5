#pragma once
// Forward-encoded oplog entries between members (dbDedup in replication, paper section 4.1;
// sDedup). A member's fetcher asks its sync source for them with find's
// $_dedupForwardDeltas: true; the source then sends an insert into a deduplicated collection
// whose forward delta the encoder computed (storage/dedup/forward_delta_cache.h) as
//     {..., o: {_id: <id>}, ..., $dedup: {b: <the source document's _id>, d: BinData(delta)}}
// (every other field as stored, in its place; $dedup last) instead of the whole document. The
// source is a document of the same collection that the member already holds, as it was when
// the entry was written. The member rebuilds the entry byte for byte before it parses, applies
// or stores it, so its own oplog holds MongoDB-format entries, as every other reader of an
// oplog sees them (find, tailable cursors, change streams, tools: they never ask for deltas).
//
// Nothing is trusted: the source checks that the delta rebuilds the entry's document before it
// sends it, the delta carries its result's length and CRC32C, and a member that does not hold
// the source as the delta expects (deleted, rolled back, changed by a later entry it already
// applied, not yet there after an initial sync) fetches the entry whole (the paper's
// supplemental fetch). Dedup never makes an entry fail to apply.
//
// Thread safety: free functions over the catalog, callers hold the locks named below.
#include <functional>
#include <memory>
#include <optional>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/dedup/forward_delta_cache.h"

namespace mongo {

class Collection;
struct ReplicatedDelta;

namespace repl {

// find's field with which a member asks for forward-encoded entries.
constexpr const char* kFetchForwardDeltasField = "$_dedupForwardDeltas";
constexpr const char* kEncodedEntryField = "$dedup";

// Sync source side: what to send for oplog entry `entry` to a member that asked for forward
// deltas (the entry itself unless it can be encoded: an insert into a deduplicated collection, or
// an update noteUpdate kept a delta for). awaitEncoder is called when the entry is
// an insert into a deduplicated collection the encoder has not examined yet (by the engine's
// namespace and record id): it may wait for the encoder (ForwardDeltaCache::waitFor).
// REQUIRES: a catalog read lock.
using AwaitEncoder =
    std::function<std::optional<ForwardDeltaCache::Entry>(const std::string& engineNs, int64_t recordId)>;
BSONObj encodeForMember(OperationContext* opCtx, const BSONObj& entry, const AwaitEncoder& awaitEncoder);

// Primary side of an update: keeps a forward delta from the pre-image (the natural source) to
// the entry's o (the new document of a replacement, or the $v: 2 diff, which carries a text
// field edited in place whole) for the entry at ts, when it is much smaller than o; members
// then get {o: {}, $dedup: {b: <o2._id>, ...}} and rebuild o from the version they hold
// (beyond MongoDB, which ships both whole). Only on a deduplicated collection of a replica
// set. REQUIRES: in the update's unit of work, after the entry got its timestamp.
void noteUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre, const BSONObj& o,
                const Timestamp& ts);

// Member side.
bool isEncodedEntry(const BSONObj& fetched);

struct DecodedEntry {
    BSONObj entry;  // as the source stores it
    // For the storage layer's re-encoder (null on a member without deduplication of that
    // collection): the source by this member's record id, and the delta.
    std::shared_ptr<const ReplicatedDelta> replicated;
};
// Rebuilds an encoded entry from this member's copy of its source. NoSuchKey when this member
// does not hold the source as the delta expects: fetch the entry whole instead. Takes the
// catalog read lock itself.
StatusWith<DecodedEntry> decodeFromLocalSource(OperationContext* opCtx, const BSONObj& fetched);

}  // namespace repl
}  // namespace mongo
