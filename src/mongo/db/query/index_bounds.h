#pragma once
// Index bounds: which ranges of an index a filter needs. Bounds are always a superset of the
// matching keys (the executor re-applies the whole filter to every fetched document), so a
// predicate the planner does not understand simply contributes no bounds.
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
    bool contains(const BSONElement& v) const;
    // MongoDB's explain notation: "[1, 1]", "(5, inf.0]", "[MinKey, MaxKey]".
    std::string toString() const;
    static Interval make(const BSONElement& lo, bool loInc, const BSONElement& hi, bool hiInc);
    static Interval allValues();  // [MinKey, MaxKey]
    static Interval point(const BSONElement& v) { return make(v, true, v, true); }
};

// The intervals (sorted, disjoint) for the predicates on path in filter (top level and in
// $and), or nullopt when nothing in the filter bounds that path. With multikey, bounds from
// different predicates are not intersected (each may be satisfied by a different element).
std::optional<std::vector<Interval>> boundsForPath(const BSONObj& filter, const std::string& path, bool multikey);

}  // namespace mongo
