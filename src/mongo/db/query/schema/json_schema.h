#pragma once
// $jsonSchema: MongoDB's dialect of JSON Schema draft 4, for filters ({$jsonSchema: {...}} in
// find, $match, ...) and collection validators.
//
// Keywords, as MongoDB 7.0 supports them: type (JSON Schema's types; "integer" is refused),
// bsonType (every $type alias and "number"), properties, required, additionalProperties (bool
// or schema), patternProperties, minProperties/maxProperties, dependencies (property and schema
// forms), items (schema or array of schemas), additionalItems, minItems/maxItems, uniqueItems,
// minimum/maximum with exclusiveMinimum/exclusiveMaximum, multipleOf, minLength/maxLength
// (in code points), pattern, enum, allOf/anyOf/oneOf/not, title/description (checked to be
// strings, otherwise only echoed in error details), and in collection validators only,
// encrypt/encryptMetadata. $ref, $schema, default, definitions, format and id are refused
// (FailedToParse "$jsonSchema keyword '<k>' is not currently supported"), as is any other
// keyword ("Unknown $jsonSchema keyword: <k>").
//
// Semantics as MongoDB's: a keyword only constrains values of the type it is about (minimum
// ignores strings); properties apply to the named top-level field of the (sub)document when it
// is present, without implicit array traversal; a top-level schema whose type does not allow
// "object" matches nothing.
//
// Thread safety: a parsed JsonSchema is immutable; matches/explainFailure are reentrant.
#include <memory>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace json_schema {
class Schema;
}

class JsonSchema {
public:
    // Parses the value of $jsonSchema (the schema is copied and owned). Throws DBException
    // with MongoDB's codes and messages: TypeMismatch (14) for wrong argument types,
    // FailedToParse (9) for unknown/unsupported keywords and bad values, BadValue (2) for
    // unknown type aliases and empty allOf/anyOf/oneOf, QueryFeatureNotAllowed (224) for
    // encrypt outside a collection validator.
    static std::unique_ptr<JsonSchema> parse(const BSONElement& arg);
    ~JsonSchema();

    bool matches(const BSONObj& doc) const;
    // For a document the schema rejects: the details MongoDB 7.0 reports in a
    // DocumentValidationFailure, {operatorName: "$jsonSchema", [title], [description],
    // schemaRulesNotSatisfied: [...]} (or, for a schema that can match no document,
    // {operatorName: "$jsonSchema", specifiedAs: {$jsonSchema: ...}, reason: ...}).
    BSONObj explainFailure(const BSONObj& doc) const;

private:
    JsonSchema() = default;
    BSONObj _schema;  // owned: the compiled nodes point into it
    std::unique_ptr<json_schema::Schema> _root;
    bool _matchesNothing = false;
};

// While an instance is alive, $jsonSchema parsing on this thread accepts the keywords MongoDB
// allows only in collection validators (encrypt, encryptMetadata). Not copyable; nests.
class ParsingCollectionValidatorScope {
public:
    ParsingCollectionValidatorScope();
    ~ParsingCollectionValidatorScope();
    ParsingCollectionValidatorScope(const ParsingCollectionValidatorScope&) = delete;
    ParsingCollectionValidatorScope& operator=(const ParsingCollectionValidatorScope&) = delete;

private:
    bool _previous;
};

}  // namespace mongo
