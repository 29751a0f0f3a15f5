#pragma once
// The aggregation expression language: parsing ({$add: ["$a", 1]}, "$a.b", "$$var", literals,
// expression objects and arrays) and evaluation to Values.
//
// Operators register themselves by name from the family files (expression_arithmetic.cpp,
// expression_string.cpp, ...) through static registrars; most are plain functions of their
// evaluated arguments (registerNaryExpression), the rest (short-circuiting, variable binding,
// named-argument operators) register a parser of their own.
// Thread safety: a parsed tree is immutable; evaluation writes only to the Variables passed in.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

class Expression;
using ExprPtr = std::unique_ptr<Expression>;

class Expression {
public:
    virtual ~Expression() = default;
    virtual Value evaluate(const Document& root, Variables* vars) const = 0;
    // True for constants (lets some parsers validate arguments at parse time).
    virtual bool isConstant() const { return false; }

    // Any expression value: "$path", "$$var.path", {$op: ...}, {a: <expr>, ...}, [..], literal.
    static ExprPtr parseOperand(const BSONElement& e, const VariablesParseState& vps);
    // An object: {$op: args} or an expression object {field: <expr>, ...}.
    static ExprPtr parseObject(const BSONObj& obj, const VariablesParseState& vps);
    // The operands of {$op: args}: the elements of an array, otherwise args itself.
    static std::vector<ExprPtr> parseArguments(const BSONElement& args, const VariablesParseState& vps);

    using Parser = std::function<ExprPtr(const std::string& opName, const BSONElement& args,
                                         const VariablesParseState& vps)>;
    static void registerOperator(const std::string& name, Parser parser);
    static bool isRegistered(std::string_view name);
    static std::vector<std::string> registeredOperators();  // sorted names ("$add", ...)
};

// A constant value ({$literal: ...}, literals in expressions).
class ExpressionConstant : public Expression {
public:
    explicit ExpressionConstant(Value v) : _value(std::move(v)) {}
    Value evaluate(const Document&, Variables*) const override { return _value; }
    bool isConstant() const override { return true; }
    const Value& value() const { return _value; }

private:
    Value _value;
};

// "$a.b" (a path of $$CURRENT) and "$$var.a.b". Arrays along the path are traversed: "$a.b"
// over a: [{b: 1}, {b: 2}] gives [1, 2]. A numeric component never indexes an array here, as in
// MongoDB: "$a.0" over a: [1, 2] gives [] and "$a.0.b" over a: [{b: 1}] gives [] (only
// subdocuments with a field named "0" contribute), unlike find, distinct and sort keys, which
// walk paths with query/path_traversal.h. Use $arrayElemAt for positions.
class ExpressionFieldPath : public Expression {
public:
    // raw: the string with its leading "$". Throws for bad paths / undefined variables.
    static std::unique_ptr<ExpressionFieldPath> parse(std::string_view raw, const VariablesParseState& vps);
    ExpressionFieldPath(Variables::Id var, std::vector<std::string> path) : _var(var), _path(std::move(path)) {}
    Value evaluate(const Document& root, Variables* vars) const override;
    // The path without the variable, when it is a path of $$CURRENT/$$ROOT ("a.b"); else empty.
    std::string currentPath() const;
    bool isRootOrCurrentPath() const { return _var == Variables::kRootId; }
    const std::vector<std::string>& path() const { return _path; }

    // Walks path[from..] in v with MongoDB's array traversal.
    static Value evaluatePath(const Value& v, const std::vector<std::string>& path, size_t from);

private:
    Variables::Id _var;
    std::vector<std::string> _path;
};

// {a: <expr>, b: <expr>}: a document with the fields in spec order; missing values omitted.
class ExpressionObject : public Expression {
public:
    explicit ExpressionObject(std::vector<std::pair<std::string, ExprPtr>> fields) : _fields(std::move(fields)) {}
    Value evaluate(const Document& root, Variables* vars) const override;

private:
    std::vector<std::pair<std::string, ExprPtr>> _fields;
};

// [<expr>, ...]: missing elements become null.
class ExpressionArray : public Expression {
public:
    explicit ExpressionArray(std::vector<ExprPtr> elems) : _elems(std::move(elems)) {}
    Value evaluate(const Document& root, Variables* vars) const override;

private:
    std::vector<ExprPtr> _elems;
};

// An operator computed from its evaluated arguments.
using NaryFunction = std::function<Value(const std::string& opName, const std::vector<Value>& args)>;
class ExpressionNary : public Expression {
public:
    ExpressionNary(std::string name, std::vector<ExprPtr> args, NaryFunction fn)
        : _name(std::move(name)), _args(std::move(args)), _fn(std::move(fn)) {}
    Value evaluate(const Document& root, Variables* vars) const override;

private:
    std::string _name;
    std::vector<ExprPtr> _args;
    NaryFunction _fn;
};

// Registers {$name: [args]} taking between minArgs and maxArgs (-1: any number) arguments.
// Arity errors: 16020 (exact), 28667 (range), 16021-style "at least" otherwise.
void registerNaryExpression(const std::string& name, int minArgs, int maxArgs, NaryFunction fn);

// Throws the arity error for opName if n is outside [minArgs, maxArgs].
void checkArity(const std::string& opName, size_t n, int minArgs, int maxArgs);

// For operators taking named arguments ({$op: {input: ..., ...}}): parses each allowed field
// as an expression. Unknown names throw unknownCode "<op> found an unknown argument: <name>".
struct NamedArgs {
    std::vector<std::pair<std::string, ExprPtr>> args;
    const Expression* get(std::string_view name) const;
    Value eval(std::string_view name, const Document& root, Variables* vars) const;  // missing if absent
};

// Runs fn once at static-initialisation time (operator registration in the family files).
struct ExpressionRegistrar {
    explicit ExpressionRegistrar(void (*fn)()) { fn(); }
};

}  // namespace mongo
