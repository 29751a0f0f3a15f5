#include "mongo/db/query/find_request.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/pipeline/command_let.h"
#include "mongo/db/query/collation_spec.h"
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
    long long v = parseIntegerArg(e, "FindCommandRequest");
    if (v < 0)
        uasserted(51024, std::string("BSON field '") + name + "' value must be >= 0, actual value '" +
                             std::to_string(v) + "'");
    return v;
}
}  // namespace

FindRequest parseFindRequest(const BSONObj& cmd) {
    // The fields find accepts are declared once, in the command table (explain's find too).
    findCommandArgs("find")->check(cmd);
    FindRequest r;
    r.qr.allowDiskUse = allowDiskUseByDefault();
    const char* kStruct = "FindCommandRequest";
    BSONObj letSpec;
    bool first = true;
    for (BSONElement e : cmd) {
        if (first) {
            first = false;
            continue;
        }
        std::string_view f = e.fieldNameStringData();
        if (f == "filter") r.qr.filter = parseObjectArg(e, kStruct).getOwned();
        else if (f == "sort") r.qr.sort = parseObjectArg(e, kStruct).getOwned();
        else if (f == "projection") r.qr.projection = parseObjectArg(e, kStruct).getOwned();
        else if (f == "hint") r.qr.hint = parseHint(e);
        else if (f == "skip") r.qr.skip = nonNegative(e, "skip");
        else if (f == "limit") r.qr.limit = nonNegative(e, "limit");
        else if (f == "batchSize") r.qr.batchSize = r.batchSize = nonNegative(e, "batchSize");
        else if (f == "singleBatch") r.singleBatch = parseBoolArg(e, kStruct);
        else if (f == "noCursorTimeout") r.noCursorTimeout = parseBoolArg(e, kStruct);
        else if (f == "allowDiskUse") {
            if (!e.isNull()) r.qr.allowDiskUse = parseBoolArg(e, kStruct);  // null: as if absent
        }
        else if (f == "tailable") r.tailable = parseBoolArg(e, kStruct);
        else if (f == "awaitData") r.awaitData = parseBoolArg(e, kStruct);
        else if (f == "collation") {
            r.qr.collation = parseCollationOption(e, "FindCommandRequest.collation");
        } else if (f == "min") {
            r.qr.min = parseObjectArg(e, kStruct).getOwned();
        } else if (f == "max") {
            r.qr.max = parseObjectArg(e, kStruct).getOwned();
        } else if (f == "returnKey") {
            r.qr.returnKey = parseBoolArg(e, kStruct);
        } else if (f == "showRecordId") {
            r.qr.showRecordId = parseBoolArg(e, kStruct);
        } else if (f == "let") {
            letSpec = parseObjectArg(e, kStruct);
        } else if (f == "allowPartialResults" || f == "oplogReplay" || f == "readOnce") {
            // Flags that change nothing on a standalone server (see the command table).
            parseBoolArg(e, kStruct);
        } else if (f == "term") {
            parseIntegerArg(e, kStruct);
        } else if (f == "$_dedupForwardDeltas") {
            parseBoolArg(e, kStruct);  // a member's fetch (repl/dedup); find_cmd.cpp reads it
        }
    }
    // Tailable cursors (MongoDB's checks, in its order); whether the collection is capped is
    // the planner's to check.
    if (r.awaitData && !r.tailable)
        uasserted(ErrorCodes::FailedToParse, "Cannot set 'awaitData' without also setting 'tailable'");
    if (r.tailable) {
        BSONElement natural = r.qr.sort["$natural"];
        bool naturalForward = r.qr.sort.nFields() == 1 && natural.isNumber() && natural.numberDouble() == 1;
        if (!r.qr.sort.isEmpty() && !naturalForward)
            uasserted(ErrorCodes::BadValue, "cannot use tailable option with a sort other than {$natural: 1}");
        if (r.singleBatch)
            uasserted(ErrorCodes::BadValue, "cannot use tailable option with the 'singleBatch' option");
        r.qr.tailable = true;
    }
    // 'let' variables are computed once and bound into the filter's $expr and the projection.
    if (!letSpec.isEmpty()) {
        CommandLetVariables let = CommandLetVariables::parse(letSpec);
        r.qr.filter = let.bindInFilter(r.qr.filter);
        r.qr.projection = let.bindInProjection(r.qr.projection);
    }
    // batchSize 0 means "open a cursor, return nothing yet"; otherwise never beyond the limit.
    if (r.qr.limit > 0 && r.batchSize > r.qr.limit) r.batchSize = r.qr.limit;
    return r;
}

}  // namespace mongo
