// Sort specifications and sort keys (see sort_pattern.h for the rules).
#include "mongo/db/query/sort_pattern.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/query/matcher_parse_util.h"
#include "mongo/db/query/path_traversal.h"

namespace mongo {
namespace {

}  // namespace

SortPattern::SortPattern(const BSONObj& spec, CollatorPtr collator)
    : _spec(spec.getOwned()), _collator(std::move(collator)) {
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
    _keyGen = std::make_shared<IndexKeyGenerator>(_spec, false, _collator);
}

bool SortPattern::fastKey(const BSONObj& doc, std::vector<BSONElement>* key) const {
    // Common case first: no array on any sort path, so each field has exactly one value.
    key->reserve(_pathParts.size());
    for (const auto& path : _pathParts) {
        BSONElement e = doc.getField(path.part(0));
        size_t i = 1;
        for (; i < path.size() && e.type() == Object; i++) e = e.Obj().getField(path.part(i));
        if (e.type() == Array) return false;  // needs expansion
        // Missing, or a scalar where the path wanted a document: null.
        key->push_back(i < path.size() || e.eoo() ? nullKeyElement() : e);
    }
    return true;
}

BSONObj SortPattern::keyOf(const BSONObj& doc) const {
    BSONObjBuilder b;
    std::vector<BSONElement> fast;
    if (fastKey(doc, &fast)) {
        for (const BSONElement& e : fast) {
            if (_collator) appendComparisonKey(&b, "", e, _collator.get());
            else b.appendAs(e, "");
        }
        return b.obj();
    }
    // Through arrays, a document's sort key is the smallest under the pattern of the keys an
    // index over the pattern would hold for it (MongoDB builds sort keys with its index key
    // generator): one routine, so an index in sort order and a SORT stage always agree.
    KeyStringSet keys;
    bool multikey = false;
    try {
        _keyGen->getKeys(doc, &keys, &multikey);
    } catch (const DBException& e) {
        if (e.code() == int(ErrorCodes::CannotIndexParallelArrays))
            uasserted(ErrorCodes::BadValue, "cannot sort with keys that are parallel arrays");
        throw;
    }
    const BSONObj* best = nullptr;
    for (const BSONObj& k : keys)
        if (!best || compareKeys(k, *best) < 0) best = &k;
    if (!best) return b.obj();
    // A sort key is values only: a missing field sorts as null (the key's marker name goes).
    for (BSONElement e : *best) b.appendAs(e, "");
    return b.obj();
}

int SortPattern::compare(const BSONObj& a, const BSONObj& b) const {
    if (_parts.empty()) return 0;
    return compareKeys(keyOf(a), keyOf(b));
}

BSONObj SortPattern::extractKey(const BSONObj& doc) const {
    if (_parts.empty()) return BSONObj();
    return keyOf(doc);
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
