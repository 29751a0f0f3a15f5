#include "mongo/db/pipeline/accumulator.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "mongo/db/pipeline/numeric.h"

namespace mongo {
namespace {

class AccSum : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.numeric()) _sum.add(v);
    }
    Value getValue() const override { return _sum.result(); }

private:
    NumericSum _sum;
};

class AccAvg : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.numeric()) _sum.add(v);
    }
    Value getValue() const override {
        if (_sum.count() == 0) return Value::null();
        long double avg = _sum.asLongDouble() / _sum.count();
        return doubleOrDecimal(_sum.type() == NumberDecimal, avg);
    }

private:
    NumericSum _sum;
};

class AccMinMax : public Accumulator {
public:
    explicit AccMinMax(bool isMax) : _isMax(isMax) {}
    void process(const Value& v) override {
        if (v.nullish()) return;
        if (_val.missing()) {
            set(v);
            return;
        }
        int c = Value::compare(v, _val);
        if (_isMax ? c > 0 : c < 0) set(v);
    }
    Value getValue() const override { return _val.missing() ? Value::null() : _val; }
    size_t memUsageBytes() const override { return _bytes; }

private:
    void set(const Value& v) {
        _val = v;
        _bytes = v.approximateSize();
    }
    bool _isMax;
    Value _val;
    size_t _bytes = 0;
};

class AccFirst : public Accumulator {
public:
    void process(const Value& v) override {
        if (!_seen) {
            _seen = true;
            _val = v.missing() ? Value::null() : v;
            _bytes = _val.approximateSize();
        }
    }
    Value getValue() const override { return _seen ? _val : Value::null(); }
    size_t memUsageBytes() const override { return _bytes; }

private:
    bool _seen = false;
    Value _val;
    size_t _bytes = 0;
};

class AccLast : public Accumulator {
public:
    void process(const Value& v) override {
        _val = v.missing() ? Value::null() : v;
        _bytes = _val.approximateSize();
    }
    Value getValue() const override { return _val.missing() ? Value::null() : _val; }
    size_t memUsageBytes() const override { return _bytes; }

private:
    Value _val;
    size_t _bytes = 0;
};

// Output arrays are capped like MongoDB's per-group memory limit (100MB by default).
constexpr size_t kMaxAccumulatorBytes = 100 * 1024 * 1024;

class AccPush : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.missing()) return;
        _bytes += v.approximateSize();
        uassert(ErrorCodes::ExceededMemoryLimit,
                "$push used too much memory and cannot spill to disk. Memory limit: 104857600 bytes",
                _bytes <= kMaxAccumulatorBytes);
        _vals.push_back(v);
    }
    Value getValue() const override { return Value(_vals); }
    size_t memUsageBytes() const override { return _bytes; }

private:
    std::vector<Value> _vals;
    size_t _bytes = 0;
};

class AccAddToSet : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.missing()) return;
        if (!_seen.insert(v).second) return;
        _bytes += v.approximateSize();
        uassert(ErrorCodes::ExceededMemoryLimit,
                "$addToSet used too much memory and cannot spill to disk. Memory limit: 104857600 bytes",
                _bytes <= kMaxAccumulatorBytes);
        _vals.push_back(v);
    }
    Value getValue() const override { return Value(_vals); }
    size_t memUsageBytes() const override { return _bytes; }

private:
    std::set<Value, ValueLess> _seen;
    std::vector<Value> _vals;
    size_t _bytes = 0;
};

// Welford's online variance.
class AccStdDev : public Accumulator {
public:
    explicit AccStdDev(bool sample) : _sample(sample) {}
    void process(const Value& v) override {
        if (!v.numeric()) return;
        double x = v.coerceToDouble();
        _n++;
        double d = x - _mean;
        _mean += d / _n;
        _m2 += d * (x - _mean);
    }
    Value getValue() const override {
        long long denom = _sample ? _n - 1 : _n;
        if (denom <= 0) return Value::null();
        return Value(std::sqrt(_m2 / denom));
    }

private:
    bool _sample;
    long long _n = 0;
    double _mean = 0, _m2 = 0;
};

class AccMergeObjects : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.nullish()) return;
        uassert(40400,
                "$mergeObjects requires object inputs, but input " + v.toString() + " is of type " + typeNameOf(v),
                v.isObject());
        for (const auto& f : v.getDocument().fields()) {
            Value old = _doc.getField(f.first);
            if (!old.missing()) _bytes -= f.first.size() + old.approximateSize();
            _doc.setField(f.first, f.second);
            if (!f.second.missing()) _bytes += f.first.size() + f.second.approximateSize();
        }
    }
    Value getValue() const override {
        MutableDoc copy = _doc;
        return Value(copy.freeze());
    }
    size_t memUsageBytes() const override { return _bytes; }

private:
    MutableDoc _doc;
    size_t _bytes = 0;
};

long long validateN(const Value& n) {
    uassert(5787902, "Value for 'n' must be of integral type, but found " + n.toString(), n.numeric() && n.integral64());
    long long v = n.coerceToLong();
    uassert(5787908, "'n' must be greater than 0, found " + n.toString(), v > 0);
    return v;
}

// $firstN / $lastN / $maxN / $minN: the argument evaluates to [n, input].
class AccN : public Accumulator {
public:
    enum Kind { kFirst, kLast, kMax, kMin };
    explicit AccN(Kind k) : _kind(k) {}
    void process(const Value& pair) override {
        const auto& a = pair.getArray();
        if (_n < 0) _n = validateN(a[0]);
        Value v = a[1];
        switch (_kind) {
            case kFirst:
                if (static_cast<long long>(_vals.size()) < _n) add(v.missing() ? Value::null() : v);
                break;
            case kLast:
                add(v.missing() ? Value::null() : v);
                if (static_cast<long long>(_vals.size()) > _n) {
                    _bytes -= _vals.front().approximateSize();
                    _vals.erase(_vals.begin());
                }
                break;
            case kMax:
            case kMin: {
                if (v.nullish()) return;
                add(v);
                std::stable_sort(_vals.begin(), _vals.end(), [&](const Value& x, const Value& y) {
                    int c = Value::compare(x, y);
                    return _kind == kMax ? c > 0 : c < 0;
                });
                if (static_cast<long long>(_vals.size()) > _n) {
                    _bytes -= _vals.back().approximateSize();
                    _vals.pop_back();
                }
                break;
            }
        }
    }
    Value getValue() const override { return Value(_vals); }
    size_t memUsageBytes() const override { return _bytes; }

private:
    void add(Value v) {
        _bytes += v.approximateSize();
        _vals.push_back(std::move(v));
    }
    Kind _kind;
    long long _n = -1;
    std::vector<Value> _vals;
    size_t _bytes = 0;
};

// $top / $bottom / $topN / $bottomN: the argument evaluates to [n, [sortKeys...], output].
class AccTopBottom : public Accumulator {
public:
    AccTopBottom(bool top, bool single, std::vector<int> dirs) : _top(top), _single(single), _dirs(std::move(dirs)) {}
    void process(const Value& triple) override {
        const auto& a = triple.getArray();
        if (_n < 0) _n = _single ? 1 : validateN(a[0]);
        _items.push_back({a[1], a[2].missing() ? Value::null() : a[2]});
        _bytes += itemBytes(_items.back());
        // Keep the _n best by the sort order ("top" = first in order, "bottom" = last).
        std::stable_sort(_items.begin(), _items.end(), [&](const Item& x, const Item& y) { return cmp(x.key, y.key) < 0; });
        if (static_cast<long long>(_items.size()) > _n) {
            if (_top) {
                _bytes -= itemBytes(_items.back());
                _items.pop_back();
            } else {
                _bytes -= itemBytes(_items.front());
                _items.erase(_items.begin());
            }
        }
    }
    size_t memUsageBytes() const override { return _bytes; }
    Value getValue() const override {
        if (_single) return _items.empty() ? Value::null() : (_top ? _items.front().out : _items.back().out);
        std::vector<Value> out;
        for (const auto& i : _items) out.push_back(i.out);
        return Value(std::move(out));
    }

private:
    struct Item {
        Value key, out;
    };
    static size_t itemBytes(const Item& i) { return i.key.approximateSize() + i.out.approximateSize(); }
    int cmp(const Value& x, const Value& y) const {
        const auto& a = x.getArray();
        const auto& b = y.getArray();
        for (size_t i = 0; i < a.size() && i < b.size(); i++) {
            int c = Value::compare(a[i], b[i]);
            if (c) return c * _dirs[i];
        }
        return 0;
    }
    bool _top, _single;
    std::vector<int> _dirs;
    long long _n = -1;
    std::vector<Item> _items;
    size_t _bytes = 0;
};

// Sort keys of the root document for $top/$bottom: per path, arrays give their smallest
// (ascending) or largest (descending) element, missing sorts as null.
class ExpressionSortKeys : public Expression {
public:
    ExpressionSortKeys(std::vector<std::pair<std::vector<std::string>, int>> parts) : _parts(std::move(parts)) {}
    Value evaluate(const Document& root, Variables*) const override {
        std::vector<Value> keys;
        for (const auto& [path, dir] : _parts) {
            Value v = ExpressionFieldPath::evaluatePath(Value(root), path, 0);
            if (v.isArray()) {
                Value best;
                for (const Value& e : v.getArray())
                    if (best.missing() || (dir > 0 ? Value::compare(e, best) < 0 : Value::compare(e, best) > 0)) best = e;
                v = best;
            }
            keys.push_back(v.missing() ? Value::null() : v);
        }
        return Value(std::move(keys));
    }

private:
    std::vector<std::pair<std::vector<std::string>, int>> _parts;
};

bool isUnaryAccumulator(std::string_view op) {
    return op == "$sum" || op == "$avg" || op == "$min" || op == "$max" || op == "$first" || op == "$last" ||
           op == "$push" || op == "$addToSet" || op == "$stdDevPop" || op == "$stdDevSamp" || op == "$mergeObjects";
}

}  // namespace

AccumulationStatement AccumulationStatement::parse(const BSONElement& e, const VariablesParseState& vps) {
    std::string field(e.fieldNameStringData());
    uassert(40235, "The field name '" + field + "' cannot contain '.'", field.find('.') == std::string::npos);
    uassert(40236, "The field name '" + field + "' cannot be an operator name", field.empty() || field[0] != '$');
    uassert(40234, "The field '" + field + "' must be an accumulator object",
            e.type() == Object && !e.Obj().isEmpty() && e.Obj().firstElementFieldName()[0] == '$');
    uassert(40238, "The field '" + field + "' must specify one accumulator", e.Obj().nFields() == 1);
    BSONElement acc = e.Obj().firstElement();
    std::string op(acc.fieldNameStringData());

    AccumulationStatement st;
    st.fieldName = field;
    st.opName = op;

    if (isUnaryAccumulator(op)) {
        uassert(40237, "The " + op + " accumulator is a unary operator", acc.type() != Array);
        st.argument = Expression::parseOperand(acc, vps);
        if (op == "$sum") st.makeAccumulator = [] { return std::make_unique<AccSum>(); };
        if (op == "$avg") st.makeAccumulator = [] { return std::make_unique<AccAvg>(); };
        if (op == "$min") st.makeAccumulator = [] { return std::make_unique<AccMinMax>(false); };
        if (op == "$max") st.makeAccumulator = [] { return std::make_unique<AccMinMax>(true); };
        if (op == "$first") st.makeAccumulator = [] { return std::make_unique<AccFirst>(); };
        if (op == "$last") st.makeAccumulator = [] { return std::make_unique<AccLast>(); };
        if (op == "$push") st.makeAccumulator = [] { return std::make_unique<AccPush>(); };
        if (op == "$addToSet") st.makeAccumulator = [] { return std::make_unique<AccAddToSet>(); };
        if (op == "$stdDevPop") st.makeAccumulator = [] { return std::make_unique<AccStdDev>(false); };
        if (op == "$stdDevSamp") st.makeAccumulator = [] { return std::make_unique<AccStdDev>(true); };
        if (op == "$mergeObjects") st.makeAccumulator = [] { return std::make_unique<AccMergeObjects>(); };
        return st;
    }
    if (op == "$count") {
        uassert(ErrorCodes::TypeMismatch, "$count takes no arguments, i.e. $count:{}",
                acc.type() == Object && acc.Obj().isEmpty());
        st.argument = std::make_unique<ExpressionConstant>(Value(1));
        st.makeAccumulator = [] { return std::make_unique<AccSum>(); };
        return st;
    }
    if (op == "$firstN" || op == "$lastN" || op == "$maxN" || op == "$minN") {
        uassert(5787801, "specification must be an object; found " + typeName(acc.type()), acc.type() == Object);
        ExprPtr n, input;
        for (BSONElement f : acc.Obj()) {
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
        std::vector<ExprPtr> pair;
        pair.push_back(std::move(n));
        pair.push_back(std::move(input));
        st.argument = std::make_unique<ExpressionArray>(std::move(pair));
        AccN::Kind k = op == "$firstN" ? AccN::kFirst : op == "$lastN" ? AccN::kLast : op == "$maxN" ? AccN::kMax : AccN::kMin;
        st.makeAccumulator = [k] { return std::make_unique<AccN>(k); };
        return st;
    }
    if (op == "$top" || op == "$bottom" || op == "$topN" || op == "$bottomN") {
        bool single = op == "$top" || op == "$bottom";
        bool top = op == "$top" || op == "$topN";
        uassert(5788001, "specification must be an object; found " + typeName(acc.type()), acc.type() == Object);
        ExprPtr n, output;
        BSONElement sortBy;
        for (BSONElement f : acc.Obj()) {
            auto name = f.fieldNameStringData();
            if (name == "n" && !single)
                n = Expression::parseOperand(f, vps);
            else if (name == "output")
                output = Expression::parseOperand(f, vps);
            else if (name == "sortBy")
                sortBy = f;
            else
                uasserted(5788002, "Unknown argument to " + op + " '" + std::string(name) + "'");
        }
        uassert(5788003, "Missing value for 'n'", single || n != nullptr);
        uassert(5788004, "Missing value for 'output'", output != nullptr);
        uassert(5788005, "Missing value for 'sortBy'", !sortBy.eoo());
        uassert(5788006, "expected 'sortBy' to be an object, found " + typeName(sortBy.type()), sortBy.type() == Object);
        std::vector<std::pair<std::vector<std::string>, int>> parts;
        std::vector<int> dirs;
        for (BSONElement s : sortBy.Obj()) {
            long long d;
            uassert(15974, "Illegal key in $sort specification: " + s.toString(),
                    s.isNumber() && s.isIntegral64(&d) && (d == 1 || d == -1));
            parts.emplace_back(FieldPath(s.fieldNameStringData()).parts(), static_cast<int>(d));
            dirs.push_back(static_cast<int>(d));
        }
        std::vector<ExprPtr> triple;
        triple.push_back(n ? std::move(n) : std::make_unique<ExpressionConstant>(Value(1)));
        triple.push_back(std::make_unique<ExpressionSortKeys>(std::move(parts)));
        triple.push_back(std::move(output));
        st.argument = std::make_unique<ExpressionArray>(std::move(triple));
        st.makeAccumulator = [top, single, dirs] { return std::make_unique<AccTopBottom>(top, single, dirs); };
        return st;
    }
    uasserted(15952, "unknown group operator '" + op + "'");
}

// ---------------------------------------------------------------- accumulators as expressions

namespace {

// {$sum: [a, b]} / {$sum: "$arr"} in $project etc.: one array argument is accumulated
// element-wise; several arguments are accumulated as they are.
template <typename Acc, typename... Args>
Value accumulateArgs(const std::vector<Value>& args, Args... ctorArgs) {
    Acc acc(ctorArgs...);
    if (args.size() == 1) {
        if (args[0].isArray()) {
            for (const Value& v : args[0].getArray()) acc.process(v);
        } else {
            acc.process(args[0]);
        }
    } else {
        for (const Value& v : args) acc.process(v);
    }
    return acc.getValue();
}

void registerAccumulatorExpressions() {
    registerNaryExpression("$sum", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccSum>(a);
    });
    registerNaryExpression("$avg", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccAvg>(a);
    });
    registerNaryExpression("$min", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccMinMax>(a, false);
    });
    registerNaryExpression("$max", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccMinMax>(a, true);
    });
    registerNaryExpression("$stdDevPop", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccStdDev>(a, false);
    });
    registerNaryExpression("$stdDevSamp", 0, -1, [](const std::string&, const std::vector<Value>& a) {
        return accumulateArgs<AccStdDev>(a, true);
    });
}

ExpressionRegistrar registrar(registerAccumulatorExpressions);

}  // namespace
}  // namespace mongo
