#include "mongo/db/views/view_catalog.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/pipeline/pipeline.h"

namespace mongo {
namespace {

const char* const kSystemViews = "system.views";

Collection* systemViews(OperationContext* opCtx, const std::string& db) {
    return CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString(db, kSystemViews));
}

[[noreturn]] void invalidDefinition(const BSONObj& doc, const std::string& why) {
    uasserted(ErrorCodes::InvalidViewDefinition, "found invalid view definition " + doc.toString() + ": " + why);
}

ViewDefinition parseStored(const std::string& db, const BSONObj& doc) {
    BSONElement id = doc["_id"], on = doc["viewOn"], p = doc["pipeline"];
    if (id.type() != String) invalidDefinition(doc, "_id must be a string");
    std::string ns = id.str();
    if (ns.size() <= db.size() + 1 || ns.compare(0, db.size() + 1, db + ".") != 0)
        invalidDefinition(doc, "_id must name a namespace of database " + db);
    if (on.type() != String) invalidDefinition(doc, "viewOn must be a string");
    if (p.type() != Array) invalidDefinition(doc, "pipeline must be an array");
    ViewDefinition def;
    def.name = NamespaceString(db, ns.substr(db.size() + 1));
    def.viewOn = on.str();
    for (BSONElement s : p.Obj()) {
        if (s.type() != Object) invalidDefinition(doc, "pipeline stages must be objects");
        def.pipeline.push_back(s.Obj().getOwned());
    }
    if (BSONElement c = doc["collation"]; !c.eoo()) {
        if (c.type() != Object) invalidDefinition(doc, "collation must be a document");
        try {
            def.collator = Collator::make(c.Obj());
        } catch (const DBException& ex) {
            invalidDefinition(doc, "bad collation: " + ex.reason());
        }
    }
    return def;
}

BSONObj storedForm(const ViewDefinition& def) {
    BSONObjBuilder b;
    b.append("_id", def.name.ns());
    b.append("viewOn", def.viewOn);
    b.appendArray("pipeline", def.pipelineArray());
    if (def.collator) b.append("collation", def.collator->spec());
    return b.obj();
}

// The definition of nss: one point lookup of _id in system.views' _id index (every collection
// has one; system.views uses the simple collation, so the key is the string itself).
std::optional<Record> findStored(OperationContext* opCtx, Collection* sv, const NamespaceString& nss) {
    BSONObjBuilder key;
    key.append("_id", nss.ns());
    BSONObj k = key.obj();
    return findDocumentById(opCtx, sv, k.firstElement());
}

// The namespaces (collection names of db) a pipeline reads besides its input: $lookup,
// $graphLookup and $unionWith 'from's, inside $facet and sub-pipelines too.
void collectForeign(const std::vector<BSONObj>& stages, std::vector<std::string>& out);
void collectForeignArray(const BSONElement& arr, std::vector<std::string>& out) {
    if (arr.type() != Array) return;
    std::vector<BSONObj> stages;
    for (BSONElement s : arr.Obj())
        if (s.type() == Object) stages.push_back(s.Obj());
    collectForeign(stages, out);
}
void collectForeign(const std::vector<BSONObj>& stages, std::vector<std::string>& out) {
    for (const BSONObj& stage : stages) {
        BSONElement spec = stage.firstElement();
        std::string_view name = spec.fieldNameStringData();
        if (name == "$unionWith" && spec.type() == String) {
            out.push_back(spec.str());
        } else if ((name == "$lookup" || name == "$graphLookup" || name == "$unionWith") && spec.type() == Object) {
            BSONObj o = spec.Obj();
            BSONElement from = o[name == "$unionWith" ? "coll" : "from"];
            if (from.type() == String) out.push_back(from.str());
            collectForeignArray(o["pipeline"], out);
        } else if (name == "$facet" && spec.type() == Object) {
            for (BSONElement f : spec.Obj()) collectForeignArray(f, out);
        }
    }
}

// The views of one database as a graph, with one definition replaced (or added): checks it
// has no cycle through the changed view and no path of more than kMaxViewDepth views.
class ViewGraph {
public:
    ViewGraph(OperationContext* opCtx, const ViewDefinition& changed) : _db(changed.name.db()) {
        for (auto& d : ViewCatalog::list(opCtx, _db))
            if (d.name != changed.name) add(d);
        add(changed);
        _start = changed.name.coll();
    }

    void check() {
        std::vector<std::string> path;
        std::set<std::string> onPath;
        // Longest path of views below the changed view (inclusive), and above it: any view
        // reaching it adds its own height.
        int below = height(_start, path, onPath);
        int above = 0;
        std::map<std::string, int> memo;
        for (auto& [name, _] : _edges) above = std::max(above, heightAbove(name, memo));
        if (below + above > ViewCatalog::kMaxViewDepth || below > ViewCatalog::kMaxViewDepth)
            uasserted(ErrorCodes::ViewDepthLimitExceeded,
                      "View depth too deep or view cycle detected. Maximum depth is " +
                          std::to_string(ViewCatalog::kMaxViewDepth));
    }

private:
    void add(const ViewDefinition& d) {
        std::vector<std::string> to{d.viewOn};
        collectForeign(d.pipeline, to);
        _edges[d.name.coll()] = std::move(to);
    }

    // Views on the longest path starting at name (0 if name is a collection); throws
    // GraphContainsCycle on a path back to a view already on it.
    int height(const std::string& name, std::vector<std::string>& path, std::set<std::string>& onPath) {
        auto it = _edges.find(name);
        if (it == _edges.end()) return 0;
        if (onPath.count(name)) {
            std::string msg = "View cycle detected: ";
            bool inCycle = false;
            for (auto& p : path) {
                inCycle = inCycle || p == name;
                if (inCycle) msg += _db + "." + p + " => ";
            }
            uasserted(ErrorCodes::GraphContainsCycle, msg + _db + "." + name);
        }
        if (auto m = _height.find(name); m != _height.end()) return m->second;
        path.push_back(name);
        onPath.insert(name);
        int best = 0;
        for (auto& next : it->second) best = std::max(best, height(next, path, onPath));
        path.pop_back();
        onPath.erase(name);
        if (1 + best > ViewCatalog::kMaxViewDepth + 1) best = ViewCatalog::kMaxViewDepth + 1;
        return _height[name] = 1 + best;
    }

    // The number of views on the longest path from name down to the changed view, excluding
    // it (-inf when the changed view is not below name). The graph is acyclic by now.
    int heightAbove(const std::string& name, std::map<std::string, int>& memo) {
        if (name == _start) return 0;
        auto it = _edges.find(name);
        if (it == _edges.end()) return -1000;
        if (auto m = memo.find(name); m != memo.end()) return m->second;
        memo[name] = -1000;  // guards recursion; no cycle remains after height()
        int best = -1000;
        for (auto& next : it->second) best = std::max(best, heightAbove(next, memo));
        return memo[name] = best < 0 ? -1000 : best + 1;
    }

    std::string _db;
    std::string _start;
    std::map<std::string, std::vector<std::string>> _edges;
    std::map<std::string, int> _height;
};

}  // namespace

BSONObj ViewDefinition::pipelineArray() const {
    BSONArrayBuilder a;
    for (auto& s : pipeline) a.append(s);
    return a.arr();
}

std::optional<ViewDefinition> ViewCatalog::lookup(OperationContext* opCtx, const NamespaceString& nss) {
    if (nss.coll().empty()) return std::nullopt;
    Collection* sv = systemViews(opCtx, nss.db());
    if (!sv) return std::nullopt;
    auto r = findStored(opCtx, sv, nss);
    if (!r) return std::nullopt;
    return parseStored(nss.db(), r->doc);
}

std::vector<ViewDefinition> ViewCatalog::list(OperationContext* opCtx, const std::string& db) {
    std::vector<ViewDefinition> out;
    Collection* sv = systemViews(opCtx, db);
    if (!sv) return out;
    auto cursor = sv->getCursor(opCtx, true);
    while (auto r = cursor->next()) out.push_back(parseStored(db, r->doc));
    return out;
}

long long ViewCatalog::count(OperationContext* opCtx, const std::string& db) {
    Collection* sv = systemViews(opCtx, db);
    return sv ? sv->numRecords(opCtx) : 0;
}

std::optional<ResolvedView> ViewCatalog::resolve(OperationContext* opCtx, const NamespaceString& nss) {
    auto def = lookup(opCtx, nss);
    if (!def) return std::nullopt;
    ResolvedView r;
    r.collator = def->collator;
    int depth = 0;
    while (def) {
        if (++depth > kMaxViewDepth)
            uasserted(ErrorCodes::ViewDepthLimitExceeded,
                      "View depth too deep or view cycle detected. Maximum depth is " + std::to_string(kMaxViewDepth));
        r.pipeline.insert(r.pipeline.begin(), def->pipeline.begin(), def->pipeline.end());
        r.collection = def->viewOnNss();
        def = lookup(opCtx, r.collection);
    }
    return r;
}

Status ViewCatalog::notCollectionStatus(const NamespaceString& nss) {
    return Status(ErrorCodes::CommandNotSupportedOnView, "Namespace " + nss.ns() + " is a view, not a collection");
}

void ViewCatalog::uassertNotView(OperationContext* opCtx, const NamespaceString& nss) {
    if (isView(opCtx, nss)) uassertStatusOK(notCollectionStatus(nss));
}

ViewDefinition ViewCatalog::validate(OperationContext* opCtx, const NamespaceString& view, const BSONElement& viewOn,
                                     const BSONElement& pipeline, const char* cmdName, CollatorPtr collator) {
    std::string cmd(cmdName);
    if (viewOn.type() != String)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + cmd + ".viewOn' is the wrong type '" +
                                                typeName(viewOn.type()) + "', expected type 'string'");
    if (!pipeline.eoo() && pipeline.type() != Array)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + cmd + ".pipeline' is the wrong type '" +
                                                typeName(pipeline.type()) + "', expected type 'array'");
    ViewDefinition def;
    def.name = view;
    def.viewOn = viewOn.str();
    def.collator = std::move(collator);
    if (def.viewOn.empty()) uasserted(ErrorCodes::BadValue, "'viewOn' cannot be empty");
    uassertStatusOK(NamespaceString::validateCollectionName(def.viewOn));
    if (!pipeline.eoo()) {
        int i = 0;
        for (BSONElement s : pipeline.Obj()) {
            if (s.type() != Object)
                uasserted(ErrorCodes::TypeMismatch, "BSON field '" + cmd + ".pipeline." + std::to_string(i) +
                                                        "' is the wrong type '" + typeName(s.type()) +
                                                        "', expected type 'object'");
            BSONObj stage = s.Obj().getOwned();
            std::string_view name = stage.isEmpty() ? "" : stage.firstElementFieldName();
            if (name == "$out" || name == "$merge")
                uasserted(ErrorCodes::OptionNotSupportedOnView,
                          "The aggregation stage " + std::string(name) + " in location " + std::to_string(i) +
                              " of the pipeline cannot be used in the view definition of " + view.ns() +
                              " because it writes to disk");
            def.pipeline.push_back(stage);
            i++;
        }
    }
    // The stages must parse as an aggregation would parse them (unknown stages, bad specs,
    // undefined variables, $out inside $lookup/$facet...). Server source stages parse but
    // never run here.
    PipelineContext ctx;
    ctx.db = view.db();
    ctx.serverSourceStage = [](const BSONObj&) { return std::function<std::optional<BSONObj>()>(); };
    ctx.collator = def.collator;
    Pipeline parsed(def.pipeline, std::move(ctx));
    ViewGraph(opCtx, def).check();
    // Every view this one reads (viewOn, $lookup, $graphLookup, $unionWith, $facet) must have
    // its collation, so that no read can run a view's pipeline under another one.
    std::vector<std::string> reads{def.viewOn};
    collectForeign(def.pipeline, reads);
    for (const std::string& other : reads) {
        auto od = lookup(opCtx, NamespaceString(view.db(), other));
        if (od && !sameCollation(od->collator, def.collator))
            uasserted(ErrorCodes::OptionNotSupportedOnView,
                      "View " + view.ns() + " has conflicting collation with view " + od->name.ns());
    }
    // ... and so must every view that reads it (one may have been defined before it).
    for (const ViewDefinition& d : list(opCtx, view.db())) {
        if (d.name == view || sameCollation(d.collator, def.collator)) continue;
        std::vector<std::string> dr{d.viewOn};
        collectForeign(d.pipeline, dr);
        if (std::find(dr.begin(), dr.end(), view.coll()) != dr.end())
            uasserted(ErrorCodes::OptionNotSupportedOnView,
                      "View " + d.name.ns() + " has conflicting collation with view " + view.ns());
    }
    return def;
}

void ViewCatalog::create(OperationContext* opCtx, const ViewDefinition& def) {
    const NamespaceString& nss = def.name;
    uassert(ErrorCodes::NamespaceExists, "Namespace already exists: " + nss.ns(),
            !CollectionCatalog::get()->lookupCollection(opCtx, nss) && !isView(opCtx, nss));
    NamespaceString svNss(nss.db(), kSystemViews);
    WriteUnitOfWork wuow(opCtx);
    Collection* sv = CollectionCatalog::get()->lookupCollection(opCtx, svNss);
    if (!sv) sv = CollectionCatalog::get()->createCollection(opCtx, svNss, CollectionOptions());
    sv->insertDocument(opCtx, storedForm(def));
    wuow.commit();
}

void ViewCatalog::modify(OperationContext* opCtx, const ViewDefinition& def) {
    Collection* sv = systemViews(opCtx, def.name.db());
    auto r = sv ? findStored(opCtx, sv, def.name) : std::nullopt;
    uassert(ErrorCodes::NamespaceNotFound, "ns does not exist: " + def.name.ns(), r.has_value());
    WriteUnitOfWork wuow(opCtx);
    sv->updateDocument(opCtx, r->id, r->doc, storedForm(def));
    wuow.commit();
}

bool ViewCatalog::drop(OperationContext* opCtx, const NamespaceString& nss) {
    Collection* sv = systemViews(opCtx, nss.db());
    auto r = sv ? findStored(opCtx, sv, nss) : std::nullopt;
    if (!r) return false;
    WriteUnitOfWork wuow(opCtx);
    sv->deleteDocument(opCtx, r->id);
    wuow.commit();
    return true;
}

}  // namespace mongo
