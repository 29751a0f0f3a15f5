#pragma once
// OpTime: where an operation sits in a replica set's history: the oplog entry's timestamp and
// the term of the primary that wrote it. Ordered by term, then timestamp (protocol version
// 1: a newer term's entries follow every entry of older terms). The null OpTime is
// {ts: Timestamp(0, 0), t: -1}, what replSetGetStatus shows before any write.
// BSON form {ts: Timestamp, t: long long}. A value type: thread safe as any value.
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {

class OpTime {
public:
    static constexpr long long kUninitializedTerm = -1;
    static constexpr long long kInitialTerm = 0;

    OpTime() = default;
    OpTime(Timestamp ts, long long term) : _ts(ts), _term(term) {}

    Timestamp getTimestamp() const { return _ts; }
    long long getTerm() const { return _term; }
    bool isNull() const { return _ts.isNull(); }

    // {ts, t}
    BSONObj toBSON() const {
        BSONObjBuilder b;
        append(&b);
        return b.obj();
    }
    void append(BSONObjBuilder* b) const {
        b->append("ts", _ts);
        b->append("t", _term);
    }
    void append(BSONObjBuilder* b, std::string_view name) const { b->append(name, toBSON()); }
    // Parses {ts: Timestamp, t: <number>}: TypeMismatch / NoSuchKey for a malformed one.
    static StatusWith<OpTime> parse(const BSONObj& obj) {
        BSONElement ts = obj["ts"];
        if (ts.eoo()) return Status(ErrorCodes::NoSuchKey, "OpTime is missing field 'ts'");
        if (ts.type() != bsonTimestamp)
            return Status(ErrorCodes::TypeMismatch, "OpTime field 'ts' must be a timestamp");
        BSONElement t = obj["t"];
        if (t.eoo()) return Status(ErrorCodes::NoSuchKey, "OpTime is missing field 't'");
        if (!t.isNumber()) return Status(ErrorCodes::TypeMismatch, "OpTime field 't' must be a number");
        return OpTime(ts.timestamp(), t.numberLong());
    }
    std::string toString() const {
        return "{ ts: Timestamp(" + std::to_string(_ts.secs) + ", " + std::to_string(_ts.inc) +
               "), t: " + std::to_string(_term) + " }";
    }

    bool operator==(const OpTime& o) const { return _term == o._term && _ts == o._ts; }
    bool operator!=(const OpTime& o) const { return !(*this == o); }
    bool operator<(const OpTime& o) const {
        if (_term != o._term) return _term < o._term;
        return _ts < o._ts;
    }
    bool operator<=(const OpTime& o) const { return !(o < *this); }
    bool operator>(const OpTime& o) const { return o < *this; }
    bool operator>=(const OpTime& o) const { return !(*this < o); }

private:
    Timestamp _ts;
    long long _term = kUninitializedTerm;
};

}  // namespace repl
}  // namespace mongo
