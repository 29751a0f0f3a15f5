#pragma once
// One oplog entry in MongoDB 7.0's format, built and parsed:
//   {op, ns, ui?, o, o2?, ts, t, v: 2, wall}
//   op: 'i' insert (o: the document, o2: {_id}), 'u' update (o: {$v: 2, diff} or the whole
//   replacement document, o2: {_id}), 'd' delete (o: {_id}), 'c' command on "<db>.$cmd"
//   (create, drop, createIndexes, dropIndexes, renameCollection, dropDatabase, collMod),
//   'n' no-op (o: {msg: ...}, ns "").
//   ui: the collection's UUID (BinData subtype 4); t and v are longs; wall a Date.
// Retryable-write fields (lsid, txnNumber, stmtId, prevOpTime) arrive with milestone 4.
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

    BSONObj toBSON() const;
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
