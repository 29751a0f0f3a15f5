// Collator over ICU's C API (ucol_*): parsing and normalizing MongoDB's collation document,
// and comparing strings / making sort keys under it.
#include "mongo/db/query/collator.h"

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/element_format.h"

namespace mongo {
namespace {

const char* const kParsePrefix = "unable to parse collation :: caused by :: ";

[[noreturn]] void wrongType(std::string_view field, const BSONElement& e, const char* expected) {
    uasserted(ErrorCodes::TypeMismatch, std::string(kParsePrefix) + "BSON field 'collation." + std::string(field) +
                                            "' is the wrong type '" + typeName(e.type()) + "', expected type '" +
                                            expected + "'");
}

[[noreturn]] void badEnum(std::string_view field, const std::string& v) {
    uasserted(ErrorCodes::BadValue, std::string(kParsePrefix) + "Enumeration value '" + v + "' for field 'collation." +
                                        std::string(field) + "' is not a valid value.");
}

std::string stringField(std::string_view field, const BSONElement& e) {
    if (e.type() != String) wrongType(field, e, "string");
    return e.str();
}

bool boolField(std::string_view field, const BSONElement& e) {
    if (e.type() != Bool) wrongType(field, e, "bool");
    return e.boolean();
}

// What the document asked for; unset options take the locale's defaults.
struct Requested {
    std::string locale;
    std::optional<bool> caseLevel, numericOrdering, normalization, backwards;
    std::optional<std::string> caseFirst, alternate, maxVariable;
    std::optional<int> strength;
};

Requested parseRequested(const BSONObj& spec) {
    Requested r;
    bool haveLocale = false;
    for (BSONElement e : spec) {
        std::string_view f = e.fieldNameStringData();
        if (f == "locale") {
            r.locale = stringField(f, e);
            haveLocale = true;
        } else if (f == "caseLevel") {
            r.caseLevel = boolField(f, e);
        } else if (f == "caseFirst") {
            std::string v = stringField(f, e);
            if (v != "upper" && v != "lower" && v != "off") badEnum(f, v);
            r.caseFirst = v;
        } else if (f == "strength") {
            if (!e.isNumber()) wrongType(f, e, "int");
            long long s = e.type() == NumberDouble ? static_cast<long long>(e.numberDouble()) : e.numberLong();
            if (s < 0)
                uasserted(ErrorCodes::Location51024, std::string(kParsePrefix) +
                                                         "BSON field 'strength' value must be >= 0, actual value '" +
                                                         std::to_string(s) + "'");
            if (s > 5)
                uasserted(ErrorCodes::Location51024, std::string(kParsePrefix) +
                                                         "BSON field 'strength' value must be <= 5, actual value '" +
                                                         std::to_string(s) + "'");
            if (s == 0) badEnum(f, "0");
            r.strength = static_cast<int>(s);
        } else if (f == "numericOrdering") {
            r.numericOrdering = boolField(f, e);
        } else if (f == "alternate") {
            std::string v = stringField(f, e);
            if (v != "non-ignorable" && v != "shifted") badEnum(f, v);
            r.alternate = v;
        } else if (f == "maxVariable") {
            std::string v = stringField(f, e);
            if (v != "punct" && v != "space") badEnum(f, v);
            r.maxVariable = v;
        } else if (f == "normalization") {
            r.normalization = boolField(f, e);
        } else if (f == "backwards") {
            r.backwards = boolField(f, e);
        } else if (f == "version") {
            std::string v = stringField(f, e);
            uassert(ErrorCodes::IncompatibleCollationVersion,
                    "Requested collation version " + v + " but the only available collator version was " +
                        Collator::kVersion + ". Requested collation spec: " + formatObjectForError(spec),
                    v == Collator::kVersion);
        } else {
            uasserted(ErrorCodes::Location40415,
                      std::string(kParsePrefix) + "BSON field 'collation." + std::string(f) + "' is an unknown field.");
        }
    }
    if (!haveLocale)
        uasserted(ErrorCodes::Location40414,
                  std::string(kParsePrefix) + "BSON field 'collation.locale' is missing but a required field");
    return r;
}

// ICU's locales with a collation of their own (ucol_getAvailable), and the "collation"
// keyword values each supports. MongoDB refuses a locale ICU would silently replace by a
// fallback (root, or a parent), so the check is on this list, not on ucol_open's success.
bool localeSupported(const std::string& locale) {
    if (locale.empty() || locale.size() > 100 || locale.find('\0') != std::string::npos) return false;
    // ICU treats "x-..." / "i-..." as private-use or grandfathered tags: not locales here.
    if (locale.size() >= 2 && (locale[1] == '_' || locale[1] == '-')) return false;
    static const std::set<std::string> available = [] {
        std::set<std::string> s;
        for (int32_t i = 0, n = ucol_countAvailable(); i < n; ++i) s.insert(ucol_getAvailable(i));
        s.erase("root");
        return s;
    }();
    std::string base = locale, keyword;
    if (size_t at = locale.find('@'); at != std::string::npos) {
        base = locale.substr(0, at);
        std::string rest = locale.substr(at + 1);
        const std::string prefix = "collation=";
        if (rest.compare(0, prefix.size(), prefix) != 0 || rest.size() == prefix.size()) return false;
        keyword = rest.substr(prefix.size());
        if (keyword == "standard") return false;  // MongoDB's list names the locale without it
    }
    if (!available.count(base)) return false;
    if (keyword.empty()) return true;
    UErrorCode st = U_ZERO_ERROR;
    UEnumeration* values = ucol_getKeywordValuesForLocale("collation", base.c_str(), false, &st);
    if (U_FAILURE(st) || !values) return false;
    bool found = false;
    while (const char* v = uenum_next(values, nullptr, &st)) {
        if (U_FAILURE(st)) break;
        if (keyword == v) {
            found = true;
            break;
        }
    }
    uenum_close(values);
    return found;
}

void setAttr(UCollator* c, UColAttribute a, UColAttributeValue v) {
    UErrorCode st = U_ZERO_ERROR;
    ucol_setAttribute(c, a, v, &st);
    uassert(ErrorCodes::InternalError, std::string("ICU failed to set a collation attribute: ") + u_errorName(st),
            U_SUCCESS(st));
}

UColAttributeValue getAttr(UCollator* c, UColAttribute a) {
    UErrorCode st = U_ZERO_ERROR;
    UColAttributeValue v = ucol_getAttribute(c, a, &st);
    uassert(ErrorCodes::InternalError, std::string("ICU failed to read a collation attribute: ") + u_errorName(st),
            U_SUCCESS(st));
    return v;
}

UColAttributeValue onOff(bool b) { return b ? UCOL_ON : UCOL_OFF; }

std::shared_ptr<const Collator> build(const Requested& r, const BSONObj& given) {
    uassert(ErrorCodes::BadValue, "Field 'locale' is invalid in: " + formatObjectForError(given),
            localeSupported(r.locale));
    UErrorCode st = U_ZERO_ERROR;
    UCollator* c = ucol_open(r.locale.c_str(), &st);
    uassert(ErrorCodes::BadValue, "Field 'locale' is invalid in: " + formatObjectForError(given),
            U_SUCCESS(st) && c);
    std::unique_ptr<UCollator, void (*)(UCollator*)> guard(c, ucol_close);
    if (r.caseLevel) setAttr(c, UCOL_CASE_LEVEL, onOff(*r.caseLevel));
    if (r.caseFirst)
        setAttr(c, UCOL_CASE_FIRST,
                *r.caseFirst == "upper" ? UCOL_UPPER_FIRST : (*r.caseFirst == "lower" ? UCOL_LOWER_FIRST : UCOL_OFF));
    if (r.strength) {
        static const UColAttributeValue levels[] = {UCOL_PRIMARY, UCOL_PRIMARY, UCOL_SECONDARY, UCOL_TERTIARY,
                                                    UCOL_QUATERNARY, UCOL_IDENTICAL};
        setAttr(c, UCOL_STRENGTH, levels[*r.strength]);
    }
    if (r.numericOrdering) setAttr(c, UCOL_NUMERIC_COLLATION, onOff(*r.numericOrdering));
    if (r.alternate) setAttr(c, UCOL_ALTERNATE_HANDLING, *r.alternate == "shifted" ? UCOL_SHIFTED : UCOL_NON_IGNORABLE);
    if (r.maxVariable) {
        ucol_setMaxVariable(c, *r.maxVariable == "space" ? UCOL_REORDER_CODE_SPACE : UCOL_REORDER_CODE_PUNCTUATION, &st);
        uassert(ErrorCodes::InternalError, "ICU failed to set maxVariable", U_SUCCESS(st));
    }
    if (r.normalization) setAttr(c, UCOL_NORMALIZATION_MODE, onOff(*r.normalization));
    if (r.backwards) setAttr(c, UCOL_FRENCH_COLLATION, onOff(*r.backwards));

    // The full form: what was asked, and the locale's defaults for the rest.
    BSONObjBuilder b;
    b.append("locale", r.locale);
    b.append("caseLevel", getAttr(c, UCOL_CASE_LEVEL) == UCOL_ON);
    UColAttributeValue cf = getAttr(c, UCOL_CASE_FIRST);
    b.append("caseFirst", cf == UCOL_UPPER_FIRST ? "upper" : (cf == UCOL_LOWER_FIRST ? "lower" : "off"));
    UColAttributeValue s = getAttr(c, UCOL_STRENGTH);
    int strength = s == UCOL_PRIMARY ? 1 : s == UCOL_SECONDARY ? 2 : s == UCOL_TERTIARY ? 3 : s == UCOL_QUATERNARY ? 4 : 5;
    b.appendInt("strength", strength);
    b.append("numericOrdering", getAttr(c, UCOL_NUMERIC_COLLATION) == UCOL_ON);
    b.append("alternate", getAttr(c, UCOL_ALTERNATE_HANDLING) == UCOL_SHIFTED ? "shifted" : "non-ignorable");
    b.append("maxVariable", ucol_getMaxVariable(c) == UCOL_REORDER_CODE_SPACE ? "space" : "punct");
    b.append("normalization", getAttr(c, UCOL_NORMALIZATION_MODE) == UCOL_ON);
    b.append("backwards", getAttr(c, UCOL_FRENCH_COLLATION) == UCOL_ON);
    b.append("version", Collator::kVersion);
    guard.release();
    return std::make_shared<const Collator>(c, b.obj());
}

// UTF-8 to UTF-16, invalid sequences as U+FFFD (what ucol_strcollUTF8 does with them, so that
// keys and comparisons agree).
std::vector<UChar> toUtf16(std::string_view s) {
    std::vector<UChar> out(s.size() + 1);
    int32_t len = 0;
    UErrorCode st = U_ZERO_ERROR;
    u_strFromUTF8WithSub(out.data(), static_cast<int32_t>(out.size()), &len, s.data(), static_cast<int32_t>(s.size()),
                         0xFFFD, nullptr, &st);
    out.resize(U_SUCCESS(st) ? len : 0);
    return out;
}

}  // namespace

Collator::Collator(UCollator* c, BSONObj spec) : _collator(c), _spec(std::move(spec)) {}

Collator::~Collator() { ucol_close(_collator); }

std::shared_ptr<const Collator> Collator::make(const BSONObj& spec) {
    BSONElement locale = spec["locale"];
    if (locale.type() == String && locale.valueStringData() == "simple") {
        uassert(ErrorCodes::FailedToParse,
                "If locale=simple, no other fields should be present in: " + formatObjectForError(spec),
                spec.nFields() == 1);
        return nullptr;
    }
    // Identical requests share one ICU collator (opening one costs tens of microseconds and
    // some memory); the cache holds few entries in practice (one per distinct spec used). Only
    // valid specs are cached, so a hit needs no parsing. A collator is cached under its full
    // spec too, so the collection, its indexes (which store the full spec) and queries that
    // spell the collation in full share one object, and sameCollation() compares pointers.
    static std::mutex mu;
    static std::map<std::string, std::shared_ptr<const Collator>> cache;
    auto keyOf = [](const BSONObj& o) { return std::string(o.objdata(), o.objsize()); };
    const std::string key = keyOf(spec);
    {
        std::lock_guard<std::mutex> lk(mu);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
    }
    std::shared_ptr<const Collator> c = build(parseRequested(spec), spec);
    std::lock_guard<std::mutex> lk(mu);
    if (cache.size() > 1000) cache.clear();  // bounded: specs come from clients
    std::shared_ptr<const Collator> shared = cache.emplace(keyOf(c->spec()), c).first->second;
    cache.emplace(key, shared);
    return shared;
}

int Collator::compare(std::string_view a, std::string_view b) const {
    UErrorCode st = U_ZERO_ERROR;
    UCollationResult r = ucol_strcollUTF8(_collator, a.data(), static_cast<int32_t>(a.size()), b.data(),
                                          static_cast<int32_t>(b.size()), &st);
    uassert(ErrorCodes::InternalError, std::string("ICU string comparison failed: ") + u_errorName(st), U_SUCCESS(st));
    return r == UCOL_LESS ? -1 : (r == UCOL_GREATER ? 1 : 0);
}

std::string Collator::comparisonKey(std::string_view s) const {
    std::vector<UChar> u = toUtf16(s);
    std::string key(64 + u.size() * 4, '\0');
    int32_t n = ucol_getSortKey(_collator, u.data(), static_cast<int32_t>(u.size()),
                                reinterpret_cast<uint8_t*>(key.data()), static_cast<int32_t>(key.size()));
    if (n > static_cast<int32_t>(key.size())) {
        key.assign(n, '\0');
        n = ucol_getSortKey(_collator, u.data(), static_cast<int32_t>(u.size()), reinterpret_cast<uint8_t*>(key.data()),
                            static_cast<int32_t>(key.size()));
    }
    key.resize(n > 0 ? n - 1 : 0);  // without the terminating NUL
    return key;
}

bool sameCollation(const Collator* a, const Collator* b) {
    if (a == b) return true;
    if (!a || !b) return false;
    return a->spec().binaryEqual(b->spec());
}

BSONObj collationSpecOf(const Collator* c) {
    if (c) return c->spec();
    BSONObjBuilder b;
    b.append("locale", "simple");
    return b.obj();
}

void appendComparisonKey(BSONObjBuilder* b, std::string_view name, const BSONElement& e, const Collator* c) {
    switch (e.type()) {
        case String: b->append(name, c->comparisonKey(e.valueStringData())); break;
        case Symbol: b->appendSymbol(name, c->comparisonKey(e.valueStringData())); break;
        case Object: b->append(name, toComparisonKeys(e.Obj(), c)); break;
        case Array: b->appendArray(name, toComparisonKeys(e.Obj(), c)); break;
        default: b->appendAs(e, name);
    }
}

namespace {
// Whether anything in v compares differently under a collation (strings, at any depth).
bool holdsStrings(const BSONObj& v) {
    for (BSONElement e : v) {
        switch (e.type()) {
            case String:
            case Symbol: return true;
            case Object:
            case Array:
                if (holdsStrings(e.Obj())) return true;
                break;
            default: break;
        }
    }
    return false;
}
}  // namespace

BSONObj toComparisonKeys(const BSONObj& v, const Collator* c) {
    // Keys of numbers, ObjectIds, dates... (most _id keys) are their own comparison keys.
    if (!c || !holdsStrings(v)) return v;
    BSONObjBuilder b;
    for (BSONElement e : v) appendComparisonKey(&b, e.fieldNameStringData(), e, c);
    return b.obj();
}

}  // namespace mongo
