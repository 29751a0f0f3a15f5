// count and distinct.
#include <limits>
#include <set>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {


namespace {

class CountCmd : public Command {
public:
    CountCmd() : Command("count") {}
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
        checkSimpleCollation(req.body["collation"], "count.collation");
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        long long n = 0;
        if (coll && qr.filter.isEmpty() && qr.hint.isEmpty()) {
            // Fast count from the collection's metadata, as MongoDB does for an empty query.
            n = std::max(0LL, coll->numRecords(opCtx) - qr.skip);
            if (qr.limit > 0) n = std::min(n, qr.limit);
        } else {
            PlanExecutor exec(opCtx->getClient(), coll, nss, qr);
            while (exec.getNext(opCtx)) n++;
        }
        result.append("n", n);
    }
};
CountCmd countCmd;

// Values at a dotted path, unwinding arrays along the way (as distinct does).
void collectValues(const BSONObj& doc, std::string_view path, std::set<BSONObj, BSONObjCmp>& out) {
    auto dot = path.find('.');
    std::string_view head = path.substr(0, dot);
    BSONElement e = doc.getField(head);
    if (e.eoo()) return;
    if (dot == std::string_view::npos) {
        if (e.type() == Array) {
            for (BSONElement v : e.Obj()) out.insert(v.wrap(""));
        } else {
            out.insert(e.wrap(""));
        }
        return;
    }
    std::string_view rest = path.substr(dot + 1);
    if (e.type() == Object) {
        collectValues(e.Obj(), rest, out);
    } else if (e.type() == Array) {
        for (BSONElement v : e.Obj())
            if (v.type() == Object) collectValues(v.Obj(), rest, out);
        // numeric components index into arrays
        BSONElement idx = e.Obj().getField(rest.substr(0, rest.find('.')));
        if (!idx.eoo() && rest.find('.') == std::string_view::npos) out.insert(idx.wrap(""));
    }
}

class DistinctCmd : public Command {
public:
    DistinctCmd() : Command("distinct") {}
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
        checkSimpleCollation(req.body["collation"], "distinct.collation");
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        PlanExecutor exec(opCtx->getClient(), coll, nss, qr);
        std::set<BSONObj, BSONObjCmp> values;
        std::string path = key.str();
        while (auto d = exec.getNext(opCtx)) collectValues(*d, path, values);
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
