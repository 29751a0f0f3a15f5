// Matching and failure details of the $jsonSchema keywords (see json_schema_keywords.h). The
// detail objects follow MongoDB 7.0's DocumentValidationFailure errInfo field for field.
#include "mongo/db/query/schema/json_schema_keywords.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mongo/db/query/match_expression.h"
#include "mongo/db/update/decimal_arith.h"

namespace mongo {
namespace json_schema {
namespace {

// {operatorName: <name>} followed by {specifiedAs: {<spec>}} when a spec is given.
void appendHeader(BSONObjBuilder& b, std::string_view operatorName, const BSONElement& spec) {
    b.append("operatorName", operatorName);
    if (!spec.eoo()) b.append("specifiedAs", spec.wrap());
}

// ---- exact decimal arithmetic for multipleOf ----

// A finite number as (-1)^negative * coefficient * 10^exponent. Doubles are taken with 15
// significant digits, as MongoDB converts them to Decimal128 before its fmod.
struct Decimal {
    bool finite = true;
    std::string digits;  // no leading zeros; "0" for zero
    int exponent = 0;
};

void normalize(Decimal* d) {
    size_t nz = d->digits.find_first_not_of('0');
    d->digits = nz == std::string::npos ? "0" : d->digits.substr(nz);
    if (d->digits == "0") {
        d->exponent = 0;
        return;
    }
    while (d->digits.size() > 1 && d->digits.back() == '0') {
        d->digits.pop_back();
        d->exponent++;
    }
}

// Parses "-1.25E+3", "12", "0.001", "NaN", "Infinity".
Decimal parseDecimalString(const std::string& str) {
    Decimal d;
    std::string s = str;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.erase(0, 1);
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) {
        d.finite = false;
        return d;
    }
    auto e = s.find_first_of("eE");
    if (e != std::string::npos) {
        d.exponent = std::atoi(s.c_str() + e + 1);
        s.erase(e);
    }
    auto dot = s.find('.');
    if (dot != std::string::npos) {
        d.exponent -= static_cast<int>(s.size() - dot - 1);
        s.erase(dot, 1);
    }
    d.digits = s;
    normalize(&d);
    return d;
}

Decimal toDecimal(const BSONElement& e) {
    switch (e.type()) {
        case NumberInt:
        case NumberLong: {
            long long v = e.numberLong();
            unsigned long long mag = v < 0 ? 0ULL - static_cast<unsigned long long>(v) : v;
            Decimal d;
            d.digits = std::to_string(mag);
            normalize(&d);
            return d;
        }
        case NumberDouble: {
            double v = e.numberDouble();
            if (!std::isfinite(v)) return Decimal{false, "", 0};
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.14e", std::fabs(v));
            return parseDecimalString(buf);
        }
        case NumberDecimal: {
            Decimal128Bytes bytes;
            std::copy(e.decimal128Bytes(), e.decimal128Bytes() + 16, bytes.begin());
            return parseDecimalString(decimalToString(bytes));
        }
        default: return Decimal{false, "", 0};
    }
}

// Whether value is an integral multiple of divisor (divisor > 0, checked at parse time).
bool isMultipleOf(const BSONElement& value, const BSONElement& divisor) {
    Decimal v = toDecimal(value), m = toDecimal(divisor);
    if (!v.finite || !m.finite || m.digits == "0") return false;
    if (v.digits == "0") return true;
    // |v| < m: only zero is a multiple.
    long long vMag = static_cast<long long>(v.digits.size()) + v.exponent;
    long long mMag = static_cast<long long>(m.digits.size()) + m.exponent;
    if (vMag < mMag) return false;
    // Both as integers at the smaller exponent: V' mod M'. Here M' has at most as many digits
    // as V (|v| >= |m|), and coefficients have at most 34 digits, so M' fits in 128 bits and
    // so does every intermediate (r < M' < 10^34, r * 10 + 9 < 2^117).
    using U = unsigned __int128;
    U mod = 0;
    for (char c : m.digits) mod = mod * 10 + static_cast<unsigned>(c - '0');
    int common = std::min(v.exponent, m.exponent);
    for (int i = common; i < m.exponent; i++) mod *= 10;
    U r = 0;
    for (char c : v.digits) r = (r * 10 + static_cast<unsigned>(c - '0')) % mod;
    for (int i = common; i < v.exponent; i++) r = (r * 10) % mod;
    return r == 0;
}

size_t codePointLength(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) n++;
    return n;
}

// A copy of the value with every embedded document's fields sorted by name (recursively), so
// that a plain comparison ignores field order.
void appendNormalized(BSONObjBuilder& b, std::string_view name, const BSONElement& e);

BSONObj normalizedObject(const BSONObj& o, bool isArray) {
    BSONObjBuilder b;
    std::vector<BSONElement> fields;
    for (BSONElement e : o) fields.push_back(e);
    if (!isArray)
        std::stable_sort(fields.begin(), fields.end(), [](const BSONElement& x, const BSONElement& y) {
            return x.fieldNameStringData() < y.fieldNameStringData();
        });
    for (const BSONElement& e : fields) appendNormalized(b, e.fieldNameStringData(), e);
    return b.obj();
}

void appendNormalized(BSONObjBuilder& b, std::string_view name, const BSONElement& e) {
    if (e.type() == Object) b.append(name, normalizedObject(e.Obj(), false));
    else if (e.type() == Array) b.appendArray(name, normalizedObject(e.Obj(), true));
    else b.appendAs(e, name);
}

BSONObj normalizedElement(const BSONElement& e) {
    BSONObjBuilder b;
    appendNormalized(b, "", e);
    return b.obj();
}

int firstDuplicateImpl(const BSONObj& arr) {
    std::vector<BSONObj> norm;
    for (BSONElement e : arr) norm.push_back(normalizedElement(e));
    std::vector<size_t> order(norm.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    auto cmp = [&](size_t a, size_t b) { return norm[a].firstElement().woCompare(norm[b].firstElement(), false); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cmp(a, b) < 0; });
    // Within each run of equal items (in position order, by stability) the second one is a
    // duplicate; report the earliest such position.
    long long best = -1;
    for (size_t i = 1; i < order.size(); i++) {
        if (cmp(order[i - 1], order[i]) != 0) continue;
        bool firstOfRunPair = i == 1 || cmp(order[i - 2], order[i - 1]) != 0;
        if (firstOfRunPair && (best < 0 || static_cast<long long>(order[i]) < best)) best = order[i];
    }
    return static_cast<int>(best);
}

void appendItemsEntry(BSONObjBuilder& b, const char* operatorName, const Schema& schema, const char* reason,
                      size_t index, const BSONElement& item) {
    b.append("operatorName", operatorName);
    schema.appendAnnotations(b);
    b.append("reason", reason);
    b.append("itemIndex", static_cast<int>(index));
    b.append("details", schema.explain(Subject::of(item)));
}

}  // namespace

int firstDuplicateIndex(const BSONObj& arr) { return firstDuplicateImpl(arr); }

bool unorderedEqual(const BSONElement& a, const BSONElement& b) {
    if (a.isABSONObj() || b.isABSONObj())
        return a.type() == b.type() && normalizedElement(a).firstElement().woCompare(normalizedElement(b).firstElement(), false) == 0;
    return a.woCompare(b, false) == 0;
}

bool unorderedEqual(const BSONObj& a, const BSONObj& b) {
    return normalizedObject(a, false).woCompare(normalizedObject(b, false)) == 0;
}

// ---- scalar keywords ----

bool PatternKeyword::matches(const Subject& s) const {
    return s.type != String || _regex.matches(s.elem.valueStringData());
}

void PatternKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, "pattern", _spec);
    b.append("reason", "regular expression did not match");
    s.appendAs(b, "consideredValue");
    out.append(b.obj());
}

bool StringLengthKeyword::matches(const Subject& s) const {
    if (s.type != String) return true;
    auto n = static_cast<long long>(codePointLength(s.elem.valueStringData()));
    return _isMax ? n <= _limit : n >= _limit;
}

void StringLengthKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, _spec.fieldNameStringData(), _spec);
    b.append("reason", "specified string length was not satisfied");
    s.appendAs(b, "consideredValue");
    out.append(b.obj());
}

bool MultipleOfKeyword::matches(const Subject& s) const { return !s.isNumber() || isMultipleOf(s.elem, _spec); }

void MultipleOfKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, "multipleOf", _spec);
    b.append("reason", "considered value is not a multiple of the specified value");
    s.appendAs(b, "consideredValue");
    out.append(b.obj());
}

bool BoundKeyword::matches(const Subject& s) const {
    if (!s.isNumber()) return true;
    using Op = ComparisonMatchExpression::Op;
    Op op = _isMax ? (_exclusive ? Op::LT : Op::LTE) : (_exclusive ? Op::GT : Op::GTE);
    return ComparisonMatchExpression::compareValues(op, s.elem, _spec);
}

void BoundKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    b.append("operatorName", _spec.fieldNameStringData());
    BSONObjBuilder spec;
    spec.append(_spec);
    if (_exclusive) spec.append(_isMax ? "exclusiveMaximum" : "exclusiveMinimum", true);
    b.append("specifiedAs", spec.obj());
    b.append("reason", "comparison failed");
    s.appendAs(b, "consideredValue");
    out.append(b.obj());
}

// ---- array keywords ----

bool ItemCountKeyword::matches(const Subject& s) const {
    if (s.type != Array) return true;
    long long n = s.obj.nFields();
    return _isMax ? n <= _limit : n >= _limit;
}

void ItemCountKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, _spec.fieldNameStringData(), _spec);
    b.append("reason", "array did not match specified length");
    s.appendAs(b, "consideredValue");
    b.append("numberOfItems", s.obj.nFields());
    out.append(b.obj());
}

bool UniqueItemsKeyword::matches(const Subject& s) const { return s.type != Array || firstDuplicateIndex(s.obj) < 0; }

void UniqueItemsKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, "uniqueItems", _spec);
    b.append("reason", "found a duplicate item");
    s.appendAs(b, "consideredValue");
    int dup = firstDuplicateIndex(s.obj);
    if (dup >= 0) b.appendAs(s.obj[std::to_string(dup)], "duplicatedValue");
    out.append(b.obj());
}

bool ItemsSchemaKeyword::matches(const Subject& s) const {
    if (s.type != Array) return true;
    for (BSONElement item : s.obj)
        if (!_schema->matches(Subject::of(item))) return false;
    return true;
}

void ItemsSchemaKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    size_t i = 0;
    for (BSONElement item : s.obj) {
        if (!_schema->matches(Subject::of(item))) {
            BSONObjBuilder b;
            appendItemsEntry(b, "items", *_schema, "At least one item did not match the sub-schema", i, item);
            out.append(b.obj());
            return;
        }
        i++;
    }
}

bool ItemsArrayKeyword::matches(const Subject& s) const {
    if (s.type != Array) return true;
    size_t i = 0;
    for (BSONElement item : s.obj) {
        if (i >= _schemas.size()) break;
        if (!_schemas[i]->matches(Subject::of(item))) return false;
        i++;
    }
    return true;
}

void ItemsArrayKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONArrayBuilder failing;
    size_t i = 0;
    for (BSONElement item : s.obj) {
        if (i >= _schemas.size()) break;
        Subject sub = Subject::of(item);
        if (!_schemas[i]->matches(sub)) {
            BSONObjBuilder entry;
            entry.append("itemIndex", static_cast<int>(i));
            _schemas[i]->appendAnnotations(entry);
            entry.append("details", _schemas[i]->explain(sub));
            failing.append(entry.obj());
        }
        i++;
    }
    BSONObjBuilder b;
    b.append("operatorName", "items");
    b.append("details", failing.arr());
    out.append(b.obj());
}

bool AdditionalItemsKeyword::matches(const Subject& s) const {
    if (s.type != Array) return true;
    size_t i = 0;
    for (BSONElement item : s.obj) {
        if (i++ < _start) continue;
        if (!_schema) return _spec.trueValue();
        if (!_schema->matches(Subject::of(item))) return false;
    }
    return true;
}

void AdditionalItemsKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    if (!_schema) {
        appendHeader(b, "additionalItems", _spec);
        b.append("reason", "found additional items");
        BSONArrayBuilder extra;
        size_t i = 0;
        for (BSONElement item : s.obj)
            if (i++ >= _start) extra.append(item);
        b.append("additionalItems", extra.arr());
        out.append(b.obj());
        return;
    }
    size_t i = 0;
    for (BSONElement item : s.obj) {
        if (i >= _start && !_schema->matches(Subject::of(item))) {
            appendItemsEntry(b, "additionalItems", *_schema, "At least one additional item did not match the sub-schema",
                             i, item);
            out.append(b.obj());
            return;
        }
        i++;
    }
}

// ---- encryption ----

EncryptKeyword::Failure EncryptKeyword::check(const Subject& s) const {
    if (s.type != BinData) return Failure::kNotEncrypted;
    int len = 0, subtype = 0;
    const char* data = s.elem.binData(&len, &subtype);
    if (subtype != 6) return Failure::kNotEncrypted;
    if (!_types) return Failure::kNone;
    // An encrypted value: a blob subtype byte (1 deterministic, 2 random), the 16-byte key id,
    // then the original BSON type.
    if (len < 18) return Failure::kWrongType;
    int blobSubtype = static_cast<unsigned char>(data[0]);
    if (blobSubtype != 1 && blobSubtype != 2) return Failure::kWrongType;
    auto original = static_cast<BSONType>(static_cast<signed char>(data[17]));
    return _types->contains(original) ? Failure::kNone : Failure::kWrongType;
}

bool EncryptKeyword::matches(const Subject& s) const { return check(s) == Failure::kNone; }

void EncryptKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    b.append("operatorName", "encrypt");
    b.append("reason", check(s) == Failure::kWrongType ? "encrypted value has wrong type" : "value was not encrypted");
    out.append(b.obj());
}

// ---- object keywords ----

bool PropertiesKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    for (const auto& p : _properties) {
        BSONElement v = s.obj.getField(p.name);
        if (!v.eoo() && !p.schema->matches(Subject::of(v))) return false;
    }
    return true;
}

void PropertiesKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONArrayBuilder failing;
    for (const auto& p : _properties) {
        BSONElement v = s.obj.getField(p.name);
        if (v.eoo()) continue;
        Subject sub = Subject::of(v);
        if (p.schema->matches(sub)) continue;
        BSONObjBuilder entry;
        entry.append("propertyName", p.name);
        p.schema->appendAnnotations(entry);
        entry.append("details", p.schema->explain(sub));
        failing.append(entry.obj());
    }
    BSONObjBuilder b;
    b.append("operatorName", "properties");
    b.append("propertiesNotSatisfied", failing.arr());
    out.append(b.obj());
}

bool PatternPropertiesKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    for (BSONElement f : s.obj) {
        for (const auto& p : *_patterns)
            if (p.regex->matches(f.fieldNameStringData()) && !p.schema->matches(Subject::of(f))) return false;
    }
    return true;
}

void PatternPropertiesKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONArrayBuilder failing;
    for (BSONElement f : s.obj) {
        for (const auto& p : *_patterns) {
            if (!p.regex->matches(f.fieldNameStringData())) continue;
            Subject sub = Subject::of(f);
            if (p.schema->matches(sub)) continue;
            BSONObjBuilder entry;
            entry.append("propertyName", f.fieldNameStringData());
            p.schema->appendAnnotations(entry);
            entry.append("regexMatched", p.pattern);
            entry.append("details", p.schema->explain(sub));
            failing.append(entry.obj());
        }
    }
    BSONObjBuilder b;
    b.append("operatorName", "patternProperties");
    b.append("details", failing.arr());
    out.append(b.obj());
}

bool AdditionalPropertiesKeyword::isAdditional(std::string_view field) const {
    if (_named.count(std::string(field))) return false;
    if (_patterns)
        for (const auto& p : *_patterns)
            if (p.regex->matches(field)) return false;
    return true;
}

bool AdditionalPropertiesKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    for (BSONElement f : s.obj) {
        if (!isAdditional(f.fieldNameStringData())) continue;
        if (!_schema) return false;  // additionalProperties: false
        if (!_schema->matches(Subject::of(f))) return false;
    }
    return true;
}

void AdditionalPropertiesKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    if (!_schema) {
        appendHeader(b, "additionalProperties", _spec);
        BSONArrayBuilder names;
        for (BSONElement f : s.obj)
            if (isAdditional(f.fieldNameStringData())) names.append(f.fieldNameStringData());
        b.append("additionalProperties", names.arr());
        out.append(b.obj());
        return;
    }
    for (BSONElement f : s.obj) {
        if (!isAdditional(f.fieldNameStringData())) continue;
        Subject sub = Subject::of(f);
        if (_schema->matches(sub)) continue;
        b.append("operatorName", "additionalProperties");
        _schema->appendAnnotations(b);
        b.append("reason", "at least one additional property did not match the subschema");
        b.append("failingProperty", f.fieldNameStringData());
        b.append("details", _schema->explain(sub));
        out.append(b.obj());
        return;
    }
}

bool RequiredKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    for (const auto& n : _names)
        if (!s.obj.hasField(n)) return false;
    return true;
}

void RequiredKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, "required", _spec);
    BSONArrayBuilder missing;
    for (const auto& n : _names)
        if (!s.obj.hasField(n)) missing.append(n);
    b.append("missingProperties", missing.arr());
    out.append(b.obj());
}

bool PropertyCountKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    long long n = s.obj.nFields();
    return _isMax ? n <= _limit : n >= _limit;
}

void PropertyCountKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, _spec.fieldNameStringData(), _spec);
    b.append("reason", "specified number of properties was not satisfied");
    b.append("numberOfProperties", s.obj.nFields());
    out.append(b.obj());
}

bool DependenciesKeyword::holds(const Dependency& d, const Subject& s) const {
    if (!s.obj.hasField(d.property)) return true;
    if (d.schema) return d.schema->matches(s);
    for (const auto& r : d.required)
        if (!s.obj.hasField(r)) return false;
    return true;
}

bool DependenciesKeyword::matches(const Subject& s) const {
    if (s.type != Object) return true;
    for (const auto& d : _deps)
        if (!holds(d, s)) return false;
    return true;
}

void DependenciesKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONArrayBuilder failing;
    for (const auto& d : _deps) {
        if (holds(d, s)) continue;
        BSONObjBuilder entry;
        entry.append("conditionalProperty", d.property);
        if (d.schema) {
            entry.append("details", d.schema->explain(s));
        } else {
            BSONArrayBuilder missing;
            for (const auto& r : d.required)
                if (!s.obj.hasField(r)) missing.append(r);
            entry.append("missingProperties", missing.arr());
        }
        failing.append(entry.obj());
    }
    BSONObjBuilder b;
    b.append("operatorName", "dependencies");
    b.append("failingDependencies", failing.arr());
    out.append(b.obj());
}

// ---- logical keywords ----

bool SchemaListKeyword::matches(const Subject& s) const {
    size_t n = 0;
    for (const auto& sch : _schemas) {
        bool m = sch->matches(s);
        if (_kind == kAllOf && !m) return false;
        if (_kind == kAnyOf && m) return true;
        if (_kind == kOneOf && m && ++n > 1) return false;  // a second match fails oneOf
    }
    if (_kind == kAllOf) return true;
    if (_kind == kAnyOf) return false;
    return n == 1;
}

void SchemaListKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    static const char* const kNames[] = {"allOf", "anyOf", "oneOf"};
    BSONObjBuilder b;
    b.append("operatorName", kNames[_kind]);
    BSONArrayBuilder list;
    std::vector<int> matching;
    for (size_t i = 0; i < _schemas.size(); i++) {
        if (_schemas[i]->matches(s)) {
            matching.push_back(static_cast<int>(i));
            continue;
        }
        BSONObjBuilder entry;
        entry.append("index", static_cast<int>(i));
        entry.append("details", _schemas[i]->explain(s));
        list.append(entry.obj());
    }
    if (_kind == kOneOf && matching.size() > 1) {
        b.append("reason", "more than one subschema matched");
        BSONArrayBuilder idx;
        for (int i : matching) idx.append(i);
        b.append("matchingSchemaIndexes", idx.arr());
    } else {
        b.append("schemasNotSatisfied", list.arr());
    }
    out.append(b.obj());
}

void NotKeyword::explain(const Subject&, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    b.append("operatorName", "not");
    b.append("reason", "child expression matched");
    out.append(b.obj());
}

bool EnumKeyword::matches(const Subject& s) const {
    if (s.isRoot()) {
        for (const auto& v : _values)
            if (v.type() == Object && unorderedEqual(v.Obj(), s.obj)) return true;
        return false;
    }
    for (const auto& v : _values)
        if (unorderedEqual(v, s.elem)) return true;
    return false;
}

void EnumKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, "enum", _spec);
    b.append("reason", "value was not found in enum");
    s.appendAs(b, "consideredValue");
    out.append(b.obj());
}

void TypeKeyword::explain(const Subject& s, BSONArrayBuilder& out) const {
    BSONObjBuilder b;
    appendHeader(b, _spec.fieldNameStringData(), _spec);
    b.append("reason", "type did not match");
    s.appendAs(b, "consideredValue");
    b.append("consideredType", typeName(s.type));
    out.append(b.obj());
}

}  // namespace json_schema
}  // namespace mongo
