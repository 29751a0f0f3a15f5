#include "mongo/db/query/find_request.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/server_parameters.h"

namespace mongo {

BSONObj parseHint(const BSONElement& hint) {
    if (hint.eoo()) return BSONObj();
    if (hint.type() == String) {
        BSONObjBuilder b;
        b.append("$hint", hint.valueStringData());
        return b.obj();
    }
    if (hint.type() == Object) return hint.Obj().getOwned();
    uasserted(ErrorCodes::FailedToParse, "hint must be either a string or nested object");
}

namespace {
long long nonNegative(const BSONElement& e, const char* name) {
    long long v = parseIntegerArg(e, "find");
    if (v < 0)
        uasserted(51024, std::string("BSON field '") + name + "' value must be >= 0, actual value '" +
                             std::to_string(v) + "'");
    return v;
}
}  // namespace

FindRequest parseFindRequest(const BSONObj& cmd) {
    FindRequest r;
    r.qr.allowDiskUse = allowDiskUseByDefault();
    bool first = true;
    for (BSONElement e : cmd) {
        if (first) {
            first = false;
            continue;
        }
        std::string_view f = e.fieldNameStringData();
        if (f == "filter") r.qr.filter = parseObjectArg(e, "find").getOwned();
        else if (f == "sort") r.qr.sort = parseObjectArg(e, "find").getOwned();
        else if (f == "projection") r.qr.projection = parseObjectArg(e, "find").getOwned();
        else if (f == "hint") r.qr.hint = parseHint(e);
        else if (f == "skip") r.qr.skip = nonNegative(e, "skip");
        else if (f == "limit") r.qr.limit = nonNegative(e, "limit");
        else if (f == "batchSize") r.batchSize = nonNegative(e, "batchSize");
        else if (f == "singleBatch") r.singleBatch = parseBoolArg(e, "find");
        else if (f == "noCursorTimeout") r.noCursorTimeout = parseBoolArg(e, "find");
        else if (f == "allowDiskUse") {
            if (!e.isNull()) r.qr.allowDiskUse = parseBoolArg(e, "find");  // null: as if absent
        }
        else if (f == "tailable" || f == "awaitData") {
            if (e.trueValue()) uasserted(ErrorCodes::BadValue, "error processing query: tailable cursor requested on non capped collection");
        } else if (f == "collation") {
            BSONObj c = parseObjectArg(e, "find");
            if (!c.isEmpty() && c["locale"].str() != "simple")
                uasserted(ErrorCodes::BadValue, "collations other than 'simple' are not supported by this server");
        } else if (f == "min") {
            r.qr.min = parseObjectArg(e, "find").getOwned();
        } else if (f == "max") {
            r.qr.max = parseObjectArg(e, "find").getOwned();
        } else if (f == "returnKey") {
            r.qr.returnKey = parseBoolArg(e, "find");
        } else if (f == "showRecordId") {
            r.qr.showRecordId = parseBoolArg(e, "find");
        } else if (f == "allowPartialResults" ||
                   f == "oplogReplay" || f == "let" || f == "readOnce" || f == "maxScan" ||
                   f == "term" || f == "$_requestResumeToken" || f == "$_resumeAfter") {
            // accepted, no effect in this server
        } else if (!isGenericArgument(f)) {
            uasserted(ErrorCodes::Location40415, "BSON field 'FindCommandRequest." + std::string(f) + "' is an unknown field.");
        }
    }
    // batchSize 0 means "open a cursor, return nothing yet"; otherwise never beyond the limit.
    if (r.qr.limit > 0 && r.batchSize > r.qr.limit) r.batchSize = r.qr.limit;
    return r;
}

}  // namespace mongo
