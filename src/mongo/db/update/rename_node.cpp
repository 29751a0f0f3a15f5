// $rename: moves a field's value to another path (the node sits at the destination path; a
// placeholder reserves the source path so that other operators conflict with it).
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"

namespace mongo {
namespace {

class RenameNode final : public UpdateNode {
public:
    RenameNode(std::vector<std::string> from, std::vector<std::string> to)
        : UpdateNode(Kind::kLeaf), _from(std::move(from)), _to(std::move(to)) {}

    void apply(ApplyContext* ctx, PathCursor cursor) const override {
        MutableElement* source = findSource(ctx);
        if (!source) return;  // nothing to rename: a no-op

        // Renaming through arrays is not allowed (the renamed value itself may be an array).
        for (MutableElement* p = source->parent(); p && !p->isRoot(); p = p->parent())
            if (p->type() == Array)
                uasserted(ErrorCodes::BadValue,
                          "The source field cannot be an array element, '" + joinPath(_from) + "' in doc with " +
                              ctx->idDescription + " has an array field called '" + p->fieldName() + "'");
        MutableElement* destAncestor = cursor.missing.empty() ? cursor.existing->parent() : cursor.existing;
        for (MutableElement* p = destAncestor; p && !p->isRoot(); p = p->parent())
            if (p->type() == Array)
                uasserted(ErrorCodes::BadValue,
                          "The destination field cannot be an array element, '" + joinPath(_to) + "' in doc with " +
                              ctx->idDescription + " has an array field called '" + p->fieldName() + "'");

        BSONElement value = source->value();
        // Like a $set of the destination (never a no-op) followed by an $unset of the source.
        checkIdNotModified(*ctx);
        MutableElement* written;
        size_t level;
        if (cursor.missing.empty()) {
            written = cursor.existing;
            written->setValue(value);
            level = ctx->path.size();
        } else {
            written = createPathAt(cursor.existing, cursor.missing, value);
            level = ctx->path.size() - cursor.missing.size() + 1;
        }
        validateElementForStorage(*ctx, written, level);

        std::vector<std::string> savedPath = ctx->path;
        ctx->path = _from;
        checkIdNotModified(*ctx);
        ctx->path = std::move(savedPath);
        MutableElement* sourceParent = source->parent();
        sourceParent->removeChild(source->indexInParent());
        ctx->modified = true;
    }

private:
    MutableElement* findSource(ApplyContext* ctx) const {
        MutableElement* cur = &ctx->doc->root();
        for (size_t i = 0; i < _from.size(); i++) {
            MutableElement* next = nullptr;
            if (cur->type() == Object) {
                next = cur->childForPathPart(_from[i]);
            } else {
                size_t idx;
                bool viable = cur->type() == Array && parseArrayIndex(_from[i], &idx);
                if (!viable)
                    uasserted(ErrorCodes::PathNotViable,
                              "cannot use the part (" + _from[i] + " of " + joinPath(_from) +
                                  ") to traverse the element ({" + describeElement(cur) + "})");
                next = cur->child(idx);
            }
            if (!next) return nullptr;
            cur = next;
        }
        return cur;
    }

    std::vector<std::string> _from;
    std::vector<std::string> _to;
};

}  // namespace

std::shared_ptr<UpdateNode> makeRenameNode(const BSONElement& modExpr) {
    std::string fromPath(modExpr.fieldNameStringData());
    std::string toPath(modExpr.valueStringData());
    if (toPath.find('\0') != std::string::npos)
        uasserted(ErrorCodes::BadValue, "The 'to' field for $rename cannot contain an embedded null byte");
    std::vector<std::string> from = splitDottedPath(fromPath), to = splitDottedPath(toPath);
    if (from == to)
        uasserted(ErrorCodes::BadValue,
                  "The source and target field for $rename must differ: " + formatElementForError(modExpr));
    auto isPrefix = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
        return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
    };
    if (isPrefix(from, to) || isPrefix(to, from))
        uasserted(ErrorCodes::BadValue,
                  "The source and target field for $rename must not be on the same path: " +
                      formatElementForError(modExpr));
    auto isDynamic = [](const std::vector<std::string>& parts) {
        for (const auto& p : parts)
            if (isPositionalPart(p) || isArrayFilterPart(p)) return true;
        return false;
    };
    if (isDynamic(from))
        uasserted(ErrorCodes::BadValue, "The source field for $rename may not be dynamic: " + fromPath);
    if (isDynamic(to))
        uasserted(ErrorCodes::BadValue, "The destination field for $rename may not be dynamic: " + toPath);
    return std::make_shared<RenameNode>(std::move(from), std::move(to));
}

}  // namespace mongo
