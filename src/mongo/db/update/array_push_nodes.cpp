// $push (with $each, $position, $sort, $slice) and $addToSet (with $each).
#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"

namespace mongo {
namespace {

// $push's $sort: a direction for whole elements, or a pattern of embedded fields.
struct PushSort {
    bool wholeValue = true;
    int direction = 1;
    BSONObj pattern;  // owned
    CollatorPtr collator;  // the update's collation (null: simple)

    bool less(const BSONElement& l, const BSONElement& r) const {
        if (wholeValue) return l.woCompare(r, false, collator.get()) * direction < 0;
        return keyOf(l).woCompare(keyOf(r), pattern, false, collator.get()) < 0;
    }
    // The pattern's fields of an element (null where missing; non-documents have none).
    BSONObj keyOf(const BSONElement& e) const {
        BSONObj obj = e.type() == Object ? e.Obj() : BSONObj();
        BSONObjBuilder b;
        for (BSONElement p : pattern) {
            BSONElement v = obj.getFieldDotted(p.fieldNameStringData());
            if (v.eoo())
                b.appendNull("");
            else
                b.appendAs(v, "");
        }
        return b.obj();
    }
};

void checkSortPattern(const BSONObj& pattern) {
    if (pattern.isEmpty()) uasserted(ErrorCodes::BadValue, "The $sort pattern is empty when it should be a set of fields.");
    for (BSONElement p : pattern) {
        double dir = p.isNumber() ? p.numberDouble() : 0;
        if (dir != 1 && dir != -1) uasserted(ErrorCodes::BadValue, "The $sort element value must be either 1 or -1");
        std::string_view name = p.fieldNameStringData();
        if (name.empty()) uasserted(ErrorCodes::BadValue, "The $sort field cannot be empty");
        size_t start = 0;
        while (true) {
            size_t dot = name.find('.', start);
            std::string_view part = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
            if (part.empty())
                uasserted(ErrorCodes::BadValue,
                          "The $sort field is a dotted field but has an empty part: " + std::string(name));
            if (dot == std::string_view::npos) break;
            start = dot + 1;
        }
    }
}

class PushNode final : public ModifierNode {
public:
    PushNode(const BSONElement& modExpr, CollatorPtr collator) {
        if (modExpr.type() != Object || !modExpr.Obj().hasField("$each")) {
            _values.push_back(modExpr);
            return;
        }
        std::set<std::string> seen;
        for (BSONElement clause : modExpr.Obj()) {
            std::string name(clause.fieldNameStringData());
            if (name != "$each" && name != "$slice" && name != "$sort" && name != "$position")
                uasserted(ErrorCodes::BadValue, "Unrecognized clause in $push: " + name);
            if (!seen.insert(name).second) uasserted(ErrorCodes::BadValue, "Only one " + name + " is supported.");
            if (name == "$each") {
                if (clause.type() != Array)
                    uasserted(ErrorCodes::BadValue,
                              "The argument to $each in $push must be an array but it was of type: " +
                                  typeName(clause.type()));
                for (BSONElement v : clause.Obj()) _values.push_back(v);
            } else if (name == "$slice") {
                auto n = parseIntegerElementToLong(clause);
                if (!n.isOK())
                    uasserted(ErrorCodes::BadValue,
                              "The value for $slice must be an integer value but was given type: " +
                                  typeName(clause.type()));
                _slice = n.getValue();
            } else if (name == "$position") {
                auto n = parseIntegerElementToLong(clause);
                if (!n.isOK())
                    uasserted(ErrorCodes::BadValue,
                              "The value for $position must be an integer value, not of type: " +
                                  typeName(clause.type()));
                _position = n.getValue();
            } else {  // $sort
                PushSort sort;
                sort.collator = collator;
                if (clause.type() == Object) {
                    checkSortPattern(clause.Obj());
                    sort.wholeValue = false;
                    sort.pattern = clause.Obj().getOwned();
                } else if (clause.isNumber()) {
                    double dir = clause.numberDouble();
                    if (dir != 1 && dir != -1)
                        uasserted(ErrorCodes::BadValue, "The $sort element value must be either 1 or -1");
                    sort.direction = dir > 0 ? 1 : -1;
                } else {
                    uasserted(ErrorCodes::BadValue,
                              "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort "
                              "embedded fields");
                }
                _sort = sort;
            }
        }
    }

protected:
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (current.type() != Array)
            uasserted(ErrorCodes::BadValue,
                      "The field '" + ctx->currentPath() + "' must be an array but is of type " +
                          typeName(current.type()) + " in document {" + ctx->idDescription + "}");
        std::vector<BSONElement> arr = current.arrayElements();
        if (!push(&arr)) return false;
        target->setValue(keepValue(ctx, wrapArray(arr)));
        return true;
    }
    BSONElement valueForNewElement(ApplyContext* ctx) const override {
        std::vector<BSONElement> arr;
        push(&arr);
        return keepValue(ctx, wrapArray(arr));
    }

private:
    // Returns false if the array is unchanged.
    bool push(std::vector<BSONElement>* arr) const {
        bool changed = false;
        if (!_values.empty()) {
            changed = true;
            long long size = static_cast<long long>(arr->size());
            long long at;
            if (size == 0 || _position > size)
                at = size;
            else if (_position > 0)
                at = _position;
            else if (_position < 0 && -_position < size)
                at = size + _position;
            else
                at = 0;
            arr->insert(arr->begin() + at, _values.begin(), _values.end());
        }
        if (_sort) {
            changed = true;
            const PushSort& s = *_sort;
            std::stable_sort(arr->begin(), arr->end(),
                             [&s](const BSONElement& l, const BSONElement& r) { return s.less(l, r); });
        }
        unsigned long long keep = _slice == std::numeric_limits<long long>::min()
            ? static_cast<unsigned long long>(std::numeric_limits<long long>::max()) + 1
            : static_cast<unsigned long long>(_slice < 0 ? -_slice : _slice);
        if (arr->size() > keep) {
            changed = true;
            if (_slice >= 0)
                arr->resize(keep);
            else
                arr->erase(arr->begin(), arr->end() - keep);
        }
        return changed;
    }

    std::vector<BSONElement> _values;  // views into the update document
    long long _slice = std::numeric_limits<long long>::max();
    long long _position = std::numeric_limits<long long>::max();
    std::optional<PushSort> _sort;
};

class AddToSetNode final : public ModifierNode {
public:
    AddToSetNode(const BSONElement& modExpr, CollatorPtr collator) : _collator(std::move(collator)) {
        std::vector<BSONElement> candidates;
        bool each = false;
        if (modExpr.type() == Object) {
            BSONElement first = modExpr.Obj().firstElement();
            if (first.ok() && first.fieldNameStringData() == "$each") {
                each = true;
                if (first.type() != Array)
                    uasserted(ErrorCodes::TypeMismatch,
                              "The argument to $each in $addToSet must be an array but it was of type " +
                                  typeName(first.type()));
                if (modExpr.Obj().nFields() > 1)
                    uasserted(ErrorCodes::BadValue,
                              "Found unexpected fields after $each in $addToSet: " +
                                  formatObjectForError(modExpr.Obj()));
                candidates = first.arrayElements();
            }
        }
        if (!each) candidates.push_back(modExpr);
        for (const BSONElement& c : candidates)
            if (!contains(_values, c)) _values.push_back(c);
    }

protected:
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (current.type() != Array)
            uasserted(ErrorCodes::BadValue,
                      "Cannot apply $addToSet to non-array field. Field named '" + target->fieldName() +
                          "' has non-array type " + typeName(current.type()));
        std::vector<BSONElement> arr = current.arrayElements();
        size_t before = arr.size();
        for (const BSONElement& v : _values)
            if (!contains(arr, v)) arr.push_back(v);
        if (arr.size() == before) return false;
        target->setValue(keepValue(ctx, wrapArray(arr)));
        return true;
    }
    BSONElement valueForNewElement(ApplyContext* ctx) const override { return keepValue(ctx, wrapArray(_values)); }

private:
    bool contains(const std::vector<BSONElement>& arr, const BSONElement& v) const {
        for (const BSONElement& e : arr)
            if (e.woCompare(v, false, _collator.get()) == 0) return true;
        return false;
    }
    CollatorPtr _collator;  // the update's collation: "A" is already in ["a"] under strength 2
    std::vector<BSONElement> _values;  // deduplicated under it, in order of first appearance
};

}  // namespace

std::shared_ptr<UpdateNode> makePushNode(const BSONElement& modExpr, CollatorPtr collator) {
    return std::make_shared<PushNode>(modExpr, std::move(collator));
}
std::shared_ptr<UpdateNode> makeAddToSetNode(const BSONElement& modExpr, CollatorPtr collator) {
    return std::make_shared<AddToSetNode>(modExpr, std::move(collator));
}

}  // namespace mongo
