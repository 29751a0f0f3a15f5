#include "mongo/db/commands/command_helpers.h"

#include "mongo/db/repl/coordinator.h"
#include "mongo/db/server_options.h"
#include "mongo/db/update/element_format.h"

#include <unistd.h>

#include <cmath>
#include <set>

namespace mongo {

NamespaceString commandTargetNamespace(const OpMsgRequest& req) {
    BSONElement first = req.body.firstElement();
    if (first.type() != String)
        uasserted(ErrorCodes::InvalidNamespace,
                  "collection name has invalid type " + typeName(first.type()));
    std::string db = req.db();
    std::string coll = first.str();
    uassertStatusOK(NamespaceString::validateNamespace(db, coll));
    return NamespaceString(db, coll);
}

long long parseIntegerArg(const BSONElement& e, const char* cmd) {
    long long v;
    if (!e.isNumber())
        uasserted(ErrorCodes::TypeMismatch, std::string("BSON field '") + cmd + "." + std::string(e.fieldNameStringData()) +
                                                "' is the wrong type '" + typeName(e.type()) +
                                                "', expected types '[long, int, decimal, double]'");
    if (!e.isIntegral64(&v))
        uasserted(ErrorCodes::BadValue, "Expected an integer: " + e.toString());
    return v;
}

long long extractIntegerField(const BSONObj& obj, const char* name) {
    BSONElement e = obj[name];
    uassert(ErrorCodes::NoSuchKey, std::string("Missing expected field \"") + name + "\"", !e.eoo());
    uassert(ErrorCodes::TypeMismatch,
            std::string("Expected field \"") + name + "\" to have numeric type, but found " + typeName(e.type()),
            e.isNumber());
    long long v;
    uassert(ErrorCodes::BadValue,
            std::string("Expected field \"") + name +
                "\" to have a value exactly representable as a 64-bit integer, but found " + formatElementForError(e),
            e.isIntegral64(&v));
    return v;
}

bool parseBoolArg(const BSONElement& e, const char* cmd) {
    if (e.type() != Bool && !e.isNumber() && !e.isNull())
        uasserted(ErrorCodes::TypeMismatch, std::string("BSON field '") + cmd + "." + std::string(e.fieldNameStringData()) +
                                                "' is the wrong type '" + typeName(e.type()) +
                                                "', expected types '[bool, long, int, decimal, double]'");
    return e.trueValue();
}

BSONObj parseObjectArg(const BSONElement& e, const char* cmd) {
    if (e.eoo()) return BSONObj();
    if (e.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, std::string("BSON field '") + cmd + "." + std::string(e.fieldNameStringData()) +
                                                "' is the wrong type '" + typeName(e.type()) +
                                                "', expected type 'object'");
    return e.Obj();
}

bool parseWriteConcernIsDurable(const BSONObj& cmd) {
    auto* c = repl::ReplicationCoordinator::get();
    const bool replSet = c->isReplSet();
    // Counting the members takes the coordinator's mutex: only for a numeric w above 1.
    BSONElement w = cmd["writeConcern"].type() == Object ? cmd["writeConcern"].Obj()["w"] : BSONElement();
    const bool needsCount = replSet && w.isNumber() && w.numberLong() > 1;
    return parseWriteConcernIsDurable(cmd, replSet, needsCount ? c->dataBearingMembers() : 1);
}

bool parseWriteConcernIsDurable(const BSONObj& cmd, bool replSet, int dataBearingMembers) {
    BSONElement wc = cmd["writeConcern"];
    // No writeConcern: the implicit default, w: "majority" on a replica set (journaled like
    // an explicit one), w: 1 on a standalone.
    if (wc.eoo() || wc.isNull()) return replSet;
    if (wc.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, "writeConcern must be an object");
    BSONObj o = wc.Obj();
    BSONElement w = o["w"];
    if (w.isNumber()) {
        if (w.numberLong() < 0) uasserted(ErrorCodes::FailedToParse, "w has to be a non-negative number");
        if (w.numberLong() > 1) {
            // w counts data-bearing members (the wait is the replication layer's).
            if (replSet) {
                uassert(ErrorCodes::UnsatisfiableWriteConcern, "Not enough data-bearing nodes",
                        w.numberLong() <= dataBearingMembers);
            } else {
                uasserted(ErrorCodes::BadValue, "cannot use 'w' > 1 on a standalone");
            }
        }
    } else if (!w.eoo() && w.type() != String && !w.isABSONObj()) {
        uasserted(ErrorCodes::FailedToParse, "w has to be a number, string, or object");
    }
    BSONElement j = o["j"];
    BSONElement fsync = o["fsync"];
    if (!j.eoo()) return j.trueValue() || (!fsync.eoo() && fsync.trueValue());
    // A majority write on a replica set is journaled unless j says otherwise (MongoDB's
    // writeConcernMajorityJournalDefault: true); a writeConcern without w takes the implicit
    // default w, which is "majority" there.
    if (isMajorityWriteConcern(o) && replSet) return true;
    return !fsync.eoo() && fsync.trueValue();
}

bool isMajorityWriteConcern(const BSONObj& writeConcern) {
    BSONElement w = writeConcern["w"];
    return w.eoo() || (w.type() == String && w.valueStringData() == "majority");
}

std::string hostAndPort() {
    char buf[256] = "localhost";
    gethostname(buf, sizeof buf - 1);
    return std::string(buf) + ":" + std::to_string(serverGlobalParams().port);
}

}  // namespace mongo
