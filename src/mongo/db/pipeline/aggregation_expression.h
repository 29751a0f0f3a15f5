#pragma once
// One aggregation expression evaluated outside a pipeline: for $expr in find/update filters,
// pipeline-style updates' helpers, and validators. Values come back as a one-field BSON object
// so callers need only the BSON layer.
// Thread safety: immutable after construction; evaluate() may be called concurrently (each call
// works on its own copy of the variables).
#include <memory>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class AggregationExpression {
public:
    // Throws DBException with MongoDB's codes for bad expressions (168 "Unrecognized expression
    // '$foo'", 17276 undefined variable, ...). letVars: {name: <expression>} made available as
    // $$name (evaluated once, against an empty document).
    explicit AggregationExpression(const BSONElement& expr, const BSONObj& letVars = BSONObj());
    ~AggregationExpression();
    AggregationExpression(AggregationExpression&&) noexcept;

    // {"": <value>}, or {} when the expression evaluates to missing. $$ROOT/$$CURRENT is doc.
    BSONObj evaluate(const BSONObj& doc) const;
    // MongoDB truthiness of the value ($expr semantics: missing/null/false/0 are false).
    bool evaluateTruthy(const BSONObj& doc) const;

private:
    struct Impl;
    std::unique_ptr<Impl> _impl;
};

}  // namespace mongo
