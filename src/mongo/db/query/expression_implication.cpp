#include "mongo/db/query/expression_implication.h"

#include "mongo/db/query/index_bounds_builder.h"
#include "mongo/db/query/planner_ixselect.h"

namespace mongo {
namespace {

bool isPathLeaf(const MatchExpression& e) { return e.path() != nullptr; }

bool samePath(const MatchExpression& a, const MatchExpression& b) {
    return a.path() && b.path() && a.path()->dotted() == b.path()->dotted();
}

// Does a document satisfying q (one conjunct) satisfy f (one leaf of the filter)?
bool leafImplies(const MatchExpression& q, const MatchExpression& f) {
    if (q.matchType() == f.matchType() && (!isPathLeaf(q) || samePath(q, f)) &&
        serializeMatchExpression(q).binaryEqual(serializeMatchExpression(f)))
        return true;
    if (!isPathLeaf(q) || !isPathLeaf(f) || !samePath(q, f)) return false;
    switch (f.matchType()) {
        case MatchType::kExists:
            // Anything that fails on a missing field proves the field exists.
            return !q.matchesSingleElement(BSONElement(), nullptr);
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte:
        case MatchType::kIn: {
            // Exact bounds (as for a field without arrays) are the set of values each predicate
            // accepts; an array field matches when one element does, so containment carries over.
            auto fb = translateLeaf(f, false);
            auto qb = translateLeaf(q, false);
            return fb && qb && fb->exact && qb->exact && oil::isSubset(qb->oil, fb->oil);
        }
        case MatchType::kType: {
            // Equality proves the type only where no other type compares equal to the value
            // (1 also matches 1.0 and NumberLong(1); "x" matches a Symbol; null matches a missing
            // field): objects, booleans, dates, ObjectIds, timestamps, binary data.
            if (q.matchType() != MatchType::kEq) return false;
            BSONElement v = static_cast<const ComparisonMatchExpression&>(q).rhs();
            switch (v.type()) {
                case Object:
                case Bool:
                case Date:
                case jstOID:
                case bsonTimestamp:
                case BinData: return f.matchesSingleElement(v, nullptr);
                default: return false;
            }
        }
        default: return false;
    }
}

bool implies(const std::vector<const MatchExpression*>& query, const MatchExpression& f) {
    switch (f.matchType()) {
        case MatchType::kAlwaysTrue: return true;
        case MatchType::kAnd:
            for (size_t i = 0; i < f.numChildren(); i++)
                if (!implies(query, *f.getChild(i))) return false;
            return true;
        case MatchType::kOr:
            for (size_t i = 0; i < f.numChildren(); i++)
                if (implies(query, *f.getChild(i))) return true;
            break;
        default: break;
    }
    for (const MatchExpression* q : query) {
        if (leafImplies(*q, f)) return true;
        // A query $or implies f when each of its branches does.
        if (q->matchType() == MatchType::kOr && q->numChildren() > 0) {
            bool all = true;
            for (size_t i = 0; i < q->numChildren() && all; i++) {
                std::vector<const MatchExpression*> branch;
                collectConjuncts(q->getChild(i), &branch);
                all = implies(branch, f);
            }
            if (all) return true;
        }
    }
    return false;
}

}  // namespace

bool queryImplies(const std::vector<const MatchExpression*>& queryConjuncts, const MatchExpression& filter) {
    return implies(queryConjuncts, filter);
}

}  // namespace mongo
