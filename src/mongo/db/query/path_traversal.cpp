#include "mongo/db/query/path_traversal.h"

namespace mongo {

bool isAllDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

DottedPath::DottedPath(std::string_view dotted) : _dotted(dotted) {
    size_t start = 0;
    while (true) {
        size_t dot = dotted.find('.', start);
        std::string_view part = dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        _parts.emplace_back(part);
        _numeric.push_back(isAllDigits(part));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}

namespace {

struct Walker {
    const DottedPath& path;
    bool expandLeafArrays;
    MatchValueVisitor& visit;

    bool isLast(size_t i) const { return i + 1 == path.size(); }

    // Values of path[i..] within the document 'obj'.
    bool walkObject(const BSONObj& obj, size_t i, const char* offset) {
        BSONObj cur = obj;
        BSONElement e;
        while (true) {
            e = cur.getField(path.part(i));
            if (e.eoo()) return visit(BSONElement(), offset);
            if (isLast(i) || e.type() == Array) break;
            if (e.type() != Object) return visit(BSONElement(), offset);  // a scalar where a document was needed
            cur = e.Obj();
            ++i;
        }
        if (e.type() != Array) return visit(e, offset);
        if (isLast(i)) {
            if (!expandLeafArrays) return visit(e, offset);
            for (BSONElement x : e.Obj())
                if (visit(x, offset ? offset : x.fieldName())) return true;
            return visit(e, offset);  // the whole array, for {a: [1, 2]} equality
        }
        return walkArrayRest(e, i + 1, offset);
    }

    // 'arr' was reached with path[next..] still to apply to its elements.
    bool walkArrayRest(const BSONElement& arr, size_t next, const char* offset) {
        const std::string& piece = path.part(next);
        const bool pieceIsIndex = path.isNumeric(next);
        for (BSONElement x : arr.Obj()) {
            const char* elemOffset = offset ? offset : x.fieldName();
            bool indexMatch = pieceIsIndex && piece == x.fieldNameStringData();
            if (x.type() == Object) {
                if (walkObject(x.Obj(), next, elemOffset)) return true;
                if (!indexMatch) continue;
                // "a.0.b": element 0 itself is also a candidate for the rest of the path. An
                // explicit index is not an implicit traversal, so it records no offset of its own.
                if (isLast(next)) {
                    if (visit(x, offset)) return true;
                } else if (walkObject(x.Obj(), next + 1, offset)) {
                    return true;
                }
            } else if (indexMatch) {
                if (isLast(next)) {
                    if (visit(x, offset)) return true;
                } else if (x.type() == Array) {
                    if (walkArrayRest(x, next + 1, offset)) return true;
                }
            }
        }
        return false;
    }
};

}  // namespace

bool visitMatchValues(const BSONObj& doc, const DottedPath& path, bool expandLeafArrays,
                      MatchValueVisitor visitor) {
    if (path.empty()) return false;
    Walker w{path, expandLeafArrays, visitor};
    return w.walkObject(doc, 0, nullptr);
}

}  // namespace mongo
