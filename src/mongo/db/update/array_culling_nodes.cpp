// $pop, $pull and $pullAll: operators that remove elements from an existing array.
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"

namespace mongo {
namespace {

class PopNode final : public ModifierNode {
public:
    explicit PopNode(bool fromFront) : _fromFront(fromFront) {}

protected:
    bool allowCreation() const override { return false; }
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (current.type() != Array)
            uasserted(ErrorCodes::TypeMismatch,
                      "Path '" + ctx->currentPath() + "' contains an element of non-array type '" +
                          typeName(current.type()) + "'");
        std::vector<BSONElement> arr = current.arrayElements();
        if (arr.empty()) return false;
        if (_fromFront)
            arr.erase(arr.begin());
        else
            arr.pop_back();
        target->setValue(keepValue(ctx, wrapArray(arr)));
        return true;
    }

private:
    bool _fromFront;
};

// Shared by $pull and $pullAll: removes the elements a predicate selects.
class ArrayCullingNode : public ModifierNode {
protected:
    bool allowCreation() const override { return false; }
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (current.type() != Array) uasserted(ErrorCodes::BadValue, "Cannot apply $pull to a non-array value");
        std::vector<BSONElement> kept;
        bool removed = false;
        for (BSONElement e : current.Obj()) {
            if (shouldRemove(e))
                removed = true;
            else
                kept.push_back(e);
        }
        if (!removed) return false;
        target->setValue(keepValue(ctx, wrapArray(kept)));
        return true;
    }
    virtual bool shouldRemove(const BSONElement& e) const = 0;
};

// The first field names a query operator that applies to a value ({$gte: 6}), as opposed to a
// document filter ({x: 1}, {$and: [...]}).
bool isPathAcceptingOperator(std::string_view name) {
    static const std::set<std::string_view> kOps = {
        "$eq",          "$ne",          "$gt",          "$gte",          "$lt",        "$lte",
        "$in",          "$nin",         "$all",         "$size",         "$exists",    "$type",
        "$mod",         "$regex",       "$options",     "$elemMatch",    "$not",       "$near",
        "$nearSphere",  "$geoNear",     "$within",      "$geoWithin",    "$geoIntersects",
        "$bitsAllSet",  "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear"};
    return kOps.count(name) > 0 || name.rfind("$_internalSchema", 0) == 0 || name.rfind("$_internalExpr", 0) == 0;
}

// Name under which $pull wraps a value-level condition and each array element for the matcher.
constexpr std::string_view kWrappedName = "x";

class PullNode final : public ArrayCullingNode {
public:
    PullNode(const BSONElement& modExpr, CollatorPtr collator) : _value(modExpr), _collator(std::move(collator)) {
        if (modExpr.type() == Object && !isPathAcceptingOperator(modExpr.Obj().firstElementFieldName())) {
            // {$pull: {a: {b: 1}}}: removes the documents in 'a' that match the filter {b: 1}.
            _mode = Mode::kDocumentFilter;
            _matcher = std::make_unique<Matcher>(modExpr.Obj().getOwned(), _collator);
        } else if (modExpr.type() == Object || modExpr.type() == RegEx) {
            // {$pull: {a: {$gte: 6}}} or {$pull: {a: /x/}}: a condition on each element.
            _mode = Mode::kValueCondition;
            _matcher = std::make_unique<Matcher>(modExpr.wrap(kWrappedName), _collator);
        } else {
            _mode = Mode::kEquality;
        }
    }

protected:
    bool shouldRemove(const BSONElement& e) const override {
        switch (_mode) {
            case Mode::kDocumentFilter: return e.type() == Object && _matcher->matches(e.Obj());
            case Mode::kValueCondition: return _matcher->matches(e.wrap(kWrappedName));
            case Mode::kEquality: return e.woCompare(_value, false, _collator.get()) == 0;
        }
        return false;
    }

private:
    enum class Mode { kEquality, kDocumentFilter, kValueCondition };
    Mode _mode = Mode::kEquality;
    BSONElement _value;
    CollatorPtr _collator;
    std::unique_ptr<Matcher> _matcher;
};

class PullAllNode final : public ArrayCullingNode {
public:
    PullAllNode(const BSONElement& modExpr, CollatorPtr collator)
        : _values(modExpr.arrayElements()), _collator(std::move(collator)) {}

protected:
    bool shouldRemove(const BSONElement& e) const override {
        for (const BSONElement& v : _values)
            if (e.woCompare(v, false, _collator.get()) == 0) return true;
        return false;
    }

private:
    std::vector<BSONElement> _values;
    CollatorPtr _collator;
};

}  // namespace

std::shared_ptr<UpdateNode> makePopNode(const BSONElement& modExpr) {
    long long v = uassertStatusOK(parseIntegerElementToLong(modExpr));
    if (v != 1 && v != -1) uasserted(ErrorCodes::FailedToParse, "$pop expects 1 or -1, found: " + std::to_string(v));
    return std::make_shared<PopNode>(v == -1);
}

std::shared_ptr<UpdateNode> makePullNode(const BSONElement& modExpr, CollatorPtr collator) {
    return std::make_shared<PullNode>(modExpr, std::move(collator));
}

std::shared_ptr<UpdateNode> makePullAllNode(const BSONElement& modExpr, CollatorPtr collator) {
    if (modExpr.type() != Array)
        uasserted(ErrorCodes::BadValue,
                  "$pullAll requires an array argument but was given a " + typeName(modExpr.type()));
    return std::make_shared<PullAllNode>(modExpr, std::move(collator));
}

}  // namespace mongo
