// Array expressions: $size $arrayElemAt $first $last $slice $concatArrays $in $isArray
// $filter $map $reduce $range $reverseArray $indexOfArray $zip $sortArray $firstN $lastN
// $maxN $minN.
#include <algorithm>
#include <limits>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

Value sizeFn(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    uassert(17124, "The argument to $size must be an array. Type of argument is " + typeNameOf(v), v.isArray());
    return Value(static_cast<int>(v.getArrayLength()));
}

Value elemAt(const std::string& op, const Value& arr, const Value& idx) {
    if (arr.nullish() || idx.nullish()) return Value::null();
    uassert(28689, op + "'s first argument must be an array, but is " + typeNameOf(arr), arr.isArray());
    uassert(28690, op + "'s second argument must be a numeric value, but is " + typeNameOf(idx), idx.numeric());
    uassert(28691, op + "'s second argument must be representable as a 32-bit integer: " + idx.toString(),
            idx.integral());
    long long i = idx.coerceToLong();
    const auto& a = arr.getArray();
    long long n = static_cast<long long>(a.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) return Value();
    return a[i];
}

Value firstOrLast(const std::string& op, const std::vector<Value>& args, bool first) {
    const Value& arr = args[0];
    if (arr.nullish()) return Value::null();
    uassert(28689, op + "'s argument must be an array, but is " + typeNameOf(arr), arr.isArray());
    const auto& a = arr.getArray();
    if (a.empty()) return Value();
    return first ? a.front() : a.back();
}

Value sliceFn(const std::string&, const std::vector<Value>& args) {
    for (const auto& a : args)
        if (a.nullish()) return Value::null();
    const Value& arr = args[0];
    uassert(28724, "First argument to $slice must be an array, but is of type: " + typeNameOf(arr), arr.isArray());
    const Value& second = args[1];
    uassert(28725, "Second argument to $slice must be a numeric value, but is of type: " + typeNameOf(second),
            second.numeric());
    uassert(28726, "Second argument to $slice can't be represented as a 32-bit integer: " + second.toString(),
            second.integral());
    const auto& a = arr.getArray();
    long long n = static_cast<long long>(a.size());
    long long start, len;
    if (args.size() == 2) {
        long long k = second.coerceToInt();
        if (k >= 0) {
            start = 0;
            len = k;
        } else {
            start = std::max(0LL, n + k);
            len = n;
        }
    } else {
        const Value& third = args[2];
        uassert(28727, "Third argument to $slice must be numeric, but is of type: " + typeNameOf(third),
                third.numeric());
        uassert(28728, "Third argument to $slice can't be represented as a 32-bit integer: " + third.toString(),
                third.integral());
        len = third.coerceToInt();
        uassert(28729, "Third argument to $slice must be positive: " + third.toString(), len > 0);
        long long pos = second.coerceToInt();
        start = pos >= 0 ? pos : std::max(0LL, n + pos);
    }
    std::vector<Value> out;
    for (long long i = start; i < n && i < start + len; i++) out.push_back(a[i]);
    return Value(std::move(out));
}

Value concatArrays(const std::string&, const std::vector<Value>& args) {
    std::vector<Value> out;
    for (const Value& v : args) {
        if (v.nullish()) return Value::null();
        uassert(28664, "$concatArrays only supports arrays, not " + typeNameOf(v), v.isArray());
        const auto& a = v.getArray();
        out.insert(out.end(), a.begin(), a.end());
    }
    return Value(std::move(out));
}

Value inFn(const std::string&, const std::vector<Value>& args) {
    const Value& arr = args[1];
    uassert(40081, "$in requires an array as a second argument, found: " + typeNameOf(arr), arr.isArray());
    for (const Value& v : arr.getArray())
        if (Value::compare(v, args[0]) == 0) return Value(true);
    return Value(false);
}

Value rangeFn(const std::string&, const std::vector<Value>& args) {
    const Value& s = args[0];
    const Value& e = args[1];
    uassert(34443, "$range requires a numeric starting value, found value of type: " + typeNameOf(s), s.numeric());
    uassert(34444, "$range requires a starting value that can be represented as a 32-bit integer, found value: " +
                       s.toString(),
            s.integral());
    uassert(34445, "$range requires a numeric ending value, found value of type: " + typeNameOf(e), e.numeric());
    uassert(34446,
            "$range requires an ending value that can be represented as a 32-bit integer, found value: " + e.toString(),
            e.integral());
    long long step = 1;
    if (args.size() == 3) {
        const Value& st = args[2];
        uassert(34447, "$range requires a numeric step value, found value of type: " + typeNameOf(st), st.numeric());
        uassert(34448,
                "$range requires a step value that can be represented as a 32-bit integer, found value: " +
                    st.toString(),
                st.integral());
        step = st.coerceToInt();
        uassert(34449, "$range requires a non-zero step value", step != 0);
    }
    long long cur = s.coerceToInt(), end = e.coerceToInt();
    // MongoDB refuses before materialising a range bigger than internalQueryMaxRangeBytes,
    // counting its own 16-byte Values (so the same ranges pass here as there).
    long long steps = (end - cur) / step;
    long long length = steps >= 0 ? steps + 1 : 0;
    constexpr long long kVectorBytes = 24, kIntValueBytes = 16;
    long long memNeeded = kVectorBytes + length * kIntValueBytes;
    long long memLimit = internalQueryMaxRangeBytes();
    uassert(ErrorCodes::ExceededMemoryLimit,
            "$range would use too much memory (" + std::to_string(memNeeded) +
                " bytes) and cannot spill to disk. Memory limit: " + std::to_string(memLimit) + " bytes",
            memNeeded < memLimit);
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(length));
    for (; step > 0 ? cur < end : cur > end; cur += step) out.emplace_back(static_cast<int>(cur));
    return Value(std::move(out));
}

Value reverseArray(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (v.nullish()) return Value::null();
    uassert(34435, "The argument to $reverseArray must be an array, but was of type: " + typeNameOf(v), v.isArray());
    std::vector<Value> out(v.getArray().rbegin(), v.getArray().rend());
    return Value(std::move(out));
}

size_t arrayIndexArg(const Value& v, const char* which) {
    uassert(40096,
            std::string("$indexOfArray requires an integral ") + which + ", found a value of type: " + typeNameOf(v) +
                ", with value: " + v.toString(),
            v.numeric() && v.integral());
    int i = v.coerceToInt();
    uassert(40097, std::string("$indexOfArray requires a nonnegative ") + which + ", found: " + std::to_string(i),
            i >= 0);
    return static_cast<size_t>(i);
}

Value indexOfArray(const std::string&, const std::vector<Value>& args) {
    const Value& arr = args[0];
    if (arr.nullish()) return Value::null();
    uassert(40090, "$indexOfArray requires an array as a first argument, found: " + typeNameOf(arr), arr.isArray());
    const auto& a = arr.getArray();
    size_t start = args.size() > 2 ? arrayIndexArg(args[2], "starting index") : 0;
    size_t end = args.size() > 3 ? arrayIndexArg(args[3], "ending index") : a.size();
    end = std::min(end, a.size());
    for (size_t i = start; i < end; i++)
        if (Value::compare(a[i], args[1]) == 0) return Value(static_cast<int>(i));
    return Value(-1);
}

// ---------------------------------------------------------------- $filter / $map / $reduce

class ExpressionFilter : public Expression {
public:
    ExpressionFilter(ExprPtr input, Variables::Id var, ExprPtr cond, ExprPtr limit)
        : _input(std::move(input)), _var(var), _cond(std::move(cond)), _limit(std::move(limit)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        long long limit = std::numeric_limits<long long>::max();
        if (_limit) {
            Value l = _limit->evaluate(root, vars);
            if (!l.nullish()) {
                uassert(327391, "$filter: limit must be represented as a 32-bit integral value: " + l.toString(),
                        l.numeric() && l.integral());
                limit = l.coerceToInt();
                uassert(327392, "$filter: limit must be greater than 0: " + l.toString(), limit > 0);
            }
        }
        if (in.nullish()) return Value::null();
        uassert(28651, "input to $filter must be an array not " + typeNameOf(in), in.isArray());
        std::vector<Value> out;
        for (const Value& v : in.getArray()) {
            if (static_cast<long long>(out.size()) >= limit) break;
            vars->set(_var, v);
            if (_cond->evaluate(root, vars).coerceToBool()) out.push_back(v);
        }
        return Value(std::move(out));
    }

private:
    ExprPtr _input;
    Variables::Id _var;
    ExprPtr _cond, _limit;
};

ExprPtr parseFilter(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(28646, "$filter only supports an object as its argument", args.type() == Object);
    BSONElement input, as, cond, limit;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = f;
        else if (n == "as")
            as = f;
        else if (n == "cond")
            cond = f;
        else if (n == "limit")
            limit = f;
        else
            uasserted(28647, "Unrecognized parameter to $filter: " + std::string(n));
    }
    uassert(28648, "Missing 'input' parameter to $filter", !input.eoo());
    uassert(28650, "Missing 'cond' parameter to $filter", !cond.eoo());
    std::string varName = as.eoo() ? "this" : as.str();
    Variables::validateNameForUserWrite(varName);
    ExprPtr inputExpr = Expression::parseOperand(input, vps);
    ExprPtr limitExpr = limit.eoo() ? nullptr : Expression::parseOperand(limit, vps);
    VariablesParseState inner = vps;
    Variables::Id id = inner.defineVariable(varName);
    ExprPtr condExpr = Expression::parseOperand(cond, inner);
    return std::make_unique<ExpressionFilter>(std::move(inputExpr), id, std::move(condExpr), std::move(limitExpr));
}

class ExpressionMap : public Expression {
public:
    ExpressionMap(ExprPtr input, Variables::Id var, ExprPtr each) : _input(std::move(input)), _var(var), _each(std::move(each)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        if (in.nullish()) return Value::null();
        uassert(16883, "input to $map must be an array not " + typeNameOf(in), in.isArray());
        std::vector<Value> out;
        out.reserve(in.getArrayLength());
        for (const Value& v : in.getArray()) {
            vars->set(_var, v);
            Value r = _each->evaluate(root, vars);
            out.push_back(r.missing() ? Value::null() : std::move(r));
        }
        return Value(std::move(out));
    }

private:
    ExprPtr _input;
    Variables::Id _var;
    ExprPtr _each;
};

ExprPtr parseMap(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(16878, "$map only supports an object as its argument", args.type() == Object);
    BSONElement input, as, in;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = f;
        else if (n == "as")
            as = f;
        else if (n == "in")
            in = f;
        else
            uasserted(16879, "Unrecognized parameter to $map: " + std::string(n));
    }
    uassert(16880, "Missing 'input' parameter to $map", !input.eoo());
    uassert(16882, "Missing 'in' parameter to $map", !in.eoo());
    std::string varName = as.eoo() ? "this" : as.str();
    Variables::validateNameForUserWrite(varName);
    ExprPtr inputExpr = Expression::parseOperand(input, vps);
    VariablesParseState inner = vps;
    Variables::Id id = inner.defineVariable(varName);
    return std::make_unique<ExpressionMap>(std::move(inputExpr), id, Expression::parseOperand(in, inner));
}

class ExpressionReduce : public Expression {
public:
    ExpressionReduce(ExprPtr input, ExprPtr init, Variables::Id thisVar, Variables::Id valueVar, ExprPtr in)
        : _input(std::move(input)), _init(std::move(init)), _this(thisVar), _value(valueVar), _in(std::move(in)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        if (in.nullish()) return Value::null();
        uassert(40080, "$reduce requires that 'input' be an array, found: " + in.toString(), in.isArray());
        Value acc = _init->evaluate(root, vars);
        for (const Value& v : in.getArray()) {
            vars->set(_this, v);
            vars->set(_value, acc);
            acc = _in->evaluate(root, vars);
        }
        return acc;
    }

private:
    ExprPtr _input, _init;
    Variables::Id _this, _value;
    ExprPtr _in;
};

ExprPtr parseReduce(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(40075, "$reduce requires an object as an argument, found: " + typeName(args.type()), args.type() == Object);
    BSONElement input, init, in;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = f;
        else if (n == "initialValue")
            init = f;
        else if (n == "in")
            in = f;
        else
            uasserted(40076, "$reduce found an unknown argument: " + std::string(n));
    }
    uassert(40077, "$reduce requires 'input' to be specified", !input.eoo());
    uassert(40078, "$reduce requires 'initialValue' to be specified", !init.eoo());
    uassert(40079, "$reduce requires 'in' to be specified", !in.eoo());
    ExprPtr inputExpr = Expression::parseOperand(input, vps);
    ExprPtr initExpr = Expression::parseOperand(init, vps);
    VariablesParseState inner = vps;
    Variables::Id thisId = inner.defineVariable("this");
    Variables::Id valueId = inner.defineVariable("value");
    return std::make_unique<ExpressionReduce>(std::move(inputExpr), std::move(initExpr), thisId, valueId,
                                              Expression::parseOperand(in, inner));
}

// ---------------------------------------------------------------- $zip

class ExpressionZip : public Expression {
public:
    ExpressionZip(std::vector<ExprPtr> inputs, bool longest, std::vector<ExprPtr> defaults)
        : _inputs(std::move(inputs)), _longest(longest), _defaults(std::move(defaults)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        std::vector<Value> arrays;
        size_t minLen = std::numeric_limits<size_t>::max(), maxLen = 0;
        for (const auto& e : _inputs) {
            Value v = e->evaluate(root, vars);
            if (v.nullish()) return Value::null();
            uassert(34468, "$zip found a non-array expression in input: " + v.toString(), v.isArray());
            minLen = std::min(minLen, v.getArrayLength());
            maxLen = std::max(maxLen, v.getArrayLength());
            arrays.push_back(std::move(v));
        }
        std::vector<Value> defaults;
        for (const auto& d : _defaults) defaults.push_back(d->evaluate(root, vars));
        size_t n = arrays.empty() ? 0 : (_longest ? maxLen : minLen);
        std::vector<Value> out;
        for (size_t i = 0; i < n; i++) {
            std::vector<Value> tuple;
            for (size_t j = 0; j < arrays.size(); j++) {
                const auto& a = arrays[j].getArray();
                if (i < a.size())
                    tuple.push_back(a[i]);
                else
                    tuple.push_back(defaults.empty() ? Value::null() : defaults[j]);
            }
            out.emplace_back(std::move(tuple));
        }
        return Value(std::move(out));
    }

private:
    std::vector<ExprPtr> _inputs;
    bool _longest;
    std::vector<ExprPtr> _defaults;
};

ExprPtr parseZip(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(34460, "$zip only supports an object as an argument, found " + typeName(args.type()), args.type() == Object);
    std::vector<ExprPtr> inputs, defaults;
    bool longest = false, haveInputs = false, haveDefaults = false;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "inputs") {
            uassert(34461, "inputs must be an array of expressions, found " + typeName(f.type()), f.type() == Array);
            for (BSONElement e : f.Obj()) inputs.push_back(Expression::parseOperand(e, vps));
            haveInputs = true;
        } else if (n == "defaults") {
            uassert(34462, "defaults must be an array of expressions, found " + typeName(f.type()), f.type() == Array);
            for (BSONElement e : f.Obj()) defaults.push_back(Expression::parseOperand(e, vps));
            haveDefaults = true;
        } else if (n == "useLongestLength") {
            uassert(34463, "useLongestLength must be a bool, found " + typeName(f.type()), f.type() == Bool);
            longest = f.boolean();
        } else {
            uasserted(34464, "$zip found an unknown argument: " + std::string(n));
        }
    }
    uassert(34465, "$zip requires at least one input array", haveInputs && !inputs.empty());
    uassert(34466, "cannot specify defaults unless useLongestLength is true", !haveDefaults || longest);
    uassert(34467, "defaults and inputs must have the same length", !haveDefaults || defaults.size() == inputs.size());
    return std::make_unique<ExpressionZip>(std::move(inputs), longest, std::move(defaults));
}

// ---------------------------------------------------------------- $sortArray

// Compares two values under a {$sortArray: {sortBy: ...}} spec (a direction or a document of
// dotted paths and directions).
int compareBySpec(const Value& a, const Value& b, const std::vector<std::pair<FieldPath, int>>& spec, int dir) {
    if (spec.empty()) return dir * Value::compare(a, b);
    for (const auto& [path, d] : spec) {
        Value x = a.isObject() ? a.getDocument().getNestedField(path) : Value();
        Value y = b.isObject() ? b.getDocument().getNestedField(path) : Value();
        // Missing sorts as null, as in $sort.
        if (x.missing()) x = Value::null();
        if (y.missing()) y = Value::null();
        int c = Value::compare(x, y);
        if (c) return c * d;
    }
    return 0;
}

class ExpressionSortArray : public Expression {
public:
    ExpressionSortArray(ExprPtr input, std::vector<std::pair<FieldPath, int>> spec, int dir)
        : _input(std::move(input)), _spec(std::move(spec)), _dir(dir) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        if (in.nullish()) return Value::null();
        uassert(2942504, "The input argument to $sortArray must be an array, but was of type: " + typeNameOf(in),
                in.isArray());
        std::vector<Value> out = in.getArray();
        std::stable_sort(out.begin(), out.end(),
                         [&](const Value& a, const Value& b) { return compareBySpec(a, b, _spec, _dir) < 0; });
        return Value(std::move(out));
    }

private:
    ExprPtr _input;
    std::vector<std::pair<FieldPath, int>> _spec;
    int _dir;
};

ExprPtr parseSortArray(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(2942500, "$sortArray requires an object as an argument, found: " + typeName(args.type()),
            args.type() == Object);
    ExprPtr input;
    BSONElement sortBy;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = Expression::parseOperand(f, vps);
        else if (n == "sortBy")
            sortBy = f;
        else
            uasserted(2942501, "$sortArray found an unknown argument: " + std::string(n));
    }
    uassert(2942502, "$sortArray requires 'input' to be specified", input != nullptr);
    uassert(2942503, "$sortArray requires 'sortBy' to be specified", !sortBy.eoo());
    std::vector<std::pair<FieldPath, int>> spec;
    int dir = 1;
    auto direction = [](const BSONElement& e) {
        long long d;
        uassert(2942505, "$sortArray sortBy values must be 1 or -1", e.isNumber() && e.isIntegral64(&d) && (d == 1 || d == -1));
        return static_cast<int>(d);
    };
    if (sortBy.type() == Object) {
        uassert(2942506, "$sortArray sortBy must not be empty", !sortBy.Obj().isEmpty());
        for (BSONElement e : sortBy.Obj()) spec.emplace_back(FieldPath(e.fieldNameStringData()), direction(e));
    } else {
        dir = direction(sortBy);
    }
    return std::make_unique<ExpressionSortArray>(std::move(input), std::move(spec), dir);
}

// ---------------------------------------------------------------- $firstN / $lastN / $maxN / $minN

enum class NKind { kFirst, kLast, kMax, kMin };

class ExpressionArrayN : public Expression {
public:
    ExpressionArrayN(std::string op, NKind kind, ExprPtr n, ExprPtr input)
        : _op(std::move(op)), _kind(kind), _n(std::move(n)), _input(std::move(input)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value nv = _n->evaluate(root, vars);
        uassert(5787902, "Value for 'n' must be of integral type, but found " + nv.toString(),
                nv.numeric() && nv.integral64());
        long long n = nv.coerceToLong();
        uassert(5787908, "'n' must be greater than 0, found " + nv.toString(), n > 0);
        Value in = _input->evaluate(root, vars);
        if (in.nullish()) return Value::null();
        uassert(5788200, "Input to " + _op + " must be an array, found: " + typeNameOf(in), in.isArray());
        std::vector<Value> a = in.getArray();
        if (_kind == NKind::kMax || _kind == NKind::kMin) {
            a.erase(std::remove_if(a.begin(), a.end(), [](const Value& v) { return v.nullish(); }), a.end());
            std::stable_sort(a.begin(), a.end(), [&](const Value& x, const Value& y) {
                int c = Value::compare(x, y);
                return _kind == NKind::kMax ? c > 0 : c < 0;
            });
        }
        size_t k = static_cast<size_t>(std::min<long long>(n, a.size()));
        if (_kind == NKind::kLast) return Value(std::vector<Value>(a.end() - k, a.end()));
        return Value(std::vector<Value>(a.begin(), a.begin() + k));
    }

private:
    std::string _op;
    NKind _kind;
    ExprPtr _n, _input;
};

ExprPtr parseArrayN(const std::string& op, const BSONElement& args, const VariablesParseState& vps, NKind kind) {
    uassert(5787801, "specification must be an object; found " + typeName(args.type()), args.type() == Object);
    ExprPtr n, input;
    for (BSONElement f : args.Obj()) {
        auto name = f.fieldNameStringData();
        if (name == "n")
            n = Expression::parseOperand(f, vps);
        else if (name == "input")
            input = Expression::parseOperand(f, vps);
        else
            uasserted(5787901, "Unknown argument for 'n' operator: " + std::string(name));
    }
    uassert(5787906, "Missing value for 'n'", n != nullptr);
    uassert(5787907, "Missing value for 'input'", input != nullptr);
    return std::make_unique<ExpressionArrayN>(op, kind, std::move(n), std::move(input));
}

void registerArray() {
    registerNaryExpression("$size", 1, 1, sizeFn);
    registerNaryExpression("$arrayElemAt", 2, 2, [](const std::string& op, const std::vector<Value>& a) {
        return elemAt(op, a[0], a[1]);
    });
    registerNaryExpression("$first", 1, 1, [](const std::string& op, const std::vector<Value>& a) {
        return firstOrLast(op, a, true);
    });
    registerNaryExpression("$last", 1, 1, [](const std::string& op, const std::vector<Value>& a) {
        return firstOrLast(op, a, false);
    });
    registerNaryExpression("$slice", 2, 3, sliceFn);
    registerNaryExpression("$concatArrays", 0, -1, concatArrays);
    registerNaryExpression("$in", 2, 2, inFn);
    registerNaryExpression("$isArray", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return Value(a[0].isArray());
    });
    registerNaryExpression("$range", 2, 3, rangeFn);
    registerNaryExpression("$reverseArray", 1, 1, reverseArray);
    registerNaryExpression("$indexOfArray", 2, 4, indexOfArray);
    Expression::registerOperator("$filter", parseFilter);
    Expression::registerOperator("$map", parseMap);
    Expression::registerOperator("$reduce", parseReduce);
    Expression::registerOperator("$zip", parseZip);
    Expression::registerOperator("$sortArray", parseSortArray);
    struct NOp {
        const char* name;
        NKind kind;
    };
    for (NOp o : {NOp{"$firstN", NKind::kFirst}, NOp{"$lastN", NKind::kLast}, NOp{"$maxN", NKind::kMax},
                  NOp{"$minN", NKind::kMin}}) {
        Expression::registerOperator(o.name, [o](const std::string& op, const BSONElement& args,
                                                 const VariablesParseState& vps) {
            return parseArrayN(op, args, vps, o.kind);
        });
    }
}

ExpressionRegistrar registrar(registerArray);

}  // namespace
}  // namespace mongo
