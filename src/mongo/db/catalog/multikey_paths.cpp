#include "mongo/db/catalog/multikey_paths.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

MultikeyPaths emptyMultikeyPaths(size_t nFields) { return MultikeyPaths(nFields); }

bool anyMultikey(const MultikeyPaths& paths) {
    for (const auto& c : paths)
        if (!c.empty()) return true;
    return false;
}

bool mergeMultikeyPaths(MultikeyPaths* into, const MultikeyPaths& from) {
    if (into->size() < from.size()) into->resize(from.size());
    bool grew = false;
    for (size_t i = 0; i < from.size(); i++)
        for (size_t c : from[i]) grew |= (*into)[i].insert(c).second;
    return grew;
}

BSONObj multikeyPathsToBSON(const MultikeyPaths& paths) {
    BSONArrayBuilder outer;
    for (const auto& comps : paths) {
        BSONArrayBuilder inner;
        for (size_t c : comps) inner.append(static_cast<long long>(c));
        outer.append(inner.arr());
    }
    return outer.arr();
}

namespace {
size_t numComponents(std::string_view path) {
    size_t n = 1;
    for (char c : path) n += c == '.';
    return n;
}
}  // namespace

MultikeyPaths multikeyPathsFromBSON(const BSONElement& e, const BSONObj& keyPattern, bool multikey) {
    std::vector<std::string> fields;
    for (BSONElement f : keyPattern) fields.emplace_back(f.fieldNameStringData());
    MultikeyPaths out(fields.size());
    bool ok = e.type() == Array && e.Obj().nFields() == static_cast<int>(fields.size());
    if (ok) {
        size_t i = 0;
        for (BSONElement comps : e.Obj()) {
            if (comps.type() != Array) {
                ok = false;
                break;
            }
            for (BSONElement c : comps.Obj()) {
                long long v;
                if (!c.isIntegral64(&v) || v < 0 || static_cast<size_t>(v) >= numComponents(fields[i])) {
                    ok = false;
                    break;
                }
                out[i].insert(static_cast<size_t>(v));
            }
            i++;
        }
    }
    if (ok) return out;
    // Written before path-level tracking (or damaged): every component of a multikey index
    // may be an array; a non-multikey index has none.
    MultikeyPaths conservative(fields.size());
    if (multikey)
        for (size_t i = 0; i < fields.size(); i++)
            for (size_t c = 0; c < numComponents(fields[i]); c++) conservative[i].insert(c);
    return conservative;
}

BSONObj multikeyPathsForExplain(const BSONObj& keyPattern, const MultikeyPaths& paths) {
    BSONObjBuilder b;
    size_t i = 0;
    for (BSONElement f : keyPattern) {
        std::string_view path = f.fieldNameStringData();
        BSONArrayBuilder arr;
        if (i < paths.size()) {
            for (size_t c : paths[i]) {
                // The prefix of path made of its components 0..c.
                size_t pos = 0;
                for (size_t k = 0; k <= c && pos != std::string_view::npos; k++) {
                    pos = path.find('.', k == 0 ? 0 : pos + 1);
                }
                arr.append(path.substr(0, pos == std::string_view::npos ? path.size() : pos));
            }
        }
        b.append(f.fieldNameStringData(), arr.arr());
        i++;
    }
    return b.obj();
}

}  // namespace mongo
