// Expression parsing core: operands, field paths, variables, expression objects/arrays,
// the operator registry, $literal and $let.
#include "mongo/db/pipeline/expression.h"

#include <map>

namespace mongo {

namespace {

std::map<std::string, Expression::Parser, std::less<>>& registry() {
    static std::map<std::string, Expression::Parser, std::less<>> r;
    return r;
}

}  // namespace

void Expression::registerOperator(const std::string& name, Parser parser) { registry()[name] = std::move(parser); }

bool Expression::isRegistered(std::string_view name) { return registry().count(name) > 0; }

std::vector<std::string> Expression::registeredOperators() {
    std::vector<std::string> out;
    for (const auto& r : registry()) out.push_back(r.first);
    return out;
}

ExprPtr Expression::parseOperand(const BSONElement& e, const VariablesParseState& vps) {
    switch (e.type()) {
        case String: {
            std::string_view s = e.valueStringData();
            if (!s.empty() && s[0] == '$') return ExpressionFieldPath::parse(s, vps);
            return std::make_unique<ExpressionConstant>(Value::fromElement(e));
        }
        case Object: return parseObject(e.Obj(), vps);
        case Array: {
            std::vector<ExprPtr> elems;
            for (BSONElement c : e.Obj()) elems.push_back(parseOperand(c, vps));
            return std::make_unique<ExpressionArray>(std::move(elems));
        }
        default: return std::make_unique<ExpressionConstant>(Value::fromElement(e));
    }
}

ExprPtr Expression::parseObject(const BSONObj& obj, const VariablesParseState& vps) {
    if (!obj.isEmpty() && obj.firstElementFieldName()[0] == '$') {
        uassert(15983, "An object representing an expression must have exactly one field: " + obj.toString(),
                obj.nFields() == 1);
        BSONElement op = obj.firstElement();
        std::string name(op.fieldNameStringData());
        auto it = registry().find(name);
        uassert(ErrorCodes::InvalidPipelineOperator, "Unrecognized expression '" + name + "'", it != registry().end());
        return it->second(name, op, vps);
    }
    std::vector<std::pair<std::string, ExprPtr>> fields;
    for (BSONElement e : obj) {
        std::string name(e.fieldNameStringData());
        uassert(16406, "duplicate field name specified in object literal: " + obj.toString(),
                std::none_of(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; }));
        uassert(15998, "FieldPath field names may not be empty strings.", !name.empty());
        uassert(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
                name[0] != '$');
        uassert(16412, "FieldPath field names may not contain '.'. Consider using $getField or $setField.",
                name.find('.') == std::string::npos);
        fields.emplace_back(std::move(name), parseOperand(e, vps));
    }
    return std::make_unique<ExpressionObject>(std::move(fields));
}

std::vector<ExprPtr> Expression::parseArguments(const BSONElement& args, const VariablesParseState& vps) {
    std::vector<ExprPtr> out;
    if (args.type() == Array) {
        for (BSONElement e : args.Obj()) out.push_back(parseOperand(e, vps));
    } else {
        out.push_back(parseOperand(args, vps));
    }
    return out;
}

// ---------------------------------------------------------------- field paths

std::unique_ptr<ExpressionFieldPath> ExpressionFieldPath::parse(std::string_view raw, const VariablesParseState& vps) {
    uassert(16873, "FieldPath '" + std::string(raw) + "' doesn't start with $", !raw.empty() && raw[0] == '$');
    if (raw.size() >= 2 && raw[1] == '$') {
        std::string_view rest = raw.substr(2);
        auto dot = rest.find('.');
        std::string_view varName = rest.substr(0, dot);
        Variables::validateNameForUserRead(varName);
        Variables::Id id = vps.getVariable(varName);
        std::vector<std::string> path;
        if (dot != std::string_view::npos) path = FieldPath(rest.substr(dot + 1)).parts();
        return std::make_unique<ExpressionFieldPath>(id, std::move(path));
    }
    Variables::Id id = vps.getVariable("CURRENT");
    return std::make_unique<ExpressionFieldPath>(id, FieldPath(raw.substr(1)).parts());
}

Value ExpressionFieldPath::evaluatePath(const Value& v, const std::vector<std::string>& path, size_t from) {
    if (from >= path.size()) return v;
    if (v.isObject()) {
        Value field = v.getDocument().getField(path[from]);
        if (from + 1 == path.size()) return field;
        if (field.isObject() || field.isArray()) return evaluatePath(field, path, from + 1);
        return Value();
    }
    if (v.isArray()) {
        // Each document element contributes its value at the rest of the path; nested arrays
        // contribute a nested result; scalars contribute nothing.
        std::vector<Value> out;
        for (const Value& elem : v.getArray()) {
            if (elem.isObject()) {
                Value r = evaluatePath(elem, path, from);
                if (!r.missing()) out.push_back(std::move(r));
            } else if (elem.isArray()) {
                out.push_back(evaluatePath(elem, path, from));
            }
        }
        return Value(std::move(out));
    }
    return Value();
}

Value ExpressionFieldPath::evaluate(const Document& root, Variables* vars) const {
    if (_var == Variables::kRootId) {
        if (_path.empty()) return Value(root);
        Value field = root.getField(_path[0]);
        if (_path.size() == 1) return field;
        if (field.isObject() || field.isArray()) return evaluatePath(field, _path, 1);
        return Value();
    }
    Value base = vars->get(_var, root);
    if (_path.empty()) return base;
    return evaluatePath(base, _path, 0);
}

std::string ExpressionFieldPath::currentPath() const {
    if (_var != Variables::kRootId) return "";
    return FieldPath(_path).full();
}

// ---------------------------------------------------------------- object / array / nary

Value ExpressionObject::evaluate(const Document& root, Variables* vars) const {
    std::vector<Document::Field> out;
    out.reserve(_fields.size());
    for (const auto& f : _fields) {
        Value v = f.second->evaluate(root, vars);
        if (!v.missing()) out.emplace_back(f.first, std::move(v));
    }
    return Value(Document(std::move(out)));
}

Value ExpressionArray::evaluate(const Document& root, Variables* vars) const {
    std::vector<Value> out;
    out.reserve(_elems.size());
    for (const auto& e : _elems) {
        Value v = e->evaluate(root, vars);
        out.push_back(v.missing() ? Value::null() : std::move(v));
    }
    return Value(std::move(out));
}

Value ExpressionNary::evaluate(const Document& root, Variables* vars) const {
    std::vector<Value> vals;
    vals.reserve(_args.size());
    for (const auto& a : _args) vals.push_back(a->evaluate(root, vars));
    return _fn(_name, vals);
}

void checkArity(const std::string& opName, size_t n, int minArgs, int maxArgs) {
    if (maxArgs >= 0 && minArgs == maxArgs) {
        uassert(16020,
                "Expression " + opName + " takes exactly " + std::to_string(minArgs) + " arguments. " +
                    std::to_string(n) + " were passed in.",
                n == static_cast<size_t>(minArgs));
        return;
    }
    if (maxArgs >= 0) {
        uassert(28667,
                "Expression " + opName + " takes at least " + std::to_string(minArgs) + " arguments, and at most " +
                    std::to_string(maxArgs) + ". " + std::to_string(n) + " were passed in.",
                n >= static_cast<size_t>(minArgs) && n <= static_cast<size_t>(maxArgs));
        return;
    }
    uassert(16021,
            "Expression " + opName + " takes at least " + std::to_string(minArgs) + " arguments. " +
                std::to_string(n) + " were passed in.",
            n >= static_cast<size_t>(minArgs));
}

void registerNaryExpression(const std::string& name, int minArgs, int maxArgs, NaryFunction fn) {
    Expression::registerOperator(
        name, [minArgs, maxArgs, fn](const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
            auto parsed = Expression::parseArguments(args, vps);
            checkArity(op, parsed.size(), minArgs, maxArgs);
            return std::make_unique<ExpressionNary>(op, std::move(parsed), fn);
        });
}

const Expression* NamedArgs::get(std::string_view name) const {
    for (const auto& a : args)
        if (a.first == name) return a.second.get();
    return nullptr;
}

Value NamedArgs::eval(std::string_view name, const Document& root, Variables* vars) const {
    const Expression* e = get(name);
    return e ? e->evaluate(root, vars) : Value();
}

// ---------------------------------------------------------------- $literal, $let

namespace {

class ExpressionLet : public Expression {
public:
    struct Binding {
        Variables::Id id;
        ExprPtr expr;
    };
    ExpressionLet(std::vector<Binding> bindings, ExprPtr in) : _bindings(std::move(bindings)), _in(std::move(in)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        // All vars are evaluated in the outer scope before any is bound.
        std::vector<Value> vals;
        for (const auto& b : _bindings) vals.push_back(b.expr->evaluate(root, vars));
        for (size_t i = 0; i < vals.size(); i++) vars->set(_bindings[i].id, std::move(vals[i]));
        return _in->evaluate(root, vars);
    }

private:
    std::vector<Binding> _bindings;
    ExprPtr _in;
};

ExprPtr parseLet(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(16874, "$let only supports an object as its argument", args.type() == Object);
    BSONElement varsElem, inElem;
    for (BSONElement e : args.Obj()) {
        auto n = e.fieldNameStringData();
        if (n == "vars")
            varsElem = e;
        else if (n == "in")
            inElem = e;
        else
            uasserted(16875, "Unrecognized parameter to $let: " + std::string(n));
    }
    uassert(16876, "Missing 'vars' parameter to $let", !varsElem.eoo());
    uassert(16877, "Missing 'in' parameter to $let", !inElem.eoo());
    uassert(10065, "invalid parameter: expected an object (vars)", varsElem.type() == Object);
    VariablesParseState inner = vps;
    std::vector<ExpressionLet::Binding> bindings;
    for (BSONElement v : varsElem.Obj()) {
        Variables::validateNameForUserWrite(v.fieldNameStringData());
        ExprPtr e = Expression::parseOperand(v, vps);
        bindings.push_back({inner.defineVariable(v.fieldNameStringData()), std::move(e)});
    }
    ExprPtr in = Expression::parseOperand(inElem, inner);
    return std::make_unique<ExpressionLet>(std::move(bindings), std::move(in));
}

void registerCore() {
    Expression::registerOperator("$literal", [](const std::string&, const BSONElement& args, const VariablesParseState&) {
        return std::make_unique<ExpressionConstant>(Value::fromElement(args));
    });
    Expression::registerOperator("$let", parseLet);
}

ExpressionRegistrar registrar(registerCore);

}  // namespace

}  // namespace mongo
