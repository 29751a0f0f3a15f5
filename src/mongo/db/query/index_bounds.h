#pragma once
// Index bounds: for each field of an index, the ordered list of value intervals a scan must
// visit. Bounds are always a superset of the keys of the documents the query can match; what
// they do not rule out, the plan's filters do.
//
// Intervals are kept in ascending value order (BSONElement::woCompare, MongoDB's canonical
// order) whatever the index field's direction; the index scan walks them in its own order.
// Thread safety: plain values.
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

struct Interval {
    BSONObj lohi;  // {"": lo, "": hi}, owned
    bool loInclusive = true;
    bool hiInclusive = true;
    BSONElement lo() const { return lohi.firstElement(); }
    BSONElement hi() const {
        BSONObjIterator it(lohi);
        it.next();
        return it.next();
    }
    bool isPoint() const { return loInclusive && hiInclusive && lo().woCompare(hi()) == 0; }
    bool isEmpty() const;
    bool isFullRange() const;  // [MinKey, MaxKey]
    bool contains(const BSONElement& v) const;
    // -1: v lies before the interval, 0: inside, 1: after.
    int position(const BSONElement& v) const;
    // MongoDB's explain notation: "[1.0, 1.0]", "(5, inf.0]", "[MinKey, MaxKey]", "[\"a\", \"b\")".
    std::string toString() const;

    static Interval make(const BSONElement& lo, bool loInc, const BSONElement& hi, bool hiInc);
    static Interval allValues();  // [MinKey, MaxKey]
    static Interval point(const BSONElement& v) { return make(v, true, v, true); }
};

// Sorted by lower bound, pairwise disjoint, none empty. An empty list matches nothing.
using OrderedIntervalList = std::vector<Interval>;

namespace oil {
// Sorts and merges overlapping or touching intervals, dropping empty ones.
OrderedIntervalList normalize(OrderedIntervalList in);
OrderedIntervalList intersect(const OrderedIntervalList& a, const OrderedIntervalList& b);
OrderedIntervalList unite(const OrderedIntervalList& a, const OrderedIntervalList& b);
// Everything in [MinKey, MaxKey] not in 'in'.
OrderedIntervalList complement(const OrderedIntervalList& in);
bool contains(const OrderedIntervalList& l, const BSONElement& v);
// Every value of a is in b.
bool isSubset(const OrderedIntervalList& a, const OrderedIntervalList& b);
bool isFullRange(const OrderedIntervalList& l);
bool allPoints(const OrderedIntervalList& l);
// Whether some interval may hold a string, symbol, object or array: values whose order depends
// on the collation (and which an index with a collation stores as collation keys).
bool mayHoldCollatableValues(const OrderedIntervalList& l);
OrderedIntervalList fullRange();
}  // namespace oil

// MongoDB's rendering of a bound value in explain (numbers as "1.0"/"1", "inf.0", quoted
// strings, ObjectId('..'), new Date(..), MinKey ...). collationKeys: the bound of an index with a
// collation, whose strings are ICU sort keys: shown as CollationKey(0x<hex>), as MongoDB does.
std::string boundValueToString(const BSONElement& e, bool collationKeys = false);

// The lowest and highest values of v's type class, for type-bracketed ranges ({$gt: 5} only
// matches numbers). Returns false for types whose class has no bracket here.
// *hiInclusive says whether 'hi' itself belongs to the class (an empty object, which ends the
// string class, does not); *exact (when given) whether the bracket holds that class only.
bool typeBracket(const BSONElement& v, BSONObj* loHi, bool* hiInclusive, bool* exact = nullptr);

struct IndexBounds {
    std::vector<OrderedIntervalList> fields;  // one per key-pattern field
    // explain's "indexBounds": {a: ["[1.0, 1.0]"], b: ["[MinKey, MaxKey]"]}; the intervals of a
    // descending field (and of every field of a backward scan) are listed in scan order.
    // collationKeys: the index has a collation (its string bounds are sort keys).
    BSONObj toBSON(const BSONObj& keyPattern, bool forward, bool collationKeys = false) const;
    bool empty() const;  // some field has no interval: nothing can match
};

}  // namespace mongo
