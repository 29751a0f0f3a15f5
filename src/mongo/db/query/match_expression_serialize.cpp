// How explain prints a parsed filter: MongoDB's normalised operator form ({a: {$eq: 1}},
// {$and: [...]}, {a: {$not: {$gt: 1}}}), written from the tree rather than echoing the user's
// document, so that a plan's stage filters show exactly the clauses they apply.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {

void MatchExpression::serialize(BSONObjBuilder* out) const { out->append("$_opaque", true); }

void PathMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder& ops = out->subobjStart(path()->dotted());
    serializeOperator(&ops);
    ops.doneFast();
}

void PathMatchExpression::serializeOperator(BSONObjBuilder* ops) const { ops->append("$_opaque", true); }

MatchType ComparisonMatchExpression::matchType() const {
    switch (_op) {
        case EQ: return MatchType::kEq;
        case LT: return MatchType::kLt;
        case LTE: return MatchType::kLte;
        case GT: return MatchType::kGt;
        case GTE: return MatchType::kGte;
    }
    return MatchType::kOther;
}

void ComparisonMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    static const char* const kNames[] = {"$eq", "$lt", "$lte", "$gt", "$gte"};
    ops->appendAs(_rhs, kNames[_op]);
}

void RegexMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    ops->append("$regex", _regex.pattern());
    if (!_regex.flags().empty()) ops->append("$options", _regex.flags());
}

void InMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    BSONArrayBuilder& arr = ops->subarrayStart("$in");
    for (const auto& e : _equalities) arr.append(e);
    for (const auto& re : _regexes) {
        BSONObjBuilder one;
        one.appendRegex("", re->pattern(), re->flags());
        arr.append(one.obj().firstElement());
    }
    arr.doneFast();
}

void ExistsMatchExpression::serializeOperator(BSONObjBuilder* ops) const { ops->append("$exists", true); }

void TypeMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    BSONArrayBuilder& arr = ops->subarrayStart("$type");
    if (_allNumbers) arr.append("number");
    for (BSONType t : _types) arr.append(static_cast<int>(t));
    arr.doneFast();
}

void ModMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    BSONArrayBuilder& arr = ops->subarrayStart("$mod");
    arr.append(_divisor);
    arr.append(_remainder);
    arr.doneFast();
}

void BitTestMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    static const char* const kNames[] = {"$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear"};
    BSONArrayBuilder& arr = ops->subarrayStart(kNames[_kind]);
    for (uint32_t p : _positions) arr.append(static_cast<long long>(p));
    arr.doneFast();
}

void SizeMatchExpression::serializeOperator(BSONObjBuilder* ops) const { ops->append("$size", _size); }

void ElemMatchObjectMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    ops->append("$elemMatch", serializeMatchExpression(*_sub));
}

void ElemMatchValueMatchExpression::serializeOperator(BSONObjBuilder* ops) const {
    BSONObjBuilder& inner = ops->subobjStart("$elemMatch");
    for (const auto& sub : _subs) {
        if (auto* p = dynamic_cast<const PathMatchExpression*>(sub.get())) p->serializeOperator(&inner);
        else sub->serialize(&inner);
    }
    inner.doneFast();
}

void AlwaysBooleanMatchExpression::serialize(BSONObjBuilder* out) const {
    out->append(_value ? "$alwaysTrue" : "$alwaysFalse", 1);
}

namespace {
void serializeList(const char* name, const MatchExpression& list, BSONObjBuilder* out) {
    BSONArrayBuilder& arr = out->subarrayStart(name);
    for (size_t i = 0; i < list.numChildren(); i++) arr.append(serializeMatchExpression(*list.getChild(i)));
    arr.doneFast();
}
}  // namespace

void AndMatchExpression::serialize(BSONObjBuilder* out) const {
    if (_children.empty()) return;  // the empty filter prints as {}
    if (_children.size() == 1) return _children[0]->serialize(out);
    serializeList("$and", *this, out);
}

void OrMatchExpression::serialize(BSONObjBuilder* out) const { serializeList("$or", *this, out); }

void NorMatchExpression::serialize(BSONObjBuilder* out) const { serializeList("$nor", *this, out); }

void NotMatchExpression::serialize(BSONObjBuilder* out) const {
    // {a: {$not: {...}}} when the child is a predicate (or an $and of predicates) on one path;
    // otherwise the equivalent {$nor: [child]}.
    std::vector<const PathMatchExpression*> leaves;
    std::string path;
    bool onePath = true;
    auto consider = [&](const MatchExpression* m) {
        auto* p = dynamic_cast<const PathMatchExpression*>(m);
        if (!p || p->matchType() == MatchType::kElemMatchObject) {
            onePath = false;
            return;
        }
        if (leaves.empty()) path = p->path()->dotted();
        else if (p->path()->dotted() != path) onePath = false;
        leaves.push_back(p);
    };
    if (_child->matchType() == MatchType::kAnd) {
        for (size_t i = 0; i < _child->numChildren(); i++) consider(_child->getChild(i));
    } else {
        consider(_child.get());
    }
    if (onePath && !leaves.empty()) {
        BSONObjBuilder& field = out->subobjStart(path);
        BSONObjBuilder& ops = field.subobjStart("$not");
        for (auto* l : leaves) l->serializeOperator(&ops);
        ops.doneFast();
        field.doneFast();
        return;
    }
    BSONArrayBuilder& arr = out->subarrayStart("$nor");
    arr.append(serializeMatchExpression(*_child));
    arr.doneFast();
}

void ExprMatchExpression::serialize(BSONObjBuilder* out) const { out->appendElements(_spec); }

BSONObj serializeMatchExpression(const MatchExpression& e) {
    BSONObjBuilder b;
    e.serialize(&b);
    return b.obj();
}

}  // namespace mongo
