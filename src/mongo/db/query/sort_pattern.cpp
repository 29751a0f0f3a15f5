// Sort specifications and sort keys (see sort_pattern.h for the rules).
#include "mongo/db/query/sort_pattern.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/matcher_parse_util.h"
#include "mongo/db/query/path_traversal.h"

namespace mongo {
namespace {

// Generates the candidate keys of a document (as an index over the pattern would: arrays are
// expanded, one array at a time, correlating the fields that go through the same array) and
// keeps the smallest under the pattern's ordering.
class SortKeyGenerator {
public:
    using KeyCompare = FunctionRef<int(const std::vector<BSONElement>&, const std::vector<BSONElement>&)>;
    SortKeyGenerator(const std::vector<DottedPath>& paths, KeyCompare cmp) : _paths(paths), _cmp(cmp) {}

    std::vector<BSONElement> run(const BSONObj& doc) {
        std::vector<FieldState> states(_paths.size());
        // A view: copying states then never touches the document's reference count.
        for (auto& s : states) s.obj = BSONObj(doc.objdata());
        generate(std::move(states));
        return std::move(_best);
    }

private:
    struct FieldState {
        BSONObj obj;       // where the rest of the path is looked up
        size_t pos = 0;    // next path component
        bool resolved = false;
        BSONElement value;
        // Set when the walk stopped at an array to expand.
        bool atArray = false;
        bool arrayIsLeaf = false;
        BSONElement array;
    };

    // Follows field i's path through documents until a value, a missing field, or an array
    // that has to be expanded (path_traversal.h's key walk).
    void descend(FieldState& s, const DottedPath& path) {
        size_t pos = s.pos;
        BSONElement v;
        if (stepKeyPath(s.obj.getField(path.part(pos)), path, &pos, &v) == KeyPathStep::kValue) return resolve(s, v);
        s.atArray = true;
        s.arrayIsLeaf = pos + 1 == path.size();
        s.array = v;
        s.pos = pos + 1;
    }

    static void resolve(FieldState& s, const BSONElement& v) {
        s.resolved = true;
        s.atArray = false;
        s.value = v;
    }

    void generate(std::vector<FieldState> states) {
        const char* array = nullptr;
        for (size_t i = 0; i < states.size(); i++) {
            FieldState& s = states[i];
            if (s.resolved) continue;
            if (!s.atArray) descend(s, _paths[i]);
            if (!s.atArray) continue;
            if (!array) array = s.array.rawdata();
            uassert(ErrorCodes::BadValue, "cannot sort with keys that are parallel arrays",
                    array == s.array.rawdata());
        }
        if (!array) return consider(states);

        // Expand the array for every field that reached it.
        BSONElement arr;
        for (auto& s : states)
            if (s.atArray) arr = s.array;
        BSONObj elems = arr.Obj();
        if (elems.isEmpty()) {
            for (auto& s : states)
                if (s.atArray) resolve(s, s.arrayIsLeaf ? undefinedKeyElement() : nullKeyElement());
            return generate(std::move(states));
        }
        for (BSONElement x : elems) {
            std::vector<FieldState> next = states;
            for (auto& s : next) {
                if (!s.atArray) continue;
                if (s.arrayIsLeaf) {
                    resolve(s, x);
                } else if (x.type() == Object) {
                    s.atArray = false;
                    s.obj = x.Obj();
                } else {
                    resolve(s, nullKeyElement());  // a scalar or nested array has no sub-fields
                }
            }
            generate(std::move(next));
        }
    }

    void consider(const std::vector<FieldState>& states) {
        std::vector<BSONElement> key;
        key.reserve(states.size());
        for (const auto& s : states) key.push_back(s.value);
        if (!_haveBest || _cmp(key, _best) < 0) {
            _best = std::move(key);
            _haveBest = true;
        }
    }

    const std::vector<DottedPath>& _paths;
    KeyCompare _cmp;
    std::vector<BSONElement> _best;
    bool _haveBest = false;
};

// The key of a one-field pattern: the smallest (ascending) or largest (descending) of the
// values the key walk yields, found without building candidate tuples.
BSONElement singleFieldKey(const BSONObj& doc, const DottedPath& path, bool ascending) {
    BSONElement best;
    bool haveBest = false;
    walkPath(doc, path, PathWalkOptions::forKeys(), [&](const BSONElement& v, const char*) {
        int c = haveBest ? v.woCompare(best, false) : 0;
        if (!haveBest || (ascending ? c < 0 : c > 0)) best = v;
        haveBest = true;
        return false;
    });
    return haveBest ? best : nullKeyElement();
}

}  // namespace

SortPattern::SortPattern(const BSONObj& spec) : _spec(spec.getOwned()) {
    for (BSONElement e : _spec) {
        auto name = e.fieldNameStringData();
        if (e.type() == Object) {
            BSONObj meta = e.Obj();
            uassert(17312, "$meta is the only expression supported by $sort right now",
                    meta.firstElementFieldName() == "$meta");
            uassert(ErrorCodes::FailedToParse, "Cannot have additional keys in a $meta sort specification",
                    meta.nFields() == 1);
            BSONElement kind = meta.firstElement();
            bool known = kind.type() == String &&
                (kind.str() == "textScore" || kind.str() == "randVal" || kind.str() == "searchScore");
            uassert(31138, "Illegal $meta sort: " + kind.toString(), known);
            if (kind.str() == "textScore")
                uasserted(ErrorCodes::BadValue, "query requires text score metadata, but it is not available");
            uasserted(ErrorCodes::BadValue, "$meta sort by '" + kind.str() + "' is not supported by this server");
        }
        uassert(15974, "Illegal key in $sort specification: " + e.toString(), e.isNumber());
        double direction = e.numberDouble();
        uassert(15975, "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
                direction == 1 || direction == -1);
        validateFieldPath(name);
        _parts.push_back(Part{std::string(name), direction == 1});
        _pathParts.emplace_back(_parts.back().path);
    }
}

int SortPattern::compareElements(const std::vector<BSONElement>& a, const std::vector<BSONElement>& b) const {
    for (size_t i = 0; i < _parts.size(); i++) {
        int c = a[i].woCompare(b[i], false);
        if (c) return _parts[i].ascending ? c : -c;
    }
    return 0;
}

std::vector<BSONElement> SortPattern::keyElements(const BSONObj& doc) const {
    // Common case first: no array on any sort path, so each field has exactly one value.
    std::vector<BSONElement> key;
    key.reserve(_pathParts.size());
    for (const auto& path : _pathParts) {
        BSONElement e = doc.getField(path.part(0));
        size_t i = 1;
        for (; i < path.size() && e.type() == Object; i++) e = e.Obj().getField(path.part(i));
        if (e.type() == Array) break;  // needs expansion: the general generator below
        // Missing, or a scalar where the path wanted a document: null.
        key.push_back(i < path.size() || e.eoo() ? nullKeyElement() : e);
    }
    if (key.size() == _pathParts.size()) return key;
    if (_pathParts.size() == 1) return {singleFieldKey(BSONObj(doc.objdata()), _pathParts[0], _parts[0].ascending)};
    auto cmp = [this](const std::vector<BSONElement>& a, const std::vector<BSONElement>& b) {
        return compareElements(a, b);
    };
    return SortKeyGenerator(_pathParts, cmp).run(doc);
}

int SortPattern::compare(const BSONObj& a, const BSONObj& b) const {
    if (_parts.empty()) return 0;
    return compareElements(keyElements(a), keyElements(b));
}

BSONObj SortPattern::extractKey(const BSONObj& doc) const {
    BSONObjBuilder b;
    if (_parts.empty()) return b.obj();
    for (const BSONElement& e : keyElements(doc)) b.appendAs(e, "");
    return b.obj();
}

int SortPattern::compareKeys(const BSONObj& ka, const BSONObj& kb) const {
    BSONObjIterator i(ka), j(kb);
    for (size_t k = 0; k < _parts.size(); k++) {
        BSONElement x = i.more() ? i.next() : BSONElement();
        BSONElement y = j.more() ? j.next() : BSONElement();
        int c = x.woCompare(y, false);
        if (c) return _parts[k].ascending ? c : -c;
    }
    return 0;
}

}  // namespace mongo
