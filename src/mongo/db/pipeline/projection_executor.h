#pragma once
// The document transformation behind $project, $addFields/$set and $unset: a tree of
// inclusions/exclusions and computed fields applied with MongoDB's rules (included fields keep
// the input document's order, computed fields follow in spec order, dotted paths apply to every
// document of an array, _id is included unless excluded).
// Immutable after parsing; apply() writes only to the Variables passed in.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mongo/db/pipeline/expression.h"

namespace mongo {

class ProjectionExecutor {
public:
    enum class Mode { kInclusion, kExclusion, kAddFields };

    // $project. Throws with the underlying reason (the stage adds "Invalid $project :: caused
    // by :: "): 51272 empty, 51270 empty sub-projection, 31253/31254 mixed inclusion and
    // exclusion, 31252/31310 expressions in an exclusion, 31250/31249 path collisions.
    static std::unique_ptr<ProjectionExecutor> parseProject(const BSONObj& spec, const VariablesParseState& vps);
    // $addFields / $set: 40177 empty, 40176 conflicting paths, 40181, 40183.
    static std::unique_ptr<ProjectionExecutor> parseAddFields(const BSONObj& spec, const VariablesParseState& vps);
    // $unset: an exclusion of the given dotted paths.
    static std::unique_ptr<ProjectionExecutor> makeExclusion(const std::vector<std::string>& paths);

    Document apply(const Document& doc, Variables* vars) const;
    Mode mode() const { return _mode; }

    struct Node {
        std::vector<std::string> order;  // children and computed fields, in spec order
        std::map<std::string, bool> leaves;  // name -> true (include) / false (exclude)
        std::map<std::string, std::unique_ptr<Node>> children;
        std::map<std::string, ExprPtr> exprs;
        bool hasComputed = false;  // this subtree has computed fields
    };

private:
    explicit ProjectionExecutor(Mode m) : _mode(m), _root(std::make_unique<Node>()) {}
    void applyProjections(const Node& n, const Document& in, MutableDoc* out, bool top) const;
    Value projectValue(const Node& n, const Value& v) const;
    void applyExpressions(const Node& n, const Document& root, MutableDoc* out, Variables* vars) const;
    Value expressionsToValue(const Node& n, const Document& root, const Value& v, Variables* vars) const;

    Mode _mode;
    std::unique_ptr<Node> _root;
    bool _includeId = true;  // inclusion mode: _id is projected
};

}  // namespace mongo
