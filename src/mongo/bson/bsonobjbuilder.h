#pragma once
// BSONObjBuilder / BSONArrayBuilder: append-only construction of BSON documents.
//
// Sub-builders (subobjStart / subarrayStart) write into their parent's buffer; finish a
// sub-builder (done() or destruction) before appending to the parent again.
// Not thread safe.
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class BSONArray : public BSONObj {  // a BSONObj known to hold an array ("0", "1", ...)
public:
    BSONArray() = default;
    explicit BSONArray(const BSONObj& o) : BSONObj(o) {}
};

class BSONObjBuilder {
public:
    BSONObjBuilder();
    BSONObjBuilder(const BSONObjBuilder&) = delete;
    BSONObjBuilder& operator=(const BSONObjBuilder&) = delete;
    ~BSONObjBuilder();

    BSONObjBuilder& append(std::string_view name, double v);
    BSONObjBuilder& append(std::string_view name, bool v);
    BSONObjBuilder& append(std::string_view name, const char* v) { return append(name, std::string_view(v)); }
    BSONObjBuilder& append(std::string_view name, const std::string& v) { return append(name, std::string_view(v)); }
    BSONObjBuilder& append(std::string_view name, std::string_view v);
    BSONObjBuilder& append(std::string_view name, const BSONObj& v);    // embedded document
    BSONObjBuilder& append(std::string_view name, const BSONArray& v);  // embedded array
    BSONObjBuilder& append(std::string_view name, Date_t v);
    BSONObjBuilder& append(std::string_view name, Timestamp v);
    BSONObjBuilder& append(std::string_view name, const OID& v);
    // Integers: 32-bit signed types become NumberInt, wider ones NumberLong.
    template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
    BSONObjBuilder& append(std::string_view name, T v) {
        if (sizeof(T) < 4 || (sizeof(T) == 4 && std::is_signed_v<T>))
            return appendInt(name, static_cast<int>(v));
        return appendLong(name, static_cast<long long>(v));
    }
    BSONObjBuilder& appendInt(std::string_view name, int v);
    BSONObjBuilder& appendLong(std::string_view name, long long v);
    // Smallest of int/long that holds v (MongoDB's appendNumber for counters).
    BSONObjBuilder& appendNumber(std::string_view name, long long v);
    // Copies an element, keeping its name / renaming it.
    BSONObjBuilder& append(const BSONElement& e);
    BSONObjBuilder& appendAs(const BSONElement& e, std::string_view newName);
    BSONObjBuilder& appendArray(std::string_view name, const BSONObj& arr);
    BSONObjBuilder& appendNull(std::string_view name);
    BSONObjBuilder& appendUndefined(std::string_view name);
    BSONObjBuilder& appendMinKey(std::string_view name);
    BSONObjBuilder& appendMaxKey(std::string_view name);
    BSONObjBuilder& appendBinData(std::string_view name, int len, int subtype, const void* data);
    BSONObjBuilder& appendRegex(std::string_view name, std::string_view pattern, std::string_view flags = "");
    BSONObjBuilder& appendCode(std::string_view name, std::string_view code);
    BSONObjBuilder& appendSymbol(std::string_view name, std::string_view sym);
    BSONObjBuilder& appendDecimal128(std::string_view name, const unsigned char bytes[16]);
    BSONObjBuilder& appendTimestamp(std::string_view name, uint64_t ts) {
        return append(name, Timestamp::fromULL(ts));
    }
    BSONObjBuilder& appendDate(std::string_view name, Date_t d) { return append(name, d); }
    // Appends every element of o.
    BSONObjBuilder& appendElements(const BSONObj& o);
    // Appends the elements of o whose names are not yet in this builder.
    BSONObjBuilder& appendElementsUnique(const BSONObj& o);

    // Nested builders writing into this buffer.
    BSONObjBuilder& subobjStart(std::string_view name);
    class BSONArrayBuilder& subarrayStart(std::string_view name);

    bool hasField(std::string_view name) const;
    int len() const;  // bytes written so far
    bool isEmpty() const;

    // Finishes and returns the document (owned). The builder must not be appended to
    // afterwards. On a nested builder it finishes the sub-document and returns {}.
    BSONObj obj();
    BSONObj done() { return obj(); }
    // Finishes a nested builder (no-op for a top-level one until obj()).
    void doneFast();

protected:
    friend class BSONArrayBuilder;
    struct Buf;
    BSONObjBuilder(Buf* buf, std::string_view name, char type, BSONObjBuilder* parent);
    char* appendHeader(char type, std::string_view name, size_t valueLen);
    void finishNested();

    Buf* _buf;
    bool _ownsBuf;
    size_t _offset;   // where this document's length prefix sits
    bool _done = false;
    BSONObjBuilder* _parent = nullptr;
    // The open nested builder, if any: finished and released before the next append.
    std::unique_ptr<BSONObjBuilder> _child;
    std::unique_ptr<class BSONArrayBuilder> _childArr;
};

class BSONArrayBuilder {
public:
    BSONArrayBuilder() : _b() {}
    template <typename T>
    BSONArrayBuilder& append(const T& v) {
        _b.append(nextName(), v);
        return *this;
    }
    BSONArrayBuilder& append(const BSONElement& e) {
        _b.appendAs(e, nextName());
        return *this;
    }
    BSONArrayBuilder& appendNull() {
        _b.appendNull(nextName());
        return *this;
    }
    BSONObjBuilder& subobjStart() { return _b.subobjStart(nextName()); }
    BSONArrayBuilder& subarrayStart() { return _b.subarrayStart(nextName()); }
    int arrSize() const { return _n; }
    int len() const { return _b.len(); }
    BSONArray arr() { return BSONArray(_b.obj()); }
    BSONArray done() { return arr(); }
    void doneFast() { _b.doneFast(); }
    BSONObjBuilder& bb() { return _b; }

private:
    friend class BSONObjBuilder;
    BSONArrayBuilder(BSONObjBuilder::Buf* buf, std::string_view name, BSONObjBuilder* parent)
        : _b(buf, name, Array, parent) {}
    std::string nextName() { return std::to_string(_n++); }
    BSONObjBuilder _b;
    int _n = 0;
};

// Convenience: BSON("a" << 1 << "b" << "x") style is not provided; use builders, or
// fromjson() in tests.

}  // namespace mongo
