#include "mongo/db/hash/bson_element_hasher.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"
#include "mongo/db/hash/md5.h"

namespace mongo {
namespace {

constexpr long long kMin = std::numeric_limits<long long>::min();
constexpr long long kMax = std::numeric_limits<long long>::max();
constexpr double kTwoTo63 = 9223372036854775808.0;

void addInt32(Md5& m, int32_t v) {
    unsigned char b[4];
    for (int i = 0; i < 4; i++) b[i] = static_cast<unsigned char>(static_cast<uint32_t>(v) >> (8 * i));
    m.append(b, 4);
}

void addInt64(Md5& m, long long v) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * i));
    m.append(b, 8);
}

// A decimal truncated toward zero, clamped to the 64-bit range; NaN gives 0.
long long decimalTruncated(const Decimal128& d) {
    if (d.isNaN()) return 0;
    if (d.isInfinite()) return d.isNegative() ? kMin : kMax;
    using u128 = Decimal128::uint128;
    u128 c = d.coefficient();
    int exp = d.exponent();
    if (exp < 0) {
        if (exp < -38) c = 0;
        else c /= Decimal128::powerOfTen(-exp);
    } else {
        for (int i = 0; i < exp && c != 0; i++) {
            if (c > (static_cast<u128>(1) << 64)) break;  // already past the 64-bit range
            c *= 10;
        }
    }
    const u128 limit = static_cast<u128>(1) << 63;  // |LLONG_MIN|
    if (d.isNegative()) return c >= limit ? kMin : -static_cast<long long>(c);
    return c >= limit ? kMax : static_cast<long long>(c);
}

void hashInto(Md5& m, const BSONElement& e, bool includeFieldName) {
    addInt32(m, e.canonicalType());
    if (includeFieldName) m.append(e.fieldName(), std::strlen(e.fieldName()) + 1);
    if (e.eoo()) return;
    switch (e.type()) {
        case Object:
        case Array:
        case CodeWScope: {
            BSONObj sub;
            if (e.type() == CodeWScope) {
                std::string_view code = e.codeWScopeCode();
                m.append(code.data(), code.size() + 1);  // with its NUL
                sub = e.codeWScopeScope();
            } else {
                sub = e.Obj();
            }
            for (BSONElement c : sub) hashInto(m, c, true);
            hashInto(m, BSONElement(), true);  // the end marker
            return;
        }
        default:
            break;
    }
    if (e.isNumber()) addInt64(m, safeNumberLongForHash(e));
    else m.append(e.value(), e.valuesize());
}

}  // namespace

long long safeNumberLongForHash(const BSONElement& e) {
    switch (e.type()) {
        case NumberInt:
        case NumberLong: return e.numberLong();
        case NumberDouble: {
            double d = e.numberDouble();
            if (std::isnan(d)) return 0;
            if (d == kTwoTo63) return kMin;
            if (d > kTwoTo63) return kMax;
            if (d < -kTwoTo63) return kMin;
            return static_cast<long long>(d);
        }
        case NumberDecimal: return decimalTruncated(Decimal128::fromBytes(e.decimal128Bytes()));
        default: return 0;
    }
}

long long hashBSONElement(const BSONElement& e, int32_t seed) {
    Md5 m;
    addInt32(m, seed);
    hashInto(m, e, false);
    Md5::Digest d = m.finish();
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | d[i];
    return static_cast<long long>(v);
}

std::vector<long long> hashedKeysForEquality(const BSONElement& v) {
    std::vector<long long> out;
    if (v.type() == jstNULL || v.type() == Undefined) {
        BSONObjBuilder b;
        b.appendNull("");
        b.appendUndefined("");
        BSONObj o = b.obj();
        for (BSONElement e : o) out.push_back(hashBSONElement(e));
        std::sort(out.begin(), out.end());
    } else {
        out.push_back(hashBSONElement(v));
    }
    return out;
}

}  // namespace mongo
