#include "mongo/bson/uuid.h"
#include "mongo/db/ops/aggregate_output.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/durable_catalog.h"
#include "mongo/db/error_extra_info.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/storage/duplicate_key_error.h"
#include "mongo/db/views/view_requests.h"

namespace mongo {
namespace {

// "coll" or {db, coll} (for $merge also {into: ...}).
NamespaceString targetOf(const BSONElement& e, const std::string& db, const char* stage) {
    if (e.type() == String) return NamespaceString(db, e.valueStringData());
    if (e.type() == Object) {
        BSONObj o = e.Obj();
        std::string d = o["db"].type() == String ? o["db"].str() : db;
        if (o["coll"].type() != String)
            uasserted(ErrorCodes::FailedToParse, std::string(stage) + " requires a 'coll' string");
        return NamespaceString(d, o["coll"].valueStringData());
    }
    uasserted(ErrorCodes::TypeMismatch, std::string(stage) + " target must be a string or an object");
}

void throwFirst(const std::vector<WriteError>& errors, const char* stage) {
    if (errors.empty()) return;
    const WriteError& e = errors.front();
    // A rejected document is reported as the write reported it (as MongoDB does), errInfo included.
    if (e.status.code() == int(ErrorCodes::DocumentValidationFailure) && !e.extra.isEmpty())
        throw DBExceptionWithExtraInfo(e.status, e.extra);
    std::string reason = std::string(stage) + " failed: " + e.status.reason();
    if (e.extra.hasField("keyPattern"))
        throw DuplicateKeyException(std::move(reason), e.extra);
    uasserted(e.status.code(), reason);
}

void runOut(OperationContext* opCtx, const std::string& db, const BSONElement& spec, const std::vector<BSONObj>& docs) {
    NamespaceString target = targetOf(spec, db, "$out");
    uassertStatusOK(NamespaceString::validateNamespace(target.db(), target.coll()));
    // Results go to a temporary collection that replaces the target in one rename, so readers
    // never see a half-written result, as MongoDB does.
    NamespaceString tmp(target.db(), "tmp.agg_out." + generateUuidHex());
    {
        CatalogDDLLock lock;
        ViewCatalog::uassertNotView(opCtx, target);  // views are read-only
        // The result replaces the target with its options and indexes, so the documents are
        // checked by the target's validator as they are written (as MongoDB's $out does).
        Collection* existing = CollectionCatalog::get()->lookupCollection(opCtx, target);
        CollectionCatalog::get()->createCollection(opCtx, tmp, existing ? existing->options() : CollectionOptions());
        if (existing) {
            Collection* t = CollectionCatalog::get()->lookupCollection(opCtx, tmp);
            for (const IndexDescriptor* d : existing->getIndexCatalog()->getAllIndexes())
                if (!d->isIdIndex()) t->getIndexCatalog()->createIndex(opCtx, d->infoObj);
        }
    }
    try {
        std::vector<WriteError> errors;
        insertDocuments(opCtx, tmp, docs, true, &errors);
        throwFirst(errors, "$out");
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock lock;
            ViewCatalog::uassertNotView(opCtx, target);  // a view may have been created meanwhile
            CollectionCatalog::get()->renameCollection(opCtx, tmp, target, true);
        });
    } catch (...) {
        CatalogDDLLock lock;
        if (CollectionCatalog::get()->lookupCollection(opCtx, tmp)) CollectionCatalog::get()->dropCollection(opCtx, tmp);
        throw;
    }
}

void runMerge(OperationContext* opCtx, const std::string& db, const BSONElement& spec, const std::vector<BSONObj>& docs,
              const CollatorPtr& collator) {
    BSONObj opts;
    NamespaceString target;
    if (spec.type() == String) {
        target = NamespaceString(db, spec.valueStringData());
    } else if (spec.type() == Object) {
        opts = spec.Obj();
        if (opts["into"].eoo()) uasserted(40414, "BSON field '$merge.into' is missing but a required field");
        target = targetOf(opts["into"], db, "$merge");
    } else {
        uasserted(51182, "$merge only supports a string or object argument, not " + typeName(spec.type()));
    }
    uassertStatusOK(NamespaceString::validateNamespace(target.db(), target.coll()));
    // An early refusal, as MongoDB's $merge refuses a view target before it reads anything
    // (also with no documents to write); every write below checks again under its lock.
    if (namesView(opCtx, target)) uassertStatusOK(ViewCatalog::notCollectionStatus(target));
    std::vector<std::string> on{"_id"};
    if (BSONElement o = opts["on"]; !o.eoo()) {
        on.clear();
        if (o.type() == String) on.push_back(o.str());
        else if (o.type() == Array)
            for (BSONElement f : o.Obj()) on.push_back(f.str());
        else uasserted(51186, "$merge 'on' field must be either a string or an array of strings");
    }
    BSONElement whenMatched = opts["whenMatched"];
    std::string matched = whenMatched.type() == String ? whenMatched.str() : (whenMatched.eoo() ? "merge" : "pipeline");
    std::string notMatched = opts["whenNotMatched"].eoo() ? "insert" : opts["whenNotMatched"].str();
    if (matched != "replace" && matched != "keepExisting" && matched != "merge" && matched != "fail" && matched != "pipeline")
        uasserted(ErrorCodes::BadValue, "Enumeration value '" + matched + "' for field 'whenMatched' is not a valid value.");
    if (notMatched != "insert" && notMatched != "discard" && notMatched != "fail")
        uasserted(ErrorCodes::BadValue, "Enumeration value '" + notMatched + "' for field 'whenNotMatched' is not a valid value.");

    const bool onIncludesId = std::find(on.begin(), on.end(), "_id") != on.end();
    for (const BSONObj& outputDoc : docs) {
        // A result without _id gets a generated ObjectId when 'on' includes _id (MongoDB's
        // $merge does the same: such a document can only ever be inserted).
        BSONObj doc = outputDoc;
        if (onIncludesId && doc["_id"].eoo()) {
            BSONObjBuilder withId;
            withId.append("_id", OID::gen());
            withId.appendElements(doc);
            doc = withId.obj();
        }
        BSONObjBuilder q;
        for (auto& f : on) {
            BSONElement v = doc.getFieldDotted(f);
            if (v.eoo() || v.isNull() || v.type() == Array)
                uasserted(51132, "$merge write error: 'on' field '" + f + "' cannot be missing, null or an array");
            q.appendAs(v, f);
        }
        if (matched == "fail") {
            std::vector<WriteError> errors;
            insertDocuments(opCtx, target, {doc}, true, &errors);
            throwFirst(errors, "$merge");
            continue;
        }
        BSONObjBuilder u;
        BSONObj uObj;
        BSONObj pipelineHolder;
        UpdateStatement stmt;
        stmt.q = q.obj();
        stmt.upsert = notMatched == "insert";
        stmt.collation.given = true;  // the pipeline's, not the target collection's default
        stmt.collation.collator = collator;
        if (matched == "replace") {
            uObj = doc;
        } else if (matched == "merge") {
            BSONObjBuilder set;
            for (BSONElement e : doc)
                if (e.fieldNameStringData() != "_id") set.append(e);
            BSONObj setObj = set.obj();
            if (setObj.isEmpty()) {
                BSONObjBuilder soi;
                soi.append("$setOnInsert", doc);
                uObj = soi.obj();
            } else {
                u.append("$set", setObj);
                uObj = u.obj();
            }
        } else if (matched == "keepExisting") {
            u.append("$setOnInsert", doc);
            uObj = u.obj();
        } else {  // a pipeline applied to the matched document
            BSONObjBuilder holder;
            holder.appendArray("u", whenMatched.Obj());
            pipelineHolder = holder.obj();
        }
        BSONObjBuilder ub;
        if (!uObj.isEmpty()) ub.append("u", uObj);
        BSONObj uHolder = uObj.isEmpty() ? pipelineHolder : ub.obj();
        stmt.u = uHolder["u"];
        UpdateResult r = performUpdate(opCtx, target, stmt, false);
        if (r.nMatched == 0 && !r.upsertedId && notMatched == "fail")
            uasserted(13113, "$merge could not find a matching document in the target collection for the input document");
    }
}

}  // namespace

void writeAggregationOutput(OperationContext* opCtx, const std::string& db, const BSONObj& stage,
                            const std::vector<BSONObj>& docs, const CollatorPtr& collator) {
    BSONElement e = stage.firstElement();
    if (e.fieldNameStringData() == "$out") runOut(opCtx, db, e, docs);
    else runMerge(opCtx, db, e, docs, collator);
}

}  // namespace mongo
