#include "mongo/db/query/index_bounds.h"

#include "mongo/db/storage/key_string.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

Interval Interval::make(const BSONElement& lo, bool loInc, const BSONElement& hi, bool hiInc) {
    BSONObjBuilder b;
    b.appendAs(lo, "");
    b.appendAs(hi, "");
    Interval i;
    i.lohi = b.obj();
    i.loInclusive = loInc;
    i.hiInclusive = hiInc;
    return i;
}

Interval Interval::allValues() {
    BSONObjBuilder b;
    b.appendMinKey("");
    b.appendMaxKey("");
    Interval i;
    i.lohi = b.obj();
    return i;
}

bool Interval::isEmpty() const {
    int c = lo().woCompare(hi());
    return c > 0 || (c == 0 && !(loInclusive && hiInclusive));
}

bool Interval::isFullRange() const {
    return lo().type() == MinKey && hi().type() == MaxKey && loInclusive && hiInclusive;
}

int Interval::position(const BSONElement& v) const {
    int c = v.woCompare(lo());
    if (c < 0 || (c == 0 && !loInclusive)) return -1;
    c = v.woCompare(hi());
    if (c > 0 || (c == 0 && !hiInclusive)) return 1;
    return 0;
}

bool Interval::contains(const BSONElement& v) const { return position(v) == 0; }

std::string Interval::toString() const {
    return std::string(loInclusive ? "[" : "(") + boundValueToString(lo()) + ", " + boundValueToString(hi()) +
           (hiInclusive ? "]" : ")");
}

namespace {

// Orders intervals by lower bound (an inclusive bound before an exclusive one at the same value).
bool lowerBefore(const Interval& a, const Interval& b) {
    int c = a.lo().woCompare(b.lo());
    if (c) return c < 0;
    return a.loInclusive && !b.loInclusive;
}

// Does b start at or before the end of a (so that they overlap or touch)?
bool reaches(const Interval& a, const Interval& b) {
    int c = b.lo().woCompare(a.hi());
    return c < 0 || (c == 0 && (a.hiInclusive || b.loInclusive));
}

// The later-ending of the two upper bounds.
void extendUpper(Interval* a, const Interval& b) {
    int c = b.hi().woCompare(a->hi());
    if (c > 0 || (c == 0 && b.hiInclusive && !a->hiInclusive))
        *a = Interval::make(a->lo(), a->loInclusive, b.hi(), b.hiInclusive);
}

std::string formatDouble(double d) {
    if (std::isnan(d)) return "nan.0";
    if (std::isinf(d)) return d > 0 ? "inf.0" : "-inf.0";
    if (d == std::trunc(d) && std::fabs(d) < 1e15) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", d);
        return buf;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    // Shortest representation that reads back the same value.
    for (int prec = 1; prec <= 17; prec++) {
        char t[64];
        std::snprintf(t, sizeof t, "%.*g", prec, d);
        if (std::strtod(t, nullptr) == d) return t;
    }
    return buf;
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string boundValueToString(const BSONElement& e, bool collationKeys) {
    switch (e.type()) {
        case MinKey: return "MinKey";
        case MaxKey: return "MaxKey";
        case NumberDouble: return formatDouble(e.numberDouble());
        case NumberInt:
        case NumberLong: return std::to_string(e.numberLong());
        case String:
        case Symbol:
            // An ICU sort key (bytes, not text), shown as MongoDB shows it.
            if (collationKeys) return "CollationKey(0x" + key_string::toHex(e.valueStringData()) + ")";
            return quoted(e.valueStringData());
        case jstNULL: return "null";
        case Undefined: return "undefined";
        case Bool: return e.boolean() ? "true" : "false";
        case jstOID: return "ObjectId('" + e.oid().toString() + "')";
        case Date: return "new Date(" + std::to_string(e.date().millis) + ")";
        case bsonTimestamp:
            return "Timestamp(" + std::to_string(e.timestamp().secs) + ", " + std::to_string(e.timestamp().inc) + ")";
        case RegEx: return "/" + std::string(e.regex()) + "/" + e.regexFlags();
        case Object:
        case Array: {
            // MongoDB's shell-like form: { a: 1, b: "x" }, [ 1, 2 ].
            bool isArray = e.type() == Array;
            if (e.Obj().isEmpty()) return isArray ? "[]" : "{}";
            std::string out = isArray ? "[ " : "{ ";
            bool first = true;
            for (BSONElement c : e.Obj()) {
                if (!first) out += ", ";
                first = false;
                if (!isArray) out += std::string(c.fieldNameStringData()) + ": ";
                out += boundValueToString(c, collationKeys);
            }
            return out + (isArray ? " ]" : " }");
        }
        default: return e.toString(false);
    }
}

namespace oil {

OrderedIntervalList normalize(OrderedIntervalList in) {
    in.erase(std::remove_if(in.begin(), in.end(), [](const Interval& i) { return i.isEmpty(); }), in.end());
    std::sort(in.begin(), in.end(), lowerBefore);
    OrderedIntervalList out;
    for (auto& i : in) {
        if (!out.empty() && reaches(out.back(), i)) extendUpper(&out.back(), i);
        else out.push_back(i);
    }
    return out;
}

OrderedIntervalList intersect(const OrderedIntervalList& a0, const OrderedIntervalList& b0) {
    // Both lists sorted and disjoint: one merge pass, advancing whichever interval ends first.
    OrderedIntervalList a = normalize(a0), b = normalize(b0);
    OrderedIntervalList out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const Interval& x = a[i];
        const Interval& y = b[j];
        int cl = x.lo().woCompare(y.lo());
        const Interval& lo = cl > 0 || (cl == 0 && !x.loInclusive) ? x : y;
        int ch = x.hi().woCompare(y.hi());
        const Interval& hi = ch < 0 || (ch == 0 && !x.hiInclusive) ? x : y;
        Interval r = Interval::make(lo.lo(), lo.loInclusive, hi.hi(), hi.hiInclusive);
        if (!r.isEmpty()) out.push_back(std::move(r));
        if (&hi == &x) i++;
        else j++;
    }
    return out;
}

OrderedIntervalList unite(const OrderedIntervalList& a, const OrderedIntervalList& b) {
    OrderedIntervalList all = a;
    all.insert(all.end(), b.begin(), b.end());
    return normalize(std::move(all));
}

OrderedIntervalList complement(const OrderedIntervalList& in) {
    OrderedIntervalList l = normalize(in);
    OrderedIntervalList out;
    Interval full = Interval::allValues();
    BSONElement curLo = full.lo();
    bool curLoInc = true;
    for (const auto& i : l) {
        Interval gap = Interval::make(curLo, curLoInc, i.lo(), !i.loInclusive);
        if (!gap.isEmpty()) out.push_back(gap);
        // Keep the bound alive: it points into i.lohi, which 'l' owns until we return.
        curLo = i.hi();
        curLoInc = !i.hiInclusive;
    }
    Interval tail = Interval::make(curLo, curLoInc, full.hi(), true);
    if (!tail.isEmpty()) out.push_back(tail);
    return out;
}

bool contains(const OrderedIntervalList& l, const BSONElement& v) {
    for (const auto& i : l)
        if (i.contains(v)) return true;
    return false;
}

bool isSubset(const OrderedIntervalList& a, const OrderedIntervalList& b) {
    // a is a subset of b exactly when a's intersection with b is a itself.
    OrderedIntervalList na = normalize(a);
    OrderedIntervalList both = intersect(na, b);
    if (both.size() != na.size()) return false;
    for (size_t i = 0; i < na.size(); i++)
        if (na[i].lo().woCompare(both[i].lo()) != 0 || na[i].hi().woCompare(both[i].hi()) != 0 ||
            na[i].loInclusive != both[i].loInclusive || na[i].hiInclusive != both[i].hiInclusive)
            return false;
    return true;
}

bool isFullRange(const OrderedIntervalList& l) { return l.size() == 1 && l[0].isFullRange(); }

bool allPoints(const OrderedIntervalList& l) {
    for (const auto& i : l)
        if (!i.isPoint()) return false;
    return true;
}

OrderedIntervalList fullRange() { return {Interval::allValues()}; }

bool mayHoldCollatableValues(const OrderedIntervalList& l) {
    // In canonical type order strings and symbols come first, then objects, then arrays.
    const int first = canonicalizeBSONType(String), last = canonicalizeBSONType(Array);
    for (const Interval& iv : l) {
        int lo = iv.lo().canonicalType(), hi = iv.hi().canonicalType();
        if (lo > last || hi < first) continue;
        // [x, "") ends before every string.
        if (hi == first && !iv.hiInclusive && iv.hi().valueStringData().empty()) continue;
        return true;
    }
    return false;
}

}  // namespace oil

bool typeBracket(const BSONElement& v, BSONObj* loHi, bool* hiInclusive, bool* exact) {
    BSONObjBuilder b;
    *hiInclusive = true;
    if (exact) *exact = true;
    if (v.isNumber()) {
        b.append("", -std::numeric_limits<double>::infinity());
        b.append("", std::numeric_limits<double>::infinity());
    } else if (v.type() == String || v.type() == Symbol) {
        b.append("", "");
        b.append("", BSONObj());  // the smallest object: first value past every string
        *hiInclusive = false;
    } else if (v.type() == Object) {
        b.append("", BSONObj());
        b.appendArray("", BSONObj());  // the smallest array: first value past every object
        *hiInclusive = false;
    } else if (v.type() == jstOID) {
        OID lo, hi;
        std::memset(hi.bytes, 0xff, sizeof hi.bytes);
        b.append("", lo);
        b.append("", hi);
    } else if (v.type() == Bool) {
        b.append("", false);
        b.append("", true);
    } else if (v.type() == Date) {
        b.appendDate("", Date_t::fromMillis(std::numeric_limits<int64_t>::min()));
        b.appendDate("", Date_t::fromMillis(std::numeric_limits<int64_t>::max()));
    } else if (v.type() == bsonTimestamp) {
        b.append("", Timestamp{0, 0});
        b.append("", Timestamp{std::numeric_limits<uint32_t>::max(), std::numeric_limits<uint32_t>::max()});
    } else if (v.type() == BinData) {
        b.appendBinData("", 0, 0, "");  // binary data order by length first: this is the least
        b.append("", OID());              // the least ObjectId: first value past every BinData
        *hiInclusive = false;
    } else if (v.type() == Code || v.type() == CodeWScope) {
        // From the least code to the end: code with scope and MaxKey are inside too, so the
        // bracket is only a superset.
        b.appendCode("", "");
        b.appendMaxKey("");
        if (exact) *exact = false;
    } else {
        return false;
    }
    *loHi = b.obj();
    return true;
}

bool IndexBounds::empty() const {
    for (const auto& f : fields)
        if (f.empty()) return true;
    return false;
}


BSONObj IndexBounds::toBSON(const BSONObj& keyPattern, bool forward, bool collationKeys) const {
    auto str = [collationKeys](const BSONElement& e) { return boundValueToString(e, collationKeys); };
    BSONObjBuilder b;
    size_t i = 0;
    for (BSONElement f : keyPattern) {
        BSONArrayBuilder& arr = b.subarrayStart(f.fieldNameStringData());
        if (i < fields.size()) {
            bool descending = f.isNumber() && f.numberDouble() < 0;
            // Explain lists each field's intervals in the order the scan visits them, and a
            // reversed interval as [hi, lo].
            bool reversed = descending == forward;
            const auto& l = fields[i];
            for (size_t k = 0; k < l.size(); k++) {
                const Interval& iv = reversed ? l[l.size() - 1 - k] : l[k];
                if (!reversed) {
                    arr.append(std::string(iv.loInclusive ? "[" : "(") + str(iv.lo()) + ", " + str(iv.hi()) +
                               (iv.hiInclusive ? "]" : ")"));
                } else {
                    arr.append(std::string(iv.hiInclusive ? "[" : "(") + str(iv.hi()) + ", " + str(iv.lo()) +
                               (iv.loInclusive ? "]" : ")"));
                }
            }
        }
        arr.doneFast();
        i++;
    }
    return b.obj();
}

}  // namespace mongo
