#pragma once
// One oplog entry in MongoDB 7.0's format, built and parsed:
//   {op, ns, ui?, o, o2?, ts, t, v: 2, wall}
//   op: 'i' insert (o: the document, o2: {_id}), 'u' update (o: {$v: 2, diff} or the whole
//   replacement document, o2: {_id}), 'd' delete (o: {_id}), 'c' command on "<db>.$cmd"
//   (create, drop, createIndexes, dropIndexes, renameCollection, dropDatabase, collMod),
//   'n' no-op (o: {msg: ...}, ns "").
//   ui: the collection's UUID (BinData subtype 4); t and v are longs; wall a Date.
// A committed multi-document transaction is one 'c' entry on "admin.$cmd" with
//   o: {applyOps: [{op, ns, ui, o, o2?}, ...]}, lsid, txnNumber and a null prevOpTime.
// A retryable write's statement also carries, as in 7.0 (session_txn_table.h):
//   lsid: {id: UUID, uid: BinData(0)}, txnNumber (long), stmtId (int), prevOpTime {ts, t}
//   (the session's previous entry of the same txnNumber; {ts: Timestamp(0, 0), t: -1} for
//   the first), and for a findAndModify needsRetryImage: "preImage" | "postImage" (the image
//   itself is in config.image_collection).
// A value type; thread safe as any value.
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

enum class OpTypeEnum : char { kInsert = 'i', kUpdate = 'u', kDelete = 'd', kCommand = 'c', kNoop = 'n' };

struct OplogEntry {
    static constexpr long long kOplogVersion = 2;

    OpTime opTime;
    OpTypeEnum op = OpTypeEnum::kNoop;
    std::string ns;
    std::string uuidHex;  // the collection's UUID as 32 hex digits, "" = none
    BSONObj o;
    std::optional<BSONObj> o2;
    Date_t wall;
    long long version = kOplogVersion;
    // Retryable writes (all set or none): lsid empty = not part of one.
    BSONObj lsid;
    long long txnNumber = -1;
    int stmtId = -1;
    OpTime prevOpTime;
    std::string needsRetryImage;  // "" = none

    bool isRetryableWrite() const { return !lsid.isEmpty(); }

    BSONObj toBSON() const;
    // The entry as an element of a transaction's applyOps array: {op, ns, ui?, o, o2?} (no
    // time, term or session: the applyOps entry carries them).
    BSONObj toApplyOpsElement() const;
    // Parses one element of an applyOps array (as toApplyOpsElement writes it): its CRUD
    // operations and the commands isTransactionCommand accepts.
    static StatusWith<OplogEntry> parseApplyOpsElement(const BSONObj& obj);
    // A command a transaction may hold in its applyOps: create or createIndexes on <db>.$cmd.
    static bool isTransactionCommand(const OplogEntry& e);
    // Whether this is a transaction's commit: a command entry {applyOps: [...]} on admin.$cmd.
    bool isApplyOps() const;
    // Parses an entry. FailedToParse / TypeMismatch / NoSuchKey / BadValue for malformed ones.
    static StatusWith<OplogEntry> parse(const BSONObj& obj);

    // An update's o: {$v: 2, diff}.
    static BSONObj makeUpdateDiffObject(const BSONObj& diff);
    // Whether o is a $v: 2 diff (else a replacement document).
    bool isDiffUpdate() const;
};

// "0123..." (32 hex digits) <-> the 16 bytes of a BinData(4): mongo/bson/uuid.h.
using ::mongo::uuidBytesToHex;
using ::mongo::uuidHexToBytes;

}  // namespace repl
}  // namespace mongo
