// KeyString encoding and decoding; see key_string.h for the contract.
#include "mongo/db/storage/key_string.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/number_compare.h"

namespace mongo::key_string {
namespace {

// Type bytes, increasing with canonicalizeBSONType. 0 ends an object or array.
enum CType : uint8_t {
    kEnd = 0,
    kMinKey = 10,
    kUndefined = 15,
    kNull = 20,
    kNumeric = 30,
    kString = 40,  // String and Symbol
    kObject = 50,
    kArray = 60,
    kBinData = 70,
    kOID = 80,
    kBool = 90,
    kDate = 100,
    kTimestamp = 110,
    kRegEx = 120,
    kDBRef = 130,
    kCode = 140,
    kCodeWScope = 150,
    kMaxKey = 240,
};

// Number sub-tags: NaN sorts below every other number (BSONElement::woCompare).
enum NumTag : uint8_t { kNaN = 1, kNegative = 2, kZero = 3, kPositive = 4 };
// Decimal exponent of the leading digit, biased: decimals reach -6176 .. 6144.
constexpr int kExponentBias = 0x4000;
constexpr uint16_t kInfinityExponent = 0xFFFF;
constexpr double kTwoTo63 = 9223372036854775808.0;
constexpr size_t kMaxDigitPairs = (Decimal128::kMaxDigits + 1) / 2;

// Type-bit codes, one per number or string value in encoding order; 0 is the type decoding
// would infer anyway, so most keys need no type bits at all.
enum TypeBit : uint8_t {
    kInferred = 0,
    kTBInt = 1,
    kTBLong = 2,
    kTBDouble = 3,
    kTBDecimal = 4,  // followed by the 16 bytes of the decimal
    kTBNegZero = 5,
    kTBSymbol = 6,
    kTBMissing = 7,  // a top-level null that stands for a missing field (kMissingFieldName)
};

}  // namespace

Ordering Ordering::make(const BSONObj& keyPattern) {
    Ordering o;
    int i = 0;
    for (auto e : keyPattern) {
        if (i < 32 && e.isNumber() && e.numberDouble() < 0) o._bits |= (1u << i);
        ++i;
    }
    return o;
}

// Writes one value's encoding into a Builder's buffer (uninverted; the caller inverts).
class ValueEncoder {
public:
    explicit ValueEncoder(Builder* b) : _b(b) {}

    void value(const BSONElement& e) {
        std::string& out = _b->_buf;
        switch (e.type()) {
            case MinKey: tag(kMinKey); return;
            case MaxKey: tag(kMaxKey); return;
            case EOO:
            case Undefined: tag(kUndefined); return;
            case jstNULL: tag(kNull); return;
            case NumberInt:
            case NumberLong:
            case NumberDouble:
            case NumberDecimal: number(e); return;
            case String:
            case Symbol:
                tag(kString);
                escapedString(e.valueStringData());
                typeBit(e.type() == Symbol ? kTBSymbol : kInferred);
                return;
            case Object:
                tag(kObject);
                object(e.Obj(), true);
                return;
            case Array:
                tag(kArray);
                object(e.Obj(), false);
                return;
            case BinData: {
                int len, subtype;
                const char* data = e.binData(&len, &subtype);
                tag(kBinData);
                bigEndian(uint32_t(len), 4);
                out.push_back(char(subtype));
                out.append(data, len);
                return;
            }
            case jstOID:
                tag(kOID);
                out.append(e.value(), 12);
                return;
            case Bool:
                tag(kBool);
                out.push_back(e.boolean() ? 1 : 0);
                return;
            case Date:
                tag(kDate);
                bigEndian(uint64_t(e.date().millis) ^ (1ull << 63), 8);
                return;
            case bsonTimestamp:
                tag(kTimestamp);
                bigEndian(e.timestamp().asULL(), 8);
                return;
            case RegEx:
                tag(kRegEx);
                out.append(e.regex());
                out.push_back(0);
                out.append(e.regexFlags());
                out.push_back(0);
                return;
            case DBRef:
                tag(kDBRef);
                bigEndian(uint32_t(e.valuesize()), 4);
                out.append(e.value(), e.valuesize());
                return;
            case Code:
                tag(kCode);
                escapedString(e.valueStringData());
                return;
            case CodeWScope:
                tag(kCodeWScope);
                escapedString(e.codeWScopeCode());
                object(e.codeWScopeScope(), true);
                return;
        }
        uasserted(ErrorCodes::InternalError, "KeyString: unknown BSON type " + std::to_string(int(e.type())));
    }

private:
    void bigEndian(uint64_t v, int bytes) {
        for (int i = bytes - 1; i >= 0; --i) _b->_buf.push_back(char((v >> (8 * i)) & 0xFF));
    }

    // NUL bytes become 00 FF; the string ends with 00 00, so no encoding is a prefix of another.
    void escapedString(std::string_view s) {
        std::string& out = _b->_buf;
        for (char c : s) {
            out.push_back(c);
            if (c == 0) out.push_back(char(0xFF));
        }
        out.push_back(0);
        out.push_back(0);
    }

    // Elements in order: type byte, field name (objects only), value; then a 0 byte.
    void object(const BSONObj& o, bool withNames) {
        for (auto e : o) {
            // The name sits between the type byte and the payload: woCompare orders
            // elements by canonical type, then name, then value.
            if (withNames) _pendingName = e.fieldName();
            value(e);
        }
        _b->_buf.push_back(char(kEnd));
    }

    // Writes a type byte, then the pending field name of an object element (BSON names
    // contain no NUL, so a 0 terminator keeps them self-delimiting).
    void tag(CType t) {
        _b->_buf.push_back(char(t));
        if (_pendingName) {
            _b->_buf.append(_pendingName);
            _b->_buf.push_back(0);
            _pendingName = nullptr;
        }
    }

    void typeBit(uint8_t code, const unsigned char* extra = nullptr, size_t extraLen = 0) {
        _b->_typeBits.push_back(char(code));
        if (extra) _b->_typeBits.append(reinterpret_cast<const char*>(extra), extraLen);
        if (code != kInferred) _b->_typeBitsUsed = _b->_typeBits.size();
    }

    // A non-zero finite magnitude digits x 10^(adjustedExponent - digits.size() + 1), digits
    // without leading or trailing zeros: the exponent, then two digits per byte (value 0..99
    // shifted left by one; the low bit says more bytes follow; an odd last digit is padded
    // with 0). A shorter digit string with the same leading digits is the smaller magnitude, as
    // its byte without the "more" bit shows, so the encoding is self-delimiting and ordered.
    // Infinity is the exponent kInfinityExponent alone. Negative numbers invert the bytes.
    void magnitude(bool negative, int adjustedExponent, std::string_view digits, bool infinite) {
        std::string& out = _b->_buf;
        size_t start = out.size();
        uint16_t biased = infinite ? kInfinityExponent : uint16_t(adjustedExponent + kExponentBias);
        bigEndian(biased, 2);
        for (size_t i = 0; !infinite && i < digits.size(); i += 2) {
            int pair = (digits[i] - '0') * 10 + (i + 1 < digits.size() ? digits[i + 1] - '0' : 0);
            bool more = i + 2 < digits.size();
            out.push_back(char((pair << 1) | (more ? 1 : 0)));
        }
        if (negative)
            for (size_t i = start; i < out.size(); ++i) out[i] = char(~uint8_t(out[i]));
    }

    // A non-zero integer.
    void integer(int64_t v) {
        bool neg = v < 0;
        uint64_t mag = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
        char buf[24];
        int n = 0;
        for (uint64_t m = mag; m; m /= 10) buf[n++] = char('0' + m % 10);
        std::reverse(buf, buf + n);
        int len = n;
        while (buf[len - 1] == '0') --len;
        _b->_buf.push_back(char(neg ? kNegative : kPositive));
        magnitude(neg, n - 1, std::string_view(buf, len), false);
    }

    // A decimal in canonical form (see Decimal128::normalized).
    void decimal(const Decimal128& d) {
        std::string& out = _b->_buf;
        if (d.isNaN()) {
            out.push_back(char(kNaN));
            return;
        }
        if (d.isZero()) {
            out.push_back(char(kZero));
            return;
        }
        bool neg = d.isNegative();
        out.push_back(char(neg ? kNegative : kPositive));
        if (d.isInfinite()) {
            magnitude(neg, 0, {}, true);
            return;
        }
        Decimal128 n = d.normalized();
        std::string digits = uint128ToString(n.coefficient());
        magnitude(neg, n.exponent() + int(digits.size()) - 1, digits, false);
    }

    // Every number is encoded by its exact value as MongoDB compares numbers (number_compare.h):
    // integers exactly, a double as its decimal rounded to 34 digits (which is exact for
    // integral doubles below 2^63 and identifies every other double), a decimal by value. So
    // equal numbers of any types get identical bytes and memcmp agrees with woCompare.
    void number(const BSONElement& e) {
        std::string& out = _b->_buf;
        tag(kNumeric);
        BSONNumber n = BSONNumber::fromElement(e);
        switch (n.type) {
            case NumberInt:
            case NumberLong: {
                int64_t v = n.i;
                bool inferredInt = v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
                typeBit(n.type == NumberInt ? (inferredInt ? kInferred : kTBInt) : (inferredInt ? kTBLong : kInferred));
                if (v == 0) out.push_back(char(kZero));
                else integer(v);
                return;
            }
            case NumberDouble: {
                double d = n.d;
                bool integral = std::isfinite(d) && d == std::trunc(d) && d >= -kTwoTo63 && d < kTwoTo63;
                if (d == 0 && std::signbit(d)) typeBit(kTBNegZero);
                else typeBit(integral ? kTBDouble : kInferred);
                if (d == 0) out.push_back(char(kZero));
                else if (integral) integer(int64_t(d));
                else decimal(n.toComparableDecimal());
                return;
            }
            default:
                typeBit(kTBDecimal, e.decimal128Bytes(), 16);
                decimal(n.dec);
                return;
        }
    }

    Builder* _b;
    const char* _pendingName = nullptr;
};

Builder& Builder::appendElement(const BSONElement& e) {
    size_t start = _buf.size();
    ValueEncoder(this).value(e);
    if (e.type() == jstNULL) {
        // Every key value that is null carries a type-bit code: null itself, or a missing field.
        bool missing = e.fieldNameStringData() == kMissingFieldName;
        _typeBits.push_back(char(missing ? kTBMissing : kInferred));
        if (missing) _typeBitsUsed = _typeBits.size();
    }
    if (_ord.descending(_field))
        for (size_t i = start; i < _buf.size(); ++i) _buf[i] = char(~uint8_t(_buf[i]));
    ++_field;
    return *this;
}

Builder& Builder::appendKey(const BSONObj& key) {
    for (auto e : key) appendElement(e);
    return *this;
}

Builder& Builder::appendRecordId(RecordId id) {
    key_string::appendRecordId(&_buf, id);
    return *this;
}

std::string encode(const BSONObj& key, Ordering ord, std::string* typeBits) {
    Builder b(ord);
    b.appendKey(key);
    if (typeBits) *typeBits = b.typeBits();
    return b.bytes();
}

namespace {

// Reads an encoding back, undoing the inversion of descending fields.
class Decoder {
public:
    Decoder(std::string_view bytes, std::string_view typeBits) : _in(bytes), _tb(typeBits) {}

    bool atEnd() const { return _pos >= _in.size(); }
    void setInverted(bool inv) { _inv = inv; }

    // One value of a key: as value(), except that a null says (in its type bits) whether it
    // stands for a missing field.
    void keyValue(BSONObjBuilder& b) {
        if (peek() == kNull) {
            byte();
            b.appendNull(typeBit() == kTBMissing ? kMissingFieldName : "");
            return;
        }
        value(b, "", false);
    }

    void value(BSONObjBuilder& b, std::string_view name, bool readName) {
        uint8_t ct = byte();
        std::string nameBuf;
        if (readName) {
            nameBuf = cstring();
            name = nameBuf;
        }
        switch (ct) {
            case kMinKey: b.appendMinKey(name); return;
            case kMaxKey: b.appendMaxKey(name); return;
            case kUndefined: b.appendUndefined(name); return;
            case kNull: b.appendNull(name); return;
            case kNumeric: number(b, name); return;
            case kString: {
                std::string s = escapedString();
                if (typeBit() == kTBSymbol) b.appendSymbol(name, s);
                else b.append(name, std::string_view(s));
                return;
            }
            case kObject: {
                BSONObjBuilder& sub = b.subobjStart(name);
                while (peek() != kEnd) value(sub, {}, true);
                byte();
                sub.doneFast();
                return;
            }
            case kArray: {
                BSONArrayBuilder& sub = b.subarrayStart(name);
                int i = 0;
                while (peek() != kEnd) value(sub.bb(), std::to_string(i++), false);
                byte();
                sub.doneFast();
                return;
            }
            case kBinData: {
                uint32_t len = uint32_t(bigEndian(4));
                int subtype = byte();
                std::string data = raw(len);
                b.appendBinData(name, int(len), subtype, data.data());
                return;
            }
            case kOID: {
                OID oid;
                std::string data = raw(12);
                std::memcpy(oid.bytes, data.data(), 12);
                b.append(name, oid);
                return;
            }
            case kBool: b.append(name, byte() != 0); return;
            case kDate: b.append(name, Date_t::fromMillis(int64_t(bigEndian(8) ^ (1ull << 63)))); return;
            case kTimestamp: b.append(name, Timestamp::fromULL(bigEndian(8))); return;
            case kRegEx: {
                std::string pattern = cstring();
                std::string flags = cstring();
                b.appendRegex(name, pattern, flags);
                return;
            }
            case kDBRef: {
                uint32_t len = uint32_t(bigEndian(4));
                appendRaw(b, name, DBRef, raw(len));
                return;
            }
            case kCode: b.appendCode(name, escapedString()); return;
            case kCodeWScope: {
                std::string code = escapedString();
                BSONObjBuilder scopeBuilder;
                while (peek() != kEnd) value(scopeBuilder, {}, true);
                byte();
                BSONObj scope = scopeBuilder.obj();
                std::string v(8, '\0');
                int32_t codeLen = int32_t(code.size() + 1);
                v.append(code);
                v.push_back(0);
                v.append(scope.objdata(), scope.objsize());
                int32_t total = int32_t(v.size());
                std::memcpy(&v[0], &total, 4);
                std::memcpy(&v[4], &codeLen, 4);
                appendRaw(b, name, CodeWScope, v);
                return;
            }
        }
        corrupt("unknown type byte " + std::to_string(ct));
    }

private:
    [[noreturn]] void corrupt(const std::string& why) const {
        uasserted(ErrorCodes::InternalError, "KeyString decode: " + why + " in " + toHex(_in));
    }
    uint8_t peek() const {
        if (_pos >= _in.size()) corrupt("unexpected end");
        return uint8_t(_in[_pos]) ^ (_inv ? 0xFF : 0);
    }
    uint8_t byte() {
        uint8_t b = peek();
        ++_pos;
        return b;
    }
    uint64_t bigEndian(int n) {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v = (v << 8) | byte();
        return v;
    }
    std::string raw(size_t n) {
        std::string s;
        s.reserve(n);
        for (size_t i = 0; i < n; ++i) s.push_back(char(byte()));
        return s;
    }
    std::string cstring() {
        std::string s;
        for (uint8_t c = byte(); c != 0; c = byte()) s.push_back(char(c));
        return s;
    }
    std::string escapedString() {
        std::string s;
        while (true) {
            uint8_t c = byte();
            if (c != 0) {
                s.push_back(char(c));
                continue;
            }
            uint8_t next = byte();
            if (next == 0) return s;
            if (next != 0xFF) corrupt("bad string escape");
            s.push_back('\0');
        }
    }
    uint8_t typeBit() {
        if (_tbPos >= _tb.size()) return kInferred;
        return uint8_t(_tb[_tbPos++]);
    }
    std::string decimalBytes() {
        if (_tbPos + 16 > _tb.size()) corrupt("truncated decimal type bits");
        std::string s(_tb.substr(_tbPos, 16));
        _tbPos += 16;
        return s;
    }
    static void appendRaw(BSONObjBuilder& b, std::string_view name, BSONType t, const std::string& value) {
        std::string el;
        el.push_back(char(t));
        el.push_back(0);  // empty name; appendAs renames
        el.append(value);
        b.appendAs(BSONElement(el.data()), name);
    }

    void number(BSONObjBuilder& b, std::string_view name) {
        uint8_t code = typeBit();
        if (code == kTBDecimal) {
            std::string dec = decimalBytes();
            uint8_t tag = byte();
            if (tag == kNegative || tag == kPositive) {
                std::string digits;
                readMagnitude(tag == kNegative, &digits);
            } else if (tag != kNaN && tag != kZero) {
                corrupt("bad number tag");
            }
            b.appendDecimal128(name, reinterpret_cast<const unsigned char*>(dec.data()));
            return;
        }
        uint8_t tag = byte();
        if (tag == kNaN) {
            b.append(name, std::numeric_limits<double>::quiet_NaN());
            return;
        }
        if (tag == kZero) {
            switch (code) {
                case kTBLong: b.appendLong(name, 0); return;
                case kTBDouble: b.append(name, 0.0); return;
                case kTBNegZero: b.append(name, -0.0); return;
                default: b.appendInt(name, 0); return;
            }
        }
        if (tag != kNegative && tag != kPositive) corrupt("bad number tag");
        bool neg = tag == kNegative;
        std::string digits;
        int adjusted = readMagnitude(neg, &digits);
        if (adjusted == kInfiniteMagnitude) {
            b.append(name, neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
            return;
        }
        int exponent = adjusted - int(digits.size()) + 1;
        // Integral and within int64?
        bool integral = exponent >= 0 && adjusted <= 18;
        int64_t asInt = 0;
        if (integral) {
            Decimal128::uint128 mag = 0;
            for (char c : digits) mag = mag * 10 + uint64_t(c - '0');
            mag *= Decimal128::powerOfTen(exponent);
            const Decimal128::uint128 limit = Decimal128::uint128(1) << 63;
            integral = neg ? mag <= limit : mag < limit;
            if (integral) asInt = neg ? int64_t(uint64_t(0) - uint64_t(mag)) : int64_t(mag);
        }
        auto asDouble = [&] {
            // The 34-digit decimal of a double is far closer to it than to any other double,
            // so the correctly rounded parse gives the double back.
            std::string s = digits + "e" + std::to_string(exponent);
            double d = std::strtod(s.c_str(), nullptr);
            return neg ? -d : d;
        };
        if (code == kInferred) {
            if (integral) {
                if (asInt >= std::numeric_limits<int32_t>::min() && asInt <= std::numeric_limits<int32_t>::max())
                    b.appendInt(name, int(asInt));
                else
                    b.appendLong(name, asInt);
            } else {
                b.append(name, asDouble());
            }
            return;
        }
        if (!integral) corrupt("type bits of an integer on a fraction");
        switch (code) {
            case kTBInt: b.appendInt(name, int(asInt)); return;
            case kTBLong: b.appendLong(name, asInt); return;
            case kTBDouble: b.append(name, double(asInt)); return;
        }
        corrupt("bad number type bits");
    }

    static constexpr int kInfiniteMagnitude = std::numeric_limits<int>::max();

    // Reads what ValueEncoder::magnitude wrote: returns the adjusted exponent (or
    // kInfiniteMagnitude) and sets the digits.
    int readMagnitude(bool neg, std::string* digits) {
        uint8_t inv = neg ? 0xFF : 0;
        uint8_t hi = byte() ^ inv, lo = byte() ^ inv;
        uint16_t biased = uint16_t((hi << 8) | lo);
        if (biased == kInfinityExponent) return kInfiniteMagnitude;
        for (size_t n = 0;; ++n) {
            if (n == kMaxDigitPairs) corrupt("number too long");
            uint8_t g = byte() ^ inv;
            int pair = g >> 1;
            if (pair > 99) corrupt("bad digit pair");
            digits->push_back(char('0' + pair / 10));
            digits->push_back(char('0' + pair % 10));
            if (!(g & 1)) break;
        }
        if (digits->back() == '0') digits->pop_back();  // the padding of an odd digit count
        if ((*digits)[0] == '0' || digits->back() == '0') corrupt("digits not canonical");
        return int(biased) - kExponentBias;
    }

    std::string_view _in;
    std::string_view _tb;
    size_t _pos = 0;
    size_t _tbPos = 0;
    bool _inv = false;
};

}  // namespace

BSONObj decode(std::string_view bytes, Ordering ord, std::string_view typeBits) {
    Decoder d(bytes, typeBits);
    BSONObjBuilder b;
    for (int field = 0; !d.atEnd(); ++field) {
        d.setInverted(ord.descending(field));
        d.keyValue(b);
    }
    return b.obj();
}

void appendRecordId(std::string* out, RecordId id) {
    uint64_t v = uint64_t(id.repr()) ^ (1ull << 63);
    for (int i = 7; i >= 0; --i) out->push_back(char((v >> (8 * i)) & 0xFF));
}

RecordId decodeRecordId(std::string_view b) {
    invariant(b.size() == kRecordIdSize);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | uint8_t(b[i]);
    return RecordId(int64_t(v ^ (1ull << 63)));
}

std::string afterAllRecordIds(std::string_view prefix) {
    std::string s(prefix);
    s.append(kRecordIdSize + 1, char(0xFF));
    return s;
}

std::string toHex(std::string_view bytes) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (unsigned char c : bytes) {
        s.push_back(digits[c >> 4]);
        s.push_back(digits[c & 15]);
    }
    return s;
}

}  // namespace mongo::key_string
