#pragma once
// BSONObj / BSONElement: read-only views of BSON bytes, in MongoDB's style.
//
// A BSONObj either owns its buffer (shared, reference counted: copies are cheap) or is an
// unowned view into someone else's buffer (for example the result of BSONElement::Obj()).
// Call getOwned() before keeping a view longer than the buffer it points into.
// BSONElement never owns: it is valid as long as the bytes it points at are alive.
// Thread safety: immutable once built; sharing across threads is safe.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsontypes.h"
#include "mongo/bson/string_comparator.h"

namespace mongo {

class BSONObj;

// Milliseconds since the Unix epoch (BSON Date).
struct Date_t {
    int64_t millis = 0;
    static Date_t now();
    static Date_t fromMillis(int64_t ms) { return Date_t{ms}; }
    bool operator==(const Date_t& o) const { return millis == o.millis; }
};

// BSON Timestamp: (seconds, increment), ordered as an unsigned 64-bit value.
struct Timestamp {
    uint32_t secs = 0;
    uint32_t inc = 0;
    uint64_t asULL() const { return (uint64_t(secs) << 32) | inc; }
    static Timestamp fromULL(uint64_t v) { return Timestamp{uint32_t(v >> 32), uint32_t(v)}; }
    bool isNull() const { return secs == 0 && inc == 0; }
    bool operator<(const Timestamp& o) const { return asULL() < o.asULL(); }
    bool operator==(const Timestamp& o) const { return asULL() == o.asULL(); }
};

struct OID {
    unsigned char bytes[12] = {};
    static OID gen();
    static bool parse(std::string_view hex, OID* out);
    std::string toString() const;  // 24 hex digits
    Date_t getTimestamp() const;
    bool operator==(const OID& o) const { return std::memcmp(bytes, o.bytes, 12) == 0; }
};

class BSONElement {
public:
    BSONElement() = default;  // EOO
    explicit BSONElement(const char* data);  // data points at the type byte

    BSONType type() const { return static_cast<BSONType>(static_cast<signed char>(*_data)); }
    bool eoo() const { return type() == EOO; }
    bool ok() const { return !eoo(); }
    const char* fieldName() const { return eoo() ? "" : _data + 1; }
    std::string_view fieldNameStringData() const {
        return eoo() ? std::string_view() : std::string_view(_data + 1, _fieldNameSize - 1);
    }
    const char* rawdata() const { return _data; }
    int size() const { return _totalSize; }  // type byte + name + value
    const char* value() const { return _data + 1 + _fieldNameSize; }
    int valuesize() const { return _totalSize - 1 - _fieldNameSize; }

    bool isNumber() const { return isNumericType(type()); }
    bool isNull() const { return type() == jstNULL; }
    bool isABSONObj() const { return type() == Object || type() == Array; }
    int canonicalType() const { return canonicalizeBSONType(type()); }

    // Numeric accessors convert between the numeric types; 0 for non-numbers.
    double numberDouble() const;
    long long numberLong() const;  // saturates on out-of-range doubles, 0 for NaN
    int numberInt() const;
    double Number() const { return numberDouble(); }
    long long safeNumberLong() const { return numberLong(); }
    // True if the value is a number that is exactly an integer representable in 64 bits.
    bool isIntegral64(long long* out) const;

    // String/Symbol/Code value (without the trailing NUL); empty for other types.
    std::string_view valueStringData() const;
    std::string str() const { return std::string(valueStringData()); }
    bool boolean() const { return *value() != 0; }
    // Truthiness as MongoDB defines it: false, 0, null, undefined and EOO are false.
    bool trueValue() const;
    Date_t date() const;
    Timestamp timestamp() const;
    OID oid() const;
    const unsigned char* decimal128Bytes() const { return reinterpret_cast<const unsigned char*>(value()); }
    // BinData: returns a pointer to the payload and sets len/subtype.
    const char* binData(int* len, int* subtype) const;
    const char* regex() const { return value(); }
    const char* regexFlags() const { return value() + std::strlen(value()) + 1; }
    // CodeWScope parts.
    std::string_view codeWScopeCode() const;
    BSONObj codeWScopeScope() const;

    // Embedded document or array (an unowned view). Empty object for other types.
    BSONObj Obj() const;
    BSONObj embeddedObject() const;
    std::vector<BSONElement> arrayElements() const;  // elements of an embedded array or object

    // Canonical comparison of the values (not field names), MongoDB's cross-type order.
    // strings: how String/Symbol values compare at any depth (string_comparator.h); null is
    // the simple collation.
    int woCompare(const BSONElement& other, bool considerFieldName = false,
                  const StringComparator* strings = nullptr) const;
    bool valuesEqual(const BSONElement& other) const { return woCompare(other) == 0; }
    bool binaryEqual(const BSONElement& other) const {
        return _totalSize == other._totalSize && std::memcmp(_data, other._data, _totalSize) == 0;
    }

    std::string toString(bool includeFieldName = true) const;  // relaxed extended JSON
    // Element wrapped as {<name>: value}.
    BSONObj wrap() const;
    BSONObj wrap(std::string_view newName) const;

private:
    const char* _data = kEOOByte;
    int _fieldNameSize = 0;  // including NUL
    int _totalSize = 1;
    static const char kEOOByte[1];
};

class BSONObjIterator;

class BSONObj {
public:
    BSONObj();  // the empty object {}
    // Unowned view over data (must be a valid BSON document that outlives this view).
    explicit BSONObj(const char* data) : _data(data) {}
    // Owned: holder keeps data alive.
    BSONObj(std::shared_ptr<const char[]> holder, const char* data) : _holder(std::move(holder)), _data(data) {}

    // Copies len bytes into a new owned buffer. REQUIRES: the bytes are a valid document.
    static BSONObj copyFrom(const char* data);
    // Validates untrusted bytes (structure, lengths, nesting) and returns an owned copy.
    static StatusWith<BSONObj> fromUntrusted(const char* data, size_t len);

    const char* objdata() const { return _data; }
    int objsize() const;
    bool isEmpty() const { return objsize() <= 5; }
    int nFields() const;
    bool isOwned() const { return _holder != nullptr; }
    BSONObj getOwned() const { return isOwned() ? *this : copyFrom(_data); }
    BSONObj copy() const { return copyFrom(_data); }

    BSONObjIterator begin() const;
    BSONObjIterator end() const;
    BSONElement firstElement() const;
    std::string_view firstElementFieldName() const { return firstElement().fieldNameStringData(); }

    // Top-level field lookup (no dots). EOO if missing.
    BSONElement getField(std::string_view name) const;
    BSONElement operator[](std::string_view name) const { return getField(name); }
    bool hasField(std::string_view name) const { return !getField(name).eoo(); }
    // Dotted lookup through embedded documents only (an array along the path stops it,
    // except numeric components which index into arrays). EOO if missing.
    BSONElement getFieldDotted(std::string_view path) const;

    // Comparison element by element in canonical order; with considerFieldNames the names
    // count too (MongoDB's default for documents).
    int woCompare(const BSONObj& other, bool considerFieldNames = true,
                  const StringComparator* strings = nullptr) const;
    // As woCompare, with per-field directions from an ordering pattern like {a: 1, b: -1}.
    int woCompare(const BSONObj& other, const BSONObj& ordering, bool considerFieldNames,
                  const StringComparator* strings = nullptr) const;
    bool binaryEqual(const BSONObj& o) const {
        return objsize() == o.objsize() && std::memcmp(_data, o._data, objsize()) == 0;
    }

    BSONObj removeField(std::string_view name) const;
    // Only the listed top-level fields, in this object's order.
    BSONObj filterFieldsUndotted(const BSONObj& fields, bool inFilter) const;

    std::string toString() const { return jsonString(); }
    // Relaxed extended JSON (libbson), as mongod prints in its logs.
    std::string jsonString(bool canonical = false) const;

private:
    std::shared_ptr<const char[]> _holder;
    const char* _data;
};

// Parses (extended) JSON into BSON using libbson. Throws DBException(FailedToParse) on error.
BSONObj fromjson(std::string_view json);

class BSONObjIterator {
public:
    BSONObjIterator(const char* pos, const char* end) : _pos(pos), _end(end) {}
    explicit BSONObjIterator(const BSONObj& o);
    bool more() const { return _pos < _end && *_pos != 0; }
    BSONElement next() {
        BSONElement e(_pos);
        _pos += e.size();
        return e;
    }
    BSONElement operator*() const { return BSONElement(_pos); }
    BSONObjIterator& operator++() {
        _pos += BSONElement(_pos).size();
        return *this;
    }
    bool operator!=(const BSONObjIterator& o) const { return more() && _pos != o._pos; }

private:
    const char* _pos;
    const char* _end;
};

inline BSONObjIterator BSONObj::begin() const { return BSONObjIterator(*this); }
inline BSONObjIterator BSONObj::end() const { return BSONObjIterator(_data + objsize() - 1, _data + objsize() - 1); }

// Orders BSONObjs / BSONElements for std::map/std::set (canonical comparison).
// strings: the collation's comparator (null: simple), which must outlive the container.
struct BSONObjCmp {
    const StringComparator* strings = nullptr;
    bool operator()(const BSONObj& a, const BSONObj& b) const { return a.woCompare(b, true, strings) < 0; }
};
struct BSONElementCmp {
    const StringComparator* strings = nullptr;
    bool operator()(const BSONElement& a, const BSONElement& b) const {
        return a.woCompare(b, false, strings) < 0;
    }
};

// Limits MongoDB enforces.
constexpr int BSONObjMaxUserSize = 16 * 1024 * 1024;
constexpr int BSONObjMaxInternalSize = BSONObjMaxUserSize + 16 * 1024;
constexpr int BSONDepthMax = 200;  // nesting limit for stored documents (MongoDB: 100 for user, 200 internal)

}  // namespace mongo
