#pragma once
// The parsed form of a find projection (internal to projection_parser.cpp and
// projection_exec.cpp): a tree of path components whose leaves say what happens to the field.
// Immutable after parsing; applying it only reads the tree.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/projection.h"

namespace mongo {

struct ProjectionNode {
    enum class Kind {
        kPath,        // an inner node: the field's sub-fields are projected by 'children'
        kInclude,     // {a: 1}
        kExclude,     // {a: 0}
        kExpression,  // {a: "$b"}, {a: {$add: [...]}}, {a: "literal"}
        kSlice,       // {a: {$slice: n}} / {a: {$slice: [skip, limit]}}
        kElemMatch,   // {a: {$elemMatch: {...}}} (top-level fields only)
        kPositional,  // {"a.$": 1}: includes a; the matched element is picked afterwards
    };
    Kind kind = Kind::kPath;
    std::vector<std::pair<std::string, std::unique_ptr<ProjectionNode>>> children;  // spec order
    bool subtreeHasExpressions = false;  // kPath: some descendant is a kExpression

    ExprPtr expr;                       // kExpression
    std::optional<int> sliceSkip;       // kSlice
    int sliceLimit = 0;                 // kSlice
    std::unique_ptr<Matcher> elemMatch;  // kElemMatch: {<field>: {$elemMatch: ...}}

    explicit ProjectionNode(Kind k = Kind::kPath) : kind(k) {}
    ProjectionNode* child(std::string_view name) const {
        for (const auto& c : children)
            if (c.first == name) return c.second.get();
        return nullptr;
    }
    int childIndex(std::string_view name) const {
        for (size_t i = 0; i < children.size(); i++)
            if (children[i].first == name) return static_cast<int>(i);
        return -1;
    }
};

// The whole parsed projection; Projection::Impl is this (named here so the parser and the
// executor, which are not members of Projection, can use it).
struct ProjectionData {
    // Owns the state the parsed expressions refer to (declared first: destroyed last);
    // evaluation works on a copy of its Variables.
    std::unique_ptr<ExpressionContext> expCtx;
    BSONObj spec;  // owned
    bool empty = true;
    bool inclusion = false;
    ProjectionNode root;
    bool hasExpressions = false;
    bool hasElemMatch = false;
    std::vector<std::string> positionalPath;  // non-empty if the projection uses "a.$"
};

struct Projection::Impl : ProjectionData {};

}  // namespace mongo
