#pragma once
// Value, Document and MutableDoc: the in-memory values the aggregation pipeline computes
// with (MongoDB's pipeline/value.h and document.h in spirit).
//
// A Value is any BSON value or "missing" (EOO). Strings, arrays and documents are shared,
// immutable and reference counted, so copying a Value is cheap. A Document made from BSON
// keeps the BSON and only splits it into fields when a field is first read, so a document
// that passes through the pipeline unchanged is never rebuilt. Field order is preserved.
// Exotic types (binData, regex, decimal, code, dbPointer, minKey, ...) are kept as their
// raw BSON element.
// Thread safety: Values/Documents are immutable and may be shared between threads (the lazy
// field split is synchronised). MutableDoc is not thread safe.
//
// Limits (MongoDB's, so that runaway expressions end in an error instead of exhausting the
// stack or memory):
//  - Nesting: every Value/Document knows its in-memory depth (scalars 0, an array or computed
//    document 1 + its deepest child, a document still backed by BSON 1: its bytes were validated
//    on input and are copied, not walked). Building one deeper than kMaxValueDepth throws
//    Overflow (15), so the recursive walks (comparison, conversion, printing, destruction) stay
//    shallow. Converting to BSON throws Overflow past maxBSONDepth (200) levels, as MongoDB does.
//  - Strings: 16493 "Tried to create string longer than 16MB", as MongoDB's Value strings.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"

namespace mongo {

class Value;
class FieldPath;
struct DocumentStorage;

class Document {
public:
    using Field = std::pair<std::string, Value>;

    Document();  // {}
    // Throws Overflow (15) when a field's value makes the document deeper than kMaxValueDepth.
    // Wraps a BSON document (copied first when it is an unowned view).
    static Document fromBson(const BSONObj& obj);
    // A view into obj whose bytes are kept alive by owner (for nested documents).
    static Document fromBsonView(const BSONObj& view, const BSONObj& owner);
    explicit Document(std::vector<Field> fields);

    Value getField(std::string_view name) const;
    Value operator[](std::string_view name) const;
    // Follows the path through embedded documents only (no array traversal).
    Value getNestedField(const FieldPath& path) const;
    bool hasField(std::string_view name) const;
    const std::vector<Field>& fields() const;
    size_t size() const { return fields().size(); }
    bool empty() const;
    // Nesting levels held in memory (see the header comment); 1 for a BSON-backed document.
    int depth() const;
    // Approximate memory footprint (BSON-backed documents: their BSON size; never splits).
    size_t approximateSize() const;

    // Throws Overflow (15) "cannot convert document to BSON because it exceeds the limit of 200
    // levels of nesting" for a computed document nested deeper than maxBSONDepth.
    BSONObj toBson() const;
    // The fields, into b. level: the nesting level of this document in the output (1 = top).
    void appendTo(BSONObjBuilder* b, int level = 1) const;
    std::string toString() const;            // relaxed extended JSON, for messages

    // Canonical comparison (field names and values, MongoDB's document order).
    static int compare(const Document& a, const Document& b);

private:
    std::shared_ptr<const DocumentStorage> _s;  // never null
};

class Value {
public:
    Value() = default;  // missing
    explicit Value(double v) : _type(NumberDouble) { _u.d = v; }
    explicit Value(int v) : _type(NumberInt) { _u.i = v; }
    explicit Value(long long v) : _type(NumberLong) { _u.l = v; }
    explicit Value(long v) : Value(static_cast<long long>(v)) {}
    explicit Value(bool v) : _type(Bool) { _u.b = v; }
    explicit Value(std::string_view s);  // throws 16493 when 16MB or longer
    explicit Value(const std::string& s) : Value(std::string_view(s)) {}
    explicit Value(const char* s) : Value(std::string_view(s)) {}
    explicit Value(Document d) : _type(Object), _depth(d.depth()), _doc(std::move(d)) {}
    explicit Value(std::vector<Value> arr);  // throws Overflow (15) past kMaxValueDepth
    explicit Value(Date_t d) : _type(Date) { _u.l = d.millis; }
    explicit Value(Timestamp t) : _type(bsonTimestamp) { _u.ts = t.asULL(); }
    explicit Value(const OID& o);
    // Copies the element's value (nested documents are views kept alive by owner; pass an
    // owned object, or an empty owner when e outlives the Value is not needed: then it copies).
    static Value fromElement(const BSONElement& e, const BSONObj& owner);
    static Value fromElement(const BSONElement& e);  // copies what it needs
    static Value null();
    static Value undefined();
    static Value minKey();
    static Value maxKey();
    // Decimal128 from its 16 raw bytes (little-endian low, high), or from a string.
    static Value decimal(const unsigned char bytes[16]);
    static Value decimalFromString(std::string_view s, bool* ok = nullptr);

    BSONType getType() const { return _type; }
    bool missing() const { return _type == EOO; }
    bool nullish() const { return _type == EOO || _type == jstNULL || _type == Undefined; }
    bool numeric() const { return isNumericType(_type); }
    bool isArray() const { return _type == Array; }
    bool isObject() const { return _type == Object; }
    bool isString() const { return _type == String; }
    // Nesting levels held in memory: 0 for scalars (see the header comment).
    int depth() const { return static_cast<int>(_depth); }

    double getDouble() const { return _u.d; }
    int getInt() const { return _u.i; }
    long long getLong() const { return _u.l; }
    bool getBool() const { return _u.b; }
    Date_t getDate() const { return Date_t{_u.l}; }
    Timestamp getTimestamp() const { return Timestamp::fromULL(_u.ts); }
    OID getOid() const;
    // String, Symbol or Code text.
    std::string_view getStringData() const;
    std::string getString() const { return std::string(getStringData()); }
    const std::vector<Value>& getArray() const;
    size_t getArrayLength() const { return getArray().size(); }
    const Document& getDocument() const { return _doc; }
    // The raw element of exotic types ({"": <value>}); EOO for the others.
    BSONElement rawElement() const;

    // Numeric conversions of any numeric type (decimal through double).
    double coerceToDouble() const;
    long long coerceToLong() const;  // saturating
    int coerceToInt() const;
    // True if numeric and exactly an integer that fits in 32 / 64 bits.
    bool integral() const;
    bool integral64() const;
    bool isNaN() const;
    // MongoDB truthiness (false, 0, null, undefined, missing are false).
    bool coerceToBool() const;
    // Date value of a Date, Timestamp or ObjectId; throws 16006 otherwise.
    Date_t coerceToDate() const;
    // String form for $concat-style coercions ($toLower, $substr...); throws 16007.
    std::string coerceToString() const;
    // Decimal128 bytes of a numeric value (exact for ints/longs, doubles rounded to 15
    // significant digits as MongoDB converts them).
    void coerceToDecimal(unsigned char out[16]) const;
    // The decimal of a NumberDecimal value (+0 for other types).
    Decimal128 getDecimal() const;

    // MongoDB's canonical comparison of values (missing < null < numbers < strings ...).
    static int compare(const Value& a, const Value& b);
    friend bool operator==(const Value& a, const Value& b) { return compare(a, b) == 0; }
    friend bool operator!=(const Value& a, const Value& b) { return compare(a, b) != 0; }
    friend bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }

    // Appends as name (nothing when missing). level: the nesting level of the document being
    // built (1 = the top); throws Overflow (15) past maxBSONDepth, as MongoDB does.
    void appendTo(BSONObjBuilder* b, std::string_view name, int level = 1) const;
    // Appends to an array (missing becomes null: arrays have no holes).
    void appendTo(BSONArrayBuilder* b) const;
    BSONObj wrap(std::string_view name) const;
    // As MongoDB prints values in messages: strings quoted, documents as JSON.
    std::string toString() const;
    // Approximate memory footprint, for $group/$push size checks.
    size_t approximateSize() const;

private:
    BSONType _type = EOO;
    uint32_t _depth = 0;  // see depth()
    union {
        double d;
        int i;
        long long l;  // NumberLong and Date millis
        bool b;
        unsigned long long ts;
        unsigned char oid[12];
    } _u{};
    std::shared_ptr<const std::string> _str;          // String / Symbol / Code
    std::shared_ptr<const std::vector<Value>> _arr;   // Array
    Document _doc;                                     // Object
    BSONObj _raw;                                      // exotic types: {"": value}
};

// The collation under which Value::compare (and so ==, <, ValueLess, Document::compare and
// every stage, accumulator and expression built on them) compares String and Symbol values.
// Values are compared through operators and ordered containers all over the pipeline, so the
// pipeline's collation is in force for the thread while it parses or runs rather than passed
// to each comparison: Pipeline sets it around its constructor and getNext(), $expr around its
// evaluation. Null (the default) is the simple collation. Field names and Code values always
// compare bytewise.
// Thread safety: the setting is per thread; scopes nest (the previous setting is restored).
class ValueComparisonScope {
public:
    explicit ValueComparisonScope(const StringComparator* strings);
    ~ValueComparisonScope();
    ValueComparisonScope(const ValueComparisonScope&) = delete;
    ValueComparisonScope& operator=(const ValueComparisonScope&) = delete;
    // The comparator in force on this thread (null: simple).
    static const StringComparator* current();

private:
    const StringComparator* _previous;
};

struct ValueLess {
    bool operator()(const Value& a, const Value& b) const { return Value::compare(a, b) < 0; }
};

struct DocumentStorage {
    // From BSON: 'bson' holds the bytes (a view kept alive by 'owner', or owned).
    bool fromBson = false;
    BSONObj bson;
    BSONObj owner;
    mutable std::atomic<bool> split{false};
    int depth = 1;  // Document::depth()
    mutable std::mutex splitMutex;
    mutable std::vector<Document::Field> fields;
    void ensureSplit() const;
};

// A dotted path "a.b.c", validated as MongoDB's FieldPath does.
class FieldPath {
public:
    // Throws 40352 (empty), 40353 (trailing dot), 15998 (empty component), 16410 ($-prefixed),
    // 16411 (NUL).
    explicit FieldPath(std::string_view path, bool allowDollarPrefix = false);
    explicit FieldPath(std::vector<std::string> parts);
    size_t size() const { return _parts.size(); }
    const std::string& operator[](size_t i) const { return _parts[i]; }
    const std::vector<std::string>& parts() const { return _parts; }
    const std::string& front() const { return _parts.front(); }
    std::string full() const;  // joined with '.'
    FieldPath tail() const;    // without the first component (size() > 1)

private:
    std::vector<std::string> _parts;
};

// Builds a Document field by field; setField keeps the position of an existing field.
class MutableDoc {
public:
    MutableDoc() = default;
    explicit MutableDoc(const Document& d) : _fields(d.fields()) {}

    void addField(std::string name, Value v);  // appends (no duplicate check); missing skipped
    // Replaces the field in place, or appends it. A missing value removes the field.
    void setField(std::string_view name, Value v);
    // Sets a dotted path, creating (or replacing non-document) intermediate documents.
    void setNestedField(const FieldPath& path, Value v, size_t from = 0);
    void removeField(std::string_view name);
    Value getField(std::string_view name) const;
    bool hasField(std::string_view name) const;
    size_t size() const { return _fields.size(); }
    std::vector<Document::Field>& fields() { return _fields; }
    Document freeze() { return Document(std::move(_fields)); }

private:
    std::vector<Document::Field> _fields;
};

// Deepest nesting of an in-memory Value (deeper than any output document may be: maxBSONDepth
// is at most 1000), so recursion over Values stays within a connection thread's stack.
constexpr int kMaxValueDepth = 1000;

// Throws 16493 "Tried to create string longer than 16MB" when a string of 'bytes' bytes could
// not be a Value. For code that builds strings piece by piece: check before growing.
void checkValueStringSize(size_t bytes);

// Helpers shared by expressions and stages.
std::string typeNameOf(const Value& v);  // $type alias, "missing" for missing
// Converts a BSON array/document element's children into Values.
std::vector<Value> arrayFromBson(const BSONObj& arr, const BSONObj& owner);

}  // namespace mongo
