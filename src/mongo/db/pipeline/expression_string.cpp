// String expressions: $concat $substr $substrBytes $substrCP $toLower $toUpper $strLenBytes
// $strLenCP $split $trim $ltrim $rtrim $indexOfBytes $indexOfCP $strcasecmp $replaceOne
// $replaceAll $regexMatch $regexFind $regexFindAll.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cctype>
#include <limits>

#include "mongo/db/pipeline/expression.h"

namespace mongo {
namespace {

bool isContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Byte length of the UTF-8 sequence starting with c.
size_t utf8SeqLen(unsigned char c) {
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) return 2;
    if ((c & 0xF0) == 0xE0) return 3;
    if ((c & 0xF8) == 0xF0) return 4;
    return 1;
}

// Splits s into its code points (each a byte range).
std::vector<std::string_view> codePoints(std::string_view s) {
    std::vector<std::string_view> out;
    for (size_t i = 0; i < s.size();) {
        size_t n = std::min(utf8SeqLen(static_cast<unsigned char>(s[i])), s.size() - i);
        out.push_back(s.substr(i, n));
        i += n;
    }
    return out;
}

size_t codePointCount(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s)
        if (!isContinuationByte(c)) n++;
    return n;
}

// MongoDB builds $concat / $replaceAll results in a BufBuilder, which stops at 64MB (13548);
// a result under that but of 16MB or more fails as a Value string (16493).
constexpr size_t kMaxStringBuilderBytes = 64 * 1024 * 1024;
void checkStringBuilderSize(size_t bytes) {
    uassert(13548, "BufBuilder attempted to grow() to " + std::to_string(bytes) + " bytes, past the 64MB limit.",
            bytes <= kMaxStringBuilderBytes);
}

Value concat(const std::string&, const std::vector<Value>& args) {
    // Sized first, so a runaway concatenation fails before it allocates.
    size_t total = 0;
    for (const Value& v : args) {
        if (v.nullish()) return Value::null();
        uassert(16702, "$concat only supports strings, not " + typeNameOf(v), v.getType() == String);
        total += v.getStringData().size();
        checkStringBuilderSize(total);
    }
    checkValueStringSize(total);
    std::string out;
    out.reserve(total);
    for (const Value& v : args) out += v.getStringData();
    return Value(out);
}

Value caseChange(const std::vector<Value>& args, bool upper) {
    std::string s = args[0].coerceToString();
    for (char& c : s) c = upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                                : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return Value(s);
}

Value substrBytes(const std::string& op, const std::vector<Value>& args) {
    std::string s = args[0].coerceToString();
    const Value& lowerV = args[1];
    const Value& lenV = args[2];
    uassert(16034, op + ": starting index must be a numeric type (is BSON type " + typeNameOf(lowerV) + ")",
            lowerV.numeric());
    uassert(16035, op + ": length must be a numeric type (is BSON type " + typeNameOf(lenV) + ")", lenV.numeric());
    // Negative values wrap to huge unsigned values, as MongoDB's size_t conversion does.
    long long lowerL = lowerV.coerceToLong();
    long long lenL = lenV.coerceToLong();
    if (lowerL < 0 || static_cast<unsigned long long>(lowerL) >= s.size()) return Value("");
    size_t lower = static_cast<size_t>(lowerL);
    uassert(28656, op + ":  Invalid range, starting index is a UTF-8 continuation byte.",
            !isContinuationByte(static_cast<unsigned char>(s[lower])));
    size_t len = lenL < 0 ? std::string::npos : static_cast<size_t>(lenL);
    size_t end = (len == std::string::npos || lower + len > s.size()) ? s.size() : lower + len;
    uassert(28657, op + ":  Invalid range, ending index is in the middle of a UTF-8 character.",
            end >= s.size() || !isContinuationByte(static_cast<unsigned char>(s[end])));
    return Value(std::string_view(s).substr(lower, end - lower));
}

Value substrCP(const std::string&, const std::vector<Value>& args) {
    std::string s = args[0].coerceToString();
    const Value& startV = args[1];
    const Value& lenV = args[2];
    uassert(34450, "$substrCP: starting index must be a numeric type (is BSON type " + typeNameOf(startV) + ")",
            startV.numeric());
    uassert(34451, "$substrCP: starting index cannot be represented as a 32-bit integral value: " + startV.toString(),
            startV.integral());
    uassert(34452, "$substrCP: length must be a numeric type (is BSON type " + typeNameOf(lenV) + ")", lenV.numeric());
    uassert(34453, "$substrCP: length cannot be represented as a 32-bit integral value: " + lenV.toString(),
            lenV.integral());
    int start = startV.coerceToInt();
    int len = lenV.coerceToInt();
    uassert(34454, "$substrCP: length must be a nonnegative integer.", len >= 0);
    uassert(34455, "$substrCP: the starting index must be nonnegative integer.", start >= 0);
    auto cps = codePoints(s);
    std::string out;
    for (size_t i = start; i < cps.size() && i < static_cast<size_t>(start) + len; i++) out += cps[i];
    return Value(out);
}

Value strLenBytes(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    uassert(34473, "$strLenBytes requires a string argument, found: " + typeNameOf(v), v.getType() == String);
    size_t n = v.getStringData().size();
    uassert(34470, "string length could not be represented as an int.", n <= std::numeric_limits<int>::max());
    return Value(static_cast<int>(n));
}

Value strLenCP(const std::string&, const std::vector<Value>& args) {
    const Value& v = args[0];
    uassert(34471, "$strLenCP requires a string argument, found: " + typeNameOf(v), v.getType() == String);
    return Value(static_cast<int>(codePointCount(v.getStringData())));
}

Value split(const std::string&, const std::vector<Value>& args) {
    const Value& in = args[0];
    const Value& sep = args[1];
    if (in.nullish() || sep.nullish()) return Value::null();
    uassert(40085,
            "$split requires an expression that evaluates to a string as a first argument, found: " + typeNameOf(in),
            in.getType() == String);
    uassert(40086,
            "$split requires an expression that evaluates to a string as a second argument, found: " +
                typeNameOf(sep),
            sep.getType() == String);
    std::string_view s = in.getStringData(), d = sep.getStringData();
    uassert(40087, "$split requires a non-empty separator", !d.empty());
    std::vector<Value> out;
    size_t pos = 0;
    while (true) {
        size_t f = s.find(d, pos);
        if (f == std::string_view::npos) break;
        out.emplace_back(s.substr(pos, f - pos));
        pos = f + d.size();
    }
    out.emplace_back(s.substr(pos));
    return Value(std::move(out));
}

Value strcasecmpFn(const std::string&, const std::vector<Value>& args) {
    std::string a = args[0].coerceToString(), b = args[1].coerceToString();
    for (char& c : a) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : b) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int c = a.compare(b);
    return Value(c < 0 ? -1 : (c > 0 ? 1 : 0));
}

// Validates the optional start/end index arguments of $indexOfBytes/$indexOfCP.
size_t indexArg(const std::string& op, const Value& v, const char* which) {
    uassert(40096,
            op + " requires an integral " + which + ", found a value of type: " + typeNameOf(v) +
                ", with value: " + v.toString(),
            v.numeric() && v.integral());
    int i = v.coerceToInt();
    uassert(40097, op + " requires a nonnegative " + which + ", found: " + std::to_string(i), i >= 0);
    return static_cast<size_t>(i);
}

Value indexOf(const std::string& op, const std::vector<Value>& args, bool bytes) {
    const Value& in = args[0];
    if (in.nullish()) return Value::null();
    uassert(bytes ? 40091 : 40093, op + " requires a string as the first argument, found: " + typeNameOf(in),
            in.getType() == String);
    const Value& token = args[1];
    uassert(bytes ? 40092 : 40094, op + " requires a string as the second argument, found: " + typeNameOf(token),
            token.getType() == String);
    std::string_view s = in.getStringData(), t = token.getStringData();
    if (bytes) {
        size_t start = args.size() > 2 ? indexArg(op, args[2], "starting index") : 0;
        size_t end = args.size() > 3 ? indexArg(op, args[3], "ending index") : s.size();
        if (start > s.size() || start > end) return Value(-1);
        end = std::min(end, s.size());
        size_t f = s.substr(0, end).find(t, start);
        if (f == std::string_view::npos || f + t.size() > end) return Value(-1);
        return Value(static_cast<int>(f));
    }
    auto cps = codePoints(s);
    size_t start = args.size() > 2 ? indexArg(op, args[2], "starting index") : 0;
    size_t end = args.size() > 3 ? indexArg(op, args[3], "ending index") : cps.size();
    if (start > cps.size() || start > end) return Value(-1);
    end = std::min(end, cps.size());
    // Byte offsets of each code point, to search bytes but report code point positions.
    std::vector<size_t> offs;
    size_t off = 0;
    for (auto cp : cps) {
        offs.push_back(off);
        off += cp.size();
    }
    offs.push_back(off);
    for (size_t i = start; i < end || (t.empty() && i == end); i++) {
        if (s.substr(offs[i]).substr(0, t.size()) == t && offs[i] + t.size() <= offs[end]) return Value(static_cast<int>(i));
        if (i == end) break;
    }
    return Value(-1);
}

// ---------------------------------------------------------------- $trim family

bool isDefaultWhitespace(std::string_view cp) {
    static const char* kWs[] = {" ", "\t", "\n", "\v", "\f", "\r",
                                "\xC2\xA0", "\xE1\x9A\x80", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF",
                                "\xE2\x81\x9F", "\xE3\x80\x80"};
    if (cp.size() == 1 && cp[0] == '\0') return true;
    for (size_t i = 0; i < sizeof(kWs) / sizeof(kWs[0]); i++)
        if (cp == kWs[i]) return true;
    // U+2000 .. U+200A
    if (cp.size() == 3 && static_cast<unsigned char>(cp[0]) == 0xE2 && static_cast<unsigned char>(cp[1]) == 0x80) {
        unsigned char c = static_cast<unsigned char>(cp[2]);
        return c >= 0x80 && c <= 0x8A;
    }
    return false;
}

class ExpressionTrim : public Expression {
public:
    ExpressionTrim(std::string op, bool left, bool right, ExprPtr input, ExprPtr chars)
        : _op(std::move(op)), _left(left), _right(right), _input(std::move(input)), _chars(std::move(chars)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        if (in.nullish()) return Value::null();
        uassert(50699,
                _op + " requires its input to be a string, got " + in.toString() + " (of type " + typeNameOf(in) +
                    ") instead.",
                in.getType() == String);
        std::vector<std::string_view> trimSet;
        bool useDefault = true;
        Value chars;
        if (_chars) {
            chars = _chars->evaluate(root, vars);
            if (chars.nullish()) return Value::null();
            uassert(50700,
                    _op + " requires 'chars' to be a string, got " + chars.toString() + " (of type " +
                        typeNameOf(chars) + ") instead.",
                    chars.getType() == String);
            trimSet = codePoints(chars.getStringData());
            useDefault = false;
        }
        auto inSet = [&](std::string_view cp) {
            if (useDefault) return isDefaultWhitespace(cp);
            for (auto c : trimSet)
                if (c == cp) return true;
            return false;
        };
        auto cps = codePoints(in.getStringData());
        size_t b = 0, e = cps.size();
        if (_left)
            while (b < e && inSet(cps[b])) b++;
        if (_right)
            while (e > b && inSet(cps[e - 1])) e--;
        std::string out;
        for (size_t i = b; i < e; i++) out += cps[i];
        return Value(out);
    }

private:
    std::string _op;
    bool _left, _right;
    ExprPtr _input, _chars;
};

ExprPtr parseTrim(const std::string& op, const BSONElement& args, const VariablesParseState& vps, bool left,
                  bool right) {
    uassert(50696, op + " only supports an object as an argument, found: " + typeName(args.type()),
            args.type() == Object);
    ExprPtr input, chars;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = Expression::parseOperand(f, vps);
        else if (n == "chars")
            chars = Expression::parseOperand(f, vps);
        else
            uasserted(50694, op + " found an unknown argument: " + std::string(n));
    }
    uassert(50695, op + " requires an 'input' field", input != nullptr);
    return std::make_unique<ExpressionTrim>(op, left, right, std::move(input), std::move(chars));
}

// ---------------------------------------------------------------- $replaceOne / $replaceAll

class ExpressionReplace : public Expression {
public:
    ExpressionReplace(std::string op, bool all, ExprPtr input, ExprPtr find, ExprPtr repl)
        : _op(std::move(op)), _all(all), _input(std::move(input)), _find(std::move(find)), _repl(std::move(repl)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        Value find = _find->evaluate(root, vars);
        Value repl = _repl->evaluate(root, vars);
        uassert(51746, _op + " requires that 'input' be a string, found: " + in.toString(),
                in.nullish() || in.getType() == String);
        uassert(51745, _op + " requires that 'find' be a string, found: " + find.toString(),
                find.nullish() || find.getType() == String);
        uassert(51744, _op + " requires that 'replacement' be a string, found: " + repl.toString(),
                repl.nullish() || repl.getType() == String);
        if (in.nullish() || find.nullish() || repl.nullish()) return Value::null();
        std::string_view s = in.getStringData();
        std::string_view f = find.getStringData(), r = repl.getStringData();
        std::string out;
        if (f.empty()) {
            // An empty 'find' matches before every code point and at the end.
            if (!_all) {
                checkValueStringSize(r.size() + s.size());
                return Value(std::string(r) + std::string(s));
            }
            out = std::string(r);
            for (auto cp : codePoints(s)) {
                checkStringBuilderSize(out.size() + cp.size() + r.size());
                out += cp;
                out += r;
            }
            return Value(out);
        }
        size_t pos = 0;
        while (true) {
            size_t at = s.find(f, pos);
            if (at == std::string_view::npos) break;
            checkStringBuilderSize(out.size() + (at - pos) + r.size());
            out.append(s.substr(pos, at - pos));
            out += r;
            pos = at + f.size();
            if (!_all) break;
        }
        out.append(s.substr(pos));
        return Value(out);
    }

private:
    std::string _op;
    bool _all;
    ExprPtr _input, _find, _repl;
};

ExprPtr parseReplace(const std::string& op, const BSONElement& args, const VariablesParseState& vps, bool all) {
    uassert(51751, op + " requires an object as an argument, found: " + typeName(args.type()), args.type() == Object);
    ExprPtr input, find, repl;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = Expression::parseOperand(f, vps);
        else if (n == "find")
            find = Expression::parseOperand(f, vps);
        else if (n == "replacement")
            repl = Expression::parseOperand(f, vps);
        else
            uasserted(51750, op + " found an unknown argument: " + std::string(n));
    }
    uassert(51749, op + " requires 'input' to be specified", input != nullptr);
    uassert(51748, op + " requires 'find' to be specified", find != nullptr);
    uassert(51747, op + " requires 'replacement' to be specified", repl != nullptr);
    return std::make_unique<ExpressionReplace>(op, all, std::move(input), std::move(find), std::move(repl));
}

// ---------------------------------------------------------------- regex expressions

enum class RegexMode { kMatch, kFind, kFindAll };

struct CompiledRegex {
    pcre2_code* code = nullptr;
    ~CompiledRegex() {
        if (code) pcre2_code_free(code);
    }
};

class ExpressionRegex : public Expression {
public:
    ExpressionRegex(std::string op, RegexMode mode, ExprPtr input, ExprPtr regex, ExprPtr options)
        : _op(std::move(op)), _mode(mode), _input(std::move(input)), _regex(std::move(regex)), _options(std::move(options)) {}

    Value evaluate(const Document& root, Variables* vars) const override {
        Value in = _input->evaluate(root, vars);
        Value re = _regex->evaluate(root, vars);
        Value opts = _options ? _options->evaluate(root, vars) : Value();
        std::string pattern, flags;
        bool haveRegex = true;
        if (re.nullish()) {
            haveRegex = false;
        } else if (re.getType() == RegEx) {
            BSONElement e = re.rawElement();
            pattern = e.regex();
            flags = e.regexFlags();
            if (!opts.nullish()) {
                uassert(51106, _op + " needs 'options' to be of type string", opts.getType() == String);
                uassert(51107, _op + " found regex option(s) specified in both 'regex' and 'option' fields",
                        flags.empty());
                flags = opts.getString();
            }
        } else if (re.getType() == String) {
            pattern = re.getString();
            uassert(51109, _op + ": regular expression cannot contain an embedded null byte",
                    pattern.find('\0') == std::string::npos);
            if (!opts.nullish()) {
                uassert(51106, _op + " needs 'options' to be of type string", opts.getType() == String);
                flags = opts.getString();
            }
        } else {
            uasserted(51105, _op + " needs 'regex' to be of type string or regex");
        }
        uassert(51110, _op + ":  regular expression options cannot contain an embedded null byte",
                flags.find('\0') == std::string::npos);
        uint32_t pflags = PCRE2_UTF;
        for (char c : flags) {
            switch (c) {
                case 'i': pflags |= PCRE2_CASELESS; break;
                case 'm': pflags |= PCRE2_MULTILINE; break;
                case 's': pflags |= PCRE2_DOTALL; break;
                case 'x': pflags |= PCRE2_EXTENDED; break;
                default: uasserted(51108, _op + " invalid flag in regex options: " + std::string(1, c));
            }
        }
        if (in.nullish() || !haveRegex) {
            if (_mode == RegexMode::kMatch) return Value(false);
            if (_mode == RegexMode::kFind) return Value::null();
            return Value(std::vector<Value>());
        }
        uassert(51104, _op + " needs 'input' to be of type string", in.getType() == String);

        int err;
        PCRE2_SIZE errOff;
        CompiledRegex rx;
        rx.code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), pflags, &err, &errOff,
                                nullptr);
        if (!rx.code) {
            PCRE2_UCHAR buf[256];
            pcre2_get_error_message(err, buf, sizeof buf);
            uasserted(51111, "Invalid Regex in " + _op + ": " + std::string(reinterpret_cast<char*>(buf)));
        }
        std::string_view s = in.getStringData();
        pcre2_match_data* md = pcre2_match_data_create_from_pattern(rx.code, nullptr);
        std::vector<Value> results;
        size_t pos = 0;
        while (pos <= s.size()) {
            int rc = pcre2_match(rx.code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), pos, 0, md, nullptr);
            if (rc < 0) break;
            PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
            if (_mode == RegexMode::kMatch) {
                pcre2_match_data_free(md);
                return Value(true);
            }
            uint32_t ncap = pcre2_get_ovector_count(md);
            std::vector<Value> caps;
            for (uint32_t i = 1; i < ncap; i++) {
                if (ov[2 * i] == PCRE2_UNSET || static_cast<int>(i) >= rc)
                    caps.push_back(Value::null());
                else
                    caps.emplace_back(s.substr(ov[2 * i], ov[2 * i + 1] - ov[2 * i]));
            }
            std::vector<Document::Field> f;
            f.emplace_back("match", Value(s.substr(ov[0], ov[1] - ov[0])));
            f.emplace_back("idx", Value(static_cast<int>(codePointCount(s.substr(0, ov[0])))));
            f.emplace_back("captures", Value(std::move(caps)));
            results.emplace_back(Document(std::move(f)));
            if (_mode == RegexMode::kFind) break;
            if (ov[1] == ov[0]) {
                // Empty match: step over one code point.
                if (ov[1] >= s.size()) break;
                pos = ov[1] + utf8SeqLen(static_cast<unsigned char>(s[ov[1]]));
            } else {
                pos = ov[1];
            }
        }
        pcre2_match_data_free(md);
        if (_mode == RegexMode::kMatch) return Value(false);
        if (_mode == RegexMode::kFind) return results.empty() ? Value::null() : results[0];
        return Value(std::move(results));
    }

private:
    std::string _op;
    RegexMode _mode;
    ExprPtr _input, _regex, _options;
};

ExprPtr parseRegex(const std::string& op, const BSONElement& args, const VariablesParseState& vps, RegexMode mode) {
    uassert(51103, op + " expects an object of named arguments but found: " + typeName(args.type()),
            args.type() == Object);
    ExprPtr input, regex, options;
    for (BSONElement f : args.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "input")
            input = Expression::parseOperand(f, vps);
        else if (n == "regex")
            regex = Expression::parseOperand(f, vps);
        else if (n == "options")
            options = Expression::parseOperand(f, vps);
        else
            uasserted(31024, op + " found an unknown argument: " + std::string(n));
    }
    uassert(31022, op + " requires 'input' parameter", input != nullptr);
    uassert(31023, op + " requires 'regex' parameter", regex != nullptr);
    return std::make_unique<ExpressionRegex>(op, mode, std::move(input), std::move(regex), std::move(options));
}

void registerString() {
    registerNaryExpression("$concat", 0, -1, concat);
    registerNaryExpression("$toLower", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return caseChange(a, false);
    });
    registerNaryExpression("$toUpper", 1, 1, [](const std::string&, const std::vector<Value>& a) {
        return caseChange(a, true);
    });
    registerNaryExpression("$substr", 3, 3, [](const std::string&, const std::vector<Value>& a) {
        return substrBytes("$substrBytes", a);
    });
    registerNaryExpression("$substrBytes", 3, 3, substrBytes);
    registerNaryExpression("$substrCP", 3, 3, substrCP);
    registerNaryExpression("$strLenBytes", 1, 1, strLenBytes);
    registerNaryExpression("$strLenCP", 1, 1, strLenCP);
    registerNaryExpression("$split", 2, 2, split);
    registerNaryExpression("$strcasecmp", 2, 2, strcasecmpFn);
    registerNaryExpression("$indexOfBytes", 2, 4, [](const std::string& op, const std::vector<Value>& a) {
        return indexOf(op, a, true);
    });
    registerNaryExpression("$indexOfCP", 2, 4, [](const std::string& op, const std::vector<Value>& a) {
        return indexOf(op, a, false);
    });
    struct TrimKind {
        const char* name;
        bool left, right;
    };
    for (TrimKind k : {TrimKind{"$trim", true, true}, TrimKind{"$ltrim", true, false}, TrimKind{"$rtrim", false, true}}) {
        Expression::registerOperator(k.name, [k](const std::string& op, const BSONElement& args,
                                                 const VariablesParseState& vps) {
            return parseTrim(op, args, vps, k.left, k.right);
        });
    }
    Expression::registerOperator("$replaceOne", [](const std::string& op, const BSONElement& args,
                                                   const VariablesParseState& vps) {
        return parseReplace(op, args, vps, false);
    });
    Expression::registerOperator("$replaceAll", [](const std::string& op, const BSONElement& args,
                                                   const VariablesParseState& vps) {
        return parseReplace(op, args, vps, true);
    });
    Expression::registerOperator("$regexMatch", [](const std::string& op, const BSONElement& args,
                                                   const VariablesParseState& vps) {
        return parseRegex(op, args, vps, RegexMode::kMatch);
    });
    Expression::registerOperator("$regexFind", [](const std::string& op, const BSONElement& args,
                                                  const VariablesParseState& vps) {
        return parseRegex(op, args, vps, RegexMode::kFind);
    });
    Expression::registerOperator("$regexFindAll", [](const std::string& op, const BSONElement& args,
                                                     const VariablesParseState& vps) {
        return parseRegex(op, args, vps, RegexMode::kFindAll);
    });
}

ExpressionRegistrar registrar(registerString);

}  // namespace
}  // namespace mongo
