#pragma once
// Views (MongoDB 7.0): read-only namespaces defined by an aggregation pipeline over another
// collection or view of the same database. Their definitions are documents of
// <db>.system.views, {_id: "<db>.<view>", viewOn: "<coll>", pipeline: [...]}, an ordinary
// collection, so they are durable, survive restarts and go with dropDatabase (or a drop of
// system.views) like any data. Nothing is cached: every lookup reads system.views in the
// caller's snapshot, so no cache can disagree with the data (the collection is small, and a
// database without views costs one catalog map lookup).
//
// View resolution lives here and only here: every read command (find, aggregate, count,
// distinct, explain, $lookup/$graphLookup/$unionWith) asks resolve() for the backing
// collection and the pipeline to run first; write and index commands ask isView() and refuse
// with CommandNotSupportedOnView (166).
//
// Concurrency: readers hold at least the shared catalog lock (catalog_lock.h); create, modify
// and drop hold the exclusive one (CatalogDDLLock), which also serialises writers.
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collator.h"

namespace mongo {

struct ViewDefinition {
    NamespaceString name;        // the view
    std::string viewOn;          // a collection or view of name.db()
    std::vector<BSONObj> pipeline;
    // The view's default collation (null: simple; stored as `collation`, its full form). Its
    // pipeline and every read of it run under it; views it reads must have the same one.
    CollatorPtr collator;
    NamespaceString viewOnNss() const { return NamespaceString(name.db(), viewOn); }
    BSONObj pipelineArray() const;  // [stage, ...] as stored
};

// A namespace resolved through any views down to a collection: the collection (which may not
// exist) and the stages of every view on the way, innermost first.
struct ResolvedView {
    NamespaceString collection;
    std::vector<BSONObj> pipeline;
    CollatorPtr collator;  // the view's collation (every view on the way has the same one)
};

class ViewCatalog {
public:
    // Views may nest this deep (MongoDB's limit): a chain of 20 views over a collection.
    static constexpr int kMaxViewDepth = 20;

    // The view called nss, if there is one. Throws InvalidViewDefinition (182) if its stored
    // definition is malformed (system.views written by hand).
    static std::optional<ViewDefinition> lookup(OperationContext* opCtx, const NamespaceString& nss);
    static bool isView(OperationContext* opCtx, const NamespaceString& nss) { return lookup(opCtx, nss).has_value(); }
    // Every view of db, in system.views order.
    static std::vector<ViewDefinition> list(OperationContext* opCtx, const std::string& db);
    // How many views db has (dbStats.views): system.views' record count, nothing parsed.
    static long long count(OperationContext* opCtx, const std::string& db);
    // nullopt when nss is not a view; else its collection and pipeline. ViewDepthLimitExceeded
    // (165) past kMaxViewDepth views.
    static std::optional<ResolvedView> resolve(OperationContext* opCtx, const NamespaceString& nss);
    // CommandNotSupportedOnView (166) "Namespace <ns> is a view, not a collection" if nss is one.
    static void uassertNotView(OperationContext* opCtx, const NamespaceString& nss);
    static Status notCollectionStatus(const NamespaceString& nss);

    // Checks a definition (viewOn a string, pipeline an array of valid stages without
    // $out/$merge, no cycle through viewOn/$lookup/$graphLookup/$unionWith/$facet, at most
    // kMaxViewDepth views deep, every view it reads with the same collation, else
    // OptionNotSupportedOnView (167)) with MongoDB's codes; cmdName names the command in
    // messages. collator: the view's collation (null: simple). Returns the definition.
    static ViewDefinition validate(OperationContext* opCtx, const NamespaceString& view, const BSONElement& viewOn,
                                   const BSONElement& pipeline, const char* cmdName, CollatorPtr collator = nullptr);
    // REQUIRES: the exclusive catalog lock. create: NamespaceExists if a collection or a view
    // of that name exists. modify: replaces an existing view's definition.
    static void create(OperationContext* opCtx, const ViewDefinition& def);
    static void modify(OperationContext* opCtx, const ViewDefinition& def);
    // Removes the view; false if there was none.
    static bool drop(OperationContext* opCtx, const NamespaceString& nss);
};

}  // namespace mongo
