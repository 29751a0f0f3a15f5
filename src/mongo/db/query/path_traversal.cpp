// The dotted-path walk; see path_traversal.h for the rules and modes.
#include "mongo/db/query/path_traversal.h"

#include "mongo/bson/bsonobjbuilder.h"

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
        _starts.push_back(start);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}

namespace {

BSONObj singleValue(void (*append)(BSONObjBuilder&)) {
    BSONObjBuilder b;
    append(b);
    return b.obj();
}

}  // namespace

const BSONElement& nullKeyElement() {
    static const BSONObj holder = singleValue([](BSONObjBuilder& b) { b.appendNull(""); });
    static const BSONElement e = holder.firstElement();
    return e;
}

const BSONElement& undefinedKeyElement() {
    static const BSONObj holder = singleValue([](BSONObjBuilder& b) { b.appendUndefined(""); });
    static const BSONElement e = holder.firstElement();
    return e;
}

namespace {

using Options = PathWalkOptions;

class Walker {
public:
    Walker(const DottedPath& path, const Options& o, PathValueVisitor& visit) : _path(path), _o(o), _visit(visit) {}

    // Values of path[i..] within the document 'obj'.
    bool walkObject(const BSONObj& obj, size_t i, const char* offset) {
        if (_o.literalDottedNames && !isLast(i)) {
            BSONElement whole = obj.getField(_path.rest(i));
            if (!whole.eoo()) return atEnd(whole, offset);
        }
        BSONElement e = obj.getField(_path.part(i));
        if (e.eoo()) return absent(offset);
        return atValue(e, i, offset);
    }

private:
    bool isLast(size_t i) const { return i + 1 == _path.size(); }

    // The walk found no value here.
    bool absent(const char* offset) {
        switch (_o.absent) {
            case Options::Absent::kSkip: return false;
            case Options::Absent::kEOO: return _visit(BSONElement(), offset);
            case Options::Absent::kKeyValues: return _visit(nullKeyElement(), offset);
        }
        return false;
    }

    // 'e' is the value of path part i.
    bool atValue(const BSONElement& e, size_t i, const char* offset) {
        if (isLast(i)) return atEnd(e, offset);
        if (e.type() == Object) return walkObject(e.Obj(), i + 1, offset);
        if (e.type() == Array) return walkArray(e, i + 1, offset);
        return absent(offset);  // a scalar where a document was needed
    }

    // 'e' is a value at the end of the path.
    bool atEnd(const BSONElement& e, const char* offset) {
        if (e.type() != Array || _o.trailingArrays == Options::TrailingArrays::kWhole) return _visit(e, offset);
        BSONObj elems = e.Obj();
        if (elems.isEmpty() && _o.absent == Options::Absent::kKeyValues) return _visit(undefinedKeyElement(), offset);
        for (BSONElement x : elems)
            if (_visit(x, offset ? offset : x.fieldName())) return true;
        if (_o.trailingArrays == Options::TrailingArrays::kExpandAndWhole) return _visit(e, offset);
        return false;
    }

    // 'arr' was reached with path[next..] still to apply to it.
    bool walkArray(const BSONElement& arr, size_t next, const char* offset) {
        const bool numeric = _path.isNumeric(next);
        if (numeric && _o.numericComponents == Options::NumericComponents::kIndexArrays) {
            // "a.1": the element at that index, nothing else. An explicit index is not an
            // implicit traversal, so it records no offset of its own.
            BSONElement x = arr.Obj().getField(_path.part(next));
            if (x.eoo()) return absent(offset);
            return atValue(x, next, offset);
        }
        BSONObj elems = arr.Obj();
        if (elems.isEmpty() && _o.absent == Options::Absent::kKeyValues) return _visit(nullKeyElement(), offset);
        const std::string& piece = _path.part(next);
        for (BSONElement x : elems) {
            const char* elemOffset = offset ? offset : x.fieldName();
            if (x.type() == Object) {
                if (walkObject(x.Obj(), next, elemOffset)) return true;
            } else if (_o.absent == Options::Absent::kKeyValues) {
                if (_visit(nullKeyElement(), elemOffset)) return true;  // no sub-fields
            }
            // kIndexArraysAndNameFields: the number also indexes the array.
            if (numeric && piece == x.fieldNameStringData() && atIndexedElement(x, next, offset)) return true;
        }
        return false;
    }

    // The matcher's rule for the element reached by a numeric component that also names fields.
    bool atIndexedElement(const BSONElement& x, size_t i, const char* offset) {
        if (isLast(i)) return _visit(x, offset);
        if (x.type() == Object) return walkObject(x.Obj(), i + 1, offset);
        if (x.type() == Array) return walkArray(x, i + 1, offset);
        return false;
    }

    const DottedPath& _path;
    const Options& _o;
    PathValueVisitor& _visit;
};

}  // namespace

bool walkPath(const BSONObj& doc, const DottedPath& path, const PathWalkOptions& options, PathValueVisitor visitor) {
    if (path.empty()) return false;
    Walker w(path, options, visitor);
    return w.walkObject(doc, 0, nullptr);
}

}  // namespace mongo
