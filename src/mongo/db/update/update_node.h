#pragma once
// The parsed form of an operator update: a tree keyed by path components, as mongod builds it.
// Internal nodes are ObjectUpdateNode (named children plus an optional positional "$" child)
// and ArrayUpdateNode ("$[]" and "$[<id>]" children); leaves are ModifierNodes (one operator
// applied at one path). Conflicting paths are rejected while the tree is built.
//
// Trees are immutable after parsing and shared between the nodes merged at apply time
// (positional "$" merged with a named child, several array filters matching one element), so
// apply() is const and thread safe; all per-application state lives in ApplyContext.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/update/update_path.h"

namespace mongo {

class ArrayFilters;

// State of one application of an update to one document.
struct ApplyContext {
    MutableDocument* doc = nullptr;
    std::string matchedField;  // the positional "$" value, empty if the query matched no array
    bool isInsert = false;     // upsert insert: $setOnInsert applies, _id may be set
    bool protectId = false;    // the document has an _id that must not change
    std::string idDescription;  // "_id: 1" (or "no id") for error messages
    const ArrayFilters* arrayFilters = nullptr;
    // Components of the path of the node being applied (existing and to-be-created parts,
    // with "$" and "$[...]" resolved to the concrete field or index).
    std::vector<std::string> path;
    bool modified = false;  // some operator changed the document

    std::string currentPath() const { return joinPath(path); }
};

class UpdateNode {
public:
    enum class Kind { kObject, kArray, kLeaf };
    explicit UpdateNode(Kind k) : _kind(k) {}
    virtual ~UpdateNode() = default;
    Kind kind() const { return _kind; }
    // Applies this node at 'cursor' (the position of this node's path in the document).
    virtual void apply(ApplyContext* ctx, PathCursor cursor) const = 0;

private:
    Kind _kind;
};

using UpdateNodePtr = std::shared_ptr<const UpdateNode>;

class ObjectUpdateNode final : public UpdateNode {
public:
    ObjectUpdateNode() : UpdateNode(Kind::kObject) {}
    void apply(ApplyContext* ctx, PathCursor cursor) const override;

    std::map<std::string, UpdateNodePtr, UpdateFieldNameLess> children;
    UpdateNodePtr positionalChild;  // "$"
};

class ArrayUpdateNode final : public UpdateNode {
public:
    ArrayUpdateNode() : UpdateNode(Kind::kArray) {}
    void apply(ApplyContext* ctx, PathCursor cursor) const override;

    // Keyed by identifier; "" for "$[]".
    std::map<std::string, UpdateNodePtr> children;
};

// Combines two nodes that apply to the same path (only object nodes can be combined; anything
// else throws ConflictingUpdateOperators "Update created a conflict at '<path>'").
UpdateNodePtr mergeUpdateNodes(const UpdateNodePtr& left, const UpdateNodePtr& right, std::vector<std::string>* path);

// Parses one "<path>: <argument>" of operator 'op' ("$set", ...) into the tree rooted at 'root'.
// Records the array filter identifiers the path uses in 'usedIdentifiers'. Throws on invalid
// paths, arguments and conflicts. Returns true if the path has a positional "$".
bool parseAndMergeModifier(ObjectUpdateNode* root,
                           const std::string& op,
                           const BSONElement& modExpr,
                           const ArrayFilters& arrayFilters,
                           std::vector<std::string>* usedIdentifiers);

// True if 'op' ("$set", "$inc", ...) is an update operator this server implements.
bool isKnownUpdateOperator(std::string_view op);

}  // namespace mongo
