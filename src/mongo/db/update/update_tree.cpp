// Building the update tree from operator documents and applying its internal nodes.
#include <algorithm>
#include <functional>

#include "mongo/db/update/array_filters.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"
#include "mongo/db/update/update_node.h"

namespace mongo {
namespace {

// Applies 'child' at component 'field' below 'cursor', keeping ctx->path in step.
void applyChild(ApplyContext* ctx, PathCursor* cursor, const UpdateNode& child, const std::string& field) {
    // Earlier siblings may have created parts of our own path.
    advanceCursor(cursor);
    ctx->path.push_back(field);
    child.apply(ctx, descendCursor(*cursor, field));
    ctx->path.pop_back();
}

std::shared_ptr<UpdateNode> makeLeaf(const std::string& op, const BSONElement& modExpr, const CollatorPtr& collator) {
    if (op == "$set") return makeSetNode(modExpr, false);
    if (op == "$setOnInsert") return makeSetNode(modExpr, true);
    if (op == "$unset") return makeUnsetNode(modExpr);
    if (op == "$inc") return makeArithmeticNode(modExpr, false);
    if (op == "$mul") return makeArithmeticNode(modExpr, true);
    if (op == "$min") return makeCompareNode(modExpr, false, collator);
    if (op == "$max") return makeCompareNode(modExpr, true, collator);
    if (op == "$currentDate") return makeCurrentDateNode(modExpr);
    if (op == "$bit") return makeBitNode(modExpr);
    if (op == "$push") return makePushNode(modExpr, collator);
    if (op == "$addToSet") return makeAddToSetNode(modExpr, collator);
    if (op == "$pop") return makePopNode(modExpr);
    if (op == "$pull") return makePullNode(modExpr, collator);
    if (op == "$pullAll") return makePullAllNode(modExpr, collator);
    if (op == "$rename") return makeRenameNode(modExpr);
    invariant(false);
    return nullptr;
}


// Inserts a leaf for 'path' into the tree, creating internal nodes, as mongod's
// UpdateObjectNode::parseAndMerge does. Returns true if the path is positional.
bool insertLeaf(ObjectUpdateNode* root,
                const std::string& dottedPath,
                const std::function<std::shared_ptr<UpdateNode>()>& makeNode,
                const ArrayFilters& arrayFilters,
                std::vector<std::string>* usedIdentifiers) {
    std::vector<std::string> parts = splitDottedPath(dottedPath);
    if (dottedPath.empty()) uasserted(ErrorCodes::EmptyFieldName, "An empty update path is not valid.");
    for (const auto& p : parts)
        if (p.empty())
            uasserted(ErrorCodes::EmptyFieldName,
                      "The update path '" + dottedPath + "' contains an empty field name, which is not allowed.");

    size_t positionalCount = 0, positionalIndex = 0;
    for (size_t i = 0; i < parts.size(); i++)
        if (isPositionalPart(parts[i]) && positionalCount++ == 0) positionalIndex = i;
    if (positionalCount > 1)
        uasserted(ErrorCodes::BadValue, "Too many positional (i.e. '$') elements found in path '" + dottedPath + "'");
    if (positionalCount == 1 && positionalIndex == 0)
        uasserted(ErrorCodes::BadValue,
                  "Cannot have positional (i.e. '$') element in the first position in path '" + dottedPath + "'");

    std::shared_ptr<UpdateNode> leaf = makeNode();

    // The key of component i in its parent: array filter components are keyed by identifier.
    auto childKey = [&](size_t i) {
        if (!isArrayFilterPart(parts[i])) return parts[i];
        if (i == 0)
            uasserted(ErrorCodes::BadValue,
                      "Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '" +
                          dottedPath + "'");
        std::string id = parts[i].substr(2, parts[i].size() - 3);
        if (!id.empty()) {
            if (!arrayFilters.has(id))
                uasserted(ErrorCodes::BadValue,
                          "No array filter found for identifier '" + id + "' in path '" + dottedPath + "'");
            usedIdentifiers->push_back(id);
        }
        return id;
    };

    // Internal nodes are built mutable here and frozen (shared as const) once parsing is done.
    UpdateNode* current = root;
    auto getChild = [](UpdateNode* parent, const std::string& key, bool positional) -> UpdateNodePtr* {
        if (parent->kind() == UpdateNode::Kind::kArray) {
            auto& children = static_cast<ArrayUpdateNode*>(parent)->children;
            auto it = children.find(key);
            return it == children.end() ? nullptr : &it->second;
        }
        auto* obj = static_cast<ObjectUpdateNode*>(parent);
        if (positional) return obj->positionalChild ? &obj->positionalChild : nullptr;
        auto it = obj->children.find(key);
        return it == obj->children.end() ? nullptr : &it->second;
    };
    auto setChild = [](UpdateNode* parent, const std::string& key, bool positional, UpdateNodePtr child) {
        if (parent->kind() == UpdateNode::Kind::kArray) {
            static_cast<ArrayUpdateNode*>(parent)->children[key] = std::move(child);
        } else if (positional) {
            static_cast<ObjectUpdateNode*>(parent)->positionalChild = std::move(child);
        } else {
            static_cast<ObjectUpdateNode*>(parent)->children[key] = std::move(child);
        }
    };

    for (size_t i = 0; i + 1 < parts.size(); i++) {
        std::string key = childKey(i);
        bool positional = isPositionalPart(parts[i]);
        bool childIsArrayNode = isArrayFilterPart(parts[i + 1]);
        UpdateNodePtr* existing = getChild(current, key, positional);
        if (existing) {
            UpdateNode::Kind want = childIsArrayNode ? UpdateNode::Kind::kArray : UpdateNode::Kind::kObject;
            if ((*existing)->kind() != want)
                uasserted(ErrorCodes::ConflictingUpdateOperators,
                          "Updating the path '" + dottedPath + "' would create a conflict at '" +
                              joinPath(parts, 0, i + 1) + "'");
            current = const_cast<UpdateNode*>(existing->get());
        } else {
            std::shared_ptr<UpdateNode> created;
            if (childIsArrayNode)
                created = std::make_shared<ArrayUpdateNode>();
            else
                created = std::make_shared<ObjectUpdateNode>();
            setChild(current, key, positional, created);
            current = created.get();
        }
    }
    std::string key = childKey(parts.size() - 1);
    bool positional = isPositionalPart(parts.back());
    if (getChild(current, key, positional))
        uasserted(ErrorCodes::ConflictingUpdateOperators,
                  "Updating the path '" + dottedPath + "' would create a conflict at '" + dottedPath + "'");
    setChild(current, key, positional, leaf);
    return positionalCount > 0;
}

}  // namespace

bool isKnownUpdateOperator(std::string_view op) {
    static const char* kOps[] = {"$set",  "$setOnInsert", "$unset", "$inc",  "$mul",    "$min",     "$max", "$rename",
                                 "$currentDate", "$bit",  "$push",  "$addToSet", "$pop", "$pull", "$pullAll"};
    for (const char* o : kOps)
        if (op == o) return true;
    return false;
}

bool parseAndMergeModifier(ObjectUpdateNode* root,
                           const std::string& op,
                           const BSONElement& modExpr,
                           const ArrayFilters& arrayFilters,
                           std::vector<std::string>* usedIdentifiers) {
    std::string path(modExpr.fieldNameStringData());
    if (op != "$rename")
        return insertLeaf(root, path, [&] { return makeLeaf(op, modExpr, arrayFilters.collator()); }, arrayFilters, usedIdentifiers);

    // $rename occupies both paths: a placeholder at the source, the renaming node at the
    // destination.
    bool positional = insertLeaf(root, path, [] { return makeConflictPlaceholderNode(); }, arrayFilters, usedIdentifiers);
    if (modExpr.type() != String)
        uasserted(ErrorCodes::BadValue,
                  "The 'to' field for $rename must be a string: " + formatElementForError(modExpr));
    positional |= insertLeaf(root, std::string(modExpr.valueStringData()), [&] { return makeRenameNode(modExpr); },
                             arrayFilters, usedIdentifiers);
    return positional;
}

UpdateNodePtr mergeUpdateNodes(const UpdateNodePtr& left, const UpdateNodePtr& right, std::vector<std::string>* path) {
    if (left->kind() != UpdateNode::Kind::kObject || right->kind() != UpdateNode::Kind::kObject)
        uasserted(ErrorCodes::ConflictingUpdateOperators, "Update created a conflict at '" + joinPath(*path) + "'");
    auto& l = static_cast<const ObjectUpdateNode&>(*left);
    auto& r = static_cast<const ObjectUpdateNode&>(*right);
    auto merged = std::make_shared<ObjectUpdateNode>();
    merged->children = l.children;
    for (auto& [name, child] : r.children) {
        auto it = merged->children.find(name);
        if (it == merged->children.end()) {
            merged->children.emplace(name, child);
        } else {
            path->push_back(name);
            it->second = mergeUpdateNodes(it->second, child, path);
            path->pop_back();
        }
    }
    if (l.positionalChild && r.positionalChild) {
        path->push_back("$");
        merged->positionalChild = mergeUpdateNodes(l.positionalChild, r.positionalChild, path);
        path->pop_back();
    } else {
        merged->positionalChild = l.positionalChild ? l.positionalChild : r.positionalChild;
    }
    return merged;
}

void ObjectUpdateNode::apply(ApplyContext* ctx, PathCursor cursor) const {
    bool applyPositional = positionalChild != nullptr;
    if (applyPositional && ctx->matchedField.empty())
        uasserted(ErrorCodes::BadValue, "The positional operator did not find the match needed from the query.");

    UpdateFieldNameLess less;
    for (const auto& [name, child] : children) {
        if (applyPositional && name == ctx->matchedField) {
            // "a.$" and "a.<matched index>" address the same element: apply them together.
            std::vector<std::string> path = ctx->path;
            path.push_back(name);
            UpdateNodePtr merged = mergeUpdateNodes(positionalChild, child, &path);
            applyChild(ctx, &cursor, *merged, name);
            applyPositional = false;
            continue;
        }
        if (applyPositional && less(ctx->matchedField, name)) {
            applyChild(ctx, &cursor, *positionalChild, ctx->matchedField);
            applyPositional = false;
        }
        applyChild(ctx, &cursor, *child, name);
    }
    if (applyPositional) applyChild(ctx, &cursor, *positionalChild, ctx->matchedField);
}

void ArrayUpdateNode::apply(ApplyContext* ctx, PathCursor cursor) const {
    if (!cursor.missing.empty())
        uasserted(ErrorCodes::BadValue,
                  "The path '" + joinPath(cursor.missing) +
                      "' must exist in the document in order to apply array updates.");
    MutableElement* array = cursor.existing;
    if (array->type() != Array)
        uasserted(ErrorCodes::BadValue, "Cannot apply array updates to non-array element " + describeElement(array));

    size_t n = array->numChildren();
    for (size_t i = 0; i < n; i++) {
        MutableElement* element = array->child(i);
        if (!element) break;
        // Filters see the element as it is before this node changes it.
        BSONElement value = element->value();
        std::vector<std::pair<std::string, UpdateNodePtr>> matching;
        for (const auto& [id, child] : children)
            if (id.empty() || ctx->arrayFilters->matches(id, value)) matching.emplace_back(id, child);
        if (matching.empty()) continue;

        std::string index = std::to_string(i);
        UpdateNodePtr node = matching[0].second;
        if (matching.size() > 1) {
            std::vector<std::string> path = ctx->path;
            path.push_back(index);
            for (size_t m = 1; m < matching.size(); m++) node = mergeUpdateNodes(node, matching[m].second, &path);
        }
        ctx->path.push_back(index);
        node->apply(ctx, PathCursor{element, {}});
        ctx->path.pop_back();
    }
}

}  // namespace mongo
