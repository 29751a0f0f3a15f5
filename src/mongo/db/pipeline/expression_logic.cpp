// Comparison ($eq $ne $gt $gte $lt $lte $cmp), boolean ($and $or $not) and conditional
// ($cond $ifNull $switch) expressions.
#include "mongo/db/pipeline/expression.h"

namespace mongo {
namespace {

template <bool (*Pred)(int)>
Value comparison(const std::string&, const std::vector<Value>& args) {
    return Value(Pred(Value::compare(args[0], args[1])));
}
bool isEq(int c) { return c == 0; }
bool isNe(int c) { return c != 0; }
bool isGt(int c) { return c > 0; }
bool isGte(int c) { return c >= 0; }
bool isLt(int c) { return c < 0; }
bool isLte(int c) { return c <= 0; }

class ExpressionAndOr : public Expression {
public:
    ExpressionAndOr(bool isAnd, std::vector<ExprPtr> args) : _isAnd(isAnd), _args(std::move(args)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        for (const auto& a : _args) {
            bool b = a->evaluate(root, vars).coerceToBool();
            if (_isAnd && !b) return Value(false);
            if (!_isAnd && b) return Value(true);
        }
        return Value(_isAnd);
    }

private:
    bool _isAnd;
    std::vector<ExprPtr> _args;
};

class ExpressionCond : public Expression {
public:
    ExpressionCond(ExprPtr i, ExprPtr t, ExprPtr e) : _if(std::move(i)), _then(std::move(t)), _else(std::move(e)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        return _if->evaluate(root, vars).coerceToBool() ? _then->evaluate(root, vars) : _else->evaluate(root, vars);
    }

private:
    ExprPtr _if, _then, _else;
};

ExprPtr parseCond(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    if (args.type() != Object) {
        auto parsed = Expression::parseArguments(args, vps);
        checkArity(op, parsed.size(), 3, 3);
        return std::make_unique<ExpressionCond>(std::move(parsed[0]), std::move(parsed[1]), std::move(parsed[2]));
    }
    ExprPtr i, t, e;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "if")
            i = Expression::parseOperand(f, vps);
        else if (n == "then")
            t = Expression::parseOperand(f, vps);
        else if (n == "else")
            e = Expression::parseOperand(f, vps);
        else
            uasserted(17083, "Unrecognized parameter to $cond: " + std::string(n));
    }
    uassert(17080, "Missing 'if' parameter to $cond", i != nullptr);
    uassert(17081, "Missing 'then' parameter to $cond", t != nullptr);
    uassert(17082, "Missing 'else' parameter to $cond", e != nullptr);
    return std::make_unique<ExpressionCond>(std::move(i), std::move(t), std::move(e));
}

class ExpressionIfNull : public Expression {
public:
    explicit ExpressionIfNull(std::vector<ExprPtr> args) : _args(std::move(args)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        for (size_t i = 0; i + 1 < _args.size(); i++) {
            Value v = _args[i]->evaluate(root, vars);
            if (!v.nullish()) return v;
        }
        return _args.back()->evaluate(root, vars);
    }

private:
    std::vector<ExprPtr> _args;
};

ExprPtr parseIfNull(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    auto parsed = Expression::parseArguments(args, vps);
    uassert(1257300, "$ifNull needs at least two arguments, had: " + std::to_string(parsed.size()),
            parsed.size() >= 2);
    return std::make_unique<ExpressionIfNull>(std::move(parsed));
}

class ExpressionSwitch : public Expression {
public:
    struct Branch {
        ExprPtr caseExpr, thenExpr;
    };
    ExpressionSwitch(std::vector<Branch> branches, ExprPtr def) : _branches(std::move(branches)), _default(std::move(def)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        for (const auto& b : _branches)
            if (b.caseExpr->evaluate(root, vars).coerceToBool()) return b.thenExpr->evaluate(root, vars);
        uassert(40066, "$switch could not find a matching branch for an input, and no default was specified.",
                _default != nullptr);
        return _default->evaluate(root, vars);
    }

private:
    std::vector<Branch> _branches;
    ExprPtr _default;
};

ExprPtr parseSwitch(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(40060, "$switch requires an object as an argument, found: " + typeName(args.type()), args.type() == Object);
    std::vector<ExpressionSwitch::Branch> branches;
    ExprPtr def;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "branches") {
            uassert(40061, "$switch expected an array for 'branches', found: " + typeName(f.type()), f.type() == Array);
            for (BSONElement b : f.Obj()) {
                uassert(40062, "$switch expected each branch to be an object, found: " + typeName(b.type()),
                        b.type() == Object);
                ExpressionSwitch::Branch br;
                for (BSONElement bf : b.Obj()) {
                    auto bn = bf.fieldNameStringData();
                    if (bn == "case")
                        br.caseExpr = Expression::parseOperand(bf, vps);
                    else if (bn == "then")
                        br.thenExpr = Expression::parseOperand(bf, vps);
                    else
                        uasserted(40063, "$switch found an unknown argument to a branch: " + std::string(bn));
                }
                uassert(40064, "$switch requires each branch have a 'case' expression", br.caseExpr != nullptr);
                uassert(40065, "$switch requires each branch have a 'then' expression.", br.thenExpr != nullptr);
                branches.push_back(std::move(br));
            }
        } else if (n == "default") {
            def = Expression::parseOperand(f, vps);
        } else {
            uasserted(40067, "$switch found an unknown argument: " + std::string(n));
        }
    }
    uassert(40068, "$switch requires at least one branch.", !branches.empty());
    return std::make_unique<ExpressionSwitch>(std::move(branches), std::move(def));
}

void registerLogic() {
    registerNaryExpression("$eq", 2, 2, comparison<isEq>);
    registerNaryExpression("$ne", 2, 2, comparison<isNe>);
    registerNaryExpression("$gt", 2, 2, comparison<isGt>);
    registerNaryExpression("$gte", 2, 2, comparison<isGte>);
    registerNaryExpression("$lt", 2, 2, comparison<isLt>);
    registerNaryExpression("$lte", 2, 2, comparison<isLte>);
    registerNaryExpression("$cmp", 2, 2, [](const std::string&, const std::vector<Value>& a) {
        return Value(Value::compare(a[0], a[1]));
    });
    registerNaryExpression("$not", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return Value(!a[0].coerceToBool());
    });
    for (bool isAnd : {true, false}) {
        Expression::registerOperator(isAnd ? "$and" : "$or",
                                     [isAnd](const std::string&, const BSONElement& args, const VariablesParseState& vps) {
                                         return std::make_unique<ExpressionAndOr>(isAnd,
                                                                                  Expression::parseArguments(args, vps));
                                     });
    }
    Expression::registerOperator("$cond", parseCond);
    Expression::registerOperator("$ifNull", parseIfNull);
    Expression::registerOperator("$switch", parseSwitch);
}

ExpressionRegistrar registrar(registerLogic);

}  // namespace
}  // namespace mongo
