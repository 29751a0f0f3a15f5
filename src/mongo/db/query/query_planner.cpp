#include "mongo/db/query/query_planner.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

std::vector<std::string> keyFields(const BSONObj& keyPattern) {
    std::vector<std::string> out;
    for (BSONElement e : keyPattern) out.emplace_back(e.fieldNameStringData());
    return out;
}

bool isAscending(const BSONElement& e) { return !(e.isNumber() && e.numberDouble() < 0); }

// Does scanning the index (forward or backward) give the requested sort order?
// Sets *forward. Equality-bound leading fields may be skipped, as MongoDB does.
bool indexProvidesSort(const IndexDescriptor* idx, const std::vector<std::vector<Interval>>& bounds,
                       const BSONObj& sort, bool* forward) {
    if (sort.isEmpty()) return true;
    std::vector<BSONElement> keys;
    for (BSONElement e : idx->keyPattern) keys.push_back(e);
    size_t k = 0;
    int dir = 0;
    for (BSONElement s : sort) {
        // Skip leading index fields fixed to a single point (they don't affect the order).
        while (k < keys.size() && keys[k].fieldNameStringData() != s.fieldNameStringData() && k < bounds.size() &&
               bounds[k].size() == 1 && bounds[k][0].isPoint())
            k++;
        if (k >= keys.size() || keys[k].fieldNameStringData() != s.fieldNameStringData()) return false;
        if (!s.isNumber()) return false;
        int want = s.numberDouble() < 0 ? -1 : 1;
        int have = isAscending(keys[k]) ? 1 : -1;
        int d = want * have;
        if (dir == 0) dir = d;
        else if (dir != d) return false;
        k++;
    }
    *forward = dir >= 0;
    return true;
}

struct Candidate {
    const IndexDescriptor* idx;
    std::vector<std::vector<Interval>> bounds;
    int pointPrefix = 0;     // leading fields bounded to points
    int boundedFields = 0;   // leading fields with any bounds
    bool multikey = false;
};

Candidate boundsFor(OperationContext* opCtx, const Collection* coll, const IndexDescriptor* idx, const BSONObj& filter) {
    Candidate c{idx, {}, 0, 0, coll->getIndexCatalog()->isMultikey(opCtx, idx)};
    bool open = true;  // still extending the bounded prefix
    for (const std::string& f : keyFields(idx->keyPattern)) {
        std::optional<std::vector<Interval>> b;
        if (open) b = boundsForPath(filter, f, c.multikey);
        if (b && !b->empty()) {
            bool allPoints = true;
            for (auto& i : *b) allPoints = allPoints && i.isPoint();
            c.bounds.push_back(*b);
            c.boundedFields++;
            if (allPoints && open) c.pointPrefix++;
            else open = false;
        } else if (b && b->empty()) {
            // Contradictory predicates: no key can match. Keep the empty interval list.
            c.bounds.push_back({});
            c.boundedFields++;
            open = false;
        } else {
            c.bounds.push_back({Interval::allValues()});
            open = false;
        }
    }
    return c;
}

const IndexDescriptor* findHintedIndex(const Collection* coll, const BSONObj& hint) {
    IndexCatalog* ic = coll->getIndexCatalog();
    BSONElement h = hint.firstElement();
    if (hint.nFields() == 1 && h.fieldNameStringData() == "$hint" && h.type() == String)
        return ic->findIndexByName(h.str());
    return ic->findIndexByKeyPattern(hint);
}

}  // namespace

QuerySolution planQuery(OperationContext* opCtx, const Collection* coll, const QueryRequest& qr) {
    QuerySolution s;
    if (!coll) {
        s.kind = QuerySolution::Kind::kEOF;
        return s;
    }
    const BSONObj& hint = qr.hint;
    BSONElement natural = hint["$natural"];
    BSONElement sortNatural = qr.sort["$natural"];
    if (!natural.eoo() || (!sortNatural.eoo() && qr.sort.nFields() == 1)) {
        s.kind = QuerySolution::Kind::kCollScan;
        BSONElement dir = !sortNatural.eoo() ? sortNatural : natural;
        s.forward = !(dir.isNumber() && dir.numberDouble() < 0);
        return s;
    }

    std::vector<Candidate> candidates;
    if (!hint.isEmpty()) {
        const IndexDescriptor* idx = findHintedIndex(coll, hint);
        if (!idx) uasserted(ErrorCodes::BadValue, "hint provided does not correspond to an existing index");
        candidates.push_back(boundsFor(opCtx, coll, idx, qr.filter));
    } else {
        // _id equality: the IDHACK plan.
        BSONElement id = qr.filter["_id"];
        if (!id.eoo() && qr.filter.nFields() == 1 && qr.sort.isEmpty() &&
            !(id.type() == Object && !id.Obj().isEmpty() && id.Obj().firstElementFieldName()[0] == '$') &&
            id.type() != RegEx && id.type() != Array && id.type() != jstNULL && id.type() != Undefined) {
            if (const IndexDescriptor* idIdx = coll->getIndexCatalog()->findIndexByName("_id_")) {
                s.kind = QuerySolution::Kind::kIdHack;
                s.index = idIdx;
                s.bounds = {{Interval::point(id)}};
                return s;
            }
        }
        for (const IndexDescriptor* idx : coll->getIndexCatalog()->getAllIndexes()) {
            Candidate c = boundsFor(opCtx, coll, idx, qr.filter);
            if (c.boundedFields > 0) candidates.push_back(std::move(c));
        }
        if (candidates.empty() && !qr.sort.isEmpty()) {
            // No predicate uses an index; an index in sort order still avoids a blocking sort.
            for (const IndexDescriptor* idx : coll->getIndexCatalog()->getAllIndexes()) {
                Candidate c = boundsFor(opCtx, coll, idx, qr.filter);
                bool fwd;
                if (!c.multikey && indexProvidesSort(idx, c.bounds, qr.sort, &fwd)) {
                    candidates.push_back(std::move(c));
                    break;
                }
            }
        }
    }
    if (candidates.empty()) {
        s.kind = QuerySolution::Kind::kCollScan;
        s.blockingSort = !qr.sort.isEmpty();
        return s;
    }
    // Preference: more equality-bound leading fields, then more bounded fields, then an index
    // giving the sort order, then unique indexes, then the older index.
    auto score = [&](const Candidate& c) {
        bool fwd;
        bool sorts = !c.multikey && indexProvidesSort(c.idx, c.bounds, qr.sort, &fwd);
        return std::make_tuple(c.pointPrefix, c.boundedFields, sorts ? 1 : 0, c.idx->unique ? 1 : 0);
    };
    size_t best = 0;
    for (size_t i = 1; i < candidates.size(); i++)
        if (score(candidates[i]) > score(candidates[best])) best = i;
    Candidate& c = candidates[best];
    s.kind = QuerySolution::Kind::kIndexScan;
    s.index = c.idx;
    s.multikey = c.multikey;
    s.bounds = std::move(c.bounds);
    bool fwd = true;
    s.blockingSort = c.multikey ? !qr.sort.isEmpty() : !indexProvidesSort(c.idx, s.bounds, qr.sort, &fwd);
    s.forward = s.blockingSort ? true : fwd;
    return s;
}

BSONObj indexBoundsToBSON(const QuerySolution& s) {
    BSONObjBuilder b;
    if (!s.index) return b.obj();
    size_t i = 0;
    for (BSONElement f : s.index->keyPattern) {
        BSONArrayBuilder& arr = b.subarrayStart(f.fieldNameStringData());
        if (i < s.bounds.size())
            for (auto& iv : s.bounds[i]) arr.append(iv.toString());
        arr.doneFast();
        i++;
    }
    return b.obj();
}

}  // namespace mongo
