#include "mongo/db/query/index_bounds.h"

#include <algorithm>
#include <cmath>
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

bool Interval::contains(const BSONElement& v) const {
    int c = v.woCompare(lo());
    if (c < 0 || (c == 0 && !loInclusive)) return false;
    c = v.woCompare(hi());
    return c < 0 || (c == 0 && hiInclusive);
}

namespace {

std::string boundString(const BSONElement& e) {
    switch (e.type()) {
        case MinKey: return "MinKey";
        case MaxKey: return "MaxKey";
        case NumberDouble: {
            double d = e.numberDouble();
            if (std::isinf(d)) return d > 0 ? "inf.0" : "-inf.0";
            if (std::isnan(d)) return "nan.0";
            return e.toString(false);
        }
        default: return e.toString(false);
    }
}

// Lowest and highest values of v's canonical type class, so that {$gt: 5} does not scan
// strings. Types without a cheap bracket use MinKey/MaxKey (correct, just wider).
BSONObj typeBracket(const BSONElement& v) {
    BSONObjBuilder b;
    if (v.isNumber()) {
        b.append("", std::numeric_limits<double>::quiet_NaN());
        b.append("", std::numeric_limits<double>::infinity());
    } else if (v.type() == String || v.type() == Symbol) {
        b.append("", "");
        b.append("", BSONObj());  // the smallest object: first value past every string
    } else {
        b.appendMinKey("");
        b.appendMaxKey("");
    }
    return b.obj();
}

bool usableValue(const BSONElement& v) {
    switch (v.type()) {
        case jstNULL:
        case Undefined:
        case RegEx:
        case Array:
        case Object:
        case MinKey:
        case MaxKey:
        case EOO: return false;
        default: return true;
    }
}

using Intervals = std::vector<Interval>;

Intervals intersect(const Intervals& a, const Intervals& b) {
    Intervals out;
    for (auto& x : a)
        for (auto& y : b) {
            int cl = x.lo().woCompare(y.lo());
            const Interval& lo = cl > 0 || (cl == 0 && !x.loInclusive) ? x : y;
            int ch = x.hi().woCompare(y.hi());
            const Interval& hi = ch < 0 || (ch == 0 && !x.hiInclusive) ? x : y;
            int c = lo.lo().woCompare(hi.hi());
            if (c > 0 || (c == 0 && (!lo.loInclusive || !hi.hiInclusive))) continue;
            out.push_back(Interval::make(lo.lo(), lo.loInclusive, hi.hi(), hi.hiInclusive));
        }
    return out;
}

// Bounds of one predicate value on the path ({a: 5} or {a: {$gt: 1, $lt: 9}}).
std::optional<Intervals> boundsOfPredicate(const BSONElement& pred, bool multikey) {
    bool isOperatorDoc = pred.type() == Object && !pred.Obj().isEmpty() &&
                         pred.Obj().firstElementFieldName().substr(0, 1) == "$";
    if (!isOperatorDoc) {
        if (!usableValue(pred)) return std::nullopt;
        return Intervals{Interval::point(pred)};
    }
    std::optional<Intervals> acc;
    auto combine = [&](Intervals next) {
        if (!acc) acc = std::move(next);
        else if (!multikey) acc = intersect(*acc, next);
    };
    for (BSONElement op : pred.Obj()) {
        std::string_view name = op.fieldNameStringData();
        if (name == "$eq") {
            if (usableValue(op)) combine({Interval::point(op)});
        } else if (name == "$in") {
            if (op.type() != Array) continue;
            Intervals pts;
            bool ok = true;
            for (BSONElement v : op.Obj()) {
                if (!usableValue(v)) ok = false;
                pts.push_back(Interval::point(v));
            }
            if (!ok || pts.empty()) continue;
            std::sort(pts.begin(), pts.end(), [](const Interval& x, const Interval& y) { return x.lo().woCompare(y.lo()) < 0; });
            Intervals uniq;
            for (auto& p : pts)
                if (uniq.empty() || uniq.back().lo().woCompare(p.lo()) != 0) uniq.push_back(p);
            combine(uniq);
        } else if (name == "$gt" || name == "$gte") {
            if (!usableValue(op)) continue;
            BSONObj br = typeBracket(op);
            BSONObjIterator it(br);
            it.next();
            combine({Interval::make(op, name == "$gte", it.next(), !(op.type() == String || op.type() == Symbol))});
        } else if (name == "$lt" || name == "$lte") {
            if (!usableValue(op)) continue;
            BSONObj br = typeBracket(op);
            combine({Interval::make(br.firstElement(), true, op, name == "$lte")});
        }
    }
    return acc;
}

void collect(const BSONObj& filter, const std::string& path, bool multikey, std::optional<Intervals>& acc) {
    for (BSONElement e : filter) {
        std::string_view name = e.fieldNameStringData();
        if (name == "$and" && e.type() == Array) {
            for (BSONElement sub : e.Obj())
                if (sub.type() == Object) collect(sub.Obj(), path, multikey, acc);
        } else if (name == path) {
            auto b = boundsOfPredicate(e, multikey);
            if (!b) continue;
            if (!acc) acc = std::move(b);
            else if (!multikey) acc = intersect(*acc, *b);
        }
    }
}

}  // namespace

std::string Interval::toString() const {
    return std::string(loInclusive ? "[" : "(") + boundString(lo()) + ", " + boundString(hi()) + (hiInclusive ? "]" : ")");
}

std::optional<std::vector<Interval>> boundsForPath(const BSONObj& filter, const std::string& path, bool multikey) {
    std::optional<Intervals> acc;
    collect(filter, path, multikey, acc);
    return acc;
}

}  // namespace mongo
