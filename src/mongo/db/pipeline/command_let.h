#pragma once
// A command's 'let' (find, aggregate, update, delete, findAndModify, as MongoDB 5.0+): user
// variables evaluated once, before any document is read, and usable as $$name in $expr filters,
// find projections and pipelines (update pipelines, aggregation stages, $lookup sub-pipelines).
//
// The values are computed here and then bound where expressions are parsed: pipelines get them
// as top-level variables (PipelineContext::letVars), and filters and projections, which the
// query layer parses on its own, are rewritten so that each expression reads
// {$let: {vars: {name: {$literal: value}, ...}, in: <expression>}}. That keeps MongoDB's scoping
// (an inner $let or $map of the same name shadows the command's variable) without the query
// layer knowing about commands.
// Immutable after construction; thread safe.
#include <string_view>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class BSONObjBuilder;

class CommandLetVariables {
public:
    CommandLetVariables() = default;  // no variables

    // Parses and evaluates let ({name: <expression>, ...}), in order (a variable may use the ones
    // before it). Throws what MongoDB 7.0 throws:
    //   16866/16867/16868 "Invalid 'let' parameter :: caused by :: ..." for names a user may not
    //     define (empty, not starting with a lowercase letter or a non-ASCII byte, bad characters);
    //   4738901 "Attempt to set internal constant: NOW" for a system variable's name;
    //   4890500 for an expression that reads the document ("$a", "$$ROOT", "$$CURRENT"): command
    //     variables are computed before the query reads any document;
    //   the expression's own errors (17276 for an undefined variable, 51144 for $$CLUSTER_TIME
    //     on this standalone server, ...).
    static CommandLetVariables parse(const BSONObj& let);

    bool empty() const { return _vars.isEmpty(); }
    // {name: {$literal: value}, ...} ("$$REMOVE" for a missing value): expressions that give
    // the computed values back, for PipelineContext::letVars and $let.
    const BSONObj& asExpressions() const { return _vars; }

    // The filter with every $expr (at the top and inside $and/$or/$nor) seeing the variables.
    BSONObj bindInFilter(const BSONObj& filter) const;
    // A find projection with every computed field ("$$x", {$add: [...]}) seeing the variables.
    BSONObj bindInProjection(const BSONObj& projection) const;
    // Adds more variables (update statements' constants 'c'), which shadow these.
    CommandLetVariables withConstants(const BSONObj& constants) const;

private:
    // Appends expr (under its own name) as {$let: {vars: <these>, in: expr}}.
    void appendWrapped(const BSONElement& expr, BSONObjBuilder* out) const;
    BSONObj _vars;
};

}  // namespace mongo
