// MongoDB's canonical comparison of BSON values across types.
#include <cstring>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/number_compare.h"

namespace mongo {
namespace {

template <typename T>
int cmp3(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// Numbers compare by exact value whatever their type (number_compare.h has the rules).
int compareNumberElements(const BSONElement& l, const BSONElement& r) {
    BSONType lt = l.type(), rt = r.type();
    if ((lt == NumberInt || lt == NumberLong) && (rt == NumberInt || rt == NumberLong))
        return cmp3(l.numberLong(), r.numberLong());
    return compareNumbers(BSONNumber::fromElement(l), BSONNumber::fromElement(r));
}

int compareStrings(std::string_view a, std::string_view b) {
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compareObjects(const BSONObj& l, const BSONObj& r, bool considerFieldNames, const StringComparator* strings) {
    BSONObjIterator i(l), j(r);
    while (true) {
        bool lm = i.more(), rm = j.more();
        if (!lm || !rm) return lm == rm ? 0 : (lm ? 1 : -1);
        int c = i.next().woCompare(j.next(), considerFieldNames, strings);
        if (c) return c;
    }
}
}  // namespace

int BSONElement::woCompare(const BSONElement& other, bool considerFieldName, const StringComparator* strings) const {
    int lc = canonicalType(), rc = other.canonicalType();
    if (lc != rc) return lc < rc ? -1 : 1;
    if (considerFieldName) {
        int c = compareStrings(fieldNameStringData(), other.fieldNameStringData());
        if (c) return c;
    }
    switch (type()) {
        case EOO:
        case Undefined:
        case jstNULL:
        case MinKey:
        case MaxKey: return 0;
        case NumberDouble:
        case NumberInt:
        case NumberLong:
        case NumberDecimal: return compareNumberElements(*this, other);
        case String:
        case Symbol: {
            if (!strings) return compareStrings(valueStringData(), other.valueStringData());
            int c = strings->compare(valueStringData(), other.valueStringData());
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case Code: return compareStrings(valueStringData(), other.valueStringData());
        case Object:
        case Array: return compareObjects(Obj(), other.Obj(), true, strings);
        case BinData: {
            int ll, ls, rl, rs;
            const char* a = binData(&ll, &ls);
            const char* b = other.binData(&rl, &rs);
            if (ll != rl) return ll < rl ? -1 : 1;
            if (ls != rs) return ls < rs ? -1 : 1;
            int c = std::memcmp(a, b, ll);
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case jstOID: {
            int c = std::memcmp(value(), other.value(), 12);
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case Bool: return cmp3(boolean(), other.boolean());
        case Date: return cmp3(date().millis, other.date().millis);
        case bsonTimestamp: return cmp3(timestamp().asULL(), other.timestamp().asULL());
        case RegEx: {
            int c = compareStrings(regex(), other.regex());
            return c ? c : compareStrings(regexFlags(), other.regexFlags());
        }
        case DBRef: {
            int c = cmp3(valuesize(), other.valuesize());
            if (c) return c;
            c = std::memcmp(value(), other.value(), valuesize());
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case CodeWScope: {
            int c = compareStrings(codeWScopeCode(), other.codeWScopeCode());
            return c ? c : compareObjects(codeWScopeScope(), other.codeWScopeScope(), true, nullptr);
        }
    }
    return 0;
}

int BSONObj::woCompare(const BSONObj& other, bool considerFieldNames, const StringComparator* strings) const {
    return compareObjects(*this, other, considerFieldNames, strings);
}

int BSONObj::woCompare(const BSONObj& other, const BSONObj& ordering, bool considerFieldNames,
                       const StringComparator* strings) const {
    BSONObjIterator i(*this), j(other), k(ordering);
    while (true) {
        bool lm = i.more(), rm = j.more();
        if (!lm || !rm) return lm == rm ? 0 : (lm ? 1 : -1);
        int dir = 1;
        if (k.more()) {
            BSONElement o = k.next();
            if (o.isNumber() && o.numberDouble() < 0) dir = -1;
        }
        int c = i.next().woCompare(j.next(), considerFieldNames, strings);
        if (c) return c * dir;
    }
}

}  // namespace mongo
