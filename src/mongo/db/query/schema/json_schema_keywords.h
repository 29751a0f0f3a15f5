#pragma once
// The keyword nodes of a compiled $jsonSchema (internal; see json_schema_nodes.h for the
// contract). Constructed by json_schema_parser.cpp once the keyword's argument is checked;
// BSONElements point into the schema document the JsonSchema owns.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mongo/db/query/matcher_regex.h"
#include "mongo/db/query/schema/json_schema_nodes.h"

namespace mongo {
namespace json_schema {

// A set of BSON types, possibly with every numeric type ("number").
struct TypeSet {
    std::set<BSONType> types;
    bool allNumbers = false;
    bool contains(BSONType t) const { return types.count(t) || (allNumbers && isNumericType(t)); }
};

// ---- scalar keywords ----

class PatternKeyword : public Keyword {
public:
    explicit PatternKeyword(const BSONElement& spec) : _spec(spec), _regex(spec.valueStringData(), "") {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    MatcherRegex _regex;
};

// maxLength / minLength, in Unicode code points.
class StringLengthKeyword : public Keyword {
public:
    StringLengthKeyword(const BSONElement& spec, bool isMax, long long limit)
        : _spec(spec), _isMax(isMax), _limit(limit) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    bool _isMax;
    long long _limit;
};

class MultipleOfKeyword : public Keyword {
public:
    explicit MultipleOfKeyword(const BSONElement& spec) : _spec(spec) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
};

// maximum / minimum, with exclusiveMaximum / exclusiveMinimum.
class BoundKeyword : public Keyword {
public:
    BoundKeyword(const BSONElement& spec, bool isMax, bool exclusive) : _spec(spec), _isMax(isMax), _exclusive(exclusive) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    bool _isMax;
    bool _exclusive;
};

// ---- array keywords ----

// maxItems / minItems.
class ItemCountKeyword : public Keyword {
public:
    ItemCountKeyword(const BSONElement& spec, bool isMax, long long limit) : _spec(spec), _isMax(isMax), _limit(limit) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    bool _isMax;
    long long _limit;
};

class UniqueItemsKeyword : public Keyword {
public:
    explicit UniqueItemsKeyword(const BSONElement& spec) : _spec(spec) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
};

// items: {<schema>} — every element matches the schema.
class ItemsSchemaKeyword : public Keyword {
public:
    explicit ItemsSchemaKeyword(std::unique_ptr<Schema> schema) : _schema(std::move(schema)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    std::unique_ptr<Schema> _schema;
};

// items: [<schema>, ...] — element i matches schema i.
class ItemsArrayKeyword : public Keyword {
public:
    explicit ItemsArrayKeyword(std::vector<std::unique_ptr<Schema>> schemas) : _schemas(std::move(schemas)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    std::vector<std::unique_ptr<Schema>> _schemas;
};

// additionalItems (only with an array-form items): the elements past the listed schemas.
class AdditionalItemsKeyword : public Keyword {
public:
    // schema null: the boolean form (spec false forbids additional items).
    AdditionalItemsKeyword(const BSONElement& spec, size_t start, std::unique_ptr<Schema> schema)
        : _spec(spec), _start(start), _schema(std::move(schema)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    size_t _start;
    std::unique_ptr<Schema> _schema;
};

// ---- encryption keywords (collection validators only) ----

// encrypt: the value is encrypted BinData (subtype 6); with bsonType, of those original types.
class EncryptKeyword : public Keyword {
public:
    explicit EncryptKeyword(std::optional<TypeSet> types) : _types(std::move(types)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    enum class Failure { kNone, kNotEncrypted, kWrongType };
    Failure check(const Subject& s) const;
    std::optional<TypeSet> _types;
};

// ---- object keywords ----

struct NamedSchema {
    std::string name;
    std::unique_ptr<Schema> schema;
};

class PropertiesKeyword : public Keyword {
public:
    explicit PropertiesKeyword(std::vector<NamedSchema> properties) : _properties(std::move(properties)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    std::vector<NamedSchema> _properties;
};

struct PatternSchema {
    std::string pattern;
    std::unique_ptr<MatcherRegex> regex;
    std::unique_ptr<Schema> schema;
};
using PatternSchemas = std::vector<PatternSchema>;

class PatternPropertiesKeyword : public Keyword {
public:
    explicit PatternPropertiesKeyword(std::shared_ptr<const PatternSchemas> patterns) : _patterns(std::move(patterns)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    std::shared_ptr<const PatternSchemas> _patterns;
};

// additionalProperties: the fields named neither by properties nor by a patternProperties
// pattern.
class AdditionalPropertiesKeyword : public Keyword {
public:
    // schema null: the boolean form (spec false forbids additional properties).
    AdditionalPropertiesKeyword(const BSONElement& spec, std::set<std::string> named,
                                std::shared_ptr<const PatternSchemas> patterns, std::unique_ptr<Schema> schema)
        : _spec(spec), _named(std::move(named)), _patterns(std::move(patterns)), _schema(std::move(schema)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    bool isAdditional(std::string_view field) const;
    BSONElement _spec;
    std::set<std::string> _named;
    std::shared_ptr<const PatternSchemas> _patterns;  // may be null
    std::unique_ptr<Schema> _schema;
};

class RequiredKeyword : public Keyword {
public:
    RequiredKeyword(const BSONElement& spec, std::vector<std::string> sortedNames)
        : _spec(spec), _names(std::move(sortedNames)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    std::vector<std::string> _names;
};

// maxProperties / minProperties.
class PropertyCountKeyword : public Keyword {
public:
    PropertyCountKeyword(const BSONElement& spec, bool isMax, long long limit) : _spec(spec), _isMax(isMax), _limit(limit) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    bool _isMax;
    long long _limit;
};

// dependencies: if a property is present, other properties must be (array form) or the
// object must match a schema (schema form).
class DependenciesKeyword : public Keyword {
public:
    struct Dependency {
        std::string property;
        std::vector<std::string> required;  // array form
        std::unique_ptr<Schema> schema;     // schema form
    };
    explicit DependenciesKeyword(std::vector<Dependency> deps) : _deps(std::move(deps)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    bool holds(const Dependency& d, const Subject& s) const;
    std::vector<Dependency> _deps;
};

// ---- logical keywords ----

// allOf / anyOf / oneOf.
class SchemaListKeyword : public Keyword {
public:
    enum Kind { kAllOf, kAnyOf, kOneOf };
    SchemaListKeyword(Kind kind, std::vector<std::unique_ptr<Schema>> schemas) : _kind(kind), _schemas(std::move(schemas)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    Kind _kind;
    std::vector<std::unique_ptr<Schema>> _schemas;
};

class NotKeyword : public Keyword {
public:
    explicit NotKeyword(std::unique_ptr<Schema> schema) : _schema(std::move(schema)) {}
    bool matches(const Subject& s) const override { return !_schema->matches(s); }
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    std::unique_ptr<Schema> _schema;
};

class EnumKeyword : public Keyword {
public:
    // values: the enum's values (at the top level, only its objects).
    EnumKeyword(const BSONElement& spec, std::vector<BSONElement> values) : _spec(spec), _values(std::move(values)) {}
    bool matches(const Subject& s) const override;
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    std::vector<BSONElement> _values;
};

// type / bsonType (no implicit array traversal: an array of strings is not a string).
class TypeKeyword : public Keyword {
public:
    TypeKeyword(const BSONElement& spec, TypeSet types) : _spec(spec), _types(std::move(types)) {}
    bool matches(const Subject& s) const override { return _types.contains(s.type); }
    void explain(const Subject& s, BSONArrayBuilder& out) const override;

private:
    BSONElement _spec;
    TypeSet _types;
};

// A keyword that no value satisfies (a top-level type that excludes objects, a top-level enum
// without objects). 'detail' is what it reports.
class AlwaysFalseKeyword : public Keyword {
public:
    explicit AlwaysFalseKeyword(BSONObj detail) : _detail(std::move(detail)) {}
    bool matches(const Subject&) const override { return false; }
    void explain(const Subject&, BSONArrayBuilder& out) const override { out.append(_detail); }
    const BSONObj& detail() const { return _detail; }

private:
    BSONObj _detail;
};

}  // namespace json_schema
}  // namespace mongo
