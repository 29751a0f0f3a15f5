#include "mongo/bson/bsonobj.h"

#include <bson/bson.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"

namespace mongo {

const char BSONElement::kEOOByte[1] = {0};

namespace {
const char kEmptyObj[5] = {5, 0, 0, 0, 0};

int32_t readInt32(const char* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// Size of a value of type t starting at v (trusted data).
int valueSize(BSONType t, const char* v) {
    switch (t) {
        case EOO:
        case Undefined:
        case jstNULL:
        case MinKey:
        case MaxKey: return 0;
        case Bool: return 1;
        case NumberInt: return 4;
        case NumberDouble:
        case Date:
        case bsonTimestamp:
        case NumberLong: return 8;
        case jstOID: return 12;
        case NumberDecimal: return 16;
        case String:
        case Code:
        case Symbol: return 4 + readInt32(v);
        case Object:
        case Array:
        case CodeWScope: return readInt32(v);
        case BinData: return 4 + 1 + readInt32(v);
        case DBRef: return 4 + readInt32(v) + 12;
        case RegEx: {
            size_t a = std::strlen(v) + 1;
            return static_cast<int>(a + std::strlen(v + a) + 1);
        }
    }
    return 0;
}
}  // namespace

Date_t Date_t::now() {
    using namespace std::chrono;
    return Date_t{duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()};
}

OID OID::gen() {
    OID o;
    bson_oid_t b;
    bson_oid_init(&b, nullptr);
    std::memcpy(o.bytes, b.bytes, 12);
    return o;
}

bool OID::parse(std::string_view hex, OID* out) {
    if (hex.size() != 24) return false;
    for (char c : hex)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    for (int i = 0; i < 12; i++) out->bytes[i] = static_cast<unsigned char>(std::stoi(std::string(hex.substr(i * 2, 2)), nullptr, 16));
    return true;
}

std::string OID::toString() const {
    static const char* d = "0123456789abcdef";
    std::string s(24, '0');
    for (int i = 0; i < 12; i++) {
        s[2 * i] = d[bytes[i] >> 4];
        s[2 * i + 1] = d[bytes[i] & 15];
    }
    return s;
}

Date_t OID::getTimestamp() const {
    uint32_t secs = (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) | (uint32_t(bytes[2]) << 8) | bytes[3];
    return Date_t{int64_t(secs) * 1000};
}

// ---- BSONElement ----

BSONElement::BSONElement(const char* data) : _data(data) {
    if (type() == EOO) {
        _fieldNameSize = 0;
        _totalSize = 1;
        return;
    }
    _fieldNameSize = static_cast<int>(std::strlen(data + 1)) + 1;
    _totalSize = 1 + _fieldNameSize + valueSize(type(), data + 1 + _fieldNameSize);
}

double BSONElement::numberDouble() const {
    switch (type()) {
        case NumberDouble: {
            double d;
            std::memcpy(&d, value(), 8);
            return d;
        }
        case NumberInt: return readInt32(value());
        case NumberLong: {
            int64_t v;
            std::memcpy(&v, value(), 8);
            return static_cast<double>(v);
        }
        case NumberDecimal: return Decimal128::fromBytes(decimal128Bytes()).toDouble();
        default: return 0;
    }
}

long long BSONElement::numberLong() const {
    switch (type()) {
        case NumberInt: return readInt32(value());
        case NumberLong: {
            int64_t v;
            std::memcpy(&v, value(), 8);
            return v;
        }
        case NumberDouble:
        case NumberDecimal: {
            int64_t exact;
            if (type() == NumberDecimal && Decimal128::fromBytes(decimal128Bytes()).toInt64Exact(&exact))
                return exact;  // also beyond 2^53, where the double would round
            double d = numberDouble();
            if (std::isnan(d)) return 0;
            if (d >= 9.2233720368547758e18) return std::numeric_limits<long long>::max();
            if (d <= -9.2233720368547758e18) return std::numeric_limits<long long>::min();
            return static_cast<long long>(d);
        }
        default: return 0;
    }
}

int BSONElement::numberInt() const {
    if (type() == NumberInt) return readInt32(value());
    long long v = numberLong();
    if (type() == NumberLong) return static_cast<int>(v);  // truncates like MongoDB
    if (v > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
    if (v < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
    return static_cast<int>(v);
}

bool BSONElement::isIntegral64(long long* out) const {
    switch (type()) {
        case NumberInt:
        case NumberLong: *out = numberLong(); return true;
        case NumberDouble: {
            double d = numberDouble();
            if (!std::isfinite(d) || d != std::trunc(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
                return false;
            *out = static_cast<long long>(d);
            return true;
        }
        case NumberDecimal: {
            int64_t v;
            if (!Decimal128::fromBytes(decimal128Bytes()).toInt64Exact(&v)) return false;
            *out = v;
            return true;
        }
        default: return false;
    }
}

std::string_view BSONElement::valueStringData() const {
    BSONType t = type();
    if (t != String && t != Symbol && t != Code) return {};
    return std::string_view(value() + 4, readInt32(value()) - 1);
}

bool BSONElement::trueValue() const {
    switch (type()) {
        case EOO:
        case jstNULL:
        case Undefined: return false;
        case Bool: return boolean();
        case NumberInt: return readInt32(value()) != 0;
        case NumberLong: return numberLong() != 0;
        case NumberDouble: return numberDouble() != 0;  // NaN is truthy in MongoDB
        case NumberDecimal: return !Decimal128::fromBytes(decimal128Bytes()).isZero();
        default: return true;
    }
}

Date_t BSONElement::date() const {
    int64_t v;
    std::memcpy(&v, value(), 8);
    return Date_t{v};
}

Timestamp BSONElement::timestamp() const {
    uint64_t v;
    std::memcpy(&v, value(), 8);
    return Timestamp::fromULL(v);
}

OID BSONElement::oid() const {
    OID o;
    std::memcpy(o.bytes, value(), 12);
    return o;
}

const char* BSONElement::binData(int* len, int* subtype) const {
    *len = readInt32(value());
    *subtype = static_cast<unsigned char>(value()[4]);
    return value() + 5;
}

std::string_view BSONElement::codeWScopeCode() const {
    const char* p = value() + 4;
    return std::string_view(p + 4, readInt32(p) - 1);
}

BSONObj BSONElement::codeWScopeScope() const {
    const char* p = value() + 4;
    return BSONObj(p + 4 + readInt32(p));
}

BSONObj BSONElement::Obj() const { return isABSONObj() ? BSONObj(value()) : BSONObj(); }
BSONObj BSONElement::embeddedObject() const { return Obj(); }

std::vector<BSONElement> BSONElement::arrayElements() const {
    std::vector<BSONElement> out;
    for (BSONElement e : Obj()) out.push_back(e);
    return out;
}

BSONObj BSONElement::wrap() const { return wrap(fieldNameStringData()); }
BSONObj BSONElement::wrap(std::string_view newName) const {
    BSONObjBuilder b;
    if (!eoo()) b.appendAs(*this, newName);
    return b.obj();
}

std::string BSONElement::toString(bool includeFieldName) const {
    if (eoo()) return "EOO";
    std::string j = wrap("x").jsonString();
    // {"x" : <value>} -> <value>
    auto colon = j.find(':');
    std::string v = j.substr(colon + 2, j.size() - colon - 4);
    return includeFieldName ? std::string(fieldNameStringData()) + ": " + v : v;
}

// ---- BSONObj ----

BSONObj::BSONObj() : _data(kEmptyObj) {}

BSONObj BSONObj::copyFrom(const char* data) {
    int n = readInt32(data);
    std::shared_ptr<char[]> buf(new char[n]);
    std::memcpy(buf.get(), data, n);
    const char* p = buf.get();
    return BSONObj(std::shared_ptr<const char[]>(std::move(buf)), p);
}

int BSONObj::objsize() const { return readInt32(_data); }

int BSONObj::nFields() const {
    int n = 0;
    for (BSONObjIterator it(*this); it.more(); it.next()) n++;
    return n;
}

BSONObjIterator::BSONObjIterator(const BSONObj& o)
    : _pos(o.objdata() + 4), _end(o.objdata() + o.objsize() - 1) {}

BSONElement BSONObj::firstElement() const { return BSONElement(_data + 4); }

BSONElement BSONObj::getField(std::string_view name) const {
    for (BSONObjIterator it(*this); it.more();) {
        BSONElement e = it.next();
        if (e.fieldNameStringData() == name) return e;
    }
    return BSONElement();
}

BSONElement BSONObj::getFieldDotted(std::string_view path) const {
    auto dot = path.find('.');
    BSONElement e = getField(path.substr(0, dot));
    if (dot == std::string_view::npos || e.eoo()) return e;
    if (!e.isABSONObj()) return BSONElement();
    return e.Obj().getFieldDotted(path.substr(dot + 1));
}

BSONObj BSONObj::removeField(std::string_view name) const {
    BSONObjBuilder b;
    for (BSONElement e : *this)
        if (e.fieldNameStringData() != name) b.append(e);
    return b.obj();
}

BSONObj BSONObj::filterFieldsUndotted(const BSONObj& fields, bool inFilter) const {
    BSONObjBuilder b;
    for (BSONElement e : *this)
        if (fields.hasField(e.fieldNameStringData()) == inFilter) b.append(e);
    return b.obj();
}

std::string BSONObj::jsonString(bool canonical) const {
    bson_t b;
    if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(_data), objsize())) return "{}";
    size_t len = 0;
    char* s = canonical ? bson_as_canonical_extended_json(&b, &len) : bson_as_relaxed_extended_json(&b, &len);
    if (!s) return "{}";
    std::string out(s, len);
    bson_free(s);
    return out;
}

BSONObj fromjson(std::string_view json) {
    bson_error_t err;
    bson_t* b = bson_new_from_json(reinterpret_cast<const uint8_t*>(json.data()), json.size(), &err);
    if (!b) uasserted(ErrorCodes::FailedToParse, std::string("bad JSON: ") + err.message);
    BSONObj o = BSONObj::copyFrom(reinterpret_cast<const char*>(bson_get_data(b)));
    bson_destroy(b);
    return o;
}

// ---- validation of untrusted bytes ----
namespace {
Status validateDoc(const char* p, const char* end, int depth, bool isArray);

Status validateElementValue(BSONType t, const char* v, const char* end, int depth, int* size) {
    auto need = [&](long long n) { return n >= 0 && v + n <= end; };
    auto strOk = [&](const char* s, int32_t len) {
        return len >= 1 && s + 4 + len <= end && s[4 + len - 1] == 0;
    };
    switch (t) {
        case EOO: return Status(ErrorCodes::InvalidBSON, "unexpected EOO");
        case Undefined:
        case jstNULL:
        case MinKey:
        case MaxKey: *size = 0; return Status::OK();
        case Bool:
            if (!need(1)) break;
            *size = 1;
            return Status::OK();
        case NumberInt:
            if (!need(4)) break;
            *size = 4;
            return Status::OK();
        case NumberDouble:
        case Date:
        case bsonTimestamp:
        case NumberLong:
            if (!need(8)) break;
            *size = 8;
            return Status::OK();
        case jstOID:
            if (!need(12)) break;
            *size = 12;
            return Status::OK();
        case NumberDecimal:
            if (!need(16)) break;
            *size = 16;
            return Status::OK();
        case String:
        case Code:
        case Symbol: {
            if (!need(4)) break;
            int32_t len = readInt32(v);
            if (!strOk(v, len)) break;
            *size = 4 + len;
            return Status::OK();
        }
        case DBRef: {
            if (!need(4)) break;
            int32_t len = readInt32(v);
            if (!strOk(v, len) || !need(4LL + len + 12)) break;
            *size = 4 + len + 12;
            return Status::OK();
        }
        case BinData: {
            if (!need(5)) break;
            int32_t len = readInt32(v);
            if (len < 0 || !need(5LL + len)) break;
            *size = 5 + len;
            return Status::OK();
        }
        case RegEx: {
            const char* a = static_cast<const char*>(std::memchr(v, 0, end - v));
            if (!a) break;
            const char* b = static_cast<const char*>(std::memchr(a + 1, 0, end - a - 1));
            if (!b) break;
            *size = static_cast<int>(b + 1 - v);
            return Status::OK();
        }
        case Object:
        case Array: {
            if (!need(5)) break;
            int32_t len = readInt32(v);
            if (len < 5 || !need(len)) break;
            Status s = validateDoc(v, v + len, depth + 1, t == Array);
            if (!s.isOK()) return s;
            *size = len;
            return Status::OK();
        }
        case CodeWScope: {
            if (!need(4)) break;
            int32_t total = readInt32(v);
            if (total < 14 || !need(total)) break;
            int32_t slen = readInt32(v + 4);
            if (!strOk(v + 4, slen) || 8 + slen + 5 > total) break;
            Status s = validateDoc(v + 8 + slen, v + total, depth + 1, false);
            if (!s.isOK()) return s;
            if (8 + slen + readInt32(v + 8 + slen) != total) break;
            *size = total;
            return Status::OK();
        }
        default:
            return Status(ErrorCodes::InvalidBSON, "unknown BSON type " + std::to_string(int(t)));
    }
    return Status(ErrorCodes::InvalidBSON, "BSON element of type " + typeName(t) + " overruns its document");
}

Status validateDoc(const char* p, const char* end, int depth, bool) {
    if (depth > BSONDepthMax)
        return Status(ErrorCodes::Overflow, "BSON document nested deeper than " + std::to_string(BSONDepthMax));
    if (end - p < 5) return Status(ErrorCodes::InvalidBSON, "BSON document too short");
    int32_t len = readInt32(p);
    if (len != end - p) return Status(ErrorCodes::InvalidBSON, "BSON document length mismatch");
    if (end[-1] != 0) return Status(ErrorCodes::InvalidBSON, "BSON document not terminated by EOO");
    const char* q = p + 4;
    const char* last = end - 1;
    while (q < last) {
        BSONType t = static_cast<BSONType>(static_cast<signed char>(*q));
        const char* name = q + 1;
        const char* nul = static_cast<const char*>(std::memchr(name, 0, last - name));
        if (!nul) return Status(ErrorCodes::InvalidBSON, "BSON field name not terminated");
        int vsize = 0;
        Status s = validateElementValue(t, nul + 1, last, depth, &vsize);
        if (!s.isOK()) return s;
        q = nul + 1 + vsize;
    }
    if (q != last) return Status(ErrorCodes::InvalidBSON, "BSON document elements overrun");
    return Status::OK();
}
}  // namespace

StatusWith<BSONObj> BSONObj::fromUntrusted(const char* data, size_t len) {
    if (len < 5) return Status(ErrorCodes::InvalidBSON, "BSON document too short");
    int32_t declared = readInt32(data);
    if (declared < 5 || static_cast<size_t>(declared) > len)
        return Status(ErrorCodes::InvalidBSON, "BSON document length " + std::to_string(declared) +
                                                   " does not fit in " + std::to_string(len) + " bytes");
    Status s = validateDoc(data, data + declared, 0, false);
    if (!s.isOK()) return s;
    return copyFrom(data);
}

}  // namespace mongo
