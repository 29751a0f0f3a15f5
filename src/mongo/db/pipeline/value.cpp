#include "mongo/db/pipeline/value.h"

#include <bson/bson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "mongo/base/status.h"
#include "mongo/bson/number_compare.h"
#include "mongo/db/server_parameters.h"

namespace mongo {

namespace {

const std::vector<Value>& emptyArray() {
    static const std::vector<Value> kEmpty;
    return kEmpty;
}

std::shared_ptr<const DocumentStorage> emptyStorage() {
    static const std::shared_ptr<const DocumentStorage> kEmpty = [] {
        auto s = std::make_shared<DocumentStorage>();
        s->split = true;
        return s;
    }();
    return kEmpty;
}

template <typename T>
int cmp3(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// Formats a double as MongoDB's messages do (shortest form that round-trips).
std::string formatDouble(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    char buf[64];
    for (int prec = 6; prec <= 17; prec++) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (std::strtod(buf, nullptr) == d) break;
    }
    return buf;
}

std::string formatIsoDate(long long ms) {
    long long secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
    int millis = static_cast<int>(ms - secs * 1000);
    time_t t = static_cast<time_t>(secs);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tmv.tm_year + 1900, tmv.tm_mon + 1,
                  tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec, millis);
    return buf;
}

// The depth of a container whose deepest child is childDepth deep.
uint32_t containerDepth(int childDepth) {
    uassert(ErrorCodes::Overflow,
            "cannot build a document or array nested more than " + std::to_string(kMaxValueDepth) + " levels deep",
            childDepth < kMaxValueDepth);
    return static_cast<uint32_t>(childDepth + 1);
}

void checkOutputLevel(int level) {
    int max = maxBSONDepth();
    uassert(ErrorCodes::Overflow,
            "cannot convert document to BSON because it exceeds the limit of " + std::to_string(max) +
                " levels of nesting",
            level <= max);
}

}  // namespace

void checkValueStringSize(size_t bytes) {
    // As MongoDB's reference-counted strings: header and terminating NUL included, under 16MB.
    constexpr size_t kOverhead = 17;
    uassert(16493, "Tried to create string longer than 16MB", bytes + kOverhead < static_cast<size_t>(BSONObjMaxUserSize));
}

// ---------------------------------------------------------------- DocumentStorage

void DocumentStorage::ensureSplit() const {
    if (split.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lk(splitMutex);
    if (split.load(std::memory_order_relaxed)) return;
    for (BSONElement e : bson) fields.emplace_back(std::string(e.fieldNameStringData()), Value::fromElement(e, owner));
    split.store(true, std::memory_order_release);
}

// ---------------------------------------------------------------- Document

Document::Document() : _s(emptyStorage()) {}

Document::Document(std::vector<Field> fields) {
    auto s = std::make_shared<DocumentStorage>();
    s->split = true;
    s->fields.reserve(fields.size());
    int deepest = 0;
    for (auto& f : fields) {
        if (f.second.missing()) continue;
        deepest = std::max(deepest, f.second.depth());
        s->fields.push_back(std::move(f));
    }
    s->depth = static_cast<int>(containerDepth(deepest));
    _s = std::move(s);
}

int Document::depth() const { return _s->depth; }

size_t Document::approximateSize() const {
    size_t n = sizeof(DocumentStorage);
    if (_s->fromBson) n += _s->bson.objsize();
    if (!_s->fromBson || _s->split.load(std::memory_order_acquire))
        for (const auto& f : _s->fields) n += sizeof(Field) + f.first.size() + f.second.approximateSize();
    return n;
}

Document Document::fromBson(const BSONObj& obj) {
    BSONObj owned = obj.getOwned();
    return fromBsonView(owned, owned);
}

Document Document::fromBsonView(const BSONObj& view, const BSONObj& owner) {
    if (!owner.isOwned()) return fromBson(view);
    auto s = std::make_shared<DocumentStorage>();
    s->fromBson = true;
    s->bson = view;
    s->owner = owner;
    Document d;
    d._s = std::move(s);
    return d;
}

const std::vector<Document::Field>& Document::fields() const {
    _s->ensureSplit();
    return _s->fields;
}

bool Document::empty() const {
    if (_s->fromBson && !_s->split.load(std::memory_order_acquire)) return _s->bson.isEmpty();
    return _s->fields.empty();
}

Value Document::getField(std::string_view name) const {
    if (_s->fromBson && !_s->split.load(std::memory_order_acquire)) {
        // Small documents are cheaper to search in BSON than to split.
        BSONElement e = _s->bson.getField(name);
        return e.eoo() ? Value() : Value::fromElement(e, _s->owner);
    }
    for (const auto& f : fields())
        if (f.first == name) return f.second;
    return Value();
}

Value Document::operator[](std::string_view name) const { return getField(name); }

bool Document::hasField(std::string_view name) const { return !getField(name).missing(); }

Value Document::getNestedField(const FieldPath& path) const {
    Value v = getField(path[0]);
    for (size_t i = 1; i < path.size(); i++) {
        if (!v.isObject()) return Value();
        v = v.getDocument().getField(path[i]);
    }
    return v;
}

void Document::appendTo(BSONObjBuilder* b, int level) const {
    checkOutputLevel(level);
    if (_s->fromBson) {
        b->appendElements(_s->bson);
        return;
    }
    for (const auto& f : _s->fields) f.second.appendTo(b, f.first, level);
}

BSONObj Document::toBson() const {
    if (_s->fromBson) return _s->bson.isOwned() ? _s->bson : BSONObj::copyFrom(_s->bson.objdata());
    BSONObjBuilder b;
    appendTo(&b);
    return b.obj();
}

std::string Document::toString() const { return Value(*this).toString(); }

int Document::compare(const Document& a, const Document& b) {
    const auto& fa = a.fields();
    const auto& fb = b.fields();
    size_t n = std::min(fa.size(), fb.size());
    for (size_t i = 0; i < n; i++) {
        // As BSON does: type rank first, then field name, then value.
        int ta = canonicalizeBSONType(fa[i].second.getType()), tb = canonicalizeBSONType(fb[i].second.getType());
        if (ta != tb) return ta < tb ? -1 : 1;
        int c = fa[i].first.compare(fb[i].first);
        if (c) return c < 0 ? -1 : 1;
        c = Value::compare(fa[i].second, fb[i].second);
        if (c) return c;
    }
    return cmp3(fa.size(), fb.size());
}

// ---------------------------------------------------------------- Value

Value::Value(std::string_view s) : _type(String) {
    checkValueStringSize(s.size());
    _str = std::make_shared<const std::string>(s);
}

Value::Value(std::vector<Value> arr) : _type(Array) {
    int deepest = 0;
    for (const Value& v : arr) deepest = std::max(deepest, v.depth());
    _depth = containerDepth(deepest);
    _arr = std::make_shared<const std::vector<Value>>(std::move(arr));
}

Value::Value(const OID& o) : _type(jstOID) { std::memcpy(_u.oid, o.bytes, 12); }

Value Value::null() {
    Value v;
    v._type = jstNULL;
    return v;
}
Value Value::undefined() {
    Value v;
    v._type = Undefined;
    return v;
}
Value Value::minKey() {
    Value v;
    v._type = MinKey;
    return v;
}
Value Value::maxKey() {
    Value v;
    v._type = MaxKey;
    return v;
}

Value Value::decimal(const unsigned char bytes[16]) {
    BSONObjBuilder b;
    b.appendDecimal128("", bytes);
    Value v;
    v._type = NumberDecimal;
    v._raw = b.obj();
    return v;
}

Value Value::decimalFromString(std::string_view s, bool* ok) {
    bson_decimal128_t d;
    std::string str(s);
    bool good = bson_decimal128_from_string(str.c_str(), &d);
    if (ok) *ok = good;
    if (!good) return Value();
    unsigned char bytes[16];
    std::memcpy(bytes, &d.low, 8);
    std::memcpy(bytes + 8, &d.high, 8);
    return decimal(bytes);
}

std::vector<Value> arrayFromBson(const BSONObj& arr, const BSONObj& owner) {
    std::vector<Value> out;
    for (BSONElement e : arr) out.push_back(Value::fromElement(e, owner));
    return out;
}

Value Value::fromElement(const BSONElement& e) {
    switch (e.type()) {
        case Object:
        case Array: {
            BSONObj owned = e.Obj().getOwned();
            if (e.type() == Object) return Value(Document::fromBsonView(owned, owned));
            return Value(arrayFromBson(owned, owned));
        }
        default: return fromElement(e, BSONObj());
    }
}

Value Value::fromElement(const BSONElement& e, const BSONObj& owner) {
    switch (e.type()) {
        case EOO: return Value();
        case NumberDouble: return Value(e.numberDouble());
        case NumberInt: return Value(e.numberInt());
        case NumberLong: return Value(e.numberLong());
        case Bool: return Value(e.boolean());
        case String: return Value(e.valueStringData());
        case Date: return Value(e.date());
        case bsonTimestamp: return Value(e.timestamp());
        case jstOID: return Value(e.oid());
        case jstNULL: return null();
        case Object:
            if (!owner.isOwned()) return fromElement(e);
            return Value(Document::fromBsonView(e.Obj(), owner));
        case Array:
            if (!owner.isOwned()) return fromElement(e);
            return Value(arrayFromBson(e.Obj(), owner));
        case Symbol:
        case Code: {
            Value v(e.valueStringData());
            v._type = e.type();
            return v;
        }
        default: {
            Value v;
            v._type = e.type();
            BSONObjBuilder b;
            b.appendAs(e, "");
            v._raw = b.obj();
            return v;
        }
    }
}

OID Value::getOid() const {
    OID o;
    std::memcpy(o.bytes, _u.oid, 12);
    return o;
}

std::string_view Value::getStringData() const { return _str ? std::string_view(*_str) : std::string_view(); }

const std::vector<Value>& Value::getArray() const { return _arr ? *_arr : emptyArray(); }

BSONElement Value::rawElement() const { return _raw.isEmpty() ? BSONElement() : _raw.firstElement(); }

double Value::coerceToDouble() const {
    switch (_type) {
        case NumberDouble: return _u.d;
        case NumberInt: return _u.i;
        case NumberLong: return static_cast<double>(_u.l);
        case NumberDecimal: return rawElement().numberDouble();
        default: return 0;
    }
}

long long Value::coerceToLong() const {
    switch (_type) {
        case NumberInt: return _u.i;
        case NumberLong: return _u.l;
        case NumberDouble:
        case NumberDecimal: {
            int64_t exact;
            if (_type == NumberDecimal && getDecimal().toInt64Exact(&exact)) return exact;  // beyond 2^53 too
            double d = coerceToDouble();
            if (std::isnan(d)) return 0;
            if (d >= 9.2233720368547758e18) return std::numeric_limits<long long>::max();
            if (d <= -9.2233720368547758e18) return std::numeric_limits<long long>::min();
            return static_cast<long long>(d);
        }
        default: return 0;
    }
}

int Value::coerceToInt() const {
    if (_type == NumberInt) return _u.i;
    long long l = coerceToLong();
    if (l > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
    if (l < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
    return static_cast<int>(l);
}

bool Value::integral64() const {
    switch (_type) {
        case NumberInt:
        case NumberLong: return true;
        case NumberDouble: {
            double d = coerceToDouble();
            return std::isfinite(d) && d == std::trunc(d) && d < 9.2233720368547758e18 && d >= -9.2233720368547758e18;
        }
        case NumberDecimal: {
            int64_t v;
            return getDecimal().toInt64Exact(&v);
        }
        default: return false;
    }
}

bool Value::integral() const {
    if (_type == NumberInt) return true;
    if (!integral64()) return false;
    long long l = coerceToLong();
    return l >= std::numeric_limits<int>::min() && l <= std::numeric_limits<int>::max();
}

bool Value::isNaN() const {
    if (_type == NumberDecimal) return getDecimal().isNaN();
    return _type == NumberDouble && std::isnan(_u.d);
}

bool Value::coerceToBool() const {
    switch (_type) {
        case EOO:
        case jstNULL:
        case Undefined: return false;
        case Bool: return _u.b;
        case NumberInt: return _u.i != 0;
        case NumberLong: return _u.l != 0;
        case NumberDouble: return _u.d != 0;  // NaN is true
        case NumberDecimal: return rawElement().trueValue();
        default: return true;
    }
}

Date_t Value::coerceToDate() const {
    switch (_type) {
        case Date: return getDate();
        case bsonTimestamp: return Date_t{static_cast<long long>(getTimestamp().secs) * 1000};
        case jstOID: return getOid().getTimestamp();
        default:
            uasserted(16006, "can't convert from BSON type " + typeNameOf(*this) + " to Date");
    }
}

std::string Value::coerceToString() const {
    switch (_type) {
        case NumberDouble: return formatDouble(_u.d);
        case NumberInt: return std::to_string(_u.i);
        case NumberLong: return std::to_string(_u.l);
        case NumberDecimal: {
            bson_decimal128_t d;
            std::memcpy(&d.low, rawElement().value(), 8);
            std::memcpy(&d.high, rawElement().value() + 8, 8);
            char buf[BSON_DECIMAL128_STRING];
            bson_decimal128_to_string(&d, buf);
            return buf;
        }
        case String:
        case Symbol:
        case Code: return getString();
        case bsonTimestamp: {
            Timestamp t = getTimestamp();
            return "Timestamp(" + std::to_string(t.secs) + ", " + std::to_string(t.inc) + ")";
        }
        case Date: return formatIsoDate(_u.l);
        case EOO:
        case jstNULL:
        case Undefined: return "";
        default:
            uasserted(16007, "can't convert from BSON type " + typeNameOf(*this) + " to String");
    }
}

Decimal128 Value::getDecimal() const {
    return _type == NumberDecimal ? Decimal128::fromBytes(rawElement().decimal128Bytes()) : Decimal128();
}

void Value::coerceToDecimal(unsigned char out[16]) const {
    Decimal128 d;
    switch (_type) {
        case NumberDecimal: std::memcpy(out, rawElement().value(), 16); return;
        case NumberInt:
        case NumberLong: d = Decimal128::fromInt64(coerceToLong()); break;
        // MongoDB converts a double to the decimal of its 15 significant digits, trailing zeros
        // kept ($toDecimal: 2.5 gives NumberDecimal("2.50000000000000")).
        default: d = Decimal128::fromDouble(coerceToDouble(), Decimal128::DoublePrecision::k15Digits); break;
    }
    auto bytes = d.toBytes();
    std::memcpy(out, bytes.data(), 16);
}

namespace {
BSONNumber toBSONNumber(const Value& v) {
    switch (v.getType()) {
        case NumberInt: return BSONNumber::ofInt(v.getInt());
        case NumberLong: return BSONNumber::ofLong(v.getLong());
        case NumberDouble: return BSONNumber::ofDouble(v.getDouble());
        default: return BSONNumber::ofDecimal(v.getDecimal());
    }
}

// Exact comparison across the numeric types (bson/number_compare.h has MongoDB's rules).
int compareNumbers(const Value& a, const Value& b) {
    BSONType ta = a.getType(), tb = b.getType();
    if ((ta == NumberInt || ta == NumberLong) && (tb == NumberInt || tb == NumberLong))
        return cmp3(a.coerceToLong(), b.coerceToLong());
    if (ta == NumberDouble && tb == NumberDouble) return compareDoubles(a.getDouble(), b.getDouble());
    return mongo::compareNumbers(toBSONNumber(a), toBSONNumber(b));
}
}  // namespace

namespace {
thread_local const StringComparator* tlsValueComparator = nullptr;
}  // namespace

ValueComparisonScope::ValueComparisonScope(const StringComparator* strings) : _previous(tlsValueComparator) {
    tlsValueComparator = strings;
}
ValueComparisonScope::~ValueComparisonScope() { tlsValueComparator = _previous; }
const StringComparator* ValueComparisonScope::current() { return tlsValueComparator; }

int Value::compare(const Value& a, const Value& b) {
    int ra = canonicalizeBSONType(a._type), rb = canonicalizeBSONType(b._type);
    if (ra != rb) return ra < rb ? -1 : 1;
    switch (a._type) {
        case EOO:
        case Undefined:
        case jstNULL:
        case MinKey:
        case MaxKey: return 0;
        case NumberDouble:
        case NumberInt:
        case NumberLong:
        case NumberDecimal: return compareNumbers(a, b);
        case String:
        case Symbol:
            if (const StringComparator* strings = tlsValueComparator) {
                int c = strings->compare(a.getStringData(), b.getStringData());
                return c < 0 ? -1 : (c > 0 ? 1 : 0);
            }
            [[fallthrough]];
        case Code: {
            int c = a.getStringData().compare(b.getStringData());
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case Object: return Document::compare(a._doc, b._doc);
        case Array: {
            const auto& x = a.getArray();
            const auto& y = b.getArray();
            size_t n = std::min(x.size(), y.size());
            for (size_t i = 0; i < n; i++) {
                int c = compare(x[i], y[i]);
                if (c) return c;
            }
            return cmp3(x.size(), y.size());
        }
        case jstOID: {
            int c = std::memcmp(a._u.oid, b._u.oid, 12);
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case Bool: return cmp3(a._u.b, b._u.b);
        case Date: return cmp3(a._u.l, b._u.l);
        case bsonTimestamp: return cmp3(a._u.ts, b._u.ts);
        default: return a.rawElement().woCompare(b.rawElement(), false, tlsValueComparator);
    }
}

void Value::appendTo(BSONObjBuilder* b, std::string_view name, int level) const {
    checkOutputLevel(level);
    switch (_type) {
        case EOO: return;
        case NumberDouble: b->append(name, _u.d); return;
        case NumberInt: b->appendInt(name, _u.i); return;
        case NumberLong: b->appendLong(name, _u.l); return;
        case Bool: b->append(name, _u.b); return;
        case String: b->append(name, getStringData()); return;
        case Symbol: b->appendSymbol(name, getStringData()); return;
        case Code: b->appendCode(name, getStringData()); return;
        case Date: b->append(name, getDate()); return;
        case bsonTimestamp: b->append(name, getTimestamp()); return;
        case jstOID: b->append(name, getOid()); return;
        case jstNULL: b->appendNull(name); return;
        case Undefined: b->appendUndefined(name); return;
        case MinKey: b->appendMinKey(name); return;
        case MaxKey: b->appendMaxKey(name); return;
        case Object: {
            BSONObjBuilder& sub = b->subobjStart(name);
            _doc.appendTo(&sub, level + 1);
            sub.doneFast();
            return;
        }
        case Array: {
            BSONArrayBuilder& sub = b->subarrayStart(name);
            // Written through the inner builder with our own indices (cheaper than copies).
            BSONObjBuilder& ob = sub.bb();
            const auto& arr = getArray();
            for (size_t i = 0; i < arr.size(); i++) {
                std::string idx = std::to_string(i);
                if (arr[i].missing())
                    ob.appendNull(idx);
                else
                    arr[i].appendTo(&ob, idx, level + 1);
            }
            sub.doneFast();
            return;
        }
        default: b->appendAs(rawElement(), name); return;
    }
}

void Value::appendTo(BSONArrayBuilder* b) const {
    if (missing()) {
        b->appendNull();
        return;
    }
    BSONObj w = wrap("");
    b->append(w.firstElement());
}

BSONObj Value::wrap(std::string_view name) const {
    BSONObjBuilder b;
    appendTo(&b, name);
    return b.obj();
}

std::string Value::toString() const {
    switch (_type) {
        case EOO: return "missing";
        case jstNULL: return "null";
        case Undefined: return "undefined";
        case NumberDouble: return formatDouble(_u.d);
        case NumberInt: return std::to_string(_u.i);
        case NumberLong: return std::to_string(_u.l);
        case Bool: return _u.b ? "true" : "false";
        case String: return "\"" + getString() + "\"";
        case Date: return formatIsoDate(_u.l);
        case jstOID: return getOid().toString();
        case Object: {
            std::string s = "{";
            bool first = true;
            for (const auto& f : _doc.fields()) {
                s += first ? "" : ", ";
                first = false;
                s += f.first + ": " + f.second.toString();
            }
            return s + "}";
        }
        case Array: {
            std::string s = "[";
            bool first = true;
            for (const auto& v : getArray()) {
                s += first ? "" : ", ";
                first = false;
                s += v.toString();
            }
            return s + "]";
        }
        case NumberDecimal: return coerceToString();
        default: return wrap("x").firstElement().toString(false);
    }
}

size_t Value::approximateSize() const {
    size_t n = sizeof(Value);
    if (_str) n += _str->size();
    if (_arr)
        for (const auto& v : *_arr) n += v.approximateSize();
    if (_type == Object) n += _doc.approximateSize();
    if (!_raw.isEmpty()) n += _raw.objsize();
    return n;
}

std::string typeNameOf(const Value& v) { return typeName(v.getType()); }

// ---------------------------------------------------------------- FieldPath

FieldPath::FieldPath(std::string_view path, bool allowDollarPrefix) {
    uassert(40352, "FieldPath cannot be constructed with empty string", !path.empty());
    uassert(40353, "FieldPath must not end with a '.'.", path.back() != '.');
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        std::string_view part = path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        uassert(15998, "FieldPath field names may not be empty strings.", !part.empty());
        if (part[0] == '$' && !allowDollarPrefix) {
            // DBRef fields are the only $-prefixed names MongoDB accepts in paths.
            bool dbref = part == "$id" || part == "$ref" || part == "$db";
            uassert(16410,
                    "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
                    dbref);
        }
        uassert(16411, "FieldPath field names may not contain '\\0'.", part.find('\0') == std::string_view::npos);
        _parts.emplace_back(part);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}

FieldPath::FieldPath(std::vector<std::string> parts) : _parts(std::move(parts)) {}

std::string FieldPath::full() const {
    std::string s;
    for (size_t i = 0; i < _parts.size(); i++) {
        if (i) s += '.';
        s += _parts[i];
    }
    return s;
}

FieldPath FieldPath::tail() const { return FieldPath(std::vector<std::string>(_parts.begin() + 1, _parts.end())); }

// ---------------------------------------------------------------- MutableDoc

void MutableDoc::addField(std::string name, Value v) {
    if (v.missing()) return;
    _fields.emplace_back(std::move(name), std::move(v));
}

void MutableDoc::setField(std::string_view name, Value v) {
    for (auto it = _fields.begin(); it != _fields.end(); ++it) {
        if (it->first == name) {
            if (v.missing())
                _fields.erase(it);
            else
                it->second = std::move(v);
            return;
        }
    }
    if (!v.missing()) _fields.emplace_back(std::string(name), std::move(v));
}

void MutableDoc::setNestedField(const FieldPath& path, Value v, size_t from) {
    if (from + 1 == path.size()) {
        setField(path[from], std::move(v));
        return;
    }
    Value cur = getField(path[from]);
    MutableDoc sub(cur.isObject() ? cur.getDocument() : Document());
    sub.setNestedField(path, std::move(v), from + 1);
    setField(path[from], Value(sub.freeze()));
}

void MutableDoc::removeField(std::string_view name) {
    for (auto it = _fields.begin(); it != _fields.end(); ++it)
        if (it->first == name) {
            _fields.erase(it);
            return;
        }
}

Value MutableDoc::getField(std::string_view name) const {
    for (const auto& f : _fields)
        if (f.first == name) return f.second;
    return Value();
}

bool MutableDoc::hasField(std::string_view name) const { return !getField(name).missing(); }

}  // namespace mongo
