#include "mongo/bson/bsonobjbuilder.h"

#include <cstring>

namespace mongo {

struct BSONObjBuilder::Buf {
    std::string data;
};

namespace {
void putInt32(std::string& s, size_t at, int32_t v) { std::memcpy(&s[at], &v, 4); }
}  // namespace

BSONObjBuilder::BSONObjBuilder() : _buf(new Buf), _ownsBuf(true), _offset(0) {
    _buf->data.reserve(64);
    _buf->data.append(4, '\0');
}

BSONObjBuilder::BSONObjBuilder(Buf* buf, std::string_view name, char type, BSONObjBuilder* parent)
    : _buf(buf), _ownsBuf(false), _parent(parent) {
    std::string& s = _buf->data;
    s.push_back(type);
    s.append(name.data(), name.size());
    s.push_back('\0');
    _offset = s.size();
    s.append(4, '\0');
}

BSONObjBuilder::~BSONObjBuilder() {
    if (!_ownsBuf && !_done) finishNested();
    _child.reset();
    _childArr.reset();
    if (_ownsBuf) delete _buf;
}

void BSONObjBuilder::finishNested() {
    // Close any open grandchild first.
    if (_child) {
        _child->finishNested();
        _child.reset();
    }
    if (_childArr) {
        _childArr->_b.finishNested();
        _childArr.reset();
    }
    if (_done) return;
    _done = true;
    std::string& s = _buf->data;
    s.push_back('\0');
    putInt32(s, _offset, static_cast<int32_t>(s.size() - _offset));
}

char* BSONObjBuilder::appendHeader(char type, std::string_view name, size_t valueLen) {
    if (_child) {
        _child->finishNested();
        _child.reset();
    }
    if (_childArr) {
        _childArr->_b.finishNested();
        _childArr.reset();
    }
    invariant(!_done);
    std::string& s = _buf->data;
    s.push_back(type);
    s.append(name.data(), name.size());
    s.push_back('\0');
    size_t at = s.size();
    s.resize(at + valueLen);
    return &s[at];
}

BSONObjBuilder& BSONObjBuilder::append(std::string_view name, double v) {
    std::memcpy(appendHeader(NumberDouble, name, 8), &v, 8);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, bool v) {
    *appendHeader(Bool, name, 1) = v ? 1 : 0;
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendInt(std::string_view name, int v) {
    std::memcpy(appendHeader(NumberInt, name, 4), &v, 4);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendLong(std::string_view name, long long v) {
    int64_t x = v;
    std::memcpy(appendHeader(NumberLong, name, 8), &x, 8);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendNumber(std::string_view name, long long v) {
    if (v >= INT32_MIN && v <= INT32_MAX) return appendInt(name, static_cast<int>(v));
    return appendLong(name, v);
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, std::string_view v) {
    char* p = appendHeader(String, name, 4 + v.size() + 1);
    int32_t n = static_cast<int32_t>(v.size() + 1);
    std::memcpy(p, &n, 4);
    std::memcpy(p + 4, v.data(), v.size());
    p[4 + v.size()] = 0;
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendCode(std::string_view name, std::string_view v) {
    append(name, v);
    _buf->data[_buf->data.size() - (4 + v.size() + 1) - name.size() - 2] = Code;
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendSymbol(std::string_view name, std::string_view v) {
    append(name, v);
    _buf->data[_buf->data.size() - (4 + v.size() + 1) - name.size() - 2] = Symbol;
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, const BSONObj& v) {
    std::memcpy(appendHeader(Object, name, v.objsize()), v.objdata(), v.objsize());
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, const BSONArray& v) { return appendArray(name, v); }
BSONObjBuilder& BSONObjBuilder::appendArray(std::string_view name, const BSONObj& v) {
    std::memcpy(appendHeader(Array, name, v.objsize()), v.objdata(), v.objsize());
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, Date_t v) {
    std::memcpy(appendHeader(Date, name, 8), &v.millis, 8);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, Timestamp v) {
    uint64_t x = v.asULL();
    std::memcpy(appendHeader(bsonTimestamp, name, 8), &x, 8);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(std::string_view name, const OID& v) {
    std::memcpy(appendHeader(jstOID, name, 12), v.bytes, 12);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::append(const BSONElement& e) { return appendAs(e, e.fieldNameStringData()); }
BSONObjBuilder& BSONObjBuilder::appendAs(const BSONElement& e, std::string_view newName) {
    if (e.eoo()) return *this;
    std::memcpy(appendHeader(static_cast<char>(e.type()), newName, e.valuesize()), e.value(), e.valuesize());
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendNull(std::string_view name) {
    appendHeader(jstNULL, name, 0);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendUndefined(std::string_view name) {
    appendHeader(Undefined, name, 0);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendMinKey(std::string_view name) {
    appendHeader(static_cast<char>(MinKey), name, 0);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendMaxKey(std::string_view name) {
    appendHeader(static_cast<char>(MaxKey), name, 0);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendBinData(std::string_view name, int len, int subtype, const void* data) {
    char* p = appendHeader(BinData, name, 5 + len);
    std::memcpy(p, &len, 4);
    p[4] = static_cast<char>(subtype);
    if (len) std::memcpy(p + 5, data, len);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendRegex(std::string_view name, std::string_view pattern, std::string_view flags) {
    char* p = appendHeader(RegEx, name, pattern.size() + flags.size() + 2);
    std::memcpy(p, pattern.data(), pattern.size());
    p[pattern.size()] = 0;
    std::memcpy(p + pattern.size() + 1, flags.data(), flags.size());
    p[pattern.size() + 1 + flags.size()] = 0;
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendDecimal128(std::string_view name, const unsigned char bytes[16]) {
    std::memcpy(appendHeader(NumberDecimal, name, 16), bytes, 16);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendElements(const BSONObj& o) {
    for (BSONElement e : o) append(e);
    return *this;
}
BSONObjBuilder& BSONObjBuilder::appendElementsUnique(const BSONObj& o) {
    for (BSONElement e : o)
        if (!hasField(e.fieldNameStringData())) append(e);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::subobjStart(std::string_view name) {
    appendHeader(Object, name, 0);
    // appendHeader wrote the header; undo it and let the child write its own.
    _buf->data.resize(_buf->data.size() - name.size() - 2);
    _child.reset(new BSONObjBuilder(_buf, name, Object, this));
    return *_child;
}

BSONArrayBuilder& BSONObjBuilder::subarrayStart(std::string_view name) {
    appendHeader(Array, name, 0);
    _buf->data.resize(_buf->data.size() - name.size() - 2);
    _childArr.reset(new BSONArrayBuilder(_buf, name, this));
    return *_childArr;
}

bool BSONObjBuilder::hasField(std::string_view name) const {
    const std::string& s = _buf->data;
    size_t pos = _offset + 4;
    size_t end = s.size();
    // Nested children are appended after our own elements; stop at an open child's start.
    while (pos < end) {
        if (s[pos] == 0) break;
        BSONElement e(&s[pos]);
        if (e.fieldNameStringData() == name) return true;
        if (pos + e.size() > end) break;  // an open child (length not yet written)
        pos += e.size();
    }
    return false;
}

int BSONObjBuilder::len() const { return static_cast<int>(_buf->data.size() - _offset); }
bool BSONObjBuilder::isEmpty() const { return len() <= 4 && !_child && !_childArr; }

void BSONObjBuilder::doneFast() {
    if (!_ownsBuf) finishNested();
}

BSONObj BSONObjBuilder::obj() {
    if (!_ownsBuf) {
        finishNested();
        return BSONObj();
    }
    finishNested();
    std::string& s = _buf->data;
    std::shared_ptr<char[]> buf(new char[s.size()]);
    std::memcpy(buf.get(), s.data(), s.size());
    const char* p = buf.get();
    // Reset so the builder could not accidentally be appended to a finished document.
    return BSONObj(std::shared_ptr<const char[]>(std::move(buf)), p);
}

}  // namespace mongo
