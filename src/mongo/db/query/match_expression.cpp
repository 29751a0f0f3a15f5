// Matching semantics of the filter tree's nodes (see match_expression.h).
#include "mongo/db/query/match_expression.h"

#include <algorithm>
#include <cmath>

namespace mongo {

bool PathMatchExpression::matches(const BSONObj& doc, MatchDetails* details) const {
    return visitMatchValues(doc, _path, _expandLeafArrays, [&](const BSONElement& e, const char* offset) {
        if (!matchesSingleElement(e, details)) return false;
        // The outermost implicit array traversal decides the positional index, overriding
        // whatever an $elemMatch below recorded (as MongoDB does).
        if (offset) recordElemMatchKey(details, offset);
        return true;
    });
}

bool MatchExpression::matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const {
    return v.isABSONObj() ? matches(v.Obj(), details) : matches(BSONObj(), details);
}

bool PathMatchExpression::matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const {
    if (_path.size() == 1 && _path.part(0).empty()) return matchesSingleElement(v, details);
    return v.isABSONObj() ? matches(v.Obj(), details) : matches(BSONObj(), details);
}

// ---- comparisons ----

bool ComparisonMatchExpression::compareValues(Op op, const BSONElement& e, const BSONElement& rhs,
                                              const StringComparator* strings) {
    int lc = e.canonicalType(), rc = rhs.canonicalType();
    if (lc != rc) {
        // Missing/undefined (rank 0) and null (rank 5) are equal to each other for matching.
        if (lc + rc == canonicalizeBSONType(jstNULL) && (lc == 0 || rc == 0))
            return op == EQ || op == LTE || op == GTE;
        // MinKey and MaxKey bound every other type.
        if (rhs.type() == MaxKey) return op == LT || op == LTE;
        if (rhs.type() == MinKey) return op == GT || op == GTE;
        return false;  // type bracketing: {$gt: 5} never matches a string
    }
    if (e.isNumber() && rhs.isNumber()) {
        // NaN equals NaN but is otherwise unordered for matching.
        bool ln = std::isnan(e.numberDouble()) && (e.type() == NumberDouble || e.type() == NumberDecimal);
        bool rn = std::isnan(rhs.numberDouble()) && (rhs.type() == NumberDouble || rhs.type() == NumberDecimal);
        if (ln || rn) {
            bool both = ln && rn;
            return both && (op == EQ || op == LTE || op == GTE);
        }
    }
    int c = e.woCompare(rhs, false, strings);
    switch (op) {
        case EQ: return c == 0;
        case LT: return c < 0;
        case LTE: return c <= 0;
        case GT: return c > 0;
        case GTE: return c >= 0;
    }
    return false;
}

bool ComparisonMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return compareValues(_op, e, _rhs, _collator);
}

// ---- regex ----

bool RegexMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    switch (e.type()) {
        case String:
        case Symbol: return _regex.matches(e.valueStringData());
        case RegEx: return _regex.pattern() == e.regex() && _regex.flags() == e.regexFlags();
        default: return false;
    }
}

// ---- $in ----

InMatchExpression::InMatchExpression(std::string_view path, std::vector<BSONElement> equalities,
                                     std::vector<std::unique_ptr<MatcherRegex>> regexes, const Collator* collator)
    : PathMatchExpression(path, true),
      _collator(collator),
      _equalities(std::move(equalities)),
      _regexes(std::move(regexes)) {
    std::sort(_equalities.begin(), _equalities.end(), BSONElementCmp{_collator});
    for (const auto& e : _equalities)
        if (e.type() == jstNULL) _hasNull = true;
}

bool InMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (_hasNull && (e.eoo() || e.type() == jstNULL || e.type() == Undefined)) return true;
    if (!e.eoo() && std::binary_search(_equalities.begin(), _equalities.end(), e, BSONElementCmp{_collator})) return true;
    if (!_regexes.empty()) {
        for (const auto& re : _regexes) {
            switch (e.type()) {
                case String:
                case Symbol:
                    if (re->matches(e.valueStringData())) return true;
                    break;
                case RegEx:
                    if (re->pattern() == e.regex() && re->flags() == e.regexFlags()) return true;
                    break;
                default: break;
            }
        }
    }
    return false;
}

// ---- $type, $mod, $bits*, $size ----

bool TypeMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (e.eoo()) return false;
    if (_allNumbers && e.isNumber()) return true;
    return std::find(_types.begin(), _types.end(), e.type()) != _types.end();
}

bool ModMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (!e.isNumber()) return false;
    long long dividend;
    if (e.type() == NumberInt || e.type() == NumberLong) {
        dividend = e.numberLong();
    } else {
        double d = std::trunc(e.numberDouble());
        if (!std::isfinite(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) return false;
        dividend = static_cast<long long>(d);
    }
    // x % -1 is 0 for every x; computing it could overflow for LLONG_MIN.
    long long r = _divisor == -1 ? 0 : dividend % _divisor;
    return r == _remainder;
}

bool BitTestMatchExpression::testBit(const BSONElement& e, uint32_t pos, bool* isSet) const {
    if (e.type() == BinData) {
        int len, subtype;
        const char* data = e.binData(&len, &subtype);
        uint32_t byte = pos / 8;
        *isSet = byte < static_cast<uint32_t>(len) && (static_cast<unsigned char>(data[byte]) >> (pos % 8)) & 1;
        return true;
    }
    long long v;
    if (!e.isIntegral64(&v)) return false;
    // Beyond bit 63 a two's complement number repeats its sign bit.
    *isSet = pos >= 64 ? v < 0 : ((static_cast<unsigned long long>(v) >> pos) & 1) != 0;
    return true;
}

bool BitTestMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (!e.isNumber() && e.type() != BinData) return false;
    if (e.isNumber()) {
        long long v;
        if (!e.isIntegral64(&v)) return false;  // fractional, NaN, infinite or too large
    }
    for (uint32_t pos : _positions) {
        bool set = false;
        if (!testBit(e, pos, &set)) return false;
        switch (_kind) {
            case AllSet:
                if (!set) return false;
                break;
            case AllClear:
                if (set) return false;
                break;
            case AnySet:
                if (set) return true;
                break;
            case AnyClear:
                if (!set) return true;
                break;
        }
    }
    return _kind == AllSet || _kind == AllClear;
}

bool SizeMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return e.type() == Array && e.Obj().nFields() == _size;
}

// ---- $elemMatch ----

bool ElemMatchObjectMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails* details) const {
    if (e.type() != Array) return false;
    for (BSONElement x : e.Obj()) {
        if (!x.isABSONObj()) continue;
        if (_sub->matches(x.Obj(), nullptr)) {
            recordElemMatchKey(details, x.fieldName());
            return true;
        }
    }
    return false;
}

bool ElemMatchValueMatchExpression::arrayElementMatches(const BSONElement& x) const {
    for (const auto& sub : _subs)
        if (!sub->matchesSingleElement(x, nullptr)) return false;
    return true;
}

bool ElemMatchValueMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails* details) const {
    if (e.type() != Array) return false;
    for (BSONElement x : e.Obj()) {
        if (arrayElementMatches(x)) {
            recordElemMatchKey(details, x.fieldName());
            return true;
        }
    }
    return false;
}

// ---- logical ----

namespace {
void resetDetails(MatchDetails* details) {
    if (details) {
        details->hasElemMatchKey = false;
        details->elemMatchKey.clear();
    }
}
}  // namespace

bool AndMatchExpression::matches(const BSONObj& doc, MatchDetails* details) const {
    for (const auto& c : _children) {
        if (!c->matches(doc, details)) {
            resetDetails(details);
            return false;
        }
    }
    return true;
}

bool AndMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails* details) const {
    for (const auto& c : _children) {
        if (!c->matchesSingleElement(e, details)) {
            resetDetails(details);
            return false;
        }
    }
    return true;
}

bool AndMatchExpression::matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const {
    for (const auto& c : _children) {
        if (!c->matchesValueAsRoot(v, details)) {
            resetDetails(details);
            return false;
        }
    }
    return true;
}

bool OrMatchExpression::matchesValueAsRoot(const BSONElement& v, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matchesValueAsRoot(v, nullptr)) return true;
    return false;
}

bool NorMatchExpression::matchesValueAsRoot(const BSONElement& v, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matchesValueAsRoot(v, nullptr)) return false;
    return true;
}

bool OrMatchExpression::matches(const BSONObj& doc, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matches(doc, nullptr)) return true;
    return false;
}

bool OrMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matchesSingleElement(e, nullptr)) return true;
    return false;
}

bool NorMatchExpression::matches(const BSONObj& doc, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matches(doc, nullptr)) return false;
    return true;
}

bool NorMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    for (const auto& c : _children)
        if (c->matchesSingleElement(e, nullptr)) return false;
    return true;
}

}  // namespace mongo
