// Date expressions: $year $month $dayOfMonth $hour $minute $second $millisecond $dayOfWeek
// $dayOfYear $week $isoWeek $isoWeekYear $isoDayOfWeek $dateToString $dateFromString
// $dateToParts $dateFromParts $dateAdd $dateSubtract $dateDiff $dateTrunc.
#include <cmath>
#include <limits>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/expression.h"

namespace mongo {
namespace {

// Evaluates an optional timezone argument; false means "null timezone: the result is null".
bool evalTimeZone(const Expression* e, const Document& root, Variables* vars, TimeZone* tz) {
    if (!e) return true;
    Value v = e->evaluate(root, vars);
    if (v.nullish()) return false;
    uassert(40517, "timezone must evaluate to a string, found " + typeNameOf(v), v.getType() == String);
    uassert(40485, "unrecognized time zone identifier: \"" + v.getString() + "\"", parseTimeZone(v.getString(), tz));
    return true;
}

enum class DatePart { kYear, kMonth, kDay, kHour, kMinute, kSecond, kMilli, kDow, kDoy, kWeek, kIsoWeek, kIsoWeekYear, kIsoDow };

class ExpressionDatePart : public Expression {
public:
    ExpressionDatePart(DatePart part, ExprPtr date, ExprPtr tz) : _part(part), _date(std::move(date)), _tz(std::move(tz)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value d = _date->evaluate(root, vars);
        TimeZone tz;
        if (!evalTimeZone(_tz.get(), root, vars, &tz)) return Value::null();
        if (d.nullish()) return Value::null();
        long long ms = d.coerceToDate().millis;
        DateParts p = partsFromMillis(ms + tz.offsetAt(ms));
        switch (_part) {
            case DatePart::kYear: return Value(static_cast<int>(p.year));
            case DatePart::kMonth: return Value(p.month);
            case DatePart::kDay: return Value(p.day);
            case DatePart::kHour: return Value(p.hour);
            case DatePart::kMinute: return Value(p.minute);
            case DatePart::kSecond: return Value(p.second);
            case DatePart::kMilli: return Value(p.millisecond);
            case DatePart::kDow: return Value(p.dayOfWeek);
            case DatePart::kDoy: return Value(p.dayOfYear);
            case DatePart::kWeek: return Value(weekOfYear(p));
            case DatePart::kIsoWeek: return Value(isoWeek(p));
            case DatePart::kIsoWeekYear: return Value(static_cast<long long>(isoWeekYear(p)));
            case DatePart::kIsoDow: return Value(isoDayOfWeek(p));
        }
        return Value();
    }

private:
    DatePart _part;
    ExprPtr _date, _tz;
};

ExprPtr parseDatePart(const std::string& op, const BSONElement& args, const VariablesParseState& vps, DatePart part) {
    if (args.type() == Object && !args.Obj().isEmpty() && args.Obj().firstElementFieldName()[0] != '$') {
        ExprPtr date, tz;
        for (BSONElement f : args.Obj()) {
            auto n = f.fieldNameStringData();
            if (n == "date")
                date = Expression::parseOperand(f, vps);
            else if (n == "timezone")
                tz = Expression::parseOperand(f, vps);
            else
                uasserted(40535, "unrecognized option to " + op + ": \"" + std::string(n) + "\"");
        }
        uassert(40539, "missing 'date' argument to " + op + ", provided: " + args.Obj().toString(), date != nullptr);
        return std::make_unique<ExpressionDatePart>(part, std::move(date), std::move(tz));
    }
    auto parsed = Expression::parseArguments(args, vps);
    checkArity(op, parsed.size(), 1, 1);
    return std::make_unique<ExpressionDatePart>(part, std::move(parsed[0]), nullptr);
}

// Parses {$op: {name: expr, ...}} with the allowed names; unknown names throw unknownCode.
NamedArgs parseNamed(const std::string& op, const BSONElement& args, const VariablesParseState& vps,
                     std::initializer_list<const char*> allowed, int notObjectCode, int unknownCode) {
    uassert(notObjectCode, op + " only supports an object as its argument", args.type() == Object);
    NamedArgs out;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        bool ok = false;
        for (const char* a : allowed) ok |= n == a;
        uassert(unknownCode, "Unrecognized argument to " + op + ": " + std::string(n), ok);
        out.args.emplace_back(std::string(n), Expression::parseOperand(f, vps));
    }
    return out;
}

class ExpressionNamed : public Expression {
public:
    using Fn = std::function<Value(const NamedArgs&, const Document&, Variables*)>;
    ExpressionNamed(NamedArgs args, Fn fn) : _args(std::move(args)), _fn(std::move(fn)) {}
    Value evaluate(const Document& root, Variables* vars) const override { return _fn(_args, root, vars); }

private:
    NamedArgs _args;
    Fn _fn;
};

ExprPtr parseDateToString(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps, {"date", "format", "timezone", "onNull"}, 18629, 18534);
    uassert(18628, "Missing 'date' parameter to $dateToString", a.get("date") != nullptr);
    return std::make_unique<ExpressionNamed>(std::move(a), [](const NamedArgs& a, const Document& root, Variables* vars) {
        Value date = a.eval("date", root, vars);
        std::string format = "%Y-%m-%dT%H:%M:%S.%LZ";
        bool haveFormat = a.get("format") != nullptr;
        if (haveFormat) {
            Value f = a.eval("format", root, vars);
            if (f.nullish()) return Value::null();
            uassert(18533,
                    "$dateToString requires that 'format' be a string, found: " + typeNameOf(f) + " with value " +
                        f.toString(),
                    f.getType() == String);
            format = f.getString();
        }
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        if (!haveFormat && !tz.isUtc()) format = "%Y-%m-%dT%H:%M:%S.%L";
        if (date.nullish()) {
            if (a.get("onNull")) return a.eval("onNull", root, vars);
            return Value::null();
        }
        return Value(formatDate(format, date.coerceToDate().millis, tz));
    });
}

ExprPtr parseDateFromString(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps, {"dateString", "format", "timezone", "onError", "onNull"}, 40540, 40541);
    uassert(40542, "Missing 'dateString' parameter to $dateFromString", a.get("dateString") != nullptr);
    return std::make_unique<ExpressionNamed>(std::move(a), [](const NamedArgs& a, const Document& root, Variables* vars) {
        Value s = a.eval("dateString", root, vars);
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        std::string format;
        bool haveFormat = false;
        if (a.get("format")) {
            Value f = a.eval("format", root, vars);
            if (f.nullish()) return Value::null();
            uassert(40684, "$dateFromString requires that 'format' be a string, found: " + typeNameOf(f) +
                               " with value " + f.toString(),
                    f.getType() == String);
            format = f.getString();
            haveFormat = true;
        }
        if (s.nullish()) return a.get("onNull") ? a.eval("onNull", root, vars) : Value::null();
        if (s.getType() != String) {
            if (a.get("onError")) return a.eval("onError", root, vars);
            uasserted(ErrorCodes::ConversionFailure,
                      "$dateFromString requires that 'dateString' be a string, found: " + typeNameOf(s) +
                          " with value " + s.toString());
        }
        long long ms;
        std::string err;
        if (!parseDateString(s.getString(), haveFormat ? &format : nullptr, tz, &ms, &err)) {
            if (a.get("onError")) return a.eval("onError", root, vars);
            uasserted(ErrorCodes::ConversionFailure, err);
        }
        return Value(Date_t{ms});
    });
}

ExprPtr parseDateToParts(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps, {"date", "timezone", "iso8601"}, 40524, 40520);
    uassert(40522, "Missing 'date' parameter to $dateToParts", a.get("date") != nullptr);
    return std::make_unique<ExpressionNamed>(std::move(a), [](const NamedArgs& a, const Document& root, Variables* vars) {
        Value date = a.eval("date", root, vars);
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        bool iso = false;
        if (a.get("iso8601")) {
            Value i = a.eval("iso8601", root, vars);
            if (i.nullish()) return Value::null();
            uassert(40521, "iso8601 must evaluate to a bool, found " + typeNameOf(i), i.getType() == Bool);
            iso = i.getBool();
        }
        if (date.nullish()) return Value::null();
        long long ms = date.coerceToDate().millis;
        DateParts p = partsFromMillis(ms + tz.offsetAt(ms));
        std::vector<Document::Field> f;
        if (iso) {
            f.emplace_back("isoWeekYear", Value(static_cast<int>(isoWeekYear(p))));
            f.emplace_back("isoWeek", Value(isoWeek(p)));
            f.emplace_back("isoDayOfWeek", Value(isoDayOfWeek(p)));
        } else {
            f.emplace_back("year", Value(static_cast<int>(p.year)));
            f.emplace_back("month", Value(p.month));
            f.emplace_back("day", Value(p.day));
        }
        f.emplace_back("hour", Value(p.hour));
        f.emplace_back("minute", Value(p.minute));
        f.emplace_back("second", Value(p.second));
        f.emplace_back("millisecond", Value(p.millisecond));
        return Value(Document(std::move(f)));
    });
}

// An integral part argument of $dateFromParts; false for null (result null).
bool partArg(const NamedArgs& a, const char* name, long long def, long long lo, long long hi, const Document& root,
             Variables* vars, long long* out) {
    *out = def;
    if (!a.get(name)) return true;
    Value v = a.eval(name, root, vars);
    if (v.nullish()) return false;
    uassert(40515, std::string("'") + name + "' must evaluate to an integer, found " + typeNameOf(v) +
                       " with value " + v.toString(),
            v.numeric() && v.integral64());
    *out = v.coerceToLong();
    if (std::string(name) == "year" || std::string(name) == "isoWeekYear") {
        uassert(40523, std::string("'") + name + "' must evaluate to an integer in the range 1 to 9999, found " +
                           v.toString(),
                *out >= 1 && *out <= 9999);
    } else {
        uassert(31034, std::string("'") + name + "' must evaluate to a value in the range [" + std::to_string(lo) +
                           ", " + std::to_string(hi) + "]; value " + v.toString() + " is not in range",
                *out >= lo && *out <= hi);
    }
    return true;
}

ExprPtr parseDateFromParts(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps,
                             {"year", "month", "day", "hour", "minute", "second", "millisecond", "isoWeekYear",
                              "isoWeek", "isoDayOfWeek", "timezone"},
                             40519, 40518);
    bool greg = a.get("year") || a.get("month") || a.get("day");
    bool iso = a.get("isoWeekYear") || a.get("isoWeek") || a.get("isoDayOfWeek");
    uassert(40489, "$dateFromParts does not allow mixing natural dates with ISO dates", !(greg && iso));
    uassert(40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present",
            a.get("year") || a.get("isoWeekYear"));
    return std::make_unique<ExpressionNamed>(std::move(a), [iso](const NamedArgs& a, const Document& root, Variables* vars) {
        const long long lo = -32768, hi = 32767;
        long long h, mi, s, ms;
        if (!partArg(a, "hour", 0, lo, hi, root, vars, &h) || !partArg(a, "minute", 0, lo, hi, root, vars, &mi) ||
            !partArg(a, "second", 0, lo, hi, root, vars, &s) ||
            !partArg(a, "millisecond", 0, lo, hi, root, vars, &ms))
            return Value::null();
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        long long local;
        if (!iso) {
            long long y, mo, d;
            if (!partArg(a, "year", 1970, 1, 9999, root, vars, &y) || !partArg(a, "month", 1, lo, hi, root, vars, &mo) ||
                !partArg(a, "day", 1, lo, hi, root, vars, &d))
                return Value::null();
            local = millisFromParts(y, mo, d, h, mi, s, ms);
        } else {
            long long y, w, dow;
            if (!partArg(a, "isoWeekYear", 1970, 1, 9999, root, vars, &y) ||
                !partArg(a, "isoWeek", 1, lo, hi, root, vars, &w) ||
                !partArg(a, "isoDayOfWeek", 1, lo, hi, root, vars, &dow))
                return Value::null();
            // ISO week 1 holds January 4th; find its Monday.
            long long jan4 = daysFromCivil(y, 1, 4);
            DateParts p = partsFromMillis(jan4 * 86400000LL);
            long long monday = jan4 - (isoDayOfWeek(p) - 1);
            long long days = monday + (w - 1) * 7 + (dow - 1);
            local = days * 86400000LL + h * 3600000LL + mi * 60000LL + s * 1000LL + ms;
        }
        return Value(Date_t{tz.utcFromLocal(local)});
    });
}

// ---------------------------------------------------------------- $dateAdd / $dateDiff / $dateTrunc

// A unit name as $dateAdd/$dateDiff/$dateTrunc take it (FailedToParse if unknown).
DateUnit parseUnit(const Value& v, const std::string& op) {
    uassert(5439013, op + " requires 'unit' to be a string, but got " + typeNameOf(v), v.getType() == String);
    DateUnit u;
    if (!parseDateUnit(v.getString(), &u)) uasserted(ErrorCodes::FailedToParse, "unknown time unit value: " + v.getString());
    return u;
}

ExprPtr parseDateAdd(const std::string& op, const BSONElement& args, const VariablesParseState& vps, bool subtract) {
    NamedArgs a = parseNamed(op, args, vps, {"startDate", "unit", "amount", "timezone"}, 5166400, 5166401);
    uassert(5166402, op + " requires startDate, unit, and amount to be present",
            a.get("startDate") && a.get("unit") && a.get("amount"));
    return std::make_unique<ExpressionNamed>(std::move(a), [op, subtract](const NamedArgs& a, const Document& root,
                                                                          Variables* vars) {
        Value start = a.eval("startDate", root, vars);
        Value unit = a.eval("unit", root, vars);
        Value amount = a.eval("amount", root, vars);
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        if (start.nullish() || unit.nullish() || amount.nullish()) return Value::null();
        uassert(5166403, op + " requires startDate to be convertible to a date",
                start.getType() == Date || start.getType() == bsonTimestamp || start.getType() == jstOID);
        uassert(5166405, op + " expects integer amount of time units", amount.numeric() && amount.integral64());
        DateUnit u = parseUnit(unit, op);
        long long n = amount.coerceToLong();
        return Value(Date_t{addDateUnits(start.coerceToDate().millis, u, subtract ? -n : n, tz)});
    });
}

ExprPtr parseDateDiff(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps, {"startDate", "endDate", "unit", "timezone", "startOfWeek"}, 5166301, 5166302);
    uassert(5166303, "$dateDiff requires 'startDate' to be specified", a.get("startDate"));
    uassert(5166304, "$dateDiff requires 'endDate' to be specified", a.get("endDate"));
    uassert(5166305, "$dateDiff requires 'unit' to be specified", a.get("unit"));
    return std::make_unique<ExpressionNamed>(std::move(a), [op](const NamedArgs& a, const Document& root, Variables* vars) {
        Value s = a.eval("startDate", root, vars), e = a.eval("endDate", root, vars), unit = a.eval("unit", root, vars);
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        if (s.nullish() || e.nullish() || unit.nullish()) return Value::null();
        long long sm = s.coerceToDate().millis, em = e.coerceToDate().millis;
        DateUnit u = parseUnit(unit, op);
        DateParts ps = partsFromMillis(sm + tz.offsetAt(sm)), pe = partsFromMillis(em + tz.offsetAt(em));
        auto dayNum = [&](long long utc) { long long l = utc + tz.offsetAt(utc); return l >= 0 ? l / 86400000LL : -((-l + 86399999LL) / 86400000LL); };
        switch (u) {
            case DateUnit::kYear: return Value(pe.year - ps.year);
            case DateUnit::kQuarter: return Value((pe.year * 12 + pe.month - 1) / 3 - (ps.year * 12 + ps.month - 1) / 3);
            case DateUnit::kMonth: return Value((pe.year * 12 + pe.month) - (ps.year * 12 + ps.month));
            case DateUnit::kWeek: {
                int sow = 1;  // Sunday, the default start of week
                Value w = a.eval("startOfWeek", root, vars);
                if (w.getType() == String) {
                    static const char* kDays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
                    std::string l = w.getString().substr(0, 3);
                    for (auto& c : l) c = static_cast<char>(std::tolower(c));
                    for (int i = 0; i < 7; i++)
                        if (l == kDays[i]) sow = i + 1;
                }
                auto weekStart = [&](long long utc, const DateParts& p) { return dayNum(utc) - ((p.dayOfWeek - sow + 7) % 7); };
                return Value((weekStart(em, pe) - weekStart(sm, ps)) / 7);
            }
            case DateUnit::kDay: return Value(dayNum(em) - dayNum(sm));
            default: {
                long long unitMs = dateUnitMillis(u);
                auto bucket = [&](long long utc) { return utc >= 0 ? utc / unitMs : -((-utc + unitMs - 1) / unitMs); };
                return Value(bucket(em) - bucket(sm));
            }
        }
    });
}

ExprPtr parseDateTrunc(const std::string& op, const BSONElement& args, const VariablesParseState& vps) {
    NamedArgs a = parseNamed(op, args, vps, {"date", "unit", "binSize", "timezone", "startOfWeek"}, 5439007, 5439008);
    uassert(5439009, "$dateTrunc requires 'date' and 'unit' parameters to be specified", a.get("date") && a.get("unit"));
    return std::make_unique<ExpressionNamed>(std::move(a), [op](const NamedArgs& a, const Document& root, Variables* vars) {
        Value d = a.eval("date", root, vars), unit = a.eval("unit", root, vars);
        TimeZone tz;
        if (!evalTimeZone(a.get("timezone"), root, vars, &tz)) return Value::null();
        long long bin = 1;
        if (a.get("binSize")) {
            Value b = a.eval("binSize", root, vars);
            if (b.nullish()) return Value::null();
            uassert(5439017, "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '" + b.toString() + "'",
                    b.numeric() && b.integral64());
            bin = b.coerceToLong();
            uassert(5439018, "$dateTrunc requires 'binSize' to be greater than 0, but got value " + b.toString(), bin > 0);
        }
        if (d.nullish() || unit.nullish()) return Value::null();
        long long utc = d.coerceToDate().millis;
        DateUnit u = parseUnit(unit, op);
        long long local = utc + tz.offsetAt(utc);
        DateParts p = partsFromMillis(local);
        long long out;
        if (u == DateUnit::kYear || u == DateUnit::kQuarter || u == DateUnit::kMonth) {
            long long months = (p.year - 2000) * 12 + (p.month - 1);
            long long step = bin * (u == DateUnit::kYear ? 12 : (u == DateUnit::kQuarter ? 3 : 1));
            long long m = months >= 0 ? months / step * step : -((-months + step - 1) / step) * step;
            out = tz.utcFromLocal(millisFromParts(2000, m + 1, 1, 0, 0, 0, 0));
        } else if (u == DateUnit::kWeek) {
            int sow = 1;
            Value w = a.eval("startOfWeek", root, vars);
            if (w.getType() == String) {
                static const char* kDays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
                std::string l = w.getString().substr(0, 3);
                for (auto& c : l) c = static_cast<char>(std::tolower(c));
                for (int i = 0; i < 7; i++)
                    if (l == kDays[i]) sow = i + 1;
            }
            // Reference week starting 2000-01-02 (a Sunday) shifted to the start of week.
            long long ref = daysFromCivil(2000, 1, 2) + (sow - 1);
            long long day = local >= 0 ? local / 86400000LL : -((-local + 86399999LL) / 86400000LL);
            long long weeks = day - ref;
            long long step = 7 * bin;
            long long k = weeks >= 0 ? weeks / step * step : -((-weeks + step - 1) / step) * step;
            out = tz.utcFromLocal((ref + k) * 86400000LL);
        } else {
            long long unitMs = dateUnitMillis(u) * bin;
            long long ref = millisFromParts(2000, 1, 1, 0, 0, 0, 0);
            long long base = (u == DateUnit::kDay) ? local : utc;
            long long diff = base - ref;
            long long k = diff >= 0 ? diff / unitMs * unitMs : -((-diff + unitMs - 1) / unitMs) * unitMs;
            out = (u == DateUnit::kDay) ? tz.utcFromLocal(ref + k) : ref + k;
        }
        return Value(Date_t{out});
    });
}

void registerDate() {
    struct P {
        const char* name;
        DatePart part;
    };
    for (P p : {P{"$year", DatePart::kYear}, P{"$month", DatePart::kMonth}, P{"$dayOfMonth", DatePart::kDay},
                P{"$hour", DatePart::kHour}, P{"$minute", DatePart::kMinute}, P{"$second", DatePart::kSecond},
                P{"$millisecond", DatePart::kMilli}, P{"$dayOfWeek", DatePart::kDow}, P{"$dayOfYear", DatePart::kDoy},
                P{"$week", DatePart::kWeek}, P{"$isoWeek", DatePart::kIsoWeek},
                P{"$isoWeekYear", DatePart::kIsoWeekYear}, P{"$isoDayOfWeek", DatePart::kIsoDow}}) {
        Expression::registerOperator(p.name, [p](const std::string& op, const BSONElement& args,
                                                 const VariablesParseState& vps) {
            return parseDatePart(op, args, vps, p.part);
        });
    }
    Expression::registerOperator("$dateToString", parseDateToString);
    Expression::registerOperator("$dateFromString", parseDateFromString);
    Expression::registerOperator("$dateToParts", parseDateToParts);
    Expression::registerOperator("$dateFromParts", parseDateFromParts);
    Expression::registerOperator("$dateAdd", [](const std::string& op, const BSONElement& args,
                                                const VariablesParseState& vps) {
        return parseDateAdd(op, args, vps, false);
    });
    Expression::registerOperator("$dateSubtract", [](const std::string& op, const BSONElement& args,
                                                     const VariablesParseState& vps) {
        return parseDateAdd(op, args, vps, true);
    });
    Expression::registerOperator("$dateDiff", parseDateDiff);
    Expression::registerOperator("$dateTrunc", parseDateTrunc);
}

ExpressionRegistrar registrar(registerDate);

}  // namespace
}  // namespace mongo
