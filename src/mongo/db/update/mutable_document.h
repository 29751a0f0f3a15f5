#pragma once
// MutableDocument: an editable tree over a BSON document, used while update operators run.
//
// Elements start as views of the original bytes and are expanded into child elements only when
// an update navigates into them, so untouched subtrees are copied verbatim when the result is
// serialized. Values given to setValue()/appendChild() are BSONElement views: their bytes must
// outlive the document (use MutableDocument::keep() for values computed during the update).
// Not thread safe; one document per update application.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class MutableDocument;

class MutableElement {
public:
    MutableElement(MutableDocument* doc, MutableElement* parent, std::string name, BSONElement value);
    MutableElement(const MutableElement&) = delete;
    MutableElement& operator=(const MutableElement&) = delete;

    BSONType type() const;
    bool isContainer() const { return type() == Object || type() == Array; }
    // The field name; for array elements, their index.
    std::string fieldName() const;
    MutableElement* parent() const { return _parent; }
    bool isRoot() const { return _parent == nullptr; }

    // Children of an object or array (expands the element). 0 for scalars.
    size_t numChildren();
    MutableElement* child(size_t i);
    // Object: first child with that name. Array: the child at that decimal index. Else null.
    MutableElement* childForPathPart(std::string_view part);
    size_t indexInParent() const;

    // The current value. If the element was expanded it is serialized (and collapsed back into
    // a single value, which invalidates pointers to its descendants).
    BSONElement value();

    // Mutations. Values must outlive the document (see class comment).
    void setValue(const BSONElement& v);
    void makeEmptyContainer(BSONType t);  // Object or Array
    MutableElement* appendChild(std::string name, const BSONElement& v);
    MutableElement* appendContainerChild(std::string name, BSONType t);
    void removeChild(size_t i);

    // Appends this element's current value under 'name' (recursively for expanded elements).
    void appendTo(class BSONObjBuilder& b, std::string_view name) const;

private:
    friend class MutableDocument;
    void expand();

    MutableDocument* _doc;
    MutableElement* _parent;
    std::string _name;             // unused for array elements
    BSONElement _value;            // valid while !_expanded
    bool _expanded = false;
    BSONType _containerType = EOO;  // when _expanded
    std::vector<std::unique_ptr<MutableElement>> _children;
};

class MutableDocument {
public:
    // 'doc' must stay valid for the life of this object.
    explicit MutableDocument(const BSONObj& doc);
    MutableDocument(const MutableDocument&) = delete;
    MutableDocument& operator=(const MutableDocument&) = delete;

    MutableElement& root() { return *_root; }
    // Keeps 'holder' alive as long as the document and returns its first element.
    BSONElement keep(const BSONObj& holder);
    BSONObj toBSON() const;

private:
    std::vector<BSONObj> _buffers;
    std::unique_ptr<MutableElement> _root;
};

}  // namespace mongo
