// $set, $setOnInsert, $unset, $currentDate, and the placeholder that reserves $rename's source.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"
#include "mongo/db/update/write_timestamp.h"

namespace mongo {
namespace {

class SetNode final : public ModifierNode {
public:
    SetNode(const BSONElement& value, bool onlyOnInsert) : _value(value), _onlyOnInsert(onlyOnInsert) {}

protected:
    bool appliesTo(const ApplyContext& ctx) const override { return !_onlyOnInsert || ctx.isInsert; }
    bool updateExisting(ApplyContext*, MutableElement* target) const override {
        if (sameValueBytes(target->value(), _value)) return false;
        target->setValue(_value);
        return true;
    }
    BSONElement valueForNewElement(ApplyContext*) const override { return _value; }

private:
    BSONElement _value;  // points into the update document, which the driver owns
    bool _onlyOnInsert;
};

class UnsetNode final : public ModifierNode {
protected:
    bool allowCreation() const override { return false; }
    bool validatesResult() const override { return false; }
    bool updateExisting(ApplyContext*, MutableElement* target) const override {
        MutableElement* parent = target->parent();
        if (parent->type() == Array) {
            // Removing an array element would shift the others: mongod sets it to null instead.
            static const BSONObj kNull = fromjson("{\"\": null}");
            target->setValue(kNull.firstElement());
        } else {
            parent->removeChild(target->indexInParent());
        }
        return true;
    }
};

class CurrentDateNode final : public ModifierNode {
public:
    explicit CurrentDateNode(bool timestamp) : _timestamp(timestamp) {}

protected:
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        target->setValue(now(ctx));
        return true;
    }
    BSONElement valueForNewElement(ApplyContext* ctx) const override { return now(ctx); }

private:
    BSONElement now(ApplyContext* ctx) const {
        BSONObjBuilder b;
        if (_timestamp)
            b.append("", nextWriteTimestamp());
        else
            b.append("", Date_t::now());
        return keepValue(ctx, b.obj());
    }
    bool _timestamp;
};

class ConflictPlaceholderNode final : public UpdateNode {
public:
    ConflictPlaceholderNode() : UpdateNode(Kind::kLeaf) {}
    void apply(ApplyContext*, PathCursor) const override {}
};

}  // namespace

std::shared_ptr<UpdateNode> makeSetNode(const BSONElement& modExpr, bool onlyOnInsert) {
    return std::make_shared<SetNode>(modExpr, onlyOnInsert);
}

std::shared_ptr<UpdateNode> makeUnsetNode(const BSONElement&) { return std::make_shared<UnsetNode>(); }

std::shared_ptr<UpdateNode> makeCurrentDateNode(const BSONElement& modExpr) {
    if (modExpr.type() == Bool) return std::make_shared<CurrentDateNode>(false);
    if (modExpr.type() != Object)
        uasserted(ErrorCodes::BadValue,
                  typeName(modExpr.type()) +
                      " is not valid type for $currentDate. Please use a boolean ('true') or a $type "
                      "expression ({$type: 'timestamp/date'}).");
    bool found = false;
    bool timestamp = false;
    for (BSONElement e : modExpr.Obj()) {
        if (e.fieldNameStringData() != "$type")
            uasserted(ErrorCodes::BadValue,
                      "Unrecognized $currentDate option: " + std::string(e.fieldNameStringData()));
        if (e.type() == String) {
            if (e.valueStringData() == "date") {
                timestamp = false;
                found = true;
            } else if (e.valueStringData() == "timestamp") {
                timestamp = true;
                found = true;
            }
        }
    }
    if (!found)
        uasserted(ErrorCodes::BadValue,
                  "The '$type' string field is required to be 'date' or 'timestamp': "
                  "{$currentDate: {field : {$type: 'date'}}}");
    return std::make_shared<CurrentDateNode>(timestamp);
}

std::shared_ptr<UpdateNode> makeConflictPlaceholderNode() { return std::make_shared<ConflictPlaceholderNode>(); }

}  // namespace mongo
