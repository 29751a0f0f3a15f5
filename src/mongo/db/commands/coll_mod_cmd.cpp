// collMod: changes a collection's validator, validationLevel, validationAction, capped limits,
// and an index's expireAfterSeconds / hidden flag, with MongoDB 7.0's arguments, checks, errors
// and reply ({expireAfterSeconds_old, expireAfterSeconds_new, hidden_old, hidden_new}).
// Changes are made in one unit of work and persisted in the durable catalog.
//
// Options this server cannot honour are refused rather than ignored: converting an index to
// unique (unique, prepareUnique, forceNonUnique, dryRun), change stream pre/post images, and
// the view, time-series and clustered-collection options (this server has none of those).
#include <limits>

#include "mongo/db/catalog/change_stream_images_option.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_validator.h"
#include "mongo/db/catalog/index_spec.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/views/view_catalog.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

constexpr long long kMaxTTLSeconds = std::numeric_limits<int>::max();

std::string field(std::string_view path) { return "BSON field 'collMod." + std::string(path) + "'"; }

[[noreturn]] void wrongType(std::string_view path, const BSONElement& e, const char* expected) {
    uasserted(ErrorCodes::TypeMismatch,
              field(path) + " is the wrong type '" + typeName(e.type()) + "', expected type" + expected);
}

// IDL's safeBool / safeInt / safeInt64: a bool or any number.
bool parseSafeBool(std::string_view path, const BSONElement& e) {
    if (e.type() != Bool && !e.isNumber()) wrongType(path, e, "s '[bool, long, int, decimal, double]'");
    return e.trueValue();
}

long long parseSafeInt(std::string_view path, const BSONElement& e) {
    if (!e.isNumber()) wrongType(path, e, "s '[long, int, decimal, double]'");
    return e.numberLong();
}

std::string parseEnum(std::string_view path, const BSONElement& e, std::initializer_list<const char*> values) {
    if (e.type() != String) wrongType(path, e, " 'string'");
    std::string v = e.str();
    for (const char* allowed : values)
        if (v == allowed) return v;
    uasserted(ErrorCodes::BadValue,
              "Enumeration value '" + v + "' for field 'collMod." + std::string(path) + "' is not a valid value.");
}

struct IndexRequest {
    BSONElement name, keyPattern;
    std::optional<long long> expireAfterSeconds;
    std::optional<bool> hidden;
    bool unique = false, prepareUnique = false, forceNonUnique = false;  // present (refused)
};

struct Request {
    std::optional<IndexRequest> index;
    std::optional<BSONObj> validator;
    std::optional<std::string> validationLevel, validationAction;
    std::optional<long long> cappedSize, cappedMax;
    std::optional<BSONObj> changeStreamImages;  // {changeStreamPreAndPostImages: {enabled: <bool>}}
    bool viewOn = false, pipeline = false, expireAfterSeconds = false, timeseries = false;
    bool dryRun = false;
};

IndexRequest parseIndex(const BSONElement& e) {
    if (e.type() != Object) wrongType("index", e, " 'object'");
    IndexRequest r;
    for (BSONElement f : e.Obj()) {
        std::string_view n = f.fieldNameStringData();
        std::string path = "index." + std::string(n);
        if (n == "name") {
            if (f.type() != String) wrongType(path, f, " 'string'");
            r.name = f;
        } else if (n == "keyPattern") {
            if (f.type() != Object) wrongType(path, f, " 'object'");
            r.keyPattern = f;
        } else if (n == "expireAfterSeconds") {
            r.expireAfterSeconds = parseSafeInt(path, f);
        } else if (n == "hidden") {
            r.hidden = parseSafeBool(path, f);
        } else if (n == "unique") {
            parseSafeBool(path, f);
            r.unique = true;
        } else if (n == "prepareUnique") {
            parseSafeBool(path, f);
            r.prepareUnique = true;
        } else if (n == "forceNonUnique") {
            parseSafeBool(path, f);
            r.forceNonUnique = true;
        } else {
            uasserted(ErrorCodes::Location40415, field(path) + " is an unknown field.");
        }
    }
    return r;
}

// The command's fields, type-checked as MongoDB's IDL does (before the collection is looked at).
Request parseRequest(const OpMsgRequest& req) {
    Request r;
    bool first = true;
    for (BSONElement e : req.body) {
        if (first) {
            first = false;
            continue;
        }
        std::string_view n = e.fieldNameStringData();
        if (isGenericArgument(n)) continue;
        if (n == "index") {
            r.index = parseIndex(e);
        } else if (n == "validator") {
            if (e.type() != Object) wrongType(n, e, " 'object'");
            r.validator = e.Obj().getOwned();
        } else if (n == "validationLevel") {
            r.validationLevel = parseEnum(n, e, {"off", "strict", "moderate"});
        } else if (n == "validationAction") {
            r.validationAction = parseEnum(n, e, {"error", "warn"});
        } else if (n == "cappedSize") {
            r.cappedSize = parseSafeInt(n, e);
        } else if (n == "cappedMax") {
            r.cappedMax = parseSafeInt(n, e);
        } else if (n == "viewOn") {
            if (e.type() != String) wrongType(n, e, " 'string'");
            r.viewOn = true;
        } else if (n == "pipeline") {
            if (e.type() != Array) wrongType(n, e, " 'array'");
            r.pipeline = true;
        } else if (n == "changeStreamPreAndPostImages") {
            uassertStatusOK(validateChangeStreamPreAndPostImages(e, "collMod"));
            BSONObjBuilder holder;
            holder.append(e);
            r.changeStreamImages = holder.obj();
        } else if (n == "expireAfterSeconds") {
            if (e.type() != String && !e.isNumber()) wrongType(n, e, "s '[string, long, int, decimal, double]'");
            r.expireAfterSeconds = true;
        } else if (n == "timeseries") {
            if (e.type() != Object) wrongType(n, e, " 'object'");
            r.timeseries = true;
        } else if (n == "dryRun") {
            r.dryRun = parseSafeBool(n, e);
        } else {
            uasserted(ErrorCodes::Location40415, field(n) + " is an unknown field.");
        }
    }
    return r;
}

// The index a collMod index request names (IndexNotFound / AmbiguousIndexKeyPattern).
const IndexDescriptor* findIndex(const Collection* coll, const IndexRequest& r, const NamespaceString& nss) {
    IndexCatalog* cat = coll->getIndexCatalog();
    if (!r.name.eoo()) {
        const IndexDescriptor* d = cat->findIndexByName(r.name.str());
        uassert(ErrorCodes::IndexNotFound, "cannot find index " + r.name.str() + " for ns " + nss.ns(), d);
        return d;
    }
    BSONObj kp = r.keyPattern.Obj();
    std::vector<const IndexDescriptor*> found;
    for (const IndexDescriptor* d : cat->getAllIndexes())
        if (d->keyPattern.woCompare(kp) == 0) found.push_back(d);
    uassert(ErrorCodes::IndexNotFound, "cannot find index " + specForMessage(kp) + " for ns " + nss.ns(), !found.empty());
    if (found.size() > 1)
        uasserted(ErrorCodes::AmbiguousIndexKeyPattern,
                  "index keyPattern " + specForMessage(kp) + " matches " + std::to_string(found.size()) +
                      " indexes, must use index name. Conflicting indexes:" + specForMessage(found[0]->infoObj) + ", " +
                      specForMessage(found[1]->infoObj));
    return found[0];
}

// The spec without 'name', with name: value appended (as MongoDB rewrites the catalog entry).
BSONObj withOption(const BSONObj& spec, std::string_view name, const std::optional<BSONElement>& value) {
    BSONObjBuilder b;
    for (BSONElement e : spec)
        if (e.fieldNameStringData() != name) b.append(e);
    if (value) b.appendAs(*value, name);
    return b.obj();
}

// The raw options with the validation trio rewritten: validator (unless empty), then
// validationLevel and validationAction when they have been set.
BSONObj withValidationOptions(const BSONObj& raw, const CollectionOptions& o, bool levelSet, bool actionSet) {
    BSONObjBuilder b;
    for (BSONElement e : raw) {
        std::string_view n = e.fieldNameStringData();
        if (n != "validator" && n != "validationLevel" && n != "validationAction") b.append(e);
    }
    if (!o.validator.isEmpty()) b.append("validator", o.validator);
    if (levelSet) b.append("validationLevel", o.validationLevel);
    if (actionSet) b.append("validationAction", o.validationAction);
    return b.obj();
}

BSONObj withCappedOptions(const BSONObj& raw, const std::optional<long long>& size, const std::optional<long long>& max) {
    BSONObjBuilder b;
    bool sizeDone = false, maxDone = false;
    for (BSONElement e : raw) {
        std::string_view n = e.fieldNameStringData();
        if (n == "size" && size) {
            b.append("size", *size);
            sizeDone = true;
        } else if (n == "max" && max) {
            b.append("max", *max);
            maxDone = true;
        } else {
            b.append(e);
        }
    }
    if (size && !sizeDone) b.append("size", *size);
    if (max && !maxDone) b.append("max", *max);
    return b.obj();
}

// collMod of a view: viewOn and/or pipeline replace the definition (checked as create checks
// it: cycles, depth, stages); any other option is refused, as MongoDB refuses it on a view.
void modifyView(OperationContext* opCtx, const OpMsgRequest& req, const ViewDefinition& view) {
    bool first = true;
    for (BSONElement e : req.body) {
        std::string_view n = e.fieldNameStringData();
        bool skip = first || n == "viewOn" || n == "pipeline" || isGenericArgument(n);
        first = false;
        if (!skip) uasserted(ErrorCodes::InvalidOptions, "option not supported on a view: " + std::string(n));
    }
    BSONObj current;
    {
        BSONObjBuilder b;
        b.append("viewOn", view.viewOn);
        b.appendArray("pipeline", view.pipelineArray());
        current = b.obj();
    }
    BSONElement viewOn = req.body["viewOn"].eoo() ? current["viewOn"] : req.body["viewOn"];
    BSONElement pipeline = req.body["pipeline"].eoo() ? current["pipeline"] : req.body["pipeline"];
    LOGV2(5324201, Command, "CMD: collMod", logv2::attrs("cmdObj", req.body));
    // The view keeps its collation (collMod cannot change it).
    ViewCatalog::modify(opCtx, ViewCatalog::validate(opCtx, view.name, viewOn, pipeline, "collMod", view.collator));
}

class CollModCmd : public Command {
public:
    CollModCmd() : Command("collMod") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::collMod}); }
    std::string help() const override {
        return "change a collection's validator, validation level/action, capped limits, or an index's "
               "expireAfterSeconds/hidden";
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        Request r = parseRequest(req);
        CatalogDDLLock lock;
        Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll) {
            if (auto view = ViewCatalog::lookup(opCtx, nss)) return modifyView(opCtx, req, *view);
        }
        uassert(ErrorCodes::NamespaceNotFound, "ns does not exist", coll);
        LOGV2(5324200, Command, "CMD: collMod", logv2::attrs("cmdObj", req.body));

        CollectionOptions options = coll->options();
        bool optionsChanged = false;
        if (r.cappedSize || r.cappedMax) {
            uassert(ErrorCodes::InvalidOptions, "Collection must be capped.", options.capped);
            if (r.cappedSize) {
                uassert(ErrorCodes::BadValue, "size has to be >= 0", *r.cappedSize >= 0);
                uassert(ErrorCodes::BadValue, "size cannot exceed 1 PB", *r.cappedSize <= (1LL << 50));
                long long size = std::max(*r.cappedSize, 4096LL);  // as create: 256-byte units, 4 KB least
                if (size % 256) size += 256 - size % 256;
                options.cappedSize = size;
            }
            if (r.cappedMax) {
                uassert(ErrorCodes::BadValue, "max in a capped collection has to be < 2^31 or not set",
                        *r.cappedMax < (1LL << 31));
                options.cappedMaxDocs = *r.cappedMax <= 0 ? 0 : *r.cappedMax;
            }
            options.raw = withCappedOptions(options.raw, r.cappedSize, r.cappedMax);
            optionsChanged = true;
        }

        const IndexDescriptor* idx = nullptr;
        std::optional<BSONObj> newSpec;
        BSONObjBuilder indexReply;
        if (r.index) {
            const IndexRequest& ir = *r.index;
            uassert(ErrorCodes::InvalidOptions, "Cannot specify both key pattern and name.",
                    ir.name.eoo() || ir.keyPattern.eoo());
            uassert(ErrorCodes::InvalidOptions, "Must specify either index name or key pattern.",
                    !ir.name.eoo() || !ir.keyPattern.eoo());
            uassert(ErrorCodes::InvalidOptions, "no expireAfterSeconds, hidden, unique, or prepareUnique field",
                    ir.expireAfterSeconds || ir.hidden || ir.unique || ir.prepareUnique || ir.forceNonUnique);
            uassert(ErrorCodes::InvalidOptions,
                    "collMod does not support converting an index to 'unique' or to 'prepareUnique' mode",
                    !ir.unique && !ir.prepareUnique);
            uassert(ErrorCodes::InvalidOptions, "collMod does not support 'forceNonUnique' on this server",
                    !ir.forceNonUnique);
            if (ir.expireAfterSeconds) {
                uassert(ErrorCodes::InvalidOptions, "TTL indexes are not supported for capped collections.",
                        !options.capped);
                uassert(ErrorCodes::InvalidOptions, "TTL index 'expireAfterSeconds' option cannot be less than 0",
                        *ir.expireAfterSeconds >= 0);
                uassert(ErrorCodes::InvalidOptions,
                        "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number",
                        *ir.expireAfterSeconds <= kMaxTTLSeconds);
            }
            idx = findIndex(coll, ir, nss);
            BSONObj spec = idx->infoObj;
            if (ir.expireAfterSeconds) {
                BSONElement old = spec["expireAfterSeconds"];
                if (old.eoo()) {
                    uassert(ErrorCodes::InvalidOptions, "the _id field does not support TTL indexes", !idx->isIdIndex());
                    uassert(ErrorCodes::InvalidOptions,
                            "TTL indexes are single-field indexes, compound indexes do not support TTL",
                            idx->keyPattern.nFields() == 1);
                } else {
                    uassert(ErrorCodes::InvalidOptions, "existing expireAfterSeconds field is not a number", old.isNumber());
                }
                BSONObjBuilder v;
                v.append("expireAfterSeconds", *ir.expireAfterSeconds);
                BSONObj value = v.obj();
                if (!old.eoo()) indexReply.append("expireAfterSeconds_old", old.numberLong());
                indexReply.append("expireAfterSeconds_new", *ir.expireAfterSeconds);
                bool same = !old.eoo() && old.numberLong() == *ir.expireAfterSeconds &&
                    (old.type() == NumberInt || old.type() == NumberLong);
                if (!same) spec = withOption(spec, "expireAfterSeconds", value.firstElement());
            }
            if (ir.hidden) {
                uassert(ErrorCodes::BadValue, "Can't hide index on system collection", !nss.isSystem());
                uassert(ErrorCodes::BadValue, "can't hide _id index", !idx->isIdIndex());
                if (idx->hidden != *ir.hidden) {  // hiding a hidden index is a no-op
                    indexReply.append("hidden_old", idx->hidden);
                    indexReply.append("hidden_new", *ir.hidden);
                    BSONObjBuilder v;
                    v.append("hidden", true);
                    BSONObj value = v.obj();
                    // Unhiding removes the field, as MongoDB's catalog does.
                    spec = withOption(spec, "hidden", *ir.hidden ? std::optional<BSONElement>(value.firstElement())
                                                                 : std::nullopt);
                }
            }
            if (!spec.binaryEqual(idx->infoObj)) newSpec = spec;
        }

        bool levelSet = options.raw.hasField("validationLevel"), actionSet = options.raw.hasField("validationAction");
        if (r.validator) {
            uassertStatusOK(checkValidatorAllowedOn(nss));
            uassertStatusOK(validateValidatorExpression(*r.validator));
            options.validator = *r.validator;
        }
        if (r.validationLevel) {
            options.validationLevel = *r.validationLevel;
            levelSet = true;
        }
        if (r.validationAction) {
            options.validationAction = *r.validationAction;
            actionSet = true;
        }
        if (r.validator || r.validationLevel || r.validationAction) {
            options.raw = withValidationOptions(options.raw, options, levelSet, actionSet);
            optionsChanged = true;
        }
        uassert(ErrorCodes::InvalidOptions, "option only supported on a view: pipeline", !r.pipeline);
        uassert(ErrorCodes::InvalidOptions, "option only supported on a view: viewOn", !r.viewOn);
        if (r.changeStreamImages) {
            options.raw = withOption(options.raw, "changeStreamPreAndPostImages", r.changeStreamImages->firstElement());
            optionsChanged = true;
        }
        uassert(ErrorCodes::InvalidOptions, "'expireAfterSeconds' option is only supported on collections clustered by _id",
                !r.expireAfterSeconds);
        uassert(ErrorCodes::InvalidOptions, "option only supported on a time-series collection: timeseries", !r.timeseries);
        if (r.dryRun) {
            uassert(ErrorCodes::InvalidOptions, "dry run mode requires an valid index modification.", r.index.has_value());
            uasserted(ErrorCodes::InvalidOptions, "dry run mode requires an index modification with unique: true.");
        }

        WriteUnitOfWork wuow(opCtx);
        if (newSpec) coll->getIndexCatalog()->updateIndexSpec(opCtx, idx->name, *newSpec);
        if (optionsChanged) coll->updateOptions(opCtx, options);
        wuow.commit();
        result.appendElements(indexReply.obj());
    }
};
CollModCmd collModCmd;

}  // namespace
}  // namespace mongo
