// Generation of DocumentValidationFailure details (see doc_validation_error.h).
#include "mongo/db/query/doc_validation_error.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/path_traversal.h"
#include "mongo/db/query/schema/json_schema.h"

namespace mongo {
namespace {

constexpr int kMaxConsideredValues = 10;            // internalQueryMaxDocValidationErrorConsideredValues
constexpr int kMaxErrorSize = 12 * 1024 * 1024;    // MongoDB's kDefaultMaxDocValidationErrorSize
constexpr int kMaxErrorDepth = 150;                 // keeps replies well inside BSON's nesting limit

enum class Mode { kNormal, kInverted };  // explaining a failure, or a match that made a $not/$nor fail

Mode flip(Mode m) { return m == Mode::kNormal ? Mode::kInverted : Mode::kNormal; }

// One clause of a filter, with a filter of its own that evaluates it alone.
struct Clause {
    std::string op;    // "$gt", "$eq" (implicit equality), "$regex", "$not", "$and", "$expr", ...
    std::string path;  // for field clauses
    BSONObj filter;    // {path: {op: arg}}, {path: value}, {$and: [...]}, {$expr: ...}
    BSONElement arg;   // the operator's argument (points into 'filter')
};

Clause makeClause(std::string op, std::string path, BSONObj filter) {
    Clause c{std::move(op), std::move(path), std::move(filter), BSONElement()};
    BSONElement e = c.filter.firstElement();
    bool operatorForm = !c.path.empty() && e.type() == Object && c.op != "$eq";
    c.arg = operatorForm ? e.Obj().firstElement() : e;
    return c;
}

bool isDBRef(const BSONObj& o) {
    bool ref = false, id = false;
    for (BSONElement e : o) {
        if (e.fieldNameStringData() == "$ref") ref = true;
        if (e.fieldNameStringData() == "$id") id = true;
    }
    return ref && id;
}

bool isOperatorObject(const BSONElement& e) {
    if (e.type() != Object) return false;
    BSONObj o = e.Obj();
    return !o.isEmpty() && !o.firstElementFieldName().empty() && o.firstElementFieldName()[0] == '$' && !isDBRef(o);
}

BSONObj wrapPathOp(std::string_view path, const BSONElement& op) {
    BSONObjBuilder inner;
    inner.append(op);
    BSONObjBuilder b;
    b.append(path, inner.obj());
    return b.obj();
}

// The clauses an operator object ({$gt: 1, $lt: 5}) makes on path.
void collectOperatorClauses(std::string_view path, const BSONObj& ops, std::vector<Clause>* out) {
    for (BSONElement op : ops) {
        std::string name(op.fieldNameStringData());
        if (name == "$options") continue;  // part of its $regex
        if (name == "$regex") {
            BSONObjBuilder inner;
            for (BSONElement x : ops)
                if (x.fieldNameStringData() == "$regex" || x.fieldNameStringData() == "$options") inner.append(x);
            BSONObjBuilder b;
            b.append(path, inner.obj());
            out->push_back(makeClause(name, std::string(path), b.obj()));
            continue;
        }
        out->push_back(makeClause(name, std::string(path), wrapPathOp(path, op)));
    }
}

std::vector<Clause> collectClauses(const BSONObj& filter) {
    std::vector<Clause> out;
    for (BSONElement e : filter) {
        std::string_view name = e.fieldNameStringData();
        if (name == "$comment") continue;
        if (!name.empty() && name[0] == '$' && name != "$id" && name != "$ref" && name != "$db") {
            out.push_back(makeClause(std::string(name), "", e.wrap()));
        } else if (isOperatorObject(e)) {
            collectOperatorClauses(name, e.Obj(), &out);
        } else {
            out.push_back(makeClause(e.type() == RegEx ? "$regex" : "$eq", std::string(name), e.wrap()));
        }
    }
    return out;
}

struct Outcome {
    bool matched = false;
    bool threw = false;
};

Outcome evaluate(const BSONObj& filter, const BSONObj& doc) {
    try {
        return {Matcher(filter).matches(doc), false};
    } catch (const DBException&) {
        return {false, true};
    }
}

// The values a predicate on path considered: the values along the path, with the elements of
// an array at its end instead of the array (unless expandLeaf is false).
struct Considered {
    std::vector<BSONElement> values;
    bool leafArray = false;
};

void gather(const BSONObj& obj, const DottedPath& path, size_t i, bool expandLeaf, Considered* out) {
    BSONElement e = obj.getField(path.part(i));
    if (e.eoo()) return;
    if (i + 1 == path.size()) {
        if (e.type() == Array && expandLeaf) {
            out->leafArray = true;
            for (BSONElement x : e.Obj()) out->values.push_back(x);
        } else {
            out->values.push_back(e);
        }
        return;
    }
    if (e.type() == Object) {
        gather(e.Obj(), path, i + 1, expandLeaf, out);
    } else if (e.type() == Array) {
        if (path.isNumeric(i + 1)) {
            BSONElement x = e.Obj().getField(path.part(i + 1));
            if (!x.eoo()) {
                if (i + 2 == path.size()) {
                    if (x.type() == Array && expandLeaf) {
                        out->leafArray = true;
                        for (BSONElement y : x.Obj()) out->values.push_back(y);
                    } else {
                        out->values.push_back(x);
                    }
                } else if (x.type() == Object) {
                    gather(x.Obj(), path, i + 2, expandLeaf, out);
                }
            }
        }
        for (BSONElement x : e.Obj())
            if (x.type() == Object) gather(x.Obj(), path, i + 1, expandLeaf, out);
    }
}

Considered considered(const BSONObj& doc, const std::string& path, bool expandLeaf) {
    Considered c;
    DottedPath p(path);
    if (!p.empty()) gather(doc, p, 0, expandLeaf, &c);
    return c;
}

void appendConsidered(BSONObjBuilder& b, const Considered& c) {
    if (c.values.size() == 1 && !c.leafArray) {
        b.appendAs(c.values[0], "consideredValue");
        return;
    }
    BSONArrayBuilder arr;
    for (size_t i = 0; i < c.values.size() && i < static_cast<size_t>(kMaxConsideredValues); i++) arr.append(c.values[i]);
    b.append("consideredValues", arr.arr());
}

void appendConsideredTypes(BSONObjBuilder& b, const Considered& c) {
    std::set<std::string> types;
    for (const auto& v : c.values) types.insert(typeName(v.type()));
    if (types.empty()) return;
    if (types.size() == 1) {
        b.append("consideredType", *types.begin());
        return;
    }
    BSONArrayBuilder arr;
    for (const auto& t : types) arr.append(t);
    b.append("consideredTypes", arr.arr());
}

// How a leaf operator reports itself.
struct LeafInfo {
    const char* failed;     // reason when it did not match
    const char* succeeded;  // reason when it matched (under $not / $nor)
    bool expandLeaf;
    enum TypeClass { kAny, kRegexTypes, kNumbers, kBitTypes, kArrays } typeClass;
};

const LeafInfo* leafInfo(const std::string& op) {
    static const LeafInfo kComparison{"comparison failed", "comparison succeeded", true, LeafInfo::kAny};
    static const LeafInfo kNe{"comparison succeeded", "comparison failed", true, LeafInfo::kAny};
    static const LeafInfo kIn{"no matching value found in array", "matching value found in array", true, LeafInfo::kAny};
    static const LeafInfo kNin{"matching value found in array", "no matching value found in array", true, LeafInfo::kAny};
    static const LeafInfo kRegex{"regular expression did not match", "regular expression did match", true,
                                 LeafInfo::kRegexTypes};
    static const LeafInfo kMod{"$mod did not evaluate to expected remainder", "$mod did evaluate to expected remainder",
                               true, LeafInfo::kNumbers};
    static const LeafInfo kBits{"bitwise operator failed to match", "bitwise operator matched successfully", true,
                                LeafInfo::kBitTypes};
    static const LeafInfo kSize{"array length was not equal to given size", "array length was equal to given size",
                                false, LeafInfo::kArrays};
    static const LeafInfo kAll{"array did not contain all specified values", "array did contain all specified values",
                               false, LeafInfo::kAny};
    static const LeafInfo kElemMatch{"array did not satisfy the child predicate", "array did satisfy the child predicate",
                                     false, LeafInfo::kArrays};
    if (op == "$eq" || op == "$lt" || op == "$lte" || op == "$gt" || op == "$gte") return &kComparison;
    if (op == "$ne") return &kNe;
    if (op == "$in") return &kIn;
    if (op == "$nin") return &kNin;
    if (op == "$regex") return &kRegex;
    if (op == "$mod") return &kMod;
    if (op == "$bitsAllSet" || op == "$bitsAllClear" || op == "$bitsAnySet" || op == "$bitsAnyClear") return &kBits;
    if (op == "$size") return &kSize;
    if (op == "$all") return &kAll;
    if (op == "$elemMatch") return &kElemMatch;
    return nullptr;
}

bool hasExpectedType(LeafInfo::TypeClass tc, BSONType t) {
    switch (tc) {
        case LeafInfo::kAny: return true;
        case LeafInfo::kRegexTypes: return t == String || t == Symbol || t == RegEx;
        case LeafInfo::kNumbers: return isNumericType(t);
        case LeafInfo::kBitTypes: return isNumericType(t) || t == BinData;
        case LeafInfo::kArrays: return t == Array;
    }
    return true;
}

void appendExpectedTypes(BSONObjBuilder& b, LeafInfo::TypeClass tc) {
    std::vector<const char*> names;
    switch (tc) {
        case LeafInfo::kRegexTypes: names = {"regex", "string", "symbol"}; break;
        case LeafInfo::kNumbers: names = {"decimal", "double", "int", "long"}; break;
        case LeafInfo::kBitTypes: names = {"binData", "decimal", "double", "int", "long"}; break;
        case LeafInfo::kArrays: b.append("expectedType", "array"); return;
        case LeafInfo::kAny: return;
    }
    BSONArrayBuilder arr;
    for (const char* n : names) arr.append(n);
    b.append("expectedTypes", arr.arr());
}

class Generator {
public:
    Generator(const BSONObj& doc, bool lean) : _doc(doc), _lean(lean) {}
    BSONObj explainFilter(const BSONObj& filter, Mode mode);

private:
    BSONObj explainClause(const Clause& c, Mode mode);
    BSONObj explainList(const std::string& op, const std::vector<BSONObj>& children, Mode mode);
    BSONObj explainNot(const Clause& c, Mode mode);
    BSONObj explainExpr(const Clause& c, Mode mode);
    BSONObj explainLeaf(const Clause& c, Mode mode);
    void appendSpecifiedAs(BSONObjBuilder& b, const BSONObj& spec) {
        if (!_lean) b.append("specifiedAs", spec);
    }
    void appendValues(BSONObjBuilder& b, const Considered& c) {
        if (!_lean) appendConsidered(b, c);
    }

    const BSONObj& _doc;
    bool _lean;  // without the (possibly large) values, for an error that would be too big
};

BSONObj Generator::explainFilter(const BSONObj& filter, Mode mode) {
    std::vector<Clause> clauses = collectClauses(filter);
    if (clauses.size() == 1) return explainClause(clauses[0], mode);
    std::vector<BSONObj> children;
    for (const auto& c : clauses) children.push_back(c.filter);
    return explainList("$and", children, mode);
}

BSONObj Generator::explainList(const std::string& op, const std::vector<BSONObj>& children, Mode mode) {
    // Which children explain the outcome: those that failed a failing $and/$or, those that
    // matched a failing $nor (and the reverse under $not/$nor).
    bool listMatched = (op == "$nor") == (mode == Mode::kNormal);
    Mode childMode = listMatched ? Mode::kInverted : Mode::kNormal;
    BSONArrayBuilder list;
    for (size_t i = 0; i < children.size(); i++) {
        Outcome o = evaluate(children[i], _doc);
        if (!o.threw && o.matched != listMatched) continue;
        BSONObjBuilder entry;
        entry.append("index", static_cast<int>(i));
        entry.append("details", explainFilter(children[i], childMode));
        list.append(entry.obj());
    }
    BSONObjBuilder b;
    b.append("operatorName", op);
    b.append(listMatched ? "clausesSatisfied" : "clausesNotSatisfied", list.arr());
    return b.obj();
}

BSONObj Generator::explainClause(const Clause& c, Mode mode) {
    const std::string& op = c.op;
    if (op == "$and" || op == "$or" || op == "$nor") {
        std::vector<BSONObj> children;
        if (c.filter.firstElement().type() == Array)
            for (BSONElement x : c.filter.firstElement().Obj())
                if (x.type() == Object) children.push_back(x.Obj());
        return explainList(op, children, mode);
    }
    if (op == "$not") return explainNot(c, mode);
    if (op == "$expr") return explainExpr(c, mode);
    BSONObjBuilder b;
    if (op == "$jsonSchema") {
        if (mode == Mode::kNormal) {
            ParsingCollectionValidatorScope validatorKeywords;
            return JsonSchema::parse(c.filter.firstElement())->explainFailure(_doc);
        }
        b.append("operatorName", "$jsonSchema");
        b.append("reason", "schema matched");
        return b.obj();
    }
    if (op == "$alwaysFalse" || op == "$alwaysTrue") {
        b.append("operatorName", op);
        appendSpecifiedAs(b, c.filter);
        b.append("reason", op == "$alwaysFalse" ? "expression always evaluates to false"
                                                : "expression always evaluates to true");
        return b.obj();
    }
    return explainLeaf(c, mode);
}

BSONObj Generator::explainNot(const Clause& c, Mode mode) {
    const BSONElement& arg = c.arg;
    std::vector<Clause> inner;
    if (arg.type() == RegEx) {
        BSONObjBuilder f;
        f.appendAs(arg, c.path);
        inner.push_back(makeClause("$regex", c.path, f.obj()));
    } else if (arg.type() == Object) {
        collectOperatorClauses(c.path, arg.Obj(), &inner);
    }
    BSONObjBuilder b;
    b.append("operatorName", "$not");
    if (inner.size() == 1) {
        b.append("details", explainClause(inner[0], flip(mode)));
    } else {
        std::vector<BSONObj> children;
        for (const auto& x : inner) children.push_back(x.filter);
        b.append("details", explainList("$and", children, flip(mode)));
    }
    return b.obj();
}

BSONObj Generator::explainExpr(const Clause& c, Mode mode) {
    BSONObjBuilder b;
    b.append("operatorName", "$expr");
    appendSpecifiedAs(b, c.filter);
    try {
        ExpressionContext ctx(PipelineContext{});
        VariablesParseState vps(&ctx);
        ExprPtr expr = Expression::parseOperand(c.filter.firstElement(), vps);
        Variables vars = ctx.vars;
        Value result = expr->evaluate(Document::fromBson(_doc), &vars);
        BSONObjBuilder r;
        r.append("reason", mode == Mode::kNormal ? "expression did not match" : "expression did match");
        if (!_lean) result.appendTo(&r, "expressionResult");
        b.appendElements(r.obj());
    } catch (const DBException& e) {
        b.append("reason", "failed to evaluate aggregation expression");
        BSONObjBuilder d;
        d.append("code", e.code());
        d.append("codeName", e.toStatus().codeName());
        d.append("errmsg", e.reason());
        b.append("details", d.obj());
    }
    return b.obj();
}

BSONObj Generator::explainLeaf(const Clause& c, Mode mode) {
    BSONObjBuilder b;
    b.append("operatorName", c.op);
    appendSpecifiedAs(b, c.filter);
    bool normal = mode == Mode::kNormal;
    const BSONElement& arg = c.arg;

    if (c.op == "$exists") {
        bool wantsPath = arg.trueValue();
        b.append("reason", wantsPath == normal ? "path does not exist" : "path does exist");
        return b.obj();
    }
    if (c.op == "$type") {
        Considered v = considered(_doc, c.path, true);
        if (v.values.empty() && !v.leafArray && normal) {
            b.append("reason", "field was missing");
            return b.obj();
        }
        b.append("reason", normal ? "type did not match" : "type did match");
        appendValues(b, v);
        appendConsideredTypes(b, v);
        return b.obj();
    }
    const LeafInfo* info = leafInfo(c.op);
    if (!info) {  // an operator this server does not evaluate in validators
        b.append("reason", normal ? "expression did not match" : "expression did match");
        return b.obj();
    }
    if (c.op == "$all" && arg.type() == Array && arg.Obj().isEmpty()) {
        b.append("reason", "expression always evaluates to false");
        return b.obj();
    }
    Considered v = considered(_doc, c.path, info->expandLeaf);
    if (v.values.empty() && !v.leafArray) {
        if (normal) b.append("reason", "field was missing");
        else b.append("reason", info->succeeded);
        return b.obj();
    }
    bool allWrongType = normal && info->typeClass != LeafInfo::kAny && !v.values.empty();
    for (const auto& x : v.values)
        if (hasExpectedType(info->typeClass, x.type())) allWrongType = false;
    if (allWrongType) {
        b.append("reason", "type did not match");
        appendConsideredTypes(b, v);
        appendExpectedTypes(b, info->typeClass);
        appendValues(b, v);
        return b.obj();
    }
    b.append("reason", normal ? info->failed : info->succeeded);
    appendValues(b, v);
    return b.obj();
}

int depthOf(const BSONObj& o) {
    int deepest = 0;
    for (BSONElement e : o)
        if (e.isABSONObj()) deepest = std::max(deepest, depthOf(e.Obj()));
    return deepest + 1;
}

BSONObj withId(const BSONObj& doc, const BSONObj& rest) {
    BSONObjBuilder b;
    BSONElement id = doc["_id"];
    if (!id.eoo()) b.appendAs(id, "failingDocumentId");
    b.appendElements(rest);
    return b.obj();
}

}  // namespace

BSONObj explainValidatorFailure(const BSONObj& validator, const BSONObj& doc) {
    ParsingCollectionValidatorScope validatorKeywords;
    return Generator(doc, false).explainFilter(validator, Mode::kNormal);
}

BSONObj generateDocValidationErrInfo(const BSONObj& validator, const BSONObj& doc) {
    try {
        ParsingCollectionValidatorScope validatorKeywords;
        BSONObjBuilder d;
        d.append("details", Generator(doc, false).explainFilter(validator, Mode::kNormal));
        BSONObj full = withId(doc, d.obj());
        if (depthOf(full) > kMaxErrorDepth) {
            BSONObjBuilder t;
            t.append("reason", "generated error was too deeply nested");
            t.append("truncated", true);
            return withId(doc, t.obj());
        }
        if (full.objsize() <= kMaxErrorSize) return full;
        // Too big to report: the same structure without specified and considered values.
        BSONObjBuilder lean;
        lean.append("details", Generator(doc, true).explainFilter(validator, Mode::kNormal));
        lean.append("truncated", true);
        BSONObj small = withId(doc, lean.obj());
        if (small.objsize() <= kMaxErrorSize) return small;
    } catch (const DBException&) {
        // Fall through: the write must still be refused with a well-formed error.
    }
    BSONObjBuilder t;
    t.append("truncated", true);
    return withId(doc, t.obj());
}

}  // namespace mongo
