// Type expressions: $type $isNumber and conversions ($convert $toString $toInt $toLong
// $toDouble $toDecimal $toBool $toDate $toObjectId).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/numeric.h"

namespace mongo {
namespace {

[[noreturn]] void conversionFailed(const std::string& why) {
    uasserted(ErrorCodes::ConversionFailure, why + " in $convert with no onError value");
}

[[noreturn]] void unsupported(const Value& in, BSONType to) {
    uasserted(ErrorCodes::ConversionFailure, "Unsupported conversion from " + typeNameOf(in) + " to " + typeName(to) +
                                                 " in $convert with no onError value");
}

// Parses a base-10 integer string exactly.
long long parseIntegral(const std::string& s, BSONType to) {
    if (s.empty()) conversionFailed("Failed to parse number '" + s + "'");
    size_t i = 0;
    if (s[0] == '-' || s[0] == '+') i = 1;
    if (i == s.size()) conversionFailed("Failed to parse number '" + s + "'");
    for (size_t k = i; k < s.size(); k++)
        if (s[k] < '0' || s[k] > '9')
            conversionFailed("Failed to parse number '" + s + "': Did not consume whole string.");
    errno = 0;
    long long v = std::strtoll(s.c_str(), nullptr, 10);
    if (errno == ERANGE) conversionFailed("Failed to parse number '" + s + "': Overflow");
    if (to == NumberInt && (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()))
        conversionFailed("Failed to parse number '" + s + "': Overflow");
    return v;
}

double parseDouble(const std::string& s) {
    if (s.empty()) conversionFailed("Failed to parse number '" + s + "'");
    // Hexadecimal input is rejected, as MongoDB does; infinity/nan spellings are accepted.
    std::string lower;
    for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("0x") != std::string::npos) conversionFailed("Failed to parse number '" + s + "': Illegal hexadecimal input");
    if (std::isspace(static_cast<unsigned char>(s[0])))
        conversionFailed("Failed to parse number '" + s + "': Did not consume whole string.");
    char* end;
    errno = 0;
    double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) conversionFailed("Failed to parse number '" + s + "': Did not consume whole string.");
    if (errno == ERANGE && std::isinf(d)) conversionFailed("Failed to parse number '" + s + "': Out of range");
    return d;
}

// Integral conversion of a floating value with MongoDB's checks.
long long integralFromFloating(long double d, const Value& in, BSONType to) {
    if (std::isnan(d)) conversionFailed("Attempt to convert NaN value to integer type");
    if (std::isinf(d)) conversionFailed("Attempt to convert infinity value to integer type");
    long double t = std::trunc(d);
    bool fits = to == NumberInt ? (t >= std::numeric_limits<int>::min() && t <= std::numeric_limits<int>::max())
                                : (t >= -9.2233720368547758e18L && t < 9.2233720368547758e18L);
    if (!fits) conversionFailed("Conversion would overflow target type");
    return static_cast<long long>(t);
}

Value convertValue(const Value& in, BSONType to) {
    if (in.getType() == to && to != Object && to != Array) return in;
    switch (to) {
        case NumberDouble:
            switch (in.getType()) {
                case NumberInt:
                case NumberLong: return Value(static_cast<double>(in.coerceToLong()));
                case NumberDecimal: {
                    long double x = toLongDouble(in);
                    if (std::isfinite(x) && std::fabs(x) > std::numeric_limits<double>::max())
                        conversionFailed("Conversion would overflow target type");
                    return Value(static_cast<double>(x));
                }
                case Bool: return Value(in.getBool() ? 1.0 : 0.0);
                case String: return Value(parseDouble(in.getString()));
                case Date: return Value(static_cast<double>(in.getDate().millis));
                default: unsupported(in, to);
            }
        case NumberInt:
        case NumberLong: {
            long long v;
            switch (in.getType()) {
                case NumberInt:
                case NumberLong: v = in.coerceToLong(); break;
                case NumberDouble:
                case NumberDecimal: v = integralFromFloating(toLongDouble(in), in, to); break;
                case Bool: v = in.getBool() ? 1 : 0; break;
                case String: v = parseIntegral(in.getString(), to); break;
                case Date:
                    if (to == NumberLong) {
                        v = in.getDate().millis;
                        break;
                    }
                    unsupported(in, to);
                default: unsupported(in, to);
            }
            if (to == NumberInt) {
                if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
                    conversionFailed("Conversion would overflow target type");
                return Value(static_cast<int>(v));
            }
            return Value(v);
        }
        case NumberDecimal: {
            switch (in.getType()) {
                case NumberInt:
                case NumberLong:
                case NumberDouble: {
                    unsigned char b[16];
                    in.coerceToDecimal(b);
                    return Value::decimal(b);
                }
                case Bool: return Value::decimalFromString(in.getBool() ? "1" : "0");
                case String: {
                    bool ok;
                    Value v = Value::decimalFromString(in.getString(), &ok);
                    if (!ok) conversionFailed("Failed to parse number '" + in.getString() + "'");
                    return v;
                }
                case Date: return Value::decimalFromString(std::to_string(in.getDate().millis));
                default: unsupported(in, to);
            }
        }
        case String:
            switch (in.getType()) {
                case NumberInt:
                case NumberLong:
                case NumberDouble:
                case NumberDecimal:
                case String: return Value(in.coerceToString());
                case Bool: return Value(in.getBool() ? "true" : "false");
                case jstOID: return Value(in.getOid().toString());
                case Date: return Value(formatDate("%Y-%m-%dT%H:%M:%S.%LZ", in.getDate().millis, TimeZone()));
                default: unsupported(in, to);
            }
        case Bool:
            switch (in.getType()) {
                case NumberInt:
                case NumberLong:
                case NumberDouble:
                case NumberDecimal: return Value(in.coerceToBool());
                default: return Value(true);
            }
        case Date:
            switch (in.getType()) {
                case NumberLong: return Value(Date_t{in.getLong()});
                case NumberDouble:
                case NumberDecimal: {
                    long double d = toLongDouble(in);
                    if (!std::isfinite(d)) conversionFailed("Attempt to convert " + in.toString() + " to Date");
                    if (d >= 9.2233720368547758e18L || d < -9.2233720368547758e18L)
                        conversionFailed("Conversion would overflow target type");
                    return Value(Date_t{static_cast<long long>(std::trunc(d))});
                }
                case String: {
                    long long ms;
                    std::string err;
                    if (!parseDateString(in.getString(), nullptr, TimeZone(), &ms, &err)) conversionFailed(err);
                    return Value(Date_t{ms});
                }
                case jstOID: return Value(in.getOid().getTimestamp());
                case bsonTimestamp: return Value(Date_t{static_cast<long long>(in.getTimestamp().secs) * 1000});
                default: unsupported(in, to);
            }
        case jstOID: {
            if (in.getType() != String) unsupported(in, to);
            std::string s = in.getString();
            if (s.size() != 24)
                conversionFailed("Failed to parse objectId '" + s +
                                 "': Invalid string length for parsing to OID, expected 24 but found " +
                                 std::to_string(s.size()));
            OID o;
            if (!OID::parse(s, &o)) conversionFailed("Failed to parse objectId '" + s + "': Invalid character found in hex string");
            return Value(o);
        }
        default: unsupported(in, to);
    }
}

// The target type of {to: ...}: a type name or a numeric type code.
BSONType targetType(const Value& to) {
    if (to.getType() == String) {
        BSONType t;
        uassert(ErrorCodes::BadValue, "Unknown type name: " + to.getString(), typeFromAlias(to.getString(), &t));
        return t;
    }
    uassert(ErrorCodes::FailedToParse,
            "$convert's 'to' argument must be a string or number, but is " + typeNameOf(to), to.numeric());
    uassert(ErrorCodes::FailedToParse, "In $convert, numeric 'to' argument is not an integer", to.integral());
    int code = to.coerceToInt();
    static const int kValid[] = {-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 127};
    bool ok = false;
    for (int v : kValid) ok |= v == code;
    uassert(ErrorCodes::FailedToParse, "In $convert, numeric value for 'to' does not correspond to a BSON type: " +
                                           std::to_string(code),
            ok);
    return static_cast<BSONType>(code);
}

class ExpressionConvert : public Expression {
public:
    ExpressionConvert(ExprPtr input, ExprPtr to, ExprPtr onError, ExprPtr onNull, BSONType fixedTo, bool hasFixedTo)
        : _input(std::move(input)), _to(std::move(to)), _onError(std::move(onError)), _onNull(std::move(onNull)),
          _fixedTo(fixedTo), _hasFixedTo(hasFixedTo) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        BSONType to = _fixedTo;
        if (!_hasFixedTo) {
            Value t = _to->evaluate(root, vars);
            if (t.nullish()) return Value::null();
            to = targetType(t);
        }
        if (in.nullish()) return _onNull ? _onNull->evaluate(root, vars) : Value::null();
        if (!_onError) return convertValue(in, to);
        try {
            return convertValue(in, to);
        } catch (const DBException& e) {
            if (e.code() != static_cast<int>(ErrorCodes::ConversionFailure)) throw;
            return _onError->evaluate(root, vars);
        }
    }

private:
    ExprPtr _input, _to, _onError, _onNull;
    BSONType _fixedTo;
    bool _hasFixedTo;
};

ExprPtr parseConvert(const std::string&, const BSONElement& args, const VariablesParseState& vps) {
    uassert(ErrorCodes::FailedToParse,
            "$convert expects an object of named arguments but found: " + typeName(args.type()), args.type() == Object);
    ExprPtr input, to, onError, onNull;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = Expression::parseOperand(f, vps);
        else if (n == "to")
            to = Expression::parseOperand(f, vps);
        else if (n == "onError")
            onError = Expression::parseOperand(f, vps);
        else if (n == "onNull")
            onNull = Expression::parseOperand(f, vps);
        else if (n == "format" || n == "base")
            uasserted(ErrorCodes::FailedToParse, "$convert found an unsupported argument: " + std::string(n));
        else
            uasserted(ErrorCodes::FailedToParse, "$convert found an unknown argument: " + std::string(n));
    }
    uassert(ErrorCodes::FailedToParse, "Missing 'input' parameter to $convert", input != nullptr);
    uassert(ErrorCodes::FailedToParse, "Missing 'to' parameter to $convert", to != nullptr);
    BSONType fixed = EOO;
    bool hasFixed = false;
    if (to->isConstant()) {
        const Value& t = static_cast<ExpressionConstant*>(to.get())->value();
        if (!t.nullish()) {
            fixed = targetType(t);
            hasFixed = true;
        }
    }
    return std::make_unique<ExpressionConvert>(std::move(input), std::move(to), std::move(onError), std::move(onNull),
                                               fixed, hasFixed);
}

void registerShortConvert(const char* name, BSONType to) {
    Expression::registerOperator(name, [to](const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
        auto parsed = Expression::parseArguments(args, vps);
        checkArity(op, parsed.size(), 1, 1);
        return std::make_unique<ExpressionConvert>(std::move(parsed[0]), nullptr, nullptr, nullptr, to, true);
    });
}

void registerType() {
    registerNaryExpression("$type", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return Value(typeNameOf(a[0]));
    });
    registerNaryExpression("$isNumber", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return Value(a[0].numeric());
    });
    Expression::registerOperator("$convert", parseConvert);
    registerShortConvert("$toString", String);
    registerShortConvert("$toInt", NumberInt);
    registerShortConvert("$toLong", NumberLong);
    registerShortConvert("$toDouble", NumberDouble);
    registerShortConvert("$toDecimal", NumberDecimal);
    registerShortConvert("$toBool", Bool);
    registerShortConvert("$toDate", Date);
    registerShortConvert("$toObjectId", jstOID);
}

ExpressionRegistrar registrar(registerType);

}  // namespace
}  // namespace mongo
