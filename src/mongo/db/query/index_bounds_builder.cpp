#include "mongo/db/query/index_bounds_builder.h"

#include <cmath>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

using OIL = OrderedIntervalList;

bool isNaN(const BSONElement& e) {
    return (e.type() == NumberDouble || e.type() == NumberDecimal) && std::isnan(e.numberDouble());
}

// [undefined, null]: what null equality matches (missing fields index as null).
OIL nullBounds() {
    BSONObjBuilder b;
    b.appendUndefined("");
    b.appendNull("");
    BSONObj o = b.obj();
    BSONObjIterator it(o);
    BSONElement u = it.next();
    return {Interval::make(u, true, it.next(), true)};
}

OIL pointOf(const BSONElement& v) { return {Interval::point(v)}; }

OIL single(const BSONObj& loHi, bool loInc, bool hiInc) {
    BSONObjIterator it(loHi);
    BSONElement lo = it.next();
    return {Interval::make(lo, loInc, it.next(), hiInc)};
}

// Bounds of equality with v (also used for each value of $in).
LeafBounds equalityBounds(const BSONElement& v, bool multikey) {
    if (v.type() == jstNULL) return {nullBounds(), !multikey};
    if (v.type() == Array) {
        // Matches documents whose value is the array itself (keys: its elements) or that hold
        // it as an element (key: the nested array, indexed whole).
        BSONObj arr = v.Obj();
        OIL out = pointOf(v);
        if (arr.isEmpty()) {
            BSONObjBuilder b;
            b.appendUndefined("");
            out = oil::unite(out, pointOf(b.obj().firstElement()));
        } else {
            out = oil::unite(out, pointOf(arr.firstElement()));
        }
        return {out, false};
    }
    return {pointOf(v), true};
}

// {$gt: v} and friends, type-bracketed.
std::optional<LeafBounds> rangeBounds(MatchType op, const BSONElement& v, bool multikey) {
    bool lt = op == MatchType::kLt || op == MatchType::kLte;
    bool inclusive = op == MatchType::kLte || op == MatchType::kGte;
    if (v.type() == jstNULL) {
        if (inclusive) return LeafBounds{nullBounds(), !multikey};
        return LeafBounds{{}, true};
    }
    if (isNaN(v)) {
        if (inclusive) return LeafBounds{pointOf(v), true};
        return LeafBounds{{}, true};
    }
    if (v.type() == MinKey) {
        if (lt) return LeafBounds{inclusive ? pointOf(v) : OIL{}, true};
        return LeafBounds{oil::fullRange(), false};
    }
    if (v.type() == MaxKey) {
        if (!lt) return LeafBounds{inclusive ? pointOf(v) : OIL{}, true};
        return LeafBounds{oil::fullRange(), false};
    }
    BSONObj bracket;
    bool hiInc, exact;
    if (!typeBracket(v, &bracket, &hiInc, &exact)) return std::nullopt;
    BSONObjIterator it(bracket);
    BSONElement lo = it.next(), hi = it.next();
    OIL out = lt ? OIL{Interval::make(lo, true, v, inclusive)} : OIL{Interval::make(v, inclusive, hi, hiInc)};
    return LeafBounds{oil::normalize(out), exact};
}

OIL regexBounds(const MatcherRegex& re) {
    // Strings the regex can match, and stored regex values equal to it.
    BSONObjBuilder b;
    b.appendRegex("", re.pattern(), re.flags());
    BSONObj self = b.obj();
    OIL out = pointOf(self.firstElement());
    std::optional<std::string> prefix = regexLiteralPrefix(re.pattern(), re.flags());
    BSONObjBuilder s;
    if (prefix && !prefix->empty() && static_cast<unsigned char>(prefix->back()) < 0x7f) {
        std::string upper = *prefix;
        upper.back() = static_cast<char>(upper.back() + 1);
        s.append("", *prefix);
        s.append("", upper);
        return oil::unite(out, single(s.obj(), true, false));
    }
    s.append("", "");
    s.append("", BSONObj());
    return oil::unite(out, single(s.obj(), true, false));
}

std::optional<LeafBounds> typeBounds(const TypeMatchExpression& t) {
    OIL out;
    if (t.allNumbers()) {
        BSONObjBuilder b;
        b.append("", std::numeric_limits<double>::quiet_NaN());
        b.append("", std::numeric_limits<double>::infinity());
        out = oil::unite(out, single(b.obj(), true, true));
    }
    for (BSONType type : t.types()) {
        BSONObjBuilder sample;
        switch (type) {
            case NumberDouble:
            case NumberInt:
            case NumberLong:
            case NumberDecimal: {
                BSONObjBuilder b;
                b.append("", std::numeric_limits<double>::quiet_NaN());
                b.append("", std::numeric_limits<double>::infinity());
                out = oil::unite(out, single(b.obj(), true, true));
                continue;
            }
            case jstNULL: {
                BSONObjBuilder b;
                b.appendNull("");
                out = oil::unite(out, pointOf(b.obj().firstElement()));
                continue;
            }
            case String: sample.append("", ""); break;
            case Object: sample.append("", BSONObj()); break;
            case jstOID: sample.append("", OID()); break;
            case Bool: sample.append("", false); break;
            case BinData: sample.appendBinData("", 0, 0, ""); break;
            case Date: sample.appendDate("", Date_t()); break;
            case bsonTimestamp: sample.append("", Timestamp{}); break;
            default: return std::nullopt;  // arrays, binData, ...: no bracket
        }
        BSONObj br;
        bool hiInc;
        BSONObj s = sample.obj();
        if (!typeBracket(s.firstElement(), &br, &hiInc)) return std::nullopt;
        out = oil::unite(out, single(br, true, hiInc));
    }
    return LeafBounds{out, false};
}

OIL allNumbers() {
    BSONObjBuilder b;
    b.append("", std::numeric_limits<double>::quiet_NaN());
    b.append("", std::numeric_limits<double>::infinity());
    return single(b.obj(), true, true);
}

}  // namespace

std::optional<std::string> regexLiteralPrefix(const std::string& pattern, const std::string& flags) {
    for (char f : flags)
        if (f == 'i' || f == 'm' || f == 'x') return std::nullopt;
    size_t pos;
    if (pattern.rfind("^", 0) == 0) pos = 1;
    else if (pattern.rfind("\\A", 0) == 0) pos = 2;
    else return std::nullopt;
    if (pattern.find('|') != std::string::npos) return std::nullopt;
    std::string prefix;
    while (pos < pattern.size()) {
        char c = pattern[pos];
        if (std::string_view(".*+?()[]{}|^$\\").find(c) != std::string_view::npos) {
            // A quantifier makes the previous literal optional.
            if ((c == '*' || c == '?' || c == '{') && !prefix.empty()) prefix.pop_back();
            break;
        }
        prefix += c;
        pos++;
    }
    return prefix;
}

std::optional<LeafBounds> translateLeaf(const MatchExpression& leaf, bool multikey, const Collator* collator) {
    if (collator) {
        // An index with a collation holds comparison keys of strings: bounds are the
        // predicate's bounds with their strings translated the same way (the translation keeps
        // the collation's order, so intervals stay intervals). Regexes match the strings
        // themselves, which such keys cannot tell: they give no bounds.
        if (leaf.matchType() == MatchType::kRegex) return std::nullopt;
        if (leaf.matchType() == MatchType::kIn && !static_cast<const InMatchExpression&>(leaf).regexes().empty())
            return std::nullopt;
        if (leaf.matchType() == MatchType::kNot) return std::nullopt;
        auto plain = translateLeaf(leaf, multikey, nullptr);
        if (!plain) return plain;
        for (Interval& iv : plain->oil) iv.lohi = toComparisonKeys(iv.lohi, collator);
        plain->oil = oil::normalize(std::move(plain->oil));
        return plain;
    }
    switch (leaf.matchType()) {
        case MatchType::kEq:
            return equalityBounds(static_cast<const ComparisonMatchExpression&>(leaf).rhs(), multikey);
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte:
            return rangeBounds(leaf.matchType(), static_cast<const ComparisonMatchExpression&>(leaf).rhs(), multikey);
        case MatchType::kIn: {
            const auto& in = static_cast<const InMatchExpression&>(leaf);
            // Every value's intervals, sorted and merged once (a list of thousands of values
            // must not cost a merge per value).
            LeafBounds out{{}, true};
            for (const BSONElement& v : in.equalities()) {
                LeafBounds one = equalityBounds(v, multikey);
                out.oil.insert(out.oil.end(), one.oil.begin(), one.oil.end());
                out.exact = out.exact && one.exact;
            }
            for (const auto& re : in.regexes()) {
                OrderedIntervalList r = regexBounds(*re);
                out.oil.insert(out.oil.end(), r.begin(), r.end());
                out.exact = false;
            }
            out.oil = oil::normalize(std::move(out.oil));
            return out;
        }
        case MatchType::kRegex:
            return LeafBounds{regexBounds(static_cast<const RegexMatchExpression&>(leaf).regex()), false};
        case MatchType::kExists: return LeafBounds{oil::fullRange(), false};
        case MatchType::kType: return typeBounds(static_cast<const TypeMatchExpression&>(leaf));
        case MatchType::kMod: return LeafBounds{allNumbers(), false};
        case MatchType::kNot: {
            const MatchExpression* child = leaf.getChild(0);
            if (child->matchType() == MatchType::kAnd && child->numChildren() == 1) child = child->getChild(0);
            if (child->matchType() == MatchType::kExists) {
                BSONObjBuilder b;
                b.appendNull("");
                return LeafBounds{pointOf(b.obj().firstElement()), false};
            }
            // The complement is exact only when each document has one key (no arrays) and the
            // child's bounds are exact. {$not: {$gt: 1, $lt: 5}} negates an $and of predicates
            // on one path: the complement of their intersection.
            if (multikey) return std::nullopt;
            std::vector<const MatchExpression*> parts;
            if (child->matchType() == MatchType::kAnd) {
                for (size_t i = 0; i < child->numChildren(); i++) parts.push_back(child->getChild(i));
            } else {
                parts.push_back(child);
            }
            OrderedIntervalList inner = oil::fullRange();
            for (const MatchExpression* p : parts) {
                switch (p->matchType()) {
                    case MatchType::kEq:
                    case MatchType::kLt:
                    case MatchType::kLte:
                    case MatchType::kGt:
                    case MatchType::kGte:
                    case MatchType::kIn: break;
                    default: return std::nullopt;
                }
                auto b = translateLeaf(*p, false);
                if (!b || !b->exact) return std::nullopt;
                inner = oil::intersect(inner, b->oil);
            }
            if (parts.empty()) return std::nullopt;
            return LeafBounds{oil::complement(inner), true};
        }
        default: return std::nullopt;
    }
}

}  // namespace mongo
