#include "mongo/db/update/mutable_document.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/update_path.h"

namespace mongo {

MutableElement::MutableElement(MutableDocument* doc, MutableElement* parent, std::string name, BSONElement value)
    : _doc(doc), _parent(parent), _name(std::move(name)), _value(value) {}

BSONType MutableElement::type() const { return _expanded ? _containerType : _value.type(); }

std::string MutableElement::fieldName() const {
    if (_parent && _parent->type() == Array) return std::to_string(indexInParent());
    return _name;
}

void MutableElement::expand() {
    if (_expanded) return;
    BSONType t = _value.type();
    if (t != Object && t != Array) return;
    _containerType = t;
    _expanded = true;
    _children.clear();
    for (BSONElement c : _value.Obj())
        _children.push_back(std::make_unique<MutableElement>(
            _doc, this, t == Array ? std::string() : std::string(c.fieldNameStringData()), c));
}

size_t MutableElement::numChildren() {
    expand();
    return _expanded ? _children.size() : 0;
}

MutableElement* MutableElement::child(size_t i) {
    expand();
    return i < _children.size() ? _children[i].get() : nullptr;
}

MutableElement* MutableElement::childForPathPart(std::string_view part) {
    BSONType t = type();
    if (t == Object) {
        expand();
        for (auto& c : _children)
            if (c->_name == part) return c.get();
        return nullptr;
    }
    if (t == Array) {
        size_t idx;
        if (!parseArrayIndex(part, &idx)) return nullptr;
        return child(idx);
    }
    return nullptr;
}

size_t MutableElement::indexInParent() const {
    if (!_parent) return 0;
    for (size_t i = 0; i < _parent->_children.size(); i++)
        if (_parent->_children[i].get() == this) return i;
    return 0;
}

BSONElement MutableElement::value() {
    if (!_expanded) return _value;
    BSONObjBuilder b;
    appendTo(b, "");
    BSONElement v = _doc->keep(b.obj());
    // Collapse: the serialized value is now the element's value.
    _children.clear();
    _expanded = false;
    _value = v;
    return v;
}

void MutableElement::setValue(const BSONElement& v) {
    _children.clear();
    _expanded = false;
    _value = v;
}

void MutableElement::makeEmptyContainer(BSONType t) {
    _children.clear();
    _expanded = true;
    _containerType = t;
}

MutableElement* MutableElement::appendChild(std::string name, const BSONElement& v) {
    expand();
    if (type() == Array) name.clear();
    _children.push_back(std::make_unique<MutableElement>(_doc, this, std::move(name), v));
    return _children.back().get();
}

MutableElement* MutableElement::appendContainerChild(std::string name, BSONType t) {
    MutableElement* c = appendChild(std::move(name), BSONElement());
    c->makeEmptyContainer(t);
    return c;
}

void MutableElement::removeChild(size_t i) {
    expand();
    if (i < _children.size()) _children.erase(_children.begin() + i);
}

void MutableElement::appendTo(BSONObjBuilder& b, std::string_view name) const {
    if (!_expanded) {
        b.appendAs(_value, name);
        return;
    }
    if (_containerType == Object) {
        BSONObjBuilder& sub = b.subobjStart(name);
        for (auto& c : _children) c->appendTo(sub, c->_name);
        sub.doneFast();
    } else {
        BSONArrayBuilder& sub = b.subarrayStart(name);
        size_t i = 0;
        for (auto& c : _children) c->appendTo(sub.bb(), std::to_string(i++));
        sub.doneFast();
    }
}

MutableDocument::MutableDocument(const BSONObj& doc) {
    _buffers.push_back(doc);
    _root = std::make_unique<MutableElement>(this, nullptr, std::string(), BSONElement());
    _root->makeEmptyContainer(Object);
    for (BSONElement e : doc) _root->appendChild(std::string(e.fieldNameStringData()), e);
}

BSONElement MutableDocument::keep(const BSONObj& holder) {
    _buffers.push_back(holder.getOwned());
    return _buffers.back().firstElement();
}

BSONObj MutableDocument::toBSON() const {
    BSONObjBuilder b;
    for (auto& c : _root->_children) c->appendTo(b, c->_name);
    return b.obj();
}

}  // namespace mongo
