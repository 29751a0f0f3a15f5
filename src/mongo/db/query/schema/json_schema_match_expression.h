#pragma once
// {$jsonSchema: {...}} as a node of the filter tree (match_expression.h): a pathless predicate
// on the whole document (or, inside $elemMatch, on each array element that is a document).
// Immutable after construction; matching is reentrant.
#include <memory>

#include "mongo/db/query/match_expression.h"
#include "mongo/db/query/schema/json_schema.h"

namespace mongo {

class JsonSchemaMatchExpression : public MatchExpression {
public:
    // Throws the parse errors of JsonSchema::parse.
    explicit JsonSchemaMatchExpression(const BSONElement& arg) : _schema(JsonSchema::parse(arg)) {}
    bool matches(const BSONObj& doc, MatchDetails*) const override { return _schema->matches(doc); }
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override {
        return e.type() == Object && _schema->matches(e.Obj());
    }
    const JsonSchema& schema() const { return *_schema; }

private:
    std::unique_ptr<JsonSchema> _schema;
};

}  // namespace mongo
