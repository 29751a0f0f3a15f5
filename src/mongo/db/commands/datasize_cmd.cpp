// dataSize: the BSON bytes and number of documents of a collection, or of the documents whose
// keys in an index lie in [min, max), as MongoDB 7.0 answers it (the IDL DataSizeCommand):
//   {dataSize: "<db>.<coll>", keyPattern?, min?, max?, estimate?, maxSize?, maxObjects?}
//   -> {estimate?, size, numObjects, millis, maxReached?}
// - A missing or empty collection: size 0, numObjects 0 (and no estimate field); a view:
//   CommandNotSupportedOnView (166).
// - min and max come together (BadValue "Max must be set if min is set." / "Max must not be set
//   if min is not set."); one empty and the other not is BadValue "Only one of min or max
//   specified".
// - With min/max the documents are those of an index whose key pattern starts with keyPattern
//   (inferred from min's fields, each ascending, when absent): not multikey, sparse or partial;
//   none is OperationFailed "Couldn't find valid index containing key pattern". Missing
//   trailing fields of min and max are filled with MinKey (MaxKey for a descending field), and
//   the range includes min and excludes max, in index order.
// - estimate counts each document as the collection's average size; without it, each
//   document's BSON size (the logical size: with --dedup the same as without).
// - maxSize / maxObjects stop the scan once passed, with maxReached: true.
#include <chrono>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/plan_executor.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {
namespace {

// Whether pattern's fields are the first fields of keyPattern, with equal values.
bool isPrefixOf(const BSONObj& pattern, const BSONObj& keyPattern) {
    BSONObjIterator k(keyPattern);
    for (BSONElement p : pattern) {
        if (!k.more()) return false;
        BSONElement e = k.next();
        if (p.fieldNameStringData() != e.fieldNameStringData() || p.woCompare(e, false) != 0) return false;
    }
    return true;
}

// The bound as find's min()/max() take it: the index's fields in order, each with the bound's
// value, MinKey (MaxKey when descending) for the fields it lacks.
BSONObj toKey(const BSONObj& bound, const BSONObj& keyPattern) {
    BSONObjBuilder b;
    for (BSONElement f : keyPattern) {
        std::string_view name = f.fieldNameStringData();
        BSONElement v = bound[name];
        if (!v.eoo()) {
            b.appendAs(v, name);
        } else if (f.isNumber() && f.numberDouble() < 0) {
            b.appendMaxKey(name);
        } else {
            b.appendMinKey(name);
        }
    }
    return b.obj();
}

class DataSizeCmd : public Command {
public:
    DataSizeCmd() : Command("dataSize", {"datasize"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::dataSizePrivileges(req); }
    std::string help() const override { return "the size of a collection or of a range of one of its indexes"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto start = std::chrono::steady_clock::now();
        auto millis = [&] {
            return static_cast<long long>(
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
        };
        BSONElement first = req.body.firstElement();
        if (first.type() != String)
            uasserted(ErrorCodes::TypeMismatch, "BSON field '" + std::string(first.fieldNameStringData()) +
                                                    "' is the wrong type '" + typeName(first.type()) +
                                                    "', expected type 'string'");
        NamespaceString nss = NamespaceString::parse(first.valueStringData());
        if (nss.coll().empty() || !NamespaceString::validateNamespace(nss.db(), nss.coll()).isOK())
            uasserted(ErrorCodes::InvalidNamespace, "Invalid namespace specified '" + first.str() + "'");
        BSONObj keyPattern = parseObjectArg(req.body["keyPattern"], "dataSize");
        bool hasMin = !req.body["min"].eoo(), hasMax = !req.body["max"].eoo();
        BSONObj min = parseObjectArg(req.body["min"], "dataSize");
        BSONObj max = parseObjectArg(req.body["max"], "dataSize");
        bool estimate = !req.body["estimate"].eoo() && parseBoolArg(req.body["estimate"], "dataSize");
        long long maxSize = req.body["maxSize"].eoo() ? 0 : parseIntegerArg(req.body["maxSize"], "dataSize");
        long long maxObjects = req.body["maxObjects"].eoo() ? 0 : parseIntegerArg(req.body["maxObjects"], "dataSize");
        if (hasMin != hasMax)
            uasserted(ErrorCodes::BadValue,
                      hasMin ? "Max must be set if min is set." : "Max must not be set if min is not set.");

        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll) ViewCatalog::uassertNotView(opCtx, nss);  // 166, as MongoDB 7.0 (not an empty answer)
        long long numRecords = coll ? coll->numRecords(opCtx) : 0;
        if (numRecords <= 0) {
            result.append("size", 0LL);
            result.append("numObjects", 0LL);
            result.append("millis", millis());
            return;
        }
        result.append("estimate", estimate);
        if (min.isEmpty() != max.isEmpty()) uasserted(ErrorCodes::BadValue, "Only one of min or max specified");
        long long avgObjSize = coll->dataSize(opCtx) / numRecords;
        if (min.isEmpty() && estimate) {
            result.append("size", coll->dataSize(opCtx));
            result.append("numObjects", numRecords);
            result.append("millis", millis());
            return;
        }

        long long size = 0, numObjects = 0;
        bool maxReached = false;
        // Adds one document; false once a limit is passed.
        auto add = [&](long long docSize) {
            size += estimate ? avgObjSize : docSize;
            numObjects++;
            if ((maxSize && size > maxSize) || (maxObjects && numObjects > maxObjects)) {
                maxReached = true;
                return false;
            }
            return true;
        };
        // The documents are read the way find reads them: a collection scan, or the index's
        // [min, max) range through find's min()/max() plan (IXSCAN + FETCH), with maxTimeMS
        // and killOp checked as the scan runs.
        QueryRequest qr;
        qr.hint = BSONObjBuilder().append("$natural", 1).obj();
        bool emptyRange = false;
        if (!min.isEmpty()) {
            if (keyPattern.isEmpty()) {
                BSONObjBuilder kp;
                for (BSONElement e : min) kp.append(e.fieldNameStringData(), 1);
                keyPattern = kp.obj();
            }
            const IndexCatalog* ic = coll->getIndexCatalog();
            const IndexDescriptor* index = nullptr;
            for (const IndexDescriptor* d : ic->getAllIndexes()) {
                if (d->sparse || d->partial || d->hidden || !isPrefixOf(keyPattern, d->keyPattern)) continue;
                if (ic->isMultikey(opCtx, d)) continue;
                index = d;
                break;
            }
            if (!index) uasserted(ErrorCodes::OperationFailed, "Couldn't find valid index containing key pattern");
            qr.hint = BSONObjBuilder().append("$hint", index->name).obj();
            qr.min = toKey(min, index->keyPattern);
            qr.max = toKey(max, index->keyPattern);
            // An empty range: nothing to read (find's min()/max() would call it an error).
            emptyRange = qr.min.woCompare(qr.max, index->keyPattern, false) >= 0;
        }
        if (!emptyRange) {
            PlanExecutor exec(opCtx->getClient(), coll, nss, qr, PlanPurpose::kFind, "", opCtx);
            while (auto doc = exec.getNext(opCtx))
                if (!add(doc->objsize())) break;
        }
        result.append("size", size);
        result.append("numObjects", numObjects);
        result.append("millis", millis());
        if (maxReached) result.append("maxReached", true);
    }
};
DataSizeCmd dataSizeCmd;

}  // namespace
}  // namespace mongo
