// Set expressions ($setUnion $setIntersection $setDifference $setEquals $setIsSubset
// $allElementsTrue $anyElementTrue) and object expressions ($mergeObjects $objectToArray
// $arrayToObject $getField $setField $unsetField).
#include <set>

#include "mongo/db/pipeline/expression.h"

namespace mongo {
namespace {

using ValueSet = std::set<Value, ValueLess>;

ValueSet toSet(const Value& arr) { return ValueSet(arr.getArray().begin(), arr.getArray().end()); }

Value fromSet(const ValueSet& s) { return Value(std::vector<Value>(s.begin(), s.end())); }

Value setUnion(const std::string&, const std::vector<Value>& args) {
    ValueSet out;
    for (const Value& v : args) {
        if (v.nullish()) return Value::null();
        uassert(17043, "All operands of $setUnion must be arrays. One argument is of type: " + typeNameOf(v),
                v.isArray());
        out.insert(v.getArray().begin(), v.getArray().end());
    }
    return fromSet(out);
}

Value setIntersection(const std::string&, const std::vector<Value>& args) {
    ValueSet cur;
    bool first = true;
    for (const Value& v : args) {
        if (v.nullish()) return Value::null();
        uassert(17047, "All operands of $setIntersection must be arrays. One argument is of type: " + typeNameOf(v),
                v.isArray());
        if (first) {
            cur = toSet(v);
            first = false;
            continue;
        }
        ValueSet other = toSet(v), next;
        for (const Value& x : cur)
            if (other.count(x)) next.insert(x);
        cur.swap(next);
    }
    return fromSet(cur);
}

Value setDifference(const std::string&, const std::vector<Value>& args) {
    const Value& a = args[0];
    const Value& b = args[1];
    if (a.nullish() || b.nullish()) return Value::null();
    uassert(17048, "both operands of $setDifference must be arrays. First argument is of type: " + typeNameOf(a),
            a.isArray());
    uassert(17049, "both operands of $setDifference must be arrays. Second argument is of type: " + typeNameOf(b),
            b.isArray());
    ValueSet exclude = toSet(b), seen;
    std::vector<Value> out;
    for (const Value& x : a.getArray())
        if (!exclude.count(x) && seen.insert(x).second) out.push_back(x);
    return Value(std::move(out));
}

Value setEquals(const std::string&, const std::vector<Value>& args) {
    uassert(17045, "$setEquals needs at least two arguments had: " + std::to_string(args.size()), args.size() >= 2);
    ValueSet first;
    for (size_t i = 0; i < args.size(); i++) {
        uassert(17044, "All operands of $setEquals must be arrays. One argument is of type: " + typeNameOf(args[i]),
                args[i].isArray());
        ValueSet s = toSet(args[i]);
        if (i == 0)
            first = std::move(s);
        else if (s.size() != first.size() || !std::equal(s.begin(), s.end(), first.begin(), [](const Value& x, const Value& y) {
                     return Value::compare(x, y) == 0;
                 }))
            return Value(false);
    }
    return Value(true);
}

Value setIsSubset(const std::string&, const std::vector<Value>& args) {
    const Value& a = args[0];
    const Value& b = args[1];
    uassert(17046, "both operands of $setIsSubset must be arrays. First argument is of type: " + typeNameOf(a),
            a.isArray());
    uassert(17042, "both operands of $setIsSubset must be arrays. Second argument is of type: " + typeNameOf(b),
            b.isArray());
    ValueSet sb = toSet(b);
    for (const Value& x : a.getArray())
        if (!sb.count(x)) return Value(false);
    return Value(true);
}

Value elementsTrue(const std::string& op, const std::vector<Value>& args, bool all) {
    const Value& a = args[0];
    uassert(all ? 17040 : 17041, op + "'s argument must be an array, but is " + typeNameOf(a), a.isArray());
    for (const Value& x : a.getArray()) {
        bool t = x.coerceToBool();
        if (all && !t) return Value(false);
        if (!all && t) return Value(true);
    }
    return Value(all);
}

// ---------------------------------------------------------------- objects

Value mergeObjects(const std::string&, const std::vector<Value>& args) {
    MutableDoc out;
    for (const Value& v : args) {
        if (v.nullish()) continue;
        uassert(40400,
                "$mergeObjects requires object inputs, but input " + v.toString() + " is of type " + typeNameOf(v),
                v.isObject());
        for (const auto& f : v.getDocument().fields()) out.setField(f.first, f.second);
    }
    return Value(out.freeze());
}

Value objectToArray(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (v.nullish()) return Value::null();
    uassert(40390, "$objectToArray requires a document input, found: " + typeNameOf(v), v.isObject());
    std::vector<Value> out;
    for (const auto& f : v.getDocument().fields()) {
        std::vector<Document::Field> kv;
        kv.emplace_back("k", Value(f.first));
        kv.emplace_back("v", f.second);
        out.emplace_back(Document(std::move(kv)));
    }
    return Value(std::move(out));
}

Value arrayToObject(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (v.nullish()) return Value::null();
    uassert(40386, "$arrayToObject requires an array input, found: " + typeNameOf(v), v.isArray());
    MutableDoc out;
    const auto& arr = v.getArray();
    if (arr.empty()) return Value(out.freeze());
    bool pairs = arr[0].isArray();
    uassert(40398, "Unrecognised input type format for $arrayToObject: " + typeNameOf(arr[0]),
            pairs || arr[0].isObject());
    for (const Value& e : arr) {
        std::string key;
        Value val;
        if (pairs) {
            uassert(40391,
                    "$arrayToObject requires a consistent input format. Elements must all be arrays or all be "
                    "objects. Array was detected, now found: " + typeNameOf(e),
                    e.isArray());
            const auto& kv = e.getArray();
            uassert(40396, "$arrayToObject requires an array of size 2 arrays,found array of size: " +
                               std::to_string(kv.size()),
                    kv.size() == 2);
            uassert(40395,
                    "$arrayToObject requires an array of key-value pairs, where the key must be of type string. "
                    "Found key type: " + typeNameOf(kv[0]),
                    kv[0].getType() == String);
            key = kv[0].getString();
            val = kv[1];
        } else {
            uassert(40391,
                    "$arrayToObject requires a consistent input format. Elements must all be arrays or all be "
                    "objects. Object was detected, now found: " + typeNameOf(e),
                    e.isObject());
            const Document& d = e.getDocument();
            uassert(40392, "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:" +
                               std::to_string(d.size()),
                    d.size() == 2);
            Value k = d.getField("k");
            Value vv = d.getField("v");
            uassert(40393,
                    "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: " +
                        e.toString(),
                    !k.missing() && !vv.missing());
            uassert(40394,
                    "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' is of type "
                    "'string'. Found type: " + typeNameOf(k),
                    k.getType() == String);
            key = k.getString();
            val = vv;
        }
        uassert(4940400, "Key field cannot contain an embedded null byte", key.find('\0') == std::string::npos);
        out.setField(key, val);
    }
    return Value(out.freeze());
}

// {$getField: {field, input}}, {$setField: {field, input, value}}, {$unsetField: {field, input}}.
class ExpressionFieldAccess : public Expression {
public:
    enum Kind { kGet, kSet, kUnset };
    ExpressionFieldAccess(std::string op, Kind kind, std::string field, ExprPtr input, ExprPtr value)
        : _op(std::move(op)), _kind(kind), _field(std::move(field)), _input(std::move(input)), _value(std::move(value)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        if (_kind == kGet) {
            if (in.nullish()) return in.missing() ? Value() : Value::null();
            uassert(3041705, _op + " requires 'input' to evaluate to type Object, but got " + typeNameOf(in),
                    in.isObject());
            return in.getDocument().getField(_field);
        }
        if (in.nullish()) return Value::null();
        uassert(4161105, _op + " requires 'input' to evaluate to type Object, but got " + typeNameOf(in),
                in.isObject());
        MutableDoc out(in.getDocument());
        out.setField(_field, _kind == kSet ? _value->evaluate(root, vars) : Value());
        return Value(out.freeze());
    }

private:
    std::string _op;
    Kind _kind;
    std::string _field;
    ExprPtr _input, _value;
};

ExprPtr parseFieldAccess(const std::string& op, const BSONElement& args, const VariablesParseState& vps,
                         ExpressionFieldAccess::Kind kind) {
    BSONElement field, input, value;
    if (kind == ExpressionFieldAccess::kGet && args.type() != Object) {
        field = args;  // {$getField: "name"}
    } else {
        uassert(3041703, op + " only supports an object as its argument", args.type() == Object);
        for (BSONElement f : args.Obj()) {
            auto n = f.fieldNameStringData();
            if (n == "field")
                field = f;
            else if (n == "input")
                input = f;
            else if (n == "value" && kind == ExpressionFieldAccess::kSet)
                value = f;
            else
                uasserted(3041701, op + " found an unknown argument: " + std::string(n));
        }
    }
    uassert(3041702, op + " requires 'field' to be specified", !field.eoo());
    std::string name;
    if (field.type() == String) {
        name = field.str();
    } else if (field.type() == Object && field.Obj().nFields() == 1 &&
               field.Obj().firstElementFieldName() == "$literal" &&
               field.Obj().firstElement().type() == String) {
        name = field.Obj().firstElement().str();
    } else {
        uasserted(5654602, op + " requires 'field' to evaluate to a constant, but got a non-constant argument");
    }
    uassert(5654603, op + ": 'field' cannot be a path starting with '$' unless wrapped in $literal",
            field.type() != String || name.empty() || name[0] != '$');
    if (kind == ExpressionFieldAccess::kSet) uassert(4161106, op + " requires 'value' to be specified", !value.eoo());
    if (kind != ExpressionFieldAccess::kGet) uassert(4161102, op + " requires 'input' to be specified", !input.eoo());
    ExprPtr inputExpr = input.eoo() ? ExpressionFieldPath::parse("$$CURRENT", vps) : Expression::parseOperand(input, vps);
    ExprPtr valueExpr = value.eoo() ? nullptr : Expression::parseOperand(value, vps);
    return std::make_unique<ExpressionFieldAccess>(op, kind, name, std::move(inputExpr), std::move(valueExpr));
}

void registerSetObject() {
    registerNaryExpression("$setUnion", 0, -1, setUnion);
    registerNaryExpression("$setIntersection", 0, -1, setIntersection);
    registerNaryExpression("$setDifference", 2, 2, setDifference);
    registerNaryExpression("$setEquals", 0, -1, setEquals);
    registerNaryExpression("$setIsSubset", 2, 2, setIsSubset);
    registerNaryExpression("$allElementsTrue", 1, 1, [](const std::string& op, const std::vector<Value>& a) {
        return elementsTrue(op, a, true);
    });
    registerNaryExpression("$anyElementTrue", 1, 1, [](const std::string& op, const std::vector<Value>& a) {
        return elementsTrue(op, a, false);
    });
    registerNaryExpression("$mergeObjects", 0, -1, mergeObjects);
    registerNaryExpression("$objectToArray", 1, 1, objectToArray);
    registerNaryExpression("$arrayToObject", 1, 1, arrayToObject);
    Expression::registerOperator("$getField", [](const std::string& op, const BSONElement& args,
                                                 const VariablesParseState& vps) {
        return parseFieldAccess(op, args, vps, ExpressionFieldAccess::kGet);
    });
    Expression::registerOperator("$setField", [](const std::string& op, const BSONElement& args,
                                                 const VariablesParseState& vps) {
        return parseFieldAccess(op, args, vps, ExpressionFieldAccess::kSet);
    });
    Expression::registerOperator("$unsetField", [](const std::string& op, const BSONElement& args,
                                                   const VariablesParseState& vps) {
        return parseFieldAccess(op, args, vps, ExpressionFieldAccess::kUnset);
    });
}

ExpressionRegistrar registrar(registerSetObject);

}  // namespace
}  // namespace mongo
