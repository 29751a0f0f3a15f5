#pragma once
// The compiled form of a $jsonSchema (internal to src/mongo/db/query/schema).
//
// A Schema is a list of Keyword nodes, one per keyword that constrains something, in the order
// MongoDB 7.0 evaluates and reports them:
//   pattern, maxLength, minLength, multipleOf, maximum, minimum,
//   minItems, maxItems, uniqueItems, items, additionalItems,
//   encrypt,
//   properties, additionalProperties, patternProperties, required, minProperties,
//   maxProperties, dependencies,
//   allOf, anyOf, oneOf, not, enum,
//   type / bsonType (last).
// Each keyword is evaluated against a Subject: the document itself (the top-level schema) or a
// value inside it (a property, an array item). A keyword only constrains values of the type it
// is about (minimum ignores strings, minItems ignores non-arrays, properties ignores
// non-objects): JSON Schema's rule, which MongoDB keeps.
//
// Every keyword can also explain a failure: it appends the detail object MongoDB 7.0 puts in a
// DocumentValidationFailure's errInfo ({operatorName: "minimum", specifiedAs: {minimum: 5},
// reason: "comparison failed", consideredValue: 3}, ...).
// Thread safety: immutable after parse; matching and explaining are reentrant.
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace json_schema {

// What a (sub)schema is applied to. The root document has no BSONElement of its own.
struct Subject {
    BSONElement elem;  // EOO for the root document
    BSONObj obj;       // the embedded object/array (or the root document); empty otherwise
    BSONType type = Object;

    static Subject root(const BSONObj& doc) {
        Subject s;
        s.obj = doc;
        s.type = Object;
        return s;
    }
    static Subject of(const BSONElement& e) {
        Subject s;
        s.elem = e;
        s.type = e.type();
        if (e.isABSONObj()) s.obj = e.Obj();
        return s;
    }
    bool isRoot() const { return elem.eoo(); }
    bool isNumber() const { return isNumericType(type); }
    // Appends the value under name (the document itself for the root).
    void appendAs(BSONObjBuilder& b, std::string_view name) const {
        if (isRoot()) b.append(name, obj);
        else b.appendAs(elem, name);
    }
};

class Keyword {
public:
    virtual ~Keyword() = default;
    virtual bool matches(const Subject& s) const = 0;
    // Appends the detail object(s) explaining why s does not match. Only called when
    // matches(s) is false.
    virtual void explain(const Subject& s, BSONArrayBuilder& out) const = 0;
};

class Schema {
public:
    bool matches(const Subject& s) const {
        for (const auto& k : keywords)
            if (!k->matches(s)) return false;
        return true;
    }
    // The details of every keyword s fails, in order.
    BSONArray explain(const Subject& s) const {
        BSONArrayBuilder out;
        for (const auto& k : keywords)
            if (!k->matches(s)) k->explain(s, out);
        return out.arr();
    }
    // Appends title/description (when given) to an error entry describing this schema.
    void appendAnnotations(BSONObjBuilder& b) const {
        if (!title.eoo()) b.append(title);
        if (!description.eoo()) b.append(description);
    }

    std::vector<std::unique_ptr<Keyword>> keywords;
    BSONElement title, description;  // point into the schema document the owner keeps
    // Non-empty when the schema can match no value at all (a top-level type that excludes
    // objects): what MongoDB reports for it instead of a list of rules.
    BSONObj matchesNothingDetail;
};

// Parses a (sub)schema; 'isRoot' for the top-level schema of $jsonSchema. Throws DBException.
// The schema's BSON must outlive the result.
std::unique_ptr<Schema> parseSchema(const BSONObj& schema, bool isRoot);

// Equality of JSON Schema (enum, uniqueItems): by value, numbers across types, and documents
// regardless of field order (MongoDB's unordered-fields comparison).
bool unorderedEqual(const BSONElement& a, const BSONElement& b);
bool unorderedEqual(const BSONObj& a, const BSONObj& b);
// The position of the first item of arr equal (as above) to an earlier one, or -1.
int firstDuplicateIndex(const BSONObj& arr);

// Thread-local: whether the validator-only keywords (encrypt, encryptMetadata) are accepted.
bool parsingCollectionValidator();

}  // namespace json_schema
}  // namespace mongo
