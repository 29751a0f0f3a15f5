#pragma once
// Leaves of the update tree: one update operator applied at one path. ModifierNode holds the
// logic every operator shares (existing vs. missing targets, path creation, the immutable _id,
// storage rules for new values); subclasses implement the operator itself. Each operator
// family lives in its own file; the make*Node factories below build them from the operator's
// argument, throwing mongod's parse errors. Nodes are immutable after construction.
#include <memory>
#include <string>

#include "mongo/base/status.h"
#include "mongo/db/query/collator.h"
#include "mongo/db/query/matcher_parse_util.h"  // parseIntegerElementToLong
#include "mongo/db/update/update_node.h"

namespace mongo {

class ModifierNode : public UpdateNode {
public:
    ModifierNode() : UpdateNode(Kind::kLeaf) {}
    void apply(ApplyContext* ctx, PathCursor cursor) const override;

protected:
    // False for $setOnInsert outside inserts.
    virtual bool appliesTo(const ApplyContext& ctx) const { return true; }
    // Whether the operator creates its path when it is missing ($unset, $pop, $pull... don't).
    virtual bool allowCreation() const { return true; }
    // Whether the value the operator leaves must be checked against storage rules.
    virtual bool validatesResult() const { return true; }
    // Applies the operator to an existing element; returns false for a no-op.
    virtual bool updateExisting(ApplyContext* ctx, MutableElement* target) const = 0;
    // The value of the element the operator creates (only called if allowCreation()).
    virtual BSONElement valueForNewElement(ApplyContext* ctx) const;
};

// Shared helpers for operator implementations.

// Throws ImmutableField if the node being applied would modify the document's _id.
void checkIdNotModified(const ApplyContext& ctx);
// Storage rules for an element an operator set or created at 'level' (1 = top-level field):
// no '$'-prefixed top-level names outside inserts (except DBRef fields), nesting depth.
void validateElementForStorage(const ApplyContext& ctx, MutableElement* e, size_t level);
// Same type and same value bytes (mongod's binaryEqualValues): 1 and 1.0 differ.
bool sameValueBytes(const BSONElement& a, const BSONElement& b);
// Keeps 'wrapped' ({"": value}) alive with the document and returns its element.
BSONElement keepValue(ApplyContext* ctx, const BSONObj& wrapped);
// Builds {"": <array of values>} for keepValue.
BSONObj wrapArray(const std::vector<BSONElement>& values);

// Factories (one per operator family file).
std::shared_ptr<UpdateNode> makeSetNode(const BSONElement& modExpr, bool onlyOnInsert);
std::shared_ptr<UpdateNode> makeUnsetNode(const BSONElement& modExpr);
std::shared_ptr<UpdateNode> makeCurrentDateNode(const BSONElement& modExpr);
std::shared_ptr<UpdateNode> makeArithmeticNode(const BSONElement& modExpr, bool multiply);
// collator (here and below): the update's collation for comparing strings (null: simple).
std::shared_ptr<UpdateNode> makeCompareNode(const BSONElement& modExpr, bool isMax, CollatorPtr collator);
std::shared_ptr<UpdateNode> makeBitNode(const BSONElement& modExpr);
std::shared_ptr<UpdateNode> makePushNode(const BSONElement& modExpr, CollatorPtr collator);
std::shared_ptr<UpdateNode> makeAddToSetNode(const BSONElement& modExpr, CollatorPtr collator);
std::shared_ptr<UpdateNode> makePopNode(const BSONElement& modExpr);
std::shared_ptr<UpdateNode> makePullNode(const BSONElement& modExpr, CollatorPtr collator);
std::shared_ptr<UpdateNode> makePullAllNode(const BSONElement& modExpr, CollatorPtr collator);
// $rename: the node placed at the destination; modExpr is {<from>: "<to>"}.
std::shared_ptr<UpdateNode> makeRenameNode(const BSONElement& modExpr);
// Occupies $rename's source path in the tree so that other operators conflict with it.
std::shared_ptr<UpdateNode> makeConflictPlaceholderNode();

}  // namespace mongo
