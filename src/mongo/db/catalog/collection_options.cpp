// CollectionOptions::parse: the options of a create command, with MongoDB 7.0's checks.
#include <cmath>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/change_stream_images_option.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_validator.h"

namespace mongo {
namespace {

// Fields of the create command that are not collection options (MongoDB's generic arguments).
bool isGenericCreateArgument(std::string_view f) {
    static const std::set<std::string, std::less<>> generic = {
        "create", "apiVersion", "apiStrict", "apiDeprecationErrors", "maxTimeMS", "readConcern", "writeConcern",
        "lsid", "clientOperationKey", "txnNumber", "autocommit", "startTransaction", "stmtId", "comment",
        "readPreference", "allowImplicitCollectionCreation", "mayBypassWriteBlocking"};
    return (!f.empty() && f[0] == '$') || generic.count(f);
}

const std::set<std::string, std::less<>>& knownOptions() {
    static const std::set<std::string, std::less<>> known = {
        "capped", "autoIndexId", "idIndex", "size", "max", "storageEngine", "validator", "validationLevel",
        "validationAction", "indexOptionDefaults", "viewOn", "pipeline", "collation", "changeStreamPreAndPostImages",
        "timeseries", "clusteredIndex", "expireAfterSeconds", "encryptedFields", "temp", "flags", "dedup",
        "recordPreImages"};
    return known;
}

Status typeError(std::string_view field, const char* expected, const BSONElement& e) {
    return Status(ErrorCodes::TypeMismatch, "BSON field 'create." + std::string(field) + "' is the wrong type '" +
                                                typeName(e.type()) + "', expected type" + expected);
}

}  // namespace

StatusWith<CollectionOptions> CollectionOptions::parse(const BSONObj& createCmd) {
    CollectionOptions o;
    BSONObjBuilder raw;
    for (auto e : createCmd) {
        std::string_view f = e.fieldNameStringData();
        if (isGenericCreateArgument(f)) continue;
        if (!knownOptions().count(f))
            return Status(ErrorCodes::Location40415, "BSON field 'create." + std::string(f) + "' is an unknown field.");
        if (f == "capped") {
            if (e.type() != Bool && !e.isNumber()) return typeError(f, " 'bool'", e);
            o.capped = e.trueValue();
        } else if (f == "size") {
            if (!e.isNumber()) return typeError(f, "s '[long, int, decimal, double]'", e);
            double d = e.numberDouble();
            if (d < 0 || std::isnan(d)) return Status(ErrorCodes::BadValue, "size has to be >= 0");
            if (d > 1024.0 * 1024 * 1024 * 1024 * 1024)
                return Status(ErrorCodes::BadValue, "size cannot exceed 1 PB");
            o.cappedSize = e.numberLong();
        } else if (f == "max") {
            if (!e.isNumber()) return typeError(f, "s '[long, int, decimal, double]'", e);
            long long m = e.numberLong();
            o.cappedMaxDocs = (m <= 0 || m >= (1LL << 31)) ? 0 : m;  // MongoDB ignores out-of-range max
        } else if (f == "validator") {
            if (e.type() != Object) return typeError(f, " 'object'", e);
            o.validator = e.Obj().getOwned();
            if (Status s = validateValidatorExpression(o.validator); !s.isOK()) return s;
        } else if (f == "validationLevel") {
            if (e.type() != String) return typeError(f, " 'string'", e);
            std::string v = e.str();
            if (v != "off" && v != "strict" && v != "moderate")
                return Status(ErrorCodes::BadValue, "Enumeration value '" + v +
                                                        "' for field 'create.validationLevel' is not a valid value.");
            o.validationLevel = v;
        } else if (f == "validationAction") {
            if (e.type() != String) return typeError(f, " 'string'", e);
            std::string v = e.str();
            if (v != "error" && v != "warn")
                return Status(ErrorCodes::BadValue, "Enumeration value '" + v +
                                                        "' for field 'create.validationAction' is not a valid value.");
            o.validationAction = v;
        } else if (f == "dedup") {
            if (e.type() != Bool && !e.isNumber()) return typeError(f, " 'bool'", e);
            o.dedup = e.trueValue();
        } else if (f == "collation") {
            if (e.type() != Object) return typeError(f, " 'object'", e);
            if (e.Obj().isEmpty()) continue;  // no collation: simple
            try {
                o.collator = Collator::make(e.Obj());
            } catch (const DBException& ex) {
                return ex.toStatus();
            }
            // Stored in full; the simple collation is what a collection without one has.
            if (o.collator) raw.append("collation", o.collator->spec());
            continue;
        } else if (f == "changeStreamPreAndPostImages") {
            if (Status st = validateChangeStreamPreAndPostImages(e, "create"); !st.isOK()) return st;
        } else if (f == "storageEngine" || f == "indexOptionDefaults" || f == "idIndex") {
            if (e.type() != Object) return typeError(f, " 'object'", e);
            // The _id index is the index catalog's (listCollections shows it as idIndex, beside
            // the options), as in MongoDB: kept in the options it made them differ between a
            // primary given one and the members that applied its create entry.
            if (f == "idIndex") continue;
        }
        raw.append(e);
    }
    if (o.capped) {
        if (o.cappedSize == 0 && !createCmd.hasField("size"))
            return Status(ErrorCodes::InvalidOptions, "the 'size' field is required when 'capped' is true");
        // MongoDB allocates capped collections in 256-byte units, at least 4096 bytes.
        if (o.cappedSize < 4096) o.cappedSize = 4096;
        else if (o.cappedSize % 256) o.cappedSize += 256 - o.cappedSize % 256;
    } else {
        o.cappedSize = 0;
        o.cappedMaxDocs = 0;
    }
    o.raw = raw.obj();
    return o;
}

}  // namespace mongo
