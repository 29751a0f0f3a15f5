#include "mongo/db/catalog/index_spec.h"

#include <cmath>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/collation_spec.h"

namespace mongo {
namespace {

const std::set<std::string>& allowedFields() {
    static const std::set<std::string> s = {
        "key",     "name",         "v",          "unique",   "sparse",  "partialFilterExpression",
        "expireAfterSeconds", "background", "hidden", "collation", "ns", "storageEngine",
        "weights", "default_language", "language_override", "textIndexVersion", "2dsphereIndexVersion",
        "bits",    "min",          "max",        "wildcardProjection", "dropDups", "prepareUnique",
        "bucketSize", "coarsestIndexedLevel", "finestIndexedLevel", "clustered"};
    return s;
}

// The options that make two indexes on the same key different indexes.
const char* const kIdentityOptions[] = {"unique", "sparse", "partialFilterExpression", "collation",
                                        "expireAfterSeconds", "hidden", "prepareUnique"};

std::string shellValue(const BSONElement& e) {
    if (e.type() == Object || e.type() == Array) {
        bool arr = e.type() == Array;
        std::string s = arr ? "[ " : "{ ";
        bool first = true;
        for (auto sub : e.Obj()) {
            if (!first) s += ", ";
            first = false;
            if (!arr) s += std::string(sub.fieldNameStringData()) + ": ";
            s += shellValue(sub);
        }
        return s + (first ? (arr ? "]" : "}") : (arr ? " ]" : " }"));
    }
    if (e.type() == String) return "\"" + e.str() + "\"";
    return e.toString(false);
}

// expireAfterSeconds, as MongoDB 7.0's createIndexes checks it: a number, not NaN, within a
// 32-bit integer, not negative (fractions are truncated); only on a single-field index, and not
// on the _id index.
void validateIndexSpecTTL(const BSONObj& spec, const BSONObj& kp) {
    BSONElement ttl = spec["expireAfterSeconds"];
    if (ttl.eoo()) return;
    bool idKey = kp.nFields() == 1 && kp.firstElement().fieldNameStringData() == "_id" &&
                 kp.firstElement().isNumber() && kp.firstElement().numberDouble() == 1;
    uassert(ErrorCodes::InvalidIndexSpecificationOption,
            "The field 'expireAfterSeconds' is not valid for an _id index specification. Specification: " +
                specForMessage(spec),
            !idKey);
    // MongoDB reports the value's problem with the spec as context in front.
    std::string context = ". Index spec: " + specForMessage(spec) + " :: caused by :: ";
    uassert(ErrorCodes::CannotCreateIndex,
            context + "TTL index 'expireAfterSeconds' option must be numeric, but received a type of '" +
                typeName(ttl.type()),
            ttl.isNumber());
    double d = ttl.numberDouble();
    uassert(ErrorCodes::CannotCreateIndex, context + "TTL index 'expireAfterSeconds' option must not be NaN",
            !std::isnan(d));
    double truncated = std::trunc(d);
    uassert(ErrorCodes::CannotCreateIndex,
            context + "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer",
            truncated >= -2147483648.0 && truncated <= 2147483647.0);
    uassert(ErrorCodes::CannotCreateIndex, context + "TTL index 'expireAfterSeconds' option cannot be less than 0",
            truncated >= 0);
    uassert(ErrorCodes::CannotCreateIndex,
            "TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: " +
                specForMessage(spec),
            kp.nFields() == 1);
}

// A hashed index ({a: "hashed"}, or compound with one hashed field), as MongoDB 7.0 allows it:
// one hashed field at most (31303), never unique (16764: the hash cannot tell equal keys from
// colliding ones) and not a TTL index (its keys are hashes, not dates).
void validateHashedKeyPattern(const BSONObj& spec, const BSONObj& kp) {
    int hashed = 0;
    for (auto e : kp)
        if (e.type() == String) hashed++;
    if (hashed == 0) return;
    uassert(31303,
            "A maximum of one index field is allowed to be hashed but found " + std::to_string(hashed) +
                " for 'key' " + specForMessage(kp),
            hashed == 1);
    uassert(16764, "Currently hashed indexes cannot guarantee uniqueness. Use a regular index.",
            !spec["unique"].trueValue());
    uassert(ErrorCodes::CannotCreateIndex,
            "Error in specification " + specForMessage(spec) +
                " :: caused by :: TTL indexes cannot have a hashed key (its keys are hashes, not dates)",
            spec["expireAfterSeconds"].eoo());
}

}  // namespace

bool isKnownIndexSpecField(std::string_view field) { return allowedFields().count(std::string(field)) > 0; }

std::string specForMessage(const BSONObj& spec) {
    BSONObjBuilder b;
    b.append("", spec);
    return shellValue(b.obj().firstElement());
}

std::string defaultIndexName(const BSONObj& keyPattern) {
    std::string name;
    for (auto e : keyPattern) {
        if (!name.empty()) name += "_";
        name += std::string(e.fieldNameStringData()) + "_";
        if (e.isNumber()) {
            long long asInt;
            if (e.isIntegral64(&asInt)) name += std::to_string(asInt);
            else name += e.toString(false);
        } else if (e.type() == String) {
            name += e.str();
        } else {
            name += e.toString(false);
        }
    }
    return name;
}

BSONObj idIndexSpec(const Collator* collation) {
    BSONObjBuilder b;
    b.append("v", 2);
    BSONObjBuilder& k = b.subobjStart("key");
    k.append("_id", 1);
    k.doneFast();
    b.append("name", "_id_");
    if (collation) b.append("collation", collation->spec());
    return b.obj();
}

BSONObj validateAndNormalizeIndexSpec(const BSONObj& spec, const Collator* collectionDefault) {
    for (auto e : spec) {
        std::string f(e.fieldNameStringData());
        uassert(ErrorCodes::InvalidIndexSpecificationOption,
                "The field '" + f + "' is not valid for an index specification. Specification: " +
                    specForMessage(spec),
                allowedFields().count(f));
    }
    BSONElement key = spec["key"];
    uassert(ErrorCodes::FailedToParse,
            "Error in specification " + specForMessage(spec) +
                " :: caused by :: The 'key' field is a required property of an index specification",
            !key.eoo());
    uassert(ErrorCodes::TypeMismatch,
            "Error in specification " + specForMessage(spec) + " :: caused by :: The field 'key' must be an object, but got " +
                typeName(key.type()),
            key.type() == Object);
    BSONObj kp = key.Obj();
    uassert(ErrorCodes::CannotCreateIndex,
            "Error in specification " + specForMessage(spec) + " :: caused by :: Index keys cannot be an empty field.",
            !kp.isEmpty());
    uassert(ErrorCodes::CannotCreateIndex,
            "Error in specification " + specForMessage(spec) +
                " :: caused by :: Index key pattern may not have more than 32 fields",
            kp.nFields() <= 32);
    std::set<std::string> seen;
    for (auto e : kp) {
        std::string f(e.fieldNameStringData());
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) + " :: caused by :: Index keys cannot be an empty field.",
                !f.empty());
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) +
                    " :: caused by :: Index key contains an illegal field name: field name starts with '$'.",
                f[0] != '$');
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) +
                    " :: caused by :: Index key contains an illegal field name: field name ends with '.'.",
                f.back() != '.' && f.find("..") == std::string::npos && f[0] != '.');
        if (e.type() == String && e.str() == "hashed") {
            uassert(ErrorCodes::CannotCreateIndex,
                    "Error in specification " + specForMessage(spec) + " :: caused by :: duplicate field in key pattern",
                    seen.insert(f).second);
            continue;  // checked as a whole below
        }
        if (e.type() == String) {
            std::string plugin = e.str();
            static const std::set<std::string> known = {"hashed", "text", "2dsphere", "2d", "geoHaystack",
                                                        "columnstore"};
            uassert(ErrorCodes::CannotCreateIndex,
                    "Error in specification " + specForMessage(spec) + " :: caused by :: Unknown index plugin '" +
                        plugin + "'",
                    known.count(plugin));
            uasserted(ErrorCodes::CannotCreateIndex,
                      "Error in specification " + specForMessage(spec) + " :: caused by :: index type '" + plugin +
                          "' is not supported by this server");
        }
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) +
                    " :: caused by :: Values in v:2 index key pattern cannot be of type " + typeName(e.type()) +
                    ". Only numbers > 0, numbers < 0, and strings are allowed.",
                e.isNumber());
        double d = e.numberDouble();
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) +
                    " :: caused by :: Values in the index key pattern can't be all zero, NaN or negative zero",
                d != 0 && !std::isnan(d));
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) + " :: caused by :: duplicate field in key pattern",
                seen.insert(f).second);
    }
    validateHashedKeyPattern(spec, kp);
    BSONElement name = spec["name"];
    std::string indexName;
    if (name.eoo()) {
        indexName = defaultIndexName(kp);
    } else {
        uassert(ErrorCodes::TypeMismatch,
                "Error in specification " + specForMessage(spec) + " :: caused by :: The field 'name' must be a string, but got " +
                    typeName(name.type()),
                name.type() == String);
        indexName = name.str();
        uassert(ErrorCodes::CannotCreateIndex,
                "Error in specification " + specForMessage(spec) + " :: caused by :: index name cannot be empty",
                !indexName.empty());
        uassert(ErrorCodes::BadValue,
                "Error in specification " + specForMessage(spec) + " :: caused by :: The index name '*' is not valid.",
                indexName != "*");
    }
    BSONElement v = spec["v"];
    int version = 2;
    if (!v.eoo()) {
        uassert(ErrorCodes::TypeMismatch, "The field 'v' must be a number", v.isNumber());
        version = v.numberInt();
        uassert(ErrorCodes::CannotCreateIndex,
                "Invalid index specification " + specForMessage(spec) + "; cannot create an index with v=" +
                    std::to_string(version),
                version == 1 || version == 2);
    }
    for (const char* boolField : {"unique", "sparse", "hidden", "background"}) {
        BSONElement b = spec[boolField];
        uassert(ErrorCodes::TypeMismatch,
                "Error in specification " + specForMessage(spec) + " :: caused by :: The field '" +
                    std::string(boolField) + "' must be a boolean, but got " + typeName(b.type()),
                b.eoo() || b.type() == Bool || b.isNumber());
    }
    BSONElement pfe = spec["partialFilterExpression"];
    uassert(ErrorCodes::TypeMismatch, "The field 'partialFilterExpression' must be an object",
            pfe.eoo() || pfe.type() == Object);
    uassert(ErrorCodes::CannotCreateIndex, "cannot mix \"partialFilterExpression\" and \"sparse\" options",
            pfe.eoo() || !spec["sparse"].trueValue());
    validateIndexSpecTTL(spec, kp);
    bool isId = kp.nFields() == 1 && kp.firstElement().fieldNameStringData() == "_id";
    BSONElement collation = spec["collation"];
    uassert(ErrorCodes::TypeMismatch, "The field 'collation' must be an object, but got " + typeName(collation.type()),
            collation.eoo() || collation.type() == Object);
    uassert(ErrorCodes::BadValue, "The field 'collation' cannot be an empty object.",
            collation.eoo() || !collation.Obj().isEmpty());
    // An index without a collation gets the collection's default; {locale: "simple"} asks for
    // the simple one explicitly (and is then not stored, as MongoDB does).
    CollatorPtr collator;
    if (!collation.eoo()) collator = Collator::make(collation.Obj());
    const Collator* effective = collation.eoo() ? collectionDefault : collator.get();
    if (isId && indexName == "_id_") {
        uassert(ErrorCodes::BadValue, "The field 'unique' is not valid for an _id index specification",
                spec["unique"].eoo() || spec["unique"].trueValue());
        uassert(ErrorCodes::BadValue, "The field 'sparse' is not valid for an _id index specification",
                !spec["sparse"].trueValue());
    }

    BSONObjBuilder b;
    b.append("v", version);
    b.append("key", kp);
    b.append("name", indexName);
    for (auto e : spec) {
        std::string_view f = e.fieldNameStringData();
        // The simple collation is not stored: it is what an index without one has (as MongoDB).
        // background is kept (listIndexes shows it as given, as MongoDB's) though every build
        // here is the same hybrid build.
        if (f == "v" || f == "key" || f == "name" || f == "ns" || f == "dropDups") continue;
        if (f == "collation") {
            if (effective) b.append("collation", effective->spec());
            continue;
        }
        if (isId && indexName == "_id_" && f == "unique") continue;
        b.append(e);
    }
    if (collation.eoo() && effective) b.append("collation", effective->spec());
    return b.obj();
}

bool indexOptionsEquivalent(const BSONObj& a, const BSONObj& b) {
    for (const char* f : kIdentityOptions) {
        BSONElement x = a[f], y = b[f];
        if (x.eoo() && y.eoo()) continue;
        if (std::string_view(f) == "unique" || std::string_view(f) == "sparse" || std::string_view(f) == "hidden" ||
            std::string_view(f) == "prepareUnique") {
            if (x.trueValue() != y.trueValue()) return false;
            continue;
        }
        if (x.eoo() != y.eoo() || x.woCompare(y) != 0) return false;
    }
    return true;
}

bool indexesMayCoexist(const BSONObj& a, const BSONObj& b) {
    // Part of an index's signature (MongoDB 4.9+): unique, sparse, partialFilterExpression and
    // collation. Indexes on the same key that differ in one of these are different indexes.
    if (a["unique"].trueValue() != b["unique"].trueValue()) return true;
    if (a["sparse"].trueValue() != b["sparse"].trueValue()) return true;
    BSONElement ca = a["collation"], cb = b["collation"];
    if (ca.eoo() != cb.eoo() || (!ca.eoo() && !ca.Obj().binaryEqual(cb.Obj()))) return true;
    BSONElement x = a["partialFilterExpression"], y = b["partialFilterExpression"];
    if (x.eoo() && y.eoo()) return false;
    return x.eoo() != y.eoo() || x.woCompare(y) != 0;
}

}  // namespace mongo
