// Parses a filter document into the MatchExpression tree, with MongoDB 7.0's error codes and
// messages for malformed filters.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "mongo/db/query/match_expression.h"
#include "mongo/db/query/matcher_parse_util.h"
#include "mongo/db/query/schema/json_schema_match_expression.h"

namespace mongo {
namespace {

// Where in the filter the parser is: $where/$expr/$text only make sense against the whole
// document, not inside $elemMatch.
enum class Level { kTop, kSubDocument };

enum class Keyword {
    Eq, Ne, Lt, Lte, Gt, Gte, In, Nin, Exists, Type, Mod, Regex, Options, ElemMatch, All, Size,
    BitsAllSet, BitsAllClear, BitsAnySet, BitsAnyClear, Geo, Not,
};

const Keyword* findKeyword(std::string_view name) {
    static const std::unordered_map<std::string_view, Keyword> kKeywords = {
        {"$eq", Keyword::Eq},
        {"$ne", Keyword::Ne},
        {"$lt", Keyword::Lt},
        {"$lte", Keyword::Lte},
        {"$gt", Keyword::Gt},
        {"$gte", Keyword::Gte},
        {"$in", Keyword::In},
        {"$nin", Keyword::Nin},
        {"$exists", Keyword::Exists},
        {"$type", Keyword::Type},
        {"$mod", Keyword::Mod},
        {"$regex", Keyword::Regex},
        {"$options", Keyword::Options},
        {"$elemMatch", Keyword::ElemMatch},
        {"$all", Keyword::All},
        {"$size", Keyword::Size},
        {"$bitsAllSet", Keyword::BitsAllSet},
        {"$bitsAllClear", Keyword::BitsAllClear},
        {"$bitsAnySet", Keyword::BitsAnySet},
        {"$bitsAnyClear", Keyword::BitsAnyClear},
        {"$geoWithin", Keyword::Geo},
        {"$within", Keyword::Geo},
        {"$geoIntersects", Keyword::Geo},
        {"$near", Keyword::Geo},
        {"$nearSphere", Keyword::Geo},
        {"$geoNear", Keyword::Geo},
        {"$not", Keyword::Not},
    };
    auto it = kKeywords.find(name);
    return it == kKeywords.end() ? nullptr : &it->second;
}

// Operators that apply to the document rather than a path ($and, $comment, ...).
bool isPathlessOperator(std::string_view nameWithoutDollar) {
    static const char* const kNames[] = {"and", "or", "nor", "comment", "alwaysTrue", "alwaysFalse", "where",
                                         "expr", "text", "jsonSchema", "sampleRate", "id", "ref", "db"};
    for (const char* n : kNames)
        if (nameWithoutDollar == n) return true;
    return false;
}

// A document is a DBRef if it has $ref and $id (or, when incomplete ones are allowed, any of
// $ref/$id/$db); such documents are values to compare, not operator documents.
bool isDBRefDocument(const BSONObj& obj, bool allowIncomplete) {
    bool ref = false, id = false, db = false;
    for (BSONElement e : obj) {
        auto n = e.fieldNameStringData();
        if (n == "$ref") ref = true;
        else if (n == "$id") id = true;
        else if (n == "$db") db = true;
    }
    return allowIncomplete ? (ref || id || db) : (ref && id);
}

// {$gt: 1, ...} as opposed to a plain embedded document to compare with.
bool isExpressionDocument(const BSONElement& e, bool allowIncompleteDBRef) {
    if (e.type() != Object) return false;
    BSONObj o = e.Obj();
    if (o.isEmpty()) return false;
    if (o.firstElementFieldName().empty() || o.firstElementFieldName()[0] != '$') return false;
    return !isDBRefDocument(o, allowIncompleteDBRef);
}

class Parser {
public:
    explicit Parser(const Collator* collator) : _collator(collator) {}
    std::unique_ptr<MatchExpression> parse(const BSONObj& obj, Level level);

private:
    std::unique_ptr<MatchExpression> parsePathless(const BSONElement& e, Level level);
    std::unique_ptr<MatchExpression> parseTree(const BSONElement& e, Level level);
    void parseSub(std::string_view path, const BSONObj& sub, AndMatchExpression* root, Level level);
    std::unique_ptr<MatchExpression> parseSubField(const BSONObj& context, std::string_view path,
                                                   const BSONElement& e, Level level);
    std::unique_ptr<MatchExpression> parseComparison(std::string_view path, ComparisonMatchExpression::Op op,
                                                     const BSONElement& e);
    std::unique_ptr<MatchExpression> parseNot(std::string_view path, const BSONElement& e, Level level);
    std::unique_ptr<MatchExpression> parseIn(std::string_view path, const BSONElement& e);
    std::unique_ptr<MatchExpression> parseType(std::string_view path, const BSONElement& e);
    std::unique_ptr<MatchExpression> parseMod(std::string_view path, const BSONElement& e);
    std::unique_ptr<MatchExpression> parseRegexDocument(std::string_view path, const BSONObj& context);
    std::unique_ptr<MatchExpression> parseElemMatch(std::string_view path, const BSONElement& e);
    std::unique_ptr<MatchExpression> parseAll(std::string_view path, const BSONElement& e);
    std::unique_ptr<MatchExpression> parseBitTest(std::string_view path, BitTestMatchExpression::Kind kind,
                                                  const BSONElement& e);

    const Collator* _collator;  // the query's collation for comparisons (null: simple)
    int _depth = 0;
};

// Nesting guard: filters come from clients, so deep nesting must fail cleanly, not overflow.
struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) {
        uassert(ErrorCodes::BadValue, "exceeded maximum query tree depth of 100", ++depth <= 100);
    }
    ~DepthGuard() { --depth; }
};

std::unique_ptr<MatchExpression> Parser::parse(const BSONObj& obj, Level level) {
    DepthGuard guard(_depth);
    auto root = std::make_unique<AndMatchExpression>();
    for (BSONElement e : obj) {
        auto name = e.fieldNameStringData();
        if (!name.empty() && name[0] == '$') {
            if (auto expr = parsePathless(e, level)) root->add(std::move(expr));
            continue;
        }
        uassert(5729100, "FieldPath is too long", std::count(name.begin(), name.end(), '.') + 1 <= BSONDepthMax);
        if (isExpressionDocument(e, false)) {
            parseSub(name, e.Obj(), root.get(), level);
        } else if (e.type() == RegEx) {
            root->add(std::make_unique<RegexMatchExpression>(name, e.regex(), e.regexFlags()));
        } else {
            root->add(parseComparison(name, ComparisonMatchExpression::EQ, e));
        }
    }
    if (root->numChildren() == 1) return root->releaseOnlyChild();
    return root;
}

std::unique_ptr<MatchExpression> Parser::parsePathless(const BSONElement& e, Level level) {
    auto name = e.fieldNameStringData();
    auto op = name.substr(1);
    if (op == "and" || op == "or" || op == "nor") return parseTree(e, level);
    if (op == "comment") return nullptr;
    if (op == "alwaysTrue" || op == "alwaysFalse") {
        long long v = uassertStatusOK(parseIntegerElementToLong(e));
        uassert(ErrorCodes::FailedToParse, std::string(name) + " must be an integer value of 1", v == 1);
        return std::make_unique<AlwaysBooleanMatchExpression>(op == "alwaysTrue");
    }
    if (op == "id" || op == "ref" || op == "db") {
        // A DBRef's fields inside an $elemMatch object ({$ref: "c", $id: 1}) compare as fields.
        return std::make_unique<ComparisonMatchExpression>(name, ComparisonMatchExpression::EQ, e, _collator);
    }
    if (op == "where" || op == "expr" || op == "text") {
        uassert(ErrorCodes::BadValue, std::string(name) + " can only be applied to the top-level document",
                level == Level::kTop);
        if (op == "text") uasserted(ErrorCodes::IndexNotFound, "text index required for $text query");
        if (op == "expr") return std::make_unique<ExprMatchExpression>(e, _collator);
        uasserted(ErrorCodes::BadValue, std::string(name) + " is not supported by this server");
    }
    if (op == "jsonSchema") return std::make_unique<JsonSchemaMatchExpression>(e);
    if (op == "sampleRate") uasserted(ErrorCodes::BadValue, std::string(name) + " is not supported by this server");
    std::string hint = op == "not" ? ". If you are trying to negate an entire expression, use $nor."
                                   : ". If you have a field name that starts with a '$' symbol, consider using "
                                     "$getField or $setField.";
    uasserted(ErrorCodes::BadValue, "unknown top level operator: " + std::string(name) + hint);
}

std::unique_ptr<MatchExpression> Parser::parseTree(const BSONElement& e, Level level) {
    auto name = e.fieldNameStringData();
    uassert(ErrorCodes::BadValue, std::string(name) + " must be an array", e.type() == Array);
    BSONObj arr = e.Obj();
    uassert(ErrorCodes::BadValue, "$and/$or/$nor must be a nonempty array", !arr.isEmpty());
    std::unique_ptr<ListOfMatchExpression> node;
    if (name == "$and") node = std::make_unique<AndMatchExpression>();
    else if (name == "$or") node = std::make_unique<OrMatchExpression>();
    else node = std::make_unique<NorMatchExpression>();
    for (BSONElement sub : arr) {
        uassert(ErrorCodes::BadValue, "$or/$and/$nor entries need to be full objects", sub.type() == Object);
        node->add(parse(sub.Obj(), level));
    }
    return node;
}

void Parser::parseSub(std::string_view path, const BSONObj& sub, AndMatchExpression* root, Level level) {
    DepthGuard guard(_depth);
    for (BSONElement deep : sub)
        if (auto expr = parseSubField(sub, path, deep, level)) root->add(std::move(expr));
}

std::unique_ptr<MatchExpression> Parser::parseSubField(const BSONObj& context, std::string_view path,
                                                       const BSONElement& e, Level level) {
    auto name = e.fieldNameStringData();
    const Keyword* kw = findKeyword(name);
    if (!kw) {
        uassert(ErrorCodes::BadValue, "$where cannot be applied to a field", name != "$where");
        uasserted(ErrorCodes::BadValue, "unknown operator: " + std::string(name));
    }
    using Op = ComparisonMatchExpression::Op;
    switch (*kw) {
        case Keyword::Eq: return parseComparison(path, Op::EQ, e);
        case Keyword::Lt: return parseComparison(path, Op::LT, e);
        case Keyword::Lte: return parseComparison(path, Op::LTE, e);
        case Keyword::Gt: return parseComparison(path, Op::GT, e);
        case Keyword::Gte: return parseComparison(path, Op::GTE, e);
        case Keyword::Ne:
            uassert(ErrorCodes::BadValue, "Can't have regex as arg to $ne.", e.type() != RegEx);
            return std::make_unique<NotMatchExpression>(parseComparison(path, Op::EQ, e));
        case Keyword::Not: return parseNot(path, e, level);
        case Keyword::In: return parseIn(path, e);
        case Keyword::Nin:
            uassert(ErrorCodes::BadValue, "$nin needs an array", e.type() == Array);
            return std::make_unique<NotMatchExpression>(parseIn(path, e));
        case Keyword::Exists: {
            auto exists = std::make_unique<ExistsMatchExpression>(path);
            if (e.trueValue()) return exists;
            return std::make_unique<NotMatchExpression>(std::move(exists));
        }
        case Keyword::Type: return parseType(path, e);
        case Keyword::Mod: return parseMod(path, e);
        case Keyword::Regex: return parseRegexDocument(path, context);
        case Keyword::Options:
            // Validated here, built together with its $regex (which may come later).
            for (BSONElement other : context)
                if (other.fieldNameStringData() == "$regex") return nullptr;
            uasserted(ErrorCodes::BadValue, "$options needs a $regex");
        case Keyword::ElemMatch: return parseElemMatch(path, e);
        case Keyword::All: return parseAll(path, e);
        case Keyword::Size: {
            auto size = parseIntegerElementToNonNegativeInt(e);
            if (!size.isOK())
                uasserted(ErrorCodes::BadValue, "Failed to parse $size. " + size.getStatus().reason());
            return std::make_unique<SizeMatchExpression>(path, size.getValue());
        }
        case Keyword::BitsAllSet: return parseBitTest(path, BitTestMatchExpression::AllSet, e);
        case Keyword::BitsAllClear: return parseBitTest(path, BitTestMatchExpression::AllClear, e);
        case Keyword::BitsAnySet: return parseBitTest(path, BitTestMatchExpression::AnySet, e);
        case Keyword::BitsAnyClear: return parseBitTest(path, BitTestMatchExpression::AnyClear, e);
        case Keyword::Geo:
            uasserted(ErrorCodes::BadValue, "geospatial query operator " + std::string(name) +
                                                " is not supported by this server");
    }
    uasserted(ErrorCodes::BadValue, "unknown operator: " + std::string(name));
}

std::unique_ptr<MatchExpression> Parser::parseComparison(std::string_view path, ComparisonMatchExpression::Op op,
                                                         const BSONElement& e) {
    if (op != ComparisonMatchExpression::EQ && e.type() == RegEx)
        uasserted(ErrorCodes::BadValue, "Can't have RegEx as arg to predicate over field '" + std::string(path) + "'.");
    uassert(ErrorCodes::BadValue, "cannot compare to undefined", e.type() != Undefined);
    return std::make_unique<ComparisonMatchExpression>(path, op, e, _collator);
}

std::unique_ptr<MatchExpression> Parser::parseNot(std::string_view path, const BSONElement& e, Level level) {
    if (e.type() == RegEx)
        return std::make_unique<NotMatchExpression>(std::make_unique<RegexMatchExpression>(path, e.regex(), e.regexFlags()));
    uassert(ErrorCodes::BadValue, "$not needs a regex or a document", e.type() == Object);
    BSONObj notObj = e.Obj();
    uassert(ErrorCodes::BadValue, "$not cannot be empty", !notObj.isEmpty());
    auto theAnd = std::make_unique<AndMatchExpression>();
    parseSub(path, notObj, theAnd.get(), level);
    return std::make_unique<NotMatchExpression>(std::move(theAnd));
}

std::unique_ptr<MatchExpression> Parser::parseIn(std::string_view path, const BSONElement& e) {
    uassert(ErrorCodes::BadValue, "$in needs an array", e.type() == Array);
    std::vector<BSONElement> equalities;
    std::vector<std::unique_ptr<MatcherRegex>> regexes;
    for (BSONElement x : e.Obj()) {
        uassert(ErrorCodes::BadValue, "cannot nest $ under $in", !isExpressionDocument(x, false));
        if (x.type() == RegEx) {
            regexes.push_back(std::make_unique<MatcherRegex>(x.regex(), x.regexFlags()));
        } else {
            uassert(ErrorCodes::BadValue, "InMatchExpression equality cannot be undefined", x.type() != Undefined);
            equalities.push_back(x);
        }
    }
    return std::make_unique<InMatchExpression>(path, std::move(equalities), std::move(regexes), _collator);
}

std::unique_ptr<MatchExpression> Parser::parseType(std::string_view path, const BSONElement& e) {
    std::vector<BSONType> types;
    bool allNumbers = false;
    auto addOne = [&](const BSONElement& t) {
        if (t.type() == String) {
            std::string alias = t.str();
            if (alias == "number") {
                allNumbers = true;
                return;
            }
            BSONType bt;
            uassert(ErrorCodes::BadValue, "Unknown type name alias: " + alias, typeFromAlias(alias, &bt));
            types.push_back(bt);
            return;
        }
        uassert(ErrorCodes::TypeMismatch, "type must be represented as a number or a string", t.isNumber());
        auto code = parseIntegerElementToInt(t);
        bool valid = code.isOK() && (code.getValue() == MinKey || code.getValue() == MaxKey ||
                                     (code.getValue() >= NumberDouble && code.getValue() <= NumberDecimal));
        uassert(ErrorCodes::BadValue, "Invalid numerical type code: " + t.toString(false), valid);
        types.push_back(static_cast<BSONType>(code.getValue()));
    };
    if (e.type() == Array) {
        for (BSONElement t : e.Obj()) addOne(t);
        uassert(ErrorCodes::FailedToParse, std::string(path) + " must match at least one type",
                allNumbers || !types.empty());
    } else {
        addOne(e);
    }
    return std::make_unique<TypeMatchExpression>(path, std::move(types), allNumbers);
}

std::unique_ptr<MatchExpression> Parser::parseMod(std::string_view path, const BSONElement& e) {
    uassert(ErrorCodes::BadValue, "malformed mod, needs to be an array", e.type() == Array);
    BSONObjIterator it(e.Obj());
    uassert(ErrorCodes::BadValue, "malformed mod, not enough elements", it.more());
    BSONElement d = it.next();
    uassert(ErrorCodes::BadValue, "malformed mod, divisor not a number", d.isNumber());
    uassert(ErrorCodes::BadValue, "malformed mod, not enough elements", it.more());
    BSONElement r = it.next();
    uassert(ErrorCodes::BadValue, "malformed mod, remainder not a number", r.isNumber());
    uassert(ErrorCodes::BadValue, "malformed mod, too many elements", !it.more());
    long long divisor = 0, remainder = 0;
    Status s = coerceToLongLong(d, &divisor);
    if (!s.isOK()) uasserted(s.code(), "malformed mod, divisor value is invalid :: caused by :: " + s.reason());
    s = coerceToLongLong(r, &remainder);
    if (!s.isOK()) uasserted(s.code(), "malformed mod, remainder value is invalid :: caused by :: " + s.reason());
    uassert(ErrorCodes::BadValue, "divisor cannot be 0", divisor != 0);
    return std::make_unique<ModMatchExpression>(path, divisor, remainder);
}

std::unique_ptr<MatchExpression> Parser::parseRegexDocument(std::string_view path, const BSONObj& context) {
    std::string_view pattern, options;
    bool optionsSet = false;
    for (BSONElement e : context) {
        auto name = e.fieldNameStringData();
        if (name == "$regex") {
            if (e.type() == String) {
                pattern = e.valueStringData();
            } else if (e.type() == RegEx) {
                pattern = e.regex();
                if (*e.regexFlags()) {
                    uassert(51074, "options set in both $regex and $options", !optionsSet);
                    options = e.regexFlags();
                    optionsSet = true;
                }
            } else {
                uasserted(ErrorCodes::BadValue, "$regex has to be a string");
            }
        } else if (name == "$options") {
            uassert(ErrorCodes::BadValue, "$options has to be a string", e.type() == String);
            uassert(51075, "options set in both $regex and $options", !optionsSet);
            options = e.valueStringData();
            optionsSet = !options.empty();
        }
    }
    return std::make_unique<RegexMatchExpression>(path, pattern, options);
}

std::unique_ptr<MatchExpression> Parser::parseElemMatch(std::string_view path, const BSONElement& e) {
    uassert(ErrorCodes::BadValue, "$elemMatch needs an Object", e.type() == Object);
    BSONObj obj = e.Obj();
    // Value form ({$gt: 1}) when the document starts with an operator that takes a path;
    // otherwise ({b: 1}, {$or: [...]}) the object form, matched against each element.
    bool valueForm = isExpressionDocument(e, true) && !isPathlessOperator(obj.firstElementFieldName().substr(1));
    if (valueForm) {
        AndMatchExpression theAnd;
        parseSub("", obj, &theAnd, Level::kSubDocument);
        // The children are tested against each array element, not through a path.
        auto subs = theAnd.releaseChildren();
        return std::make_unique<ElemMatchValueMatchExpression>(path, std::move(subs));
    }
    auto sub = parse(obj, Level::kSubDocument);
    return std::make_unique<ElemMatchObjectMatchExpression>(path, std::move(sub));
}

std::unique_ptr<MatchExpression> Parser::parseAll(std::string_view path, const BSONElement& e) {
    uassert(ErrorCodes::BadValue, "$all needs an array", e.type() == Array);
    BSONObj arr = e.Obj();
    auto myAnd = std::make_unique<AndMatchExpression>();
    BSONElement first = arr.firstElement();
    if (first.type() == Object && first.Obj().firstElementFieldName() == "$elemMatch") {
        for (BSONElement x : arr) {
            uassert(ErrorCodes::BadValue, "$all/$elemMatch has to be consistent",
                    x.type() == Object && x.Obj().firstElementFieldName() == "$elemMatch");
            myAnd->add(parseElemMatch(path, x.Obj().firstElement()));
        }
        return myAnd;
    }
    for (BSONElement x : arr) {
        if (x.type() == RegEx) {
            myAnd->add(std::make_unique<RegexMatchExpression>(path, x.regex(), x.regexFlags()));
        } else if (x.type() == Object && findKeyword(x.Obj().firstElementFieldName()) &&
                   x.Obj().firstElementFieldName() != "$not") {
            uasserted(ErrorCodes::BadValue, "no $ expressions in $all");
        } else {
            myAnd->add(parseComparison(path, ComparisonMatchExpression::EQ, x));
        }
    }
    if (myAnd->numChildren() == 0) return std::make_unique<AlwaysBooleanMatchExpression>(false);
    return myAnd;
}

std::unique_ptr<MatchExpression> Parser::parseBitTest(std::string_view path, BitTestMatchExpression::Kind kind,
                                                      const BSONElement& e) {
    std::vector<uint32_t> positions;
    if (e.type() == Array) {
        for (BSONElement p : e.Obj()) {
            auto pos = parseIntegerElementToNonNegativeInt(p);
            if (!pos.isOK())
                uasserted(ErrorCodes::BadValue, "Failed to parse bit position. " + pos.getStatus().reason());
            positions.push_back(static_cast<uint32_t>(pos.getValue()));
        }
    } else if (e.isNumber()) {
        long long mask = uassertStatusOK(parseIntegerElementToNonNegativeLong(e));
        for (uint32_t bit = 0; bit < 64; bit++)
            if ((static_cast<unsigned long long>(mask) >> bit) & 1) positions.push_back(bit);
    } else if (e.type() == BinData) {
        int len, subtype;
        const char* data = e.binData(&len, &subtype);
        for (int byte = 0; byte < len; byte++)
            for (int bit = 0; bit < 8; bit++)
                if ((static_cast<unsigned char>(data[byte]) >> bit) & 1) positions.push_back(byte * 8 + bit);
    } else {
        uasserted(ErrorCodes::BadValue, std::string(e.fieldNameStringData()) +
                                            " takes an Array, a number, or a BinData but received: " + e.toString());
    }
    return std::make_unique<BitTestMatchExpression>(path, kind, std::move(positions));
}

}  // namespace

std::unique_ptr<MatchExpression> parseMatchExpression(const BSONObj& filter, const Collator* collator) {
    Parser p(collator);
    return p.parse(filter, Level::kTop);
}

}  // namespace mongo
