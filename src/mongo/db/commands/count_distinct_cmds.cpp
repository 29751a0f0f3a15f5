// count and distinct.
#include <limits>
#include <set>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/path_traversal.h"
#include "mongo/db/query/plan_executor.h"
#include "mongo/db/views/view_requests.h"

namespace mongo {


namespace {

class CountCmd : public Command {
public:
    CountCmd() : Command("count") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::find}); }
    std::string help() const override { return "count the documents matching a query"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        QueryRequest qr;
        qr.filter = parseObjectArg(req.body["query"], "count");
        if (!req.body["skip"].eoo()) {
            qr.skip = parseIntegerArg(req.body["skip"], "count");
            if (qr.skip < 0) uasserted(ErrorCodes::FailedToParse, "skip value is negative in count query");
        }
        if (!req.body["limit"].eoo()) {
            long long l = parseIntegerArg(req.body["limit"], "count");
            // As MongoDB, a negative limit counts like a positive one; -2^63 has no positive
            // counterpart (negating it overflowed) and means "no limit" like any huge limit.
            qr.limit = l >= 0 ? l : l == std::numeric_limits<long long>::min() ? 0 : -l;
        }
        qr.hint = parseHint(req.body["hint"]);
        qr.collation = parseCollationOption(req.body["collation"], "count.collation");
        if (auto view = resolveViewForRead(opCtx, nss)) {
            uassertViewCollation(qr.collation, view->collator.get());
            long long n = 0;
            forEachAggregateResult(opCtx, countAsAggregate(*view, qr), [&](const BSONObj& d) { n = d["count"].numberLong(); });
            result.append("n", n);
            return;
        }
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        long long n = 0;
        if (coll && qr.filter.isEmpty() && qr.hint.isEmpty()) {
            // Fast count from the collection's metadata, as MongoDB does for an empty query.
            n = std::max(0LL, coll->numRecords(opCtx) - qr.skip);
            if (qr.limit > 0) n = std::min(n, qr.limit);
        } else {
            // The plan counts matches (COUNT_SCAN, or keys when the filter is covered); skip and
            // limit apply to the count.
            long long skip = qr.skip, limit = qr.limit;
            qr.skip = qr.limit = 0;
            PlanExecutor exec(opCtx->getClient(), coll, nss, qr, PlanPurpose::kCount, "", opCtx);
            long long stopAt = 0;
            if (limit > 0 && __builtin_add_overflow(skip, limit, &stopAt)) stopAt = 0;
            while ((stopAt == 0 || n < stopAt) && exec.getNext(opCtx)) n++;
            n = std::max(0LL, n - skip);
        }
        result.append("n", n);
    }
};
CountCmd countCmd;

// Values at a dotted path, unwinding arrays along the way (path_traversal.h's distinct mode:
// "a.1.b" indexes arrays, trailing arrays are expanded, missing values give nothing).
void collectValues(const BSONObj& doc, std::string_view path, std::set<BSONObj, BSONObjCmp>& out) {
    walkPath(doc, DottedPath(path), PathWalkOptions::forDistinct(), [&](const BSONElement& v, const char*) {
        out.insert(v.wrap(""));
        return false;
    });
}

class DistinctCmd : public Command {
public:
    DistinctCmd() : Command("distinct") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::find}); }
    std::string help() const override { return "the distinct values of a field"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        BSONElement key = req.body["key"];
        if (key.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'distinct.key' is missing but a required field");
        if (key.type() != String)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'distinct.key' is the wrong type '" + typeName(key.type()) +
                                                    "', expected type 'string'");
        QueryRequest qr;
        // query: null is no filter, as MongoDB's distinct parser treats it.
        if (!req.body["query"].isNull()) qr.filter = parseObjectArg(req.body["query"], "distinct");
        qr.collation = parseCollationOption(req.body["collation"], "distinct.collation");
        std::string path = key.str();
        std::set<BSONObj, BSONObjCmp> values;
        if (auto view = resolveViewForRead(opCtx, nss)) {
            uassertViewCollation(qr.collation, view->collator.get());
            // Values equal under the view's collation are one value.
            values = std::set<BSONObj, BSONObjCmp>(BSONObjCmp{view->collator.get()});
            forEachAggregateResult(opCtx, distinctAsAggregate(*view, qr),
                                   [&](const BSONObj& d) { collectValues(d, path, values); });
        } else {
            CatalogReadLock lock;
            const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
            PlanExecutor exec(opCtx->getClient(), coll, nss, qr, PlanPurpose::kDistinct, path, opCtx);
            // Values equal under the query's collation are one value (the first one met).
            values = std::set<BSONObj, BSONObjCmp>(BSONObjCmp{exec.query().collator()});
            while (auto d = exec.getNext(opCtx)) collectValues(*d, path, values);
        }
        BSONArrayBuilder arr;
        for (auto& v : values) arr.append(v.firstElement());
        if (arr.len() > BSONObjMaxUserSize)
            uasserted(17217, "distinct too big, 16mb cap");
        result.append("values", arr.arr());
    }
};
DistinctCmd distinctCmd;

}  // namespace
}  // namespace mongo
