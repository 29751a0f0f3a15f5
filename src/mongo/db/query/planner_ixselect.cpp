#include "mongo/db/query/planner_ixselect.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/hash/bson_element_hasher.h"
#include "mongo/db/query/index_bounds_builder.h"

namespace mongo {
namespace {

bool isIndexableLeaf(MatchType t) {
    switch (t) {
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte:
        case MatchType::kIn:
        case MatchType::kRegex:
        case MatchType::kExists:
        case MatchType::kType:
        case MatchType::kMod: return true;
        default: return false;
    }
}

std::string joinPath(const std::string& prefix, const std::string& path) {
    if (prefix.empty()) return path;
    if (path.empty()) return prefix;
    return prefix + "." + path;
}

struct Collector {
    std::vector<PredicateRef>* out;

    void add(const MatchExpression* node, const MatchExpression* conjunct, const std::string& prefix,
             const std::vector<const MatchExpression*>& ems, const std::vector<size_t>& depths) {
        MatchType t = node->matchType();
        if (t == MatchType::kAnd) {
            for (size_t i = 0; i < node->numChildren(); i++) add(node->getChild(i), conjunct, prefix, ems, depths);
            return;
        }
        const DottedPath* p = node->path();
        if (isIndexableLeaf(t) && p) {
            out->push_back({node, joinPath(prefix, p->dotted()), conjunct, ems, depths});
            return;
        }
        if (t == MatchType::kNot) {
            // {a: {$not: {...}}} negates one predicate, or an $and of predicates on one path.
            const MatchExpression* child = node->getChild(0);
            if (child->matchType() == MatchType::kAnd && child->numChildren() > 0) child = child->getChild(0);
            if (child->path() && isIndexableLeaf(child->matchType()))
                out->push_back({node, joinPath(prefix, child->path()->dotted()), conjunct, ems, depths});
            return;
        }
        if ((t == MatchType::kElemMatchValue || t == MatchType::kElemMatchObject) && p) {
            // Inside, predicates are about one element of the array at 'full'.
            std::string full = joinPath(prefix, p->dotted());
            auto ems2 = ems;
            auto depths2 = depths;
            ems2.push_back(node);
            depths2.push_back(pathComponents(full));
            if (t == MatchType::kElemMatchObject) return add(node->getChild(0), conjunct, full, ems2, depths2);
            for (size_t i = 0; i < node->numChildren(); i++) {
                const MatchExpression* sub = node->getChild(i);
                MatchType st = sub->matchType();
                bool leaf = isIndexableLeaf(st) || st == MatchType::kNot;
                if (leaf) out->push_back({sub, full, conjunct, ems2, depths2});
            }
        }
    }
};

bool hasNumericComponent(std::string_view path) {
    DottedPath p(path);
    for (size_t i = 0; i < p.size(); i++)
        if (p.isNumeric(i)) return true;
    return false;
}

// Can p's bounds stand for field i of idx at all?
//   - A sparse index has no key for an array element lacking the field (nor for a document
//     lacking it), so a predicate that a missing field satisfies ({$gte: null}, {$exists:
//     false}) gives bounds the index cannot honour.
//   - A positional path ("arr.0") is both an array index and a field name of subdocuments for
//     the matcher, while the index holds only the positional value (an array there whole):
//     predicates a missing field satisfies, and $elemMatch's element predicates, do not map
//     onto its keys.
bool usableForBounds(const IndexEntry& idx, size_t field, const PredicateRef& p) {
    bool matchesMissing = p.expr->matchesSingleElement(BSONElement(), nullptr);
    if (idx.sparse && matchesMissing) return false;
    if (hasNumericComponent(idx.fields[field])) {
        if (matchesMissing) return false;
        // Inside $elemMatch a numeric component is relative to each element ("0" of {a:
        // {$elemMatch: {"0": 7}}} is element 0 of every element of a), not a position of the
        // index's path; and $elemMatch's element predicates see the elements of an array the
        // positional index keys whole.
        if (!p.elemMatches.empty()) return false;
    }
    return true;
}

// p and q sit in one $elemMatch whose path has at least minDepth components.
bool shareElemMatch(const PredicateRef& p, const PredicateRef& q, size_t minDepth) {
    for (size_t i = 0; i < p.elemMatches.size(); i++) {
        if (p.elemMatchDepths[i] < minDepth) continue;
        for (const MatchExpression* e : q.elemMatches)
            if (e == p.elemMatches[i]) return true;
    }
    return false;
}

size_t maxComponent(const MultikeyComponents& c) { return c.empty() ? 0 : *c.rbegin(); }

// May bounds from p (on field i) be compounded with bounds from q (on field j)?
bool compoundable(const IndexEntry& idx, size_t i, const PredicateRef& p, size_t j, const PredicateRef& q) {
    size_t shared = sharedComponents(idx.fields[i], idx.fields[j]);
    bool found = false;
    size_t deepest = 0;
    for (const MultikeyComponents* mk : {&idx.multikeyPaths[i], &idx.multikeyPaths[j]})
        for (size_t c : *mk)
            if (c < shared) {
                found = true;
                deepest = std::max(deepest, c);
            }
    return !found || shareElemMatch(p, q, deepest + 1);
}

// Bounds on a hashed key field: the hashes under which a value equal to the predicate's may
// be filed, for equality and $in without regexes. Never exact (hashes collide, and numbers
// with one integer part share one), and nothing for an array value: no document with an array
// along the path is in a hashed index, and equality to an array also matches arrays holding it.
std::optional<OrderedIntervalList> hashedBounds(const MatchExpression& m, const Collator* collator) {
    std::vector<BSONElement> values;
    if (m.matchType() == MatchType::kEq) {
        values.push_back(static_cast<const ComparisonMatchExpression&>(m).rhs());
    } else if (m.matchType() == MatchType::kIn) {
        const auto& in = static_cast<const InMatchExpression&>(m);
        if (!in.regexes().empty()) return std::nullopt;
        values = in.equalities();
    } else {
        return std::nullopt;
    }
    OrderedIntervalList out;
    for (const BSONElement& v : values) {
        if (v.type() == Array) return std::nullopt;
        // Under the index's collation, strings are hashed through their comparison keys.
        BSONObj translated = collator ? toComparisonKeys(v.wrap(""), collator) : BSONObj();
        for (long long h : hashedKeysForEquality(collator ? translated.firstElement() : v)) {
            BSONObjBuilder b;
            b.append("", h);
            out.push_back(Interval::point(b.obj().firstElement()));
        }
    }
    return oil::normalize(std::move(out));
}

bool allowedOnKey(const IndexEntry& idx, const MatchExpression& node) {
    switch (node.matchType()) {
        case MatchType::kAnd:
        case MatchType::kOr:
        case MatchType::kNor:
        case MatchType::kNot:
            for (size_t i = 0; i < node.numChildren(); i++)
                if (!allowedOnKey(idx, *node.getChild(i))) return false;
            return true;
        case MatchType::kAlwaysTrue:
        case MatchType::kAlwaysFalse: return true;
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte:
        case MatchType::kIn:
        case MatchType::kRegex:
        case MatchType::kMod:
        case MatchType::kBits:
        case MatchType::kExists:  // keys mark missing fields: exact on fields without arrays
        case MatchType::kType: {
            const DottedPath* p = node.path();
            if (!p) return false;
            int f = idx.fieldIndex(p->dotted());
            return f >= 0 && !idx.fieldMultikey(static_cast<size_t>(f));
        }
        default: return false;  // $size, $elemMatch, $expr, ...
    }
}

}  // namespace

void collectConjuncts(const MatchExpression* root, std::vector<const MatchExpression*>* out) {
    if (!root) return;
    if (root->matchType() == MatchType::kAnd) {
        for (size_t i = 0; i < root->numChildren(); i++) collectConjuncts(root->getChild(i), out);
        return;
    }
    out->push_back(root);
}

std::vector<PredicateRef> collectPredicates(const std::vector<const MatchExpression*>& conjuncts) {
    std::vector<PredicateRef> out;
    Collector c{&out};
    for (const MatchExpression* conj : conjuncts) c.add(conj, conj, "", {}, {});
    return out;
}

IndexAssignment assignPredicates(const IndexEntry& idx, const std::vector<PredicateRef>& preds, bool sameCollation) {
    IndexAssignment a;
    size_t n = idx.fields.size();
    a.used.resize(n);
    a.bounds.fields.resize(n);
    bool leadingPoints = true;
    for (size_t i = 0; i < n; i++) {
        bool mk = idx.fieldMultikey(i);
        size_t need = maxComponent(idx.multikeyPaths[i]) + 1;
        std::vector<const PredicateRef*>& chosen = a.used[i];
        OrderedIntervalList bounds = oil::fullRange();
        std::vector<LeafBounds> leafBounds;
        for (const PredicateRef& p : preds) {
            if (p.path != idx.fields[i] || !usableForBounds(idx, i, p)) continue;
            if (!sameCollation && comparesCollatableValues(*p.expr)) continue;
            std::optional<LeafBounds> lb;
            if (idx.fieldHashed(i)) {
                if (!p.topLevel()) continue;
                if (auto hb = hashedBounds(*p.expr, idx.collator)) lb = LeafBounds{std::move(*hb), false};
            } else {
                lb = translateLeaf(*p.expr, mk, idx.collator);
            }
            if (!lb || oil::isFullRange(lb->oil)) continue;
            bool ok = true;
            for (size_t j = 0; j < i && ok; j++)
                for (const PredicateRef* q : a.used[j])
                    if (!compoundable(idx, i, p, j, *q)) {
                        ok = false;
                        break;
                    }
            if (!ok) continue;
            if (!chosen.empty() && mk) {
                for (const PredicateRef* q : chosen)
                    if (!shareElemMatch(p, *q, need)) ok = false;
                if (!ok) continue;
            }
            chosen.push_back(&p);
            bounds = oil::intersect(bounds, lb->oil);
            leafBounds.push_back(*lb);
        }
        for (size_t k = 0; k < chosen.size(); k++)
            if (chosen[k]->topLevel() && leafBounds[k].exact) a.answered.insert(chosen[k]->conjunct);
        bool full = oil::isFullRange(bounds);
        if (!full) a.boundedFields++;
        if (leadingPoints && !bounds.empty() && oil::allPoints(bounds)) a.pointPrefix++;
        else leadingPoints = false;
        if (i == 0) a.relevant = !chosen.empty() && !full;
        a.bounds.fields[i] = std::move(bounds);
    }
    return a;
}

bool comparesCollatableValues(const MatchExpression& pred) {
    auto collatable = [](const BSONElement& v) {
        BSONType t = v.type();
        return t == String || t == Symbol || t == Object || t == Array;
    };
    switch (pred.matchType()) {
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte: return collatable(static_cast<const ComparisonMatchExpression&>(pred).rhs());
        case MatchType::kIn: {
            const auto& in = static_cast<const InMatchExpression&>(pred);
            return std::any_of(in.equalities().begin(), in.equalities().end(), collatable);
        }
        // Opaque to the planner: they may compare anything.
        case MatchType::kExpr:
        case MatchType::kOther: return true;
        default:  // a leaf that ignores collations, or a node whose children decide
            for (size_t i = 0; i < pred.numChildren(); i++)
                if (comparesCollatableValues(*pred.getChild(i))) return true;
            return false;
    }
}

bool sparseIndexEligible(const IndexEntry& idx, const std::vector<PredicateRef>& preds) {
    for (const PredicateRef& p : preds)
        if (idx.fieldIndex(p.path) >= 0 && !p.expr->matchesSingleElement(BSONElement(), nullptr)) return true;
    return false;
}

bool coverableByKey(const IndexEntry& idx, const MatchExpression& conjunct) { return allowedOnKey(idx, conjunct); }

}  // namespace mongo
