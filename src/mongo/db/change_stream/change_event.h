#pragma once
// Change stream events from oplog entries (MongoDB 7.0's shapes), and resume tokens.
//
// Events: insert {fullDocument}, update {updateDescription: {updatedFields, removedFields,
// truncatedArrays}} (from the entry's $v: 2 diff), replace {fullDocument}, delete, each with
// ns {db, coll} and documentKey {_id}; drop, rename {to}, dropDatabase; invalidate when the
// watched collection is dropped or renamed away, or the watched database dropped. Every event
// has _id (its resume token), operationType, clusterTime (the entry's ts) and wallTime; the
// events of a committed transaction (one per operation of its applyOps entry, all at the
// entry's time) also lsid and txnNumber (a retryable write's are not shown, as MongoDB). Creates, index builds and other
// DDL are not shown (MongoDB shows them only with showExpandedEvents).
//
// Resume token: {_data: <hex string>}: the entry's timestamp and a kind: an event of the entry,
// the entry's invalidate (which follows its drop/rename/dropDatabase event), or a high-water
// mark (everything of the entry and before is accounted for: postBatchResumeToken of a batch
// that ended past the last event). Tokens order as (ts, kind), and as strings. Opaque to
// clients, as MongoDB's: only this server decodes them.
// Pure functions: thread safe.
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace change_stream {

struct Scope {
    enum class Kind { kCollection, kDatabase, kCluster };
    Kind kind = Kind::kCollection;
    std::string db;
    std::string coll;  // kCollection only

    // Whether a CRUD entry on ns ("db.coll") is an event of this stream: the collection; every
    // non-system collection of the database; every non-system collection of every database but
    // admin, config and local.
    bool watches(const std::string& ns) const;
};

struct ResumeToken {
    enum class Kind { kEvent = 0, kInvalidate = 1, kHighWaterMark = 2 };
    Timestamp ts;
    Kind kind = Kind::kEvent;
    // An event of a transaction's applyOps entry: its operation's index in the entry.
    std::optional<uint32_t> txnOpIndex;
    bool fromInvalidate() const { return kind == Kind::kInvalidate; }

    BSONObj toBSON() const;  // {_data: "..."}
    // InvalidResumeToken (260) for anything this server did not make.
    static StatusWith<ResumeToken> parse(const BSONObj& token);
};

// What a stream does with updates: the document as it is now (updateLookup), or none.
struct EventOptions {
    bool updateLookup = false;
};

// The events of one oplog entry for the scope, in order (none, one, or e.g. drop + invalidate).
// lookup(ns, documentKey): the current document, for updateLookup (nullopt: gone -> null).
// readEntry(opTime): an earlier oplog entry, for a transaction written as a chain of applyOps
// entries (repl/transaction_oplog.h), whose events all come with its last entry.
// Throws DBException for an entry it cannot read.
using DocumentLookup = std::function<std::optional<BSONObj>(const std::string& ns, const BSONObj& documentKey)>;
using EntryReader = std::function<std::optional<BSONObj>(const repl::OpTime&)>;
std::vector<BSONObj> eventsFor(const BSONObj& entry, const Scope& scope, const EventOptions& options,
                               const DocumentLookup& lookup, const EntryReader& readEntry = {});

// updateDescription {updatedFields, removedFields, truncatedArrays} of a $v: 2 diff.
BSONObj updateDescriptionOf(const BSONObj& diff);

}  // namespace change_stream
}  // namespace mongo
