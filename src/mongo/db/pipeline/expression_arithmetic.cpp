// Arithmetic expressions: $add $subtract $multiply $divide $mod $abs $ceil $floor $round
// $trunc $pow $sqrt $exp $ln $log $log10 $rand.
#include <cfenv>
#include <cmath>
#include <limits>
#include <random>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/numeric.h"

namespace mongo {
namespace {

bool anyNullish(const std::vector<Value>& args) {
    for (const auto& a : args)
        if (a.nullish()) return true;
    return false;
}

Value add(const std::string&, const std::vector<Value>& args) {
    NumericSum sum;
    bool haveDate = false;
    long long dateMillis = 0;
    for (const Value& v : args) {
        if (v.numeric()) {
            sum.add(v);
        } else if (v.getType() == Date) {
            uassert(16612, "only one date allowed in an $add expression", !haveDate);
            haveDate = true;
            dateMillis = v.getDate().millis;
        } else {
            uassert(16554, "$add only supports numeric or date types, not " + typeNameOf(v), v.nullish());
            return Value::null();
        }
    }
    if (haveDate) {
        Value r = sum.result();
        long long delta;
        if (r.getType() == NumberInt || r.getType() == NumberLong) {
            delta = r.coerceToLong();
        } else {
            long double d = sum.asLongDouble();
            uassert(ErrorCodes::Overflow, "date overflow in $add", std::isfinite(static_cast<double>(d)));
            delta = std::llround(d);
        }
        long long out;
        uassert(ErrorCodes::Overflow, "date overflow in $add", !__builtin_add_overflow(dateMillis, delta, &out));
        return Value(Date_t{out});
    }
    return sum.result();
}

Value subtract(const std::string&, const std::vector<Value>& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.nullish() || r.nullish()) return Value::null();
    if (l.numeric() && r.numeric()) {
        BSONType t = widerNumericType(l.getType(), r.getType());
        if (t == NumberInt || t == NumberLong) {
            long long out;
            if (!__builtin_sub_overflow(l.coerceToLong(), r.coerceToLong(), &out)) {
                if (t == NumberInt && out >= std::numeric_limits<int>::min() && out <= std::numeric_limits<int>::max())
                    return Value(static_cast<int>(out));
                return Value(out);
            }
            return Value(static_cast<double>(toLongDouble(l) - toLongDouble(r)));
        }
        return doubleOrDecimal(t == NumberDecimal, toLongDouble(l) - toLongDouble(r));
    }
    if (l.getType() == Date) {
        if (r.getType() == Date) return Value(l.getDate().millis - r.getDate().millis);
        if (r.numeric()) {
            long long delta = r.integral64() ? r.coerceToLong() : std::llround(r.coerceToDouble());
            return Value(Date_t{l.getDate().millis - delta});
        }
        uasserted(16613, "can't $subtract " + typeNameOf(r) + " from Date");
    }
    uasserted(16556, "can't $subtract " + typeNameOf(r) + " from " + typeNameOf(l));
}

Value multiply(const std::string&, const std::vector<Value>& args) {
    BSONType t = NumberInt;
    long long prod = 1;
    bool overflow = false;
    long double ld = 1;
    for (const Value& v : args) {
        if (!v.numeric()) {
            uassert(16555, "$multiply only supports numeric types, not " + typeNameOf(v), v.nullish());
            return Value::null();
        }
        t = widerNumericType(t, v.getType());
        if (!overflow && (v.getType() == NumberInt || v.getType() == NumberLong)) {
            long long r;
            if (__builtin_mul_overflow(prod, v.coerceToLong(), &r))
                overflow = true;
            else
                prod = r;
        }
        ld *= toLongDouble(v);
    }
    if (t == NumberInt || t == NumberLong) {
        if (overflow) return Value(static_cast<double>(ld));
        if (t == NumberInt && prod >= std::numeric_limits<int>::min() && prod <= std::numeric_limits<int>::max())
            return Value(static_cast<int>(prod));
        return Value(prod);
    }
    return doubleOrDecimal(t == NumberDecimal, ld);
}

Value divide(const std::string&, const std::vector<Value>& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.numeric() && r.numeric()) {
        bool dec = l.getType() == NumberDecimal || r.getType() == NumberDecimal;
        long double d = toLongDouble(r);
        uassert(ErrorCodes::BadValue, "can't $divide by zero", d != 0);
        return doubleOrDecimal(dec, toLongDouble(l) / d);
    }
    if (l.nullish() || r.nullish()) return Value::null();
    uasserted(16609, "$divide only supports numeric types, not " + typeNameOf(l) + " and " + typeNameOf(r));
}

Value mod(const std::string&, const std::vector<Value>& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.numeric() && r.numeric()) {
        BSONType t = widerNumericType(l.getType(), r.getType());
        if (t == NumberInt || t == NumberLong) {
            long long b = r.coerceToLong();
            uassert(16610, "can't $mod by zero", b != 0);
            long long a = l.coerceToLong();
            long long out = (b == -1) ? 0 : a % b;
            if (t == NumberInt) return Value(static_cast<int>(out));
            return Value(out);
        }
        long double b = toLongDouble(r);
        uassert(16610, "can't $mod by zero", b != 0);
        return doubleOrDecimal(t == NumberDecimal, std::fmod(toLongDouble(l), b));
    }
    if (l.nullish() || r.nullish()) return Value::null();
    uasserted(16611, "$mod only supports numeric types, not " + typeNameOf(l) + " and " + typeNameOf(r));
}

// Validates the argument of a one-number operator; false means "return null".
bool singleNumeric(const std::string& op, const Value& v) {
    if (v.nullish()) return false;
    uassert(28765, op + " only supports numeric types, not " + typeNameOf(v), v.numeric());
    return true;
}

Value absFn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    switch (v.getType()) {
        case NumberInt:
            if (v.getInt() == std::numeric_limits<int>::min()) return Value(-static_cast<long long>(v.getInt()));
            return Value(std::abs(v.getInt()));
        case NumberLong:
            uassert(28680, "can't take $abs of long long min", v.getLong() != std::numeric_limits<long long>::min());
            return Value(std::llabs(v.getLong()));
        case NumberDouble: return Value(std::fabs(v.getDouble()));
        default: return decimalFromLongDouble(std::fabs(toLongDouble(v)));
    }
}

template <long double (*F)(long double)>
Value roundingFn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    switch (v.getType()) {
        case NumberInt:
        case NumberLong: return v;
        case NumberDouble: return Value(static_cast<double>(F(v.getDouble())));
        default: return decimalFromLongDouble(F(toLongDouble(v)));
    }
}

long double ceilLD(long double x) { return std::ceil(x); }
long double floorLD(long double x) { return std::floor(x); }

// $round / $trunc with an optional place in [-20, 100]; $round rounds half to even.
Value roundOrTrunc(const std::string& op, const std::vector<Value>& args, bool round) {
    const Value& v = args[0];
    long long place = 0;
    if (args.size() > 1) {
        const Value& p = args[1];
        if (p.nullish()) return Value::null();
        uassert(51081, "cannot apply " + op + " with precision value " + p.toString() + " value must be integral",
                p.numeric() && p.integral64());
        place = p.coerceToLong();
        uassert(51083,
                "cannot apply " + op + " with precision value " + std::to_string(place) +
                    " value must be in [-20, 100]",
                place >= -20 && place <= 100);
    }
    if (v.nullish()) return Value::null();
    uassert(51081, op + " only supports numeric types, not " + typeNameOf(v), v.numeric());
    auto apply = [&](long double x) -> long double {
        if (!std::isfinite(x)) return x;
        long double scale = std::pow(10.0L, static_cast<long double>(std::llabs(place)));
        long double scaled = place >= 0 ? x * scale : x / scale;
        long double r;
        if (round) {
            int mode = std::fegetround();
            std::fesetround(FE_TONEAREST);
            r = std::nearbyint(scaled);
            std::fesetround(mode);
        } else {
            r = std::trunc(scaled);
        }
        return place >= 0 ? r / scale : r * scale;
    };
    switch (v.getType()) {
        case NumberInt:
        case NumberLong: {
            if (place >= 0) return v;
            long double r = apply(static_cast<long double>(v.coerceToLong()));
            return numericValue(v.getType(), r);
        }
        case NumberDouble: return Value(static_cast<double>(apply(v.getDouble())));
        default: return decimalFromLongDouble(apply(toLongDouble(v)));
    }
}

Value powFn(const std::string&, const std::vector<Value>& args) {
    const Value& b = args[0];
    const Value& e = args[1];
    if (b.nullish() || e.nullish()) return Value::null();
    uassert(28762, "$pow's base must be numeric, not " + typeNameOf(b), b.numeric());
    uassert(28763, "$pow's exponent must be numeric, not " + typeNameOf(e), e.numeric());
    BSONType t = widerNumericType(b.getType(), e.getType());
    long double bd = toLongDouble(b), ed = toLongDouble(e);
    uassert(28764, "$pow cannot take a base of 0 and a negative exponent", !(bd == 0 && ed < 0));
    if (t == NumberInt || t == NumberLong) {
        long long base = b.coerceToLong(), exp = e.coerceToLong();
        if (exp < 0) {
            if (base == 1) return numericValue(t, 1);
            if (base == -1) return numericValue(t, (exp % 2 == 0) ? 1 : -1);
            return Value(static_cast<double>(std::pow(bd, ed)));
        }
        long long result = 1, cur = base;
        bool overflow = false;
        for (long long x = exp; x > 0 && !overflow; x >>= 1) {
            if (x & 1) overflow |= __builtin_mul_overflow(result, cur, &result);
            if (x > 1) overflow |= __builtin_mul_overflow(cur, cur, &cur);
        }
        if (!overflow) {
            if (t == NumberInt && result >= std::numeric_limits<int>::min() && result <= std::numeric_limits<int>::max())
                return Value(static_cast<int>(result));
            return Value(result);
        }
        return Value(static_cast<double>(std::pow(bd, ed)));
    }
    return doubleOrDecimal(t == NumberDecimal, std::pow(bd, ed));
}

Value sqrtFn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    long double x = toLongDouble(v);
    uassert(28714, "$sqrt's argument must be greater than or equal to 0", x >= 0 || std::isnan(x));
    return doubleOrDecimal(v.getType() == NumberDecimal, std::sqrt(x));
}

Value expFn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    return doubleOrDecimal(v.getType() == NumberDecimal, std::exp(toLongDouble(v)));
}

Value lnFn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    long double x = toLongDouble(v);
    uassert(28766, "$ln's argument must be a positive number, but is " + v.toString(), x > 0 || std::isnan(x));
    return doubleOrDecimal(v.getType() == NumberDecimal, std::log(x));
}

Value log10Fn(const std::string& op, const std::vector<Value>& args) {
    const Value& v = args[0];
    if (!singleNumeric(op, v)) return Value::null();
    long double x = toLongDouble(v);
    uassert(28761, "$log10's argument must be a positive number, but is " + v.toString(), x > 0 || std::isnan(x));
    return doubleOrDecimal(v.getType() == NumberDecimal, std::log10(x));
}

Value logFn(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    const Value& b = args[1];
    if (v.nullish() || b.nullish()) return Value::null();
    uassert(28756, "$log's argument must be numeric, not " + typeNameOf(v), v.numeric());
    uassert(28757, "$log's base must be numeric, not " + typeNameOf(b), b.numeric());
    long double x = toLongDouble(v), base = toLongDouble(b);
    uassert(28758, "$log's argument must be a positive number, but is " + v.toString(), x > 0 || std::isnan(x));
    uassert(28759, "$log's base must be a positive number not equal to 1, but is " + b.toString(),
            (base > 0 && base != 1) || std::isnan(base));
    bool dec = v.getType() == NumberDecimal || b.getType() == NumberDecimal;
    return doubleOrDecimal(dec, std::log(x) / std::log(base));
}

// {$rand: {}}: a double drawn uniformly from [0, 1), anew for each evaluation (MongoDB 4.4+).
class ExpressionRand : public Expression {
public:
    Value evaluate(const Document&, Variables*) const override {
        thread_local std::mt19937_64 gen{std::random_device{}()};
        return Value(std::uniform_real_distribution<double>(0.0, 1.0)(gen));
    }
};

void registerArithmetic() {
    Expression::registerOperator("$rand", [](const std::string&, const BSONElement& args, const VariablesParseState&) {
        uassert(3040501, "$rand does not currently accept arguments", args.type() == Object && args.Obj().isEmpty());
        return ExprPtr(std::make_unique<ExpressionRand>());
    });
    registerNaryExpression("$add", 0, -1, add);
    registerNaryExpression("$subtract", 2, 2, subtract);
    registerNaryExpression("$multiply", 0, -1, multiply);
    registerNaryExpression("$divide", 2, 2, divide);
    registerNaryExpression("$mod", 2, 2, mod);
    registerNaryExpression("$abs", 1, 1, absFn);
    registerNaryExpression("$ceil", 1, 1, roundingFn<ceilLD>);
    registerNaryExpression("$floor", 1, 1, roundingFn<floorLD>);
    registerNaryExpression("$round", 1, 2, [](const std::string& op, const std::vector<Value>& a) {
        return roundOrTrunc(op, a, true);
    });
    registerNaryExpression("$trunc", 1, 2, [](const std::string& op, const std::vector<Value>& a) {
        return roundOrTrunc(op, a, false);
    });
    registerNaryExpression("$pow", 2, 2, powFn);
    registerNaryExpression("$sqrt", 1, 1, sqrtFn);
    registerNaryExpression("$exp", 1, 1, expFn);
    registerNaryExpression("$ln", 1, 1, lnFn);
    registerNaryExpression("$log10", 1, 1, log10Fn);
    registerNaryExpression("$log", 2, 2, logFn);
    (void)anyNullish;
}

ExpressionRegistrar registrar(registerArithmetic);

}  // namespace
}  // namespace mongo
