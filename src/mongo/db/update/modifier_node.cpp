#include "mongo/db/update/modifier_node.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/storage_validation.h"

namespace mongo {
namespace {

// Nesting below a value: 0 for scalars and empty containers, else 1 + the deepest child.
int nestedLevels(const BSONElement& v) {
    if (v.type() != Object && v.type() != Array) return 0;
    int deepest = 0;
    bool any = false;
    for (BSONElement c : v.Obj()) {
        any = true;
        deepest = std::max(deepest, nestedLevels(c));
    }
    return any ? deepest + 1 : 0;
}

}  // namespace

void ModifierNode::apply(ApplyContext* ctx, PathCursor cursor) const {
    if (!appliesTo(*ctx)) return;
    if (cursor.missing.empty()) {
        MutableElement* target = cursor.existing;
        if (!updateExisting(ctx, target)) return;
        checkIdNotModified(*ctx);
        ctx->modified = true;
        if (validatesResult()) validateElementForStorage(*ctx, target, ctx->path.size());
        return;
    }
    if (!allowCreation()) return;
    checkIdNotModified(*ctx);
    BSONElement value = valueForNewElement(ctx);
    MutableElement* created = createPathAt(cursor.existing, cursor.missing, value);
    ctx->modified = true;
    if (validatesResult()) validateElementForStorage(*ctx, created, ctx->path.size() - cursor.missing.size() + 1);
}

BSONElement ModifierNode::valueForNewElement(ApplyContext*) const {
    invariant(false);
    return BSONElement();
}

void checkIdNotModified(const ApplyContext& ctx) {
    if (ctx.protectId && !ctx.path.empty() && ctx.path[0] == "_id")
        uasserted(ErrorCodes::ImmutableField,
                  "Performing an update on the path '" + ctx.currentPath() +
                      "' would modify the immutable field '_id'");
}

void validateElementForStorage(const ApplyContext& ctx, MutableElement* e, size_t level) {
    if (level == 1 && !ctx.isInsert) {
        std::string name = e->fieldName();
        if (!name.empty() && name[0] == '$') {
            MutableElement* parent = e->parent();
            std::vector<std::string> names;
            std::vector<std::pair<std::string_view, BSONType>> siblings;
            size_t n = parent->numChildren();
            names.reserve(n);
            for (size_t i = 0; i < n; i++) names.push_back(parent->child(i)->fieldName());
            for (size_t i = 0; i < n; i++) siblings.emplace_back(names[i], parent->child(i)->type());
            uassertStatusOK(validateDollarPrefixedField(siblings, e->indexInParent(), name));
        }
    }
    if (static_cast<int>(level) + nestedLevels(e->value()) > kMaxUserStorageDepth)
        uasserted(ErrorCodes::Overflow,
                  "Document exceeds maximum nesting depth of " + std::to_string(kMaxUserStorageDepth));
}

bool sameValueBytes(const BSONElement& a, const BSONElement& b) {
    return a.type() == b.type() && a.valuesize() == b.valuesize() &&
        std::memcmp(a.value(), b.value(), a.valuesize()) == 0;
}

BSONElement keepValue(ApplyContext* ctx, const BSONObj& wrapped) { return ctx->doc->keep(wrapped); }

BSONObj wrapArray(const std::vector<BSONElement>& values) {
    BSONObjBuilder b;
    BSONArrayBuilder& arr = b.subarrayStart("");
    for (const BSONElement& v : values) arr.append(v);
    arr.doneFast();
    return b.obj();
}

}  // namespace mongo
