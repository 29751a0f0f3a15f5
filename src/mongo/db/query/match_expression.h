#pragma once
// The parsed filter tree behind Matcher (internal to the query layer).
//
// Every node answers two questions:
//   matches(doc)               - does the (sub)document satisfy the node? Path nodes walk their
//                                dotted path with implicit array traversal (path_traversal.h).
//   matchesSingleElement(v)    - does the value v satisfy the node's predicate, ignoring the
//                                path? Used for the candidates a path walk produces, for
//                                $elemMatch's value form ({$elemMatch: {$gt: 1}}) and $not.
// Nodes hold BSONElements pointing into the filter document, which the owning Matcher keeps
// alive (owned). Immutable after parse, so concurrent matching is safe.
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collator.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/matcher_regex.h"
#include "mongo/db/query/path_traversal.h"

namespace mongo {

class BSONObjBuilder;
class Expression;
struct ExpressionContext;

// What a node is, for the planner and explain (which look at the tree's shape).
enum class MatchType {
    kAnd, kOr, kNor, kNot,
    kEq, kLt, kLte, kGt, kGte,  // ComparisonMatchExpression
    kRegex, kIn, kExists, kType, kMod, kBits, kSize,
    kElemMatchObject, kElemMatchValue,
    kAlwaysTrue, kAlwaysFalse,
    kExpr,
    kOther,  // anything the planner treats as opaque (it is still matched by the filter)
};

class MatchExpression {
public:
    virtual ~MatchExpression() = default;
    virtual MatchType matchType() const { return MatchType::kOther; }
    // Children of logical nodes ($and/$or/$nor: the clauses; $not: its one child;
    // $elemMatch: the sub-filter or the value predicates).
    virtual size_t numChildren() const { return 0; }
    virtual const MatchExpression* getChild(size_t) const { return nullptr; }
    // Appends this node as MongoDB's explain prints parsed filters ({a: {$eq: 1}},
    // {$and: [...]}, {a: {$not: {$gt: 1}}}). Path nodes inside a value-form $elemMatch or
    // $not print their operator under 'path' as given by the caller.
    virtual void serialize(BSONObjBuilder* out) const;
    virtual bool matches(const BSONObj& doc, MatchDetails* details) const = 0;
    virtual bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const = 0;
    // Matcher::matchesElement(): the value stands for the document root, so predicates on the
    // empty path test it directly and others look inside it.
    virtual bool matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const;
    // The path of a path node ("" for pathless nodes and value-form children).
    virtual const DottedPath* path() const { return nullptr; }
    virtual bool isAlwaysTrue() const { return false; }
};

// Records the index found by the outermost array traversal, for "a.$".
inline void recordElemMatchKey(MatchDetails* details, const char* key) {
    if (details && details->requestElemMatchKey) {
        details->hasElemMatchKey = true;
        details->elemMatchKey = key;
    }
}

// A predicate on the values at a dotted path.
class PathMatchExpression : public MatchExpression {
public:
    PathMatchExpression(std::string_view path, bool expandLeafArrays)
        : _path(path), _expandLeafArrays(expandLeafArrays) {}
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const override;
    const DottedPath* path() const override { return &_path; }
    // {<path>: {<operator document>}}.
    void serialize(BSONObjBuilder* out) const override;
    // The operator part alone ({$eq: 1}), for $not and value-form $elemMatch.
    virtual void serializeOperator(BSONObjBuilder* ops) const;

private:
    DottedPath _path;
    bool _expandLeafArrays;
};

// $eq (and implicit equality), $lt, $lte, $gt, $gte with MongoDB's type bracketing.
class ComparisonMatchExpression : public PathMatchExpression {
public:
    enum Op { EQ, LT, LTE, GT, GTE };
    // collator: the query's collation (null: simple); must outlive the node (the Matcher
    // holds it).
    ComparisonMatchExpression(std::string_view path, Op op, BSONElement rhs, const Collator* collator = nullptr)
        : PathMatchExpression(path, true), _op(op), _rhs(rhs), _collator(collator) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    // The comparison itself, usable without a node (for $in equality). strings: how strings
    // compare (null: bytewise).
    static bool compareValues(Op op, const BSONElement& e, const BSONElement& rhs,
                              const StringComparator* strings = nullptr);
    MatchType matchType() const override;
    void serializeOperator(BSONObjBuilder* ops) const override;
    Op op() const { return _op; }
    const BSONElement& rhs() const { return _rhs; }
    const Collator* collator() const { return _collator; }

private:
    Op _op;
    BSONElement _rhs;
    const Collator* _collator;
};

// $regex / /re/: matches strings and symbols; a stored regex value matches if identical.
class RegexMatchExpression : public PathMatchExpression {
public:
    RegexMatchExpression(std::string_view path, std::string_view pattern, std::string_view flags)
        : PathMatchExpression(path, true), _regex(pattern, flags) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    const MatcherRegex& regex() const { return _regex; }
    MatchType matchType() const override { return MatchType::kRegex; }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    MatcherRegex _regex;
};

// $in: equality with any listed value or a match of any listed regex.
class InMatchExpression : public PathMatchExpression {
public:
    InMatchExpression(std::string_view path, std::vector<BSONElement> equalities,
                      std::vector<std::unique_ptr<MatcherRegex>> regexes, const Collator* collator = nullptr);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    MatchType matchType() const override { return MatchType::kIn; }
    void serializeOperator(BSONObjBuilder* ops) const override;
    const std::vector<BSONElement>& equalities() const { return _equalities; }
    const std::vector<std::unique_ptr<MatcherRegex>>& regexes() const { return _regexes; }
    bool hasNull() const { return _hasNull; }
    const Collator* collator() const { return _collator; }

private:
    const Collator* _collator;             // the query's collation (null: simple); regexes ignore it
    std::vector<BSONElement> _equalities;  // sorted under the collation, for binary search
    std::vector<std::unique_ptr<MatcherRegex>> _regexes;
    bool _hasNull = false;
};

class ExistsMatchExpression : public PathMatchExpression {
public:
    explicit ExistsMatchExpression(std::string_view path) : PathMatchExpression(path, true) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override { return !e.eoo(); }
    MatchType matchType() const override { return MatchType::kExists; }
    void serializeOperator(BSONObjBuilder* ops) const override;
};

class TypeMatchExpression : public PathMatchExpression {
public:
    TypeMatchExpression(std::string_view path, std::vector<BSONType> types, bool allNumbers)
        : PathMatchExpression(path, true), _types(std::move(types)), _allNumbers(allNumbers) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override;
    MatchType matchType() const override { return MatchType::kType; }
    void serializeOperator(BSONObjBuilder* ops) const override;
    const std::vector<BSONType>& types() const { return _types; }
    bool allNumbers() const { return _allNumbers; }

private:
    std::vector<BSONType> _types;
    bool _allNumbers;
};

class ModMatchExpression : public PathMatchExpression {
public:
    ModMatchExpression(std::string_view path, long long divisor, long long remainder)
        : PathMatchExpression(path, true), _divisor(divisor), _remainder(remainder) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override;
    MatchType matchType() const override { return MatchType::kMod; }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    long long _divisor;
    long long _remainder;
};

// $bitsAllSet, $bitsAllClear, $bitsAnySet, $bitsAnyClear.
class BitTestMatchExpression : public PathMatchExpression {
public:
    enum Kind { AllSet, AllClear, AnySet, AnyClear };
    BitTestMatchExpression(std::string_view path, Kind kind, std::vector<uint32_t> positions)
        : PathMatchExpression(path, true), _kind(kind), _positions(std::move(positions)) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override;
    MatchType matchType() const override { return MatchType::kBits; }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    bool testBit(const BSONElement& e, uint32_t pos, bool* isSet) const;
    Kind _kind;
    std::vector<uint32_t> _positions;
};

// $size: only arrays at the end of the path (no leaf expansion).
class SizeMatchExpression : public PathMatchExpression {
public:
    SizeMatchExpression(std::string_view path, int size) : PathMatchExpression(path, false), _size(size) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override;
    MatchType matchType() const override { return MatchType::kSize; }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    int _size;
};

// {a: {$elemMatch: {b: 1, c: {$gt: 2}}}}: some element (a document or array) matches the
// sub-filter.
class ElemMatchObjectMatchExpression : public PathMatchExpression {
public:
    ElemMatchObjectMatchExpression(std::string_view path, std::unique_ptr<MatchExpression> sub)
        : PathMatchExpression(path, false), _sub(std::move(sub)) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    MatchType matchType() const override { return MatchType::kElemMatchObject; }
    size_t numChildren() const override { return 1; }
    const MatchExpression* getChild(size_t) const override { return _sub.get(); }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    std::unique_ptr<MatchExpression> _sub;
};

// {a: {$elemMatch: {$gt: 1, $lt: 5}}}: some element satisfies every predicate.
class ElemMatchValueMatchExpression : public PathMatchExpression {
public:
    ElemMatchValueMatchExpression(std::string_view path, std::vector<std::unique_ptr<MatchExpression>> subs)
        : PathMatchExpression(path, false), _subs(std::move(subs)) {}
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    MatchType matchType() const override { return MatchType::kElemMatchValue; }
    size_t numChildren() const override { return _subs.size(); }
    const MatchExpression* getChild(size_t i) const override { return _subs[i].get(); }
    void serializeOperator(BSONObjBuilder* ops) const override;

private:
    bool arrayElementMatches(const BSONElement& x) const;
    std::vector<std::unique_ptr<MatchExpression>> _subs;
};

class AlwaysBooleanMatchExpression : public MatchExpression {
public:
    explicit AlwaysBooleanMatchExpression(bool value) : _value(value) {}
    bool matches(const BSONObj&, MatchDetails*) const override { return _value; }
    bool matchesSingleElement(const BSONElement&, MatchDetails*) const override { return _value; }
    bool isAlwaysTrue() const override { return _value; }
    bool matchesValueAsRoot(const BSONElement&, MatchDetails*) const override { return _value; }
    MatchType matchType() const override { return _value ? MatchType::kAlwaysTrue : MatchType::kAlwaysFalse; }
    void serialize(BSONObjBuilder* out) const override;

private:
    bool _value;
};

class ListOfMatchExpression : public MatchExpression {
public:
    void add(std::unique_ptr<MatchExpression> child) { _children.push_back(std::move(child)); }
    size_t numChildren() const override { return _children.size(); }
    const MatchExpression* getChild(size_t i) const override { return _children[i].get(); }
    std::unique_ptr<MatchExpression> releaseOnlyChild() { return std::move(_children[0]); }
    std::vector<std::unique_ptr<MatchExpression>> releaseChildren() { return std::move(_children); }

protected:
    std::vector<std::unique_ptr<MatchExpression>> _children;
};

class AndMatchExpression : public ListOfMatchExpression {
public:
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    bool matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const override;
    bool isAlwaysTrue() const override { return _children.empty(); }
    MatchType matchType() const override { return MatchType::kAnd; }
    void serialize(BSONObjBuilder* out) const override;
};

// $or and $nor do not report elemMatchKey (as MongoDB), so "a.$" after an $or fails.
class OrMatchExpression : public ListOfMatchExpression {
public:
    MatchType matchType() const override { return MatchType::kOr; }
    void serialize(BSONObjBuilder* out) const override;
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    bool matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const override;
};

class NorMatchExpression : public ListOfMatchExpression {
public:
    MatchType matchType() const override { return MatchType::kNor; }
    void serialize(BSONObjBuilder* out) const override;
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    bool matchesValueAsRoot(const BSONElement& v, MatchDetails* details) const override;
};

class NotMatchExpression : public MatchExpression {
public:
    explicit NotMatchExpression(std::unique_ptr<MatchExpression> child) : _child(std::move(child)) {}
    bool matches(const BSONObj& doc, MatchDetails*) const override { return !_child->matches(doc, nullptr); }
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override {
        return !_child->matchesSingleElement(e, nullptr);
    }
    bool matchesValueAsRoot(const BSONElement& v, MatchDetails*) const override {
        return !_child->matchesValueAsRoot(v, nullptr);
    }
    MatchType matchType() const override { return MatchType::kNot; }
    size_t numChildren() const override { return 1; }
    const MatchExpression* getChild(size_t) const override { return _child.get(); }
    void serialize(BSONObjBuilder* out) const override;

private:
    std::unique_ptr<MatchExpression> _child;
};

// {$expr: <aggregation expression>}: the expression's truthiness on the whole document.
class ExprMatchExpression : public MatchExpression {
public:
    // Throws parse errors of the expression. collator: the query's collation, under which the
    // expression's comparisons ($eq, $lt, $in, $cmp, set operators ...) run (null: simple);
    // must outlive the node (the Matcher holds it).
    explicit ExprMatchExpression(const BSONElement& e, const Collator* collator = nullptr);
    ~ExprMatchExpression() override;
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesSingleElement(const BSONElement&, MatchDetails*) const override { return false; }
    MatchType matchType() const override { return MatchType::kExpr; }
    void serialize(BSONObjBuilder* out) const override;

private:
    BSONObj _spec;  // {$expr: ...} as given, for explain
    std::unique_ptr<ExpressionContext> _expCtx;  // declared first: the expression refers to it
    std::unique_ptr<Expression> _expr;
    const Collator* _collator;
};

// Parses a filter document into a tree (matcher_parser.cpp). Throws DBException.
std::unique_ptr<MatchExpression> parseMatchExpression(const BSONObj& filter, const Collator* collator = nullptr);

// The node as explain prints it: {a: {$eq: 1}}, {$and: [...]} (match_expression_serialize.cpp).
BSONObj serializeMatchExpression(const MatchExpression& e);

}  // namespace mongo
