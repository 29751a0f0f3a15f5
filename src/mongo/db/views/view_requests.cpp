#include "mongo/db/views/view_requests.h"

#include "mongo/db/auth/authorization_session.h"

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

BSONObj stage(const char* name, const BSONObj& spec) {
    BSONObjBuilder b;
    b.append(name, spec);
    return b.obj();
}

BSONObj stage(const char* name, long long n) {
    BSONObjBuilder b;
    b.append(name, n);
    return b.obj();
}

[[noreturn]] void notInAggregation(const std::string& what) {
    uasserted(ErrorCodes::InvalidPipelineOperator, "Option " + what + " not supported in aggregation.");
}

AggregateRequest baseRequest(const ResolvedView& rv) {
    AggregateRequest ar;
    ar.nss = rv.collection;
    ar.stages = rv.pipeline;
    ar.allowDiskUse = allowDiskUseByDefault();
    ar.collation.given = true;  // a view reads under its own collation, never its collection's
    ar.collation.collator = rv.collator;
    return ar;
}

}  // namespace

std::optional<ResolvedView> resolveViewForRead(OperationContext* opCtx, const NamespaceString& nss) {
    CatalogReadLock lock;
    if (CollectionCatalog::get()->lookupCollection(opCtx, nss)) return std::nullopt;
    return ViewCatalog::resolve(opCtx, nss);
}

bool namesView(OperationContext* opCtx, const NamespaceString& nss) {
    CatalogReadLock lock;
    return !CollectionCatalog::get()->lookupCollection(opCtx, nss) && ViewCatalog::isView(opCtx, nss);
}

std::optional<NamespaceString> resolveAggregate(OperationContext* opCtx, AggregateRequest& ar) {
    if (ar.collectionless) return std::nullopt;
    // $collStats reports on the namespace named, never on what a view reads (MongoDB does not
    // resolve the view for it): latencyStats answer for the view itself, while storageStats
    // and count fail as a view has neither.
    if (!ar.stages.empty() && ar.stages.front().firstElementFieldName() == "$collStats") return std::nullopt;
    auto rv = resolveViewForRead(opCtx, ar.nss);
    if (!rv) return std::nullopt;
    NamespaceString view = ar.nss;
    uassertViewCollation(ar.collation, rv->collator.get());
    ar.collation.given = true;  // the view's collation, not its collection's
    ar.collation.collator = rv->collator;
    std::vector<BSONObj> stages = rv->pipeline;
    stages.insert(stages.end(), ar.stages.begin(), ar.stages.end());
    ar.stages = std::move(stages);
    ar.nss = rv->collection;
    return view;
}

AggregateRequest findAsAggregate(const ResolvedView& rv, const OpMsgRequest& req, const FindRequest& fr) {
    // MongoDB's checks, in its order.
    const QueryRequest& qr = fr.qr;
    if (!qr.min.isEmpty()) notInAggregation("min");
    if (!qr.max.isEmpty()) notInAggregation("max");
    if (qr.returnKey) notInAggregation("returnKey");
    if (qr.showRecordId) notInAggregation("showRecordId");
    if (fr.tailable) uasserted(ErrorCodes::InvalidPipelineOperator, "Tailable cursors are not supported in aggregation.");
    if (fr.noCursorTimeout) notInAggregation("noCursorTimeout");
    if (req.body["allowPartialResults"].trueValue()) notInAggregation("allowPartialResults");
    if (!qr.sort["$natural"].eoo()) uasserted(ErrorCodes::InvalidPipelineOperator, "Sort option $natural not supported in aggregation.");
    // singleBatch only with limit 1 (findOne), the one case where the result fits one batch.
    if (fr.singleBatch && qr.limit != 1) notInAggregation("singleBatch");
    uassertViewCollation(qr.collation, rv.collator.get());
    AggregateRequest ar = baseRequest(rv);
    if (!qr.filter.isEmpty()) ar.stages.push_back(stage("$match", qr.filter));
    if (!qr.sort.isEmpty()) ar.stages.push_back(stage("$sort", qr.sort));
    if (qr.skip > 0) ar.stages.push_back(stage("$skip", qr.skip));
    if (qr.limit > 0) ar.stages.push_back(stage("$limit", qr.limit));
    if (!qr.projection.isEmpty()) ar.stages.push_back(stage("$project", qr.projection));
    ar.batchSize = fr.batchSize;
    ar.hint = qr.hint;
    ar.allowDiskUse = qr.allowDiskUse;
    return ar;
}

AggregateRequest countAsAggregate(const ResolvedView& rv, const QueryRequest& qr) {
    AggregateRequest ar = baseRequest(rv);
    if (!qr.filter.isEmpty()) ar.stages.push_back(stage("$match", qr.filter));
    if (qr.skip > 0) ar.stages.push_back(stage("$skip", qr.skip));
    if (qr.limit > 0) ar.stages.push_back(stage("$limit", qr.limit));
    BSONObjBuilder c;
    c.append("$count", "count");
    ar.stages.push_back(c.obj());
    ar.hint = qr.hint;
    return ar;
}

AggregateRequest distinctAsAggregate(const ResolvedView& rv, const QueryRequest& qr) {
    AggregateRequest ar = baseRequest(rv);
    if (!qr.filter.isEmpty()) ar.stages.push_back(stage("$match", qr.filter));
    ar.hint = qr.hint;
    return ar;
}

void forEachAggregateResult(OperationContext* opCtx, const AggregateRequest& ar,
                            const std::function<void(const BSONObj&)>& f) {
    CatalogReadLock lock;
    AggregateCursorSource source(opCtx, ar);
    while (auto d = source.next(opCtx)) f(*d);
}

void runAggregateCursor(OperationContext* opCtx, const AggregateRequest& ar, const NamespaceString& replyNss,
                        bool singleBatch, BSONObjBuilder& result) {
    CatalogReadLock lock;
    auto source = std::make_unique<AggregateCursorSource>(opCtx, ar);
    auto cursor = std::make_unique<ClientCursor>();
    cursor->nss = replyNss;
    cursor->lsid = opCtx->lsid;
    cursor->owner = auth::cursorOwner(opCtx);
    cursor->source = std::move(source);
    BSONArrayBuilder docs;
    bool exhausted = fillBatch(opCtx, *cursor, ar.batchSize, docs);
    long long id = 0;
    if (!exhausted && !singleBatch) {
        cursor->source->save();
        id = CursorManager::get().registerCursor(std::move(cursor));
    }
    appendCursorReply(result, "firstBatch", docs.arr(), id, replyNss.ns());
}

}  // namespace mongo
