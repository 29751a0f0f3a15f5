#include "mongo/db/query/schema/json_schema.h"

#include <gtest/gtest.h>

#include "mongo/db/query/matcher.h"
#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;
using query_test::statusOf;

// Tests write the schema with '%' for '$' where libbson's JSON reader would object; q() renames.
bool m(const std::string& schema, const std::string& doc) {
    return Matcher(q("{%jsonSchema: " + schema + "}")).matches(q(doc));
}

Status parseError(const std::string& schema) {
    return statusOf([&] { Matcher matcher(q("{%jsonSchema: " + schema + "}")); });
}

BSONObj explain(const std::string& schema, const std::string& doc) {
    BSONObj wrapped = q("{s: " + schema + "}");
    auto js = JsonSchema::parse(wrapped["s"]);
    EXPECT_FALSE(js->matches(q(doc))) << schema << " " << doc;
    return js->explainFailure(q(doc));
}

void expectExplain(const std::string& schema, const std::string& doc, const std::string& expected) {
    BSONObj got = explain(schema, doc);
    EXPECT_EQ(got.jsonString(), q(expected).jsonString()) << schema << " on " << doc;
}

TEST(JsonSchemaMatch, EmptyAndObjectTypeMatchEverything) {
    EXPECT_TRUE(m("{}", "{a: 1}"));
    EXPECT_TRUE(m("{type: 'object'}", "{a: 1}"));
    EXPECT_TRUE(m("{bsonType: ['object', 'string']}", "{}"));
    EXPECT_FALSE(m("{type: 'string'}", "{a: 1}"));
    EXPECT_FALSE(m("{bsonType: 'long'}", "{}"));
}

TEST(JsonSchemaMatch, PropertyTypesWithoutArrayTraversal) {
    EXPECT_TRUE(m("{properties: {a: {type: 'number'}}}", "{a: 1}"));
    EXPECT_TRUE(m("{properties: {a: {type: 'number'}}}", "{a: 1.5}"));
    EXPECT_TRUE(m("{properties: {a: {type: 'number'}}}", "{b: 'x'}"));  // absent
    EXPECT_FALSE(m("{properties: {a: {type: 'number'}}}", "{a: '1'}"));
    EXPECT_FALSE(m("{properties: {a: {type: 'string'}}}", "{a: ['x']}"));
    EXPECT_TRUE(m("{properties: {a: {type: 'array'}}}", "{a: []}"));
    EXPECT_TRUE(m("{properties: {a: {bsonType: 'int'}}}", "{a: 1}"));
    EXPECT_FALSE(m("{properties: {a: {bsonType: 'int'}}}", "{a: 1.0}"));
    EXPECT_TRUE(m("{properties: {a: {bsonType: ['null', 'bool']}}}", "{a: null}"));
    EXPECT_TRUE(m("{properties: {a: {type: 'boolean'}}}", "{a: true}"));
    EXPECT_TRUE(m("{properties: {a: {bsonType: 'number'}}}", R"({"a": {"$numberDecimal": "1.5"}})"));
}

TEST(JsonSchemaMatch, KeywordsOnlyConstrainTheirType) {
    EXPECT_TRUE(m("{properties: {a: {minimum: 5}}}", "{a: 'abc'}"));
    EXPECT_FALSE(m("{properties: {a: {minimum: 5}}}", "{a: 4}"));
    EXPECT_TRUE(m("{properties: {a: {minimum: 5}}}", "{a: 5}"));
    EXPECT_FALSE(m("{properties: {a: {minimum: 5, exclusiveMinimum: true}}}", "{a: 5}"));
    EXPECT_TRUE(m("{properties: {a: {maximum: 5, exclusiveMaximum: false}}}", "{a: 5}"));
    EXPECT_FALSE(m("{properties: {a: {maximum: 5, exclusiveMaximum: true}}}", "{a: 5}"));
    EXPECT_TRUE(m("{properties: {a: {minLength: 3}}}", "{a: 1}"));
    EXPECT_FALSE(m("{properties: {a: {minLength: 3}}}", "{a: 'ab'}"));
    EXPECT_TRUE(m("{properties: {a: {maxLength: 2}}}", "{a: 'é€'}"));  // code points, not bytes
    EXPECT_FALSE(m("{properties: {a: {maxLength: 1}}}", "{a: 'é€'}"));
    EXPECT_TRUE(m("{properties: {a: {pattern: '^a'}}}", "{a: 5}"));
    EXPECT_FALSE(m("{properties: {a: {pattern: '^a'}}}", "{a: 'ba'}"));
    EXPECT_TRUE(m("{properties: {a: {pattern: 'ing'}}}", "{a: 'string'}"));
    EXPECT_TRUE(m("{properties: {a: {minItems: 2}}}", "{a: 'x'}"));
    EXPECT_FALSE(m("{properties: {a: {minItems: 2}}}", "{a: [1]}"));
    EXPECT_FALSE(m("{properties: {a: {maxItems: 1}}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{properties: {a: {required: ['b']}}}", "{a: 1}"));
    EXPECT_FALSE(m("{properties: {a: {required: ['b']}}}", "{a: {c: 1}}"));
    // A type restriction the keyword is not about makes the keyword irrelevant.
    EXPECT_TRUE(m("{properties: {a: {type: 'string', maximum: 0}}}", "{a: 'x'}"));
    EXPECT_FALSE(m("{properties: {a: {bsonType: 'long', maximum: 0}}}", R"({"a": {"$numberLong": "1"}})"));
}

TEST(JsonSchemaMatch, MultipleOfIsExactInDecimal) {
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 2}}}", "{a: 4}"));
    EXPECT_FALSE(m("{properties: {a: {multipleOf: 2}}}", "{a: 5}"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 0.1}}}", "{a: 1.1}"));  // 15-digit decimal, as MongoDB
    EXPECT_FALSE(m("{properties: {a: {multipleOf: 2.1}}}", "{a: 1.1}"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 2.1}}}", "{a: 4.2}"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 3}}}", "{a: -9}"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 3}}}", "{a: 0}"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 3}}}", R"({"a": {"$numberDecimal": "300E-2"}})"));
    EXPECT_FALSE(m("{properties: {a: {multipleOf: 1}}}", R"({"a": {"$numberDouble": "Infinity"}})"));
    EXPECT_TRUE(m("{properties: {a: {multipleOf: 1}}}", "{a: 'x'}"));
}

TEST(JsonSchemaMatch, RequiredAndNestedRequired) {
    EXPECT_TRUE(m("{required: ['a', 'b']}", "{a: 1, b: null}"));
    EXPECT_FALSE(m("{required: ['a', 'b']}", "{a: 1}"));
    EXPECT_FALSE(m("{properties: {o: {type: 'object', required: ['x']}}}", "{o: {y: 1}}"));
    EXPECT_TRUE(m("{properties: {o: {type: 'object', required: ['x']}}}", "{o: {x: 1}}"));
}

TEST(JsonSchemaMatch, AdditionalAndPatternProperties) {
    EXPECT_TRUE(m("{properties: {_id: {}, a: {}}, additionalProperties: false}", "{_id: 1, a: 1}"));
    EXPECT_FALSE(m("{properties: {_id: {}, a: {}}, additionalProperties: false}", "{_id: 1, a: 1, b: 1}"));
    EXPECT_TRUE(m("{properties: {_id: {}}, additionalProperties: {type: 'string'}}", "{_id: 1, b: 'x'}"));
    EXPECT_FALSE(m("{properties: {_id: {}}, additionalProperties: {type: 'string'}}", "{_id: 1, b: 2}"));
    EXPECT_TRUE(m("{patternProperties: {'^S': {type: 'number'}}}", "{Super: 1, x: 'y'}"));
    EXPECT_FALSE(m("{patternProperties: {'^S': {type: 'number'}}}", "{Super: 'one'}"));
    EXPECT_FALSE(m("{patternProperties: {'^S': {}}, additionalProperties: false}", "{Super: 1, b: 1}"));
    EXPECT_TRUE(m("{patternProperties: {'^S': {}, '^_id': {}}, additionalProperties: false}", "{_id: 1, Super: 1}"));
}

TEST(JsonSchemaMatch, PropertyCountsAndDependencies) {
    EXPECT_TRUE(m("{minProperties: 2}", "{_id: 1, a: 1}"));
    EXPECT_FALSE(m("{maxProperties: 1}", "{_id: 1, a: 1}"));
    EXPECT_TRUE(m("{dependencies: {a: ['b']}}", "{c: 1}"));
    EXPECT_FALSE(m("{dependencies: {a: ['b']}}", "{a: 1}"));
    EXPECT_TRUE(m("{dependencies: {a: ['b']}}", "{a: 1, b: 1}"));
    EXPECT_FALSE(m("{dependencies: {a: {properties: {b: {type: 'string'}}}}}", "{a: 1, b: 1}"));
    EXPECT_TRUE(m("{dependencies: {a: {properties: {b: {type: 'string'}}}}}", "{b: 1}"));
}

TEST(JsonSchemaMatch, ArrayKeywords) {
    EXPECT_TRUE(m("{properties: {a: {items: {type: 'string'}}}}", "{a: ['x', 'y']}"));
    EXPECT_FALSE(m("{properties: {a: {items: {type: 'string'}}}}", "{a: ['x', 1]}"));
    EXPECT_TRUE(m("{properties: {a: {items: [{type: 'number'}, {type: 'string'}]}}}", "{a: [1, 'x', {}]}"));
    EXPECT_FALSE(m("{properties: {a: {items: [{type: 'number'}], additionalItems: false}}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{properties: {a: {items: [{type: 'number'}], additionalItems: false}}}", "{a: [1]}"));
    EXPECT_FALSE(m("{properties: {a: {items: [{}], additionalItems: {type: 'string'}}}}", "{a: [1, 2]}"));
    EXPECT_TRUE(m("{properties: {a: {items: {}, additionalItems: false}}}", "{a: [1, 2]}"));  // items not an array
    EXPECT_FALSE(m("{properties: {a: {uniqueItems: true}}}", "{a: [{x: 1, y: 2}, {y: 2, x: 1}]}"));
    EXPECT_TRUE(m("{properties: {a: {uniqueItems: true}}}", "{a: [1, '1', [1]]}"));
    EXPECT_FALSE(m("{properties: {a: {uniqueItems: true}}}", "{a: [1, 1.0]}"));
    EXPECT_TRUE(m("{properties: {a: {uniqueItems: false}}}", "{a: [1, 1]}"));
}

TEST(JsonSchemaMatch, LogicalKeywordsAndEnum) {
    EXPECT_TRUE(m("{properties: {a: {allOf: [{minimum: 1}, {maximum: 3}]}}}", "{a: 2}"));
    EXPECT_FALSE(m("{properties: {a: {allOf: [{minimum: 1}, {maximum: 3}]}}}", "{a: 4}"));
    EXPECT_TRUE(m("{properties: {a: {anyOf: [{type: 'string'}, {maximum: 3}]}}}", "{a: 'x'}"));
    EXPECT_FALSE(m("{properties: {a: {oneOf: [{minimum: 1}, {maximum: 3}]}}}", "{a: 2}"));
    EXPECT_TRUE(m("{properties: {a: {oneOf: [{minimum: 1}, {maximum: 3}]}}}", "{a: 4}"));
    EXPECT_FALSE(m("{properties: {a: {not: {type: 'string'}}}}", "{a: 'x'}"));
    EXPECT_TRUE(m("{properties: {a: {enum: [1, 'x', {b: 1, c: 2}]}}}", "{a: {c: 2, b: 1}}"));
    EXPECT_TRUE(m("{properties: {a: {enum: [1, 'x']}}}", "{a: 1.0}"));
    EXPECT_FALSE(m("{properties: {a: {enum: [1, 'x']}}}", "{a: [1]}"));
    EXPECT_TRUE(m("{enum: [{_id: 1, a: 1}, 5]}", "{a: 1, _id: 1}"));
    EXPECT_FALSE(m("{enum: [5]}", "{a: 1}"));
    EXPECT_FALSE(m("{not: {}}", "{a: 1}"));
}

TEST(JsonSchemaMatch, CombinesWithOtherOperators) {
    Matcher matcher(q("{%or: [{a: 1}, {%jsonSchema: {required: ['b']}}]}"));
    EXPECT_TRUE(matcher.matches(q("{a: 1}")));
    EXPECT_TRUE(matcher.matches(q("{b: 1}")));
    EXPECT_FALSE(matcher.matches(q("{c: 1}")));
    EXPECT_TRUE(Matcher(q("{arr: {%elemMatch: {%jsonSchema: {required: ['x']}}}}")).matches(q("{arr: [{y: 1}, {x: 1}]}")));
}

TEST(JsonSchemaParse, MongoDBErrors) {
    auto code = [](const std::string& s) { return parseError(s).errorCode(); };
    auto msg = [](const std::string& s) { return parseError(s).reason(); };
    EXPECT_EQ(Status(ErrorCodes::TypeMismatch, "$jsonSchema must be an object").toString(),
              statusOf([] { Matcher m(q("{%jsonSchema: 'foo'}")); }).toString());
    EXPECT_EQ(code("{format: 'email'}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(msg("{format: 'email'}"), "$jsonSchema keyword 'format' is not currently supported");
    for (const char* k : {"%ref", "%schema", "default", "definitions", "id"})
        EXPECT_EQ(code(std::string("{properties: {a: {'") + k + "': 1}}}"), ErrorCodes::FailedToParse) << k;
    EXPECT_EQ(msg("{foo: 1}"), "Unknown $jsonSchema keyword: foo");
    EXPECT_EQ(msg("{type: 'integer'}"), "$jsonSchema type 'integer' is not currently supported.");
    EXPECT_EQ(code("{type: 'integer'}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(parseError("{type: 'int'}").toString(), "BadValue: Unknown type name alias: int");
    EXPECT_EQ(code("{type: 3}"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(msg("{type: []}"), "$jsonSchema keyword 'type' must name at least one type");
    EXPECT_EQ(msg("{bsonType: ['int', 'int']}"), "$jsonSchema keyword 'bsonType' has duplicate value: int");
    EXPECT_EQ(msg("{type: 'object', bsonType: 'object'}"), "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
    EXPECT_EQ(msg("{properties: 3}"), "$jsonSchema keyword 'properties' must be an object");
    EXPECT_EQ(msg("{properties: {num: 'number'}}"), "Nested schema for $jsonSchema property 'num' must be an object");
    EXPECT_EQ(code("{properties: {a: {maximum: '0'}}}"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(code("{properties: {a: {maxLength: '0'}}}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(msg("{properties: {a: {minLength: -1}}}"), "Expected a positive number in: minLength: -1");
    EXPECT_EQ(msg("{properties: {a: {exclusiveMinimum: true}}}"),
              "$jsonSchema keyword 'minimum' must be a present if exclusiveMinimum is present");
    EXPECT_EQ(msg("{properties: {a: {multipleOf: 0}}}"), "$jsonSchema keyword 'multipleOf' must have a positive value");
    EXPECT_EQ(msg("{required: []}"), "$jsonSchema keyword 'required' cannot be an empty array");
    EXPECT_EQ(msg("{required: ['a', 'a']}"), "$jsonSchema keyword 'required' array cannot contain duplicate values");
    EXPECT_EQ(code("{required: 'a'}"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(msg("{enum: [1, 1.0]}"), "$jsonSchema keyword 'enum' array cannot contain duplicate values.");
    EXPECT_EQ(parseError("{allOf: []}").toString(), "BadValue: $jsonSchema keyword 'allOf' must be a non-empty array");
    EXPECT_EQ(msg("{anyOf: [1]}"), "$jsonSchema keyword 'anyOf' must be an array of objects, but found an element of type int");
    EXPECT_EQ(msg("{additionalProperties: 1}"), "$jsonSchema keyword 'additionalProperties' must be an object or a boolean");
    EXPECT_EQ(msg("{dependencies: {a: []}}"), "property 'a' in $jsonSchema keyword 'dependencies' cannot be an empty array");
    EXPECT_EQ(msg("{title: 1}"), "$jsonSchema keyword 'title' must be of type string");
    EXPECT_EQ(msg("{items: 1}"), "$jsonSchema keyword 'items' must be an array or an object, not int");
    EXPECT_EQ(msg("{uniqueItems: 1}"), "$jsonSchema keyword 'uniqueItems' must be a boolean");
    EXPECT_EQ(msg("{minimum: 1, minimum: 2}"), "Duplicate $jsonSchema keyword: minimum");
    EXPECT_EQ(parseError("{properties: {a: {encrypt: {}}}}").code(), 224);  // validators only
    // title/description are checked but otherwise ignored.
    EXPECT_TRUE(m("{title: 't', description: 'd', properties: {a: {title: 'x'}}}", "{a: 1}"));
}

TEST(JsonSchemaExplain, PropertiesRequiredAndTitle) {
    expectExplain("{title: 't', properties: {a: {minimum: 1, description: 'a >= 1'}}, required: ['a', 'z', 'b']}",
                  "{a: 0}",
                  "{operatorName: '$jsonSchema', title: 't', schemaRulesNotSatisfied: ["
                  " {operatorName: 'properties', propertiesNotSatisfied: [{propertyName: 'a', description: 'a >= 1',"
                  "   details: [{operatorName: 'minimum', specifiedAs: {minimum: 1}, reason: 'comparison failed',"
                  "              consideredValue: 0}]}]},"
                  " {operatorName: 'required', specifiedAs: {required: ['a', 'z', 'b']}, missingProperties: ['b', 'z']}]}");
}

TEST(JsonSchemaExplain, TypeIsReportedLastAndMaxBeforeMin) {
    expectExplain("{properties: {b: {bsonType: 'string', minimum: 10, maximum: -10}}}", "{b: 5}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'b', details: ["
                  " {operatorName: 'maximum', specifiedAs: {maximum: -10}, reason: 'comparison failed', consideredValue: 5},"
                  " {operatorName: 'minimum', specifiedAs: {minimum: 10}, reason: 'comparison failed', consideredValue: 5},"
                  " {operatorName: 'bsonType', specifiedAs: {bsonType: 'string'}, reason: 'type did not match',"
                  "  consideredValue: 5, consideredType: 'int'}]}]}]}");
}

TEST(JsonSchemaExplain, ArrayKeywords) {
    expectExplain("{properties: {a: {items: {type: 'string'}, minItems: 5, uniqueItems: true}}}", "{a: ['x', 'x', 3]}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'a', details: ["
                  " {operatorName: 'minItems', specifiedAs: {minItems: 5}, reason: 'array did not match specified length',"
                  "  consideredValue: ['x', 'x', 3], numberOfItems: 3},"
                  " {operatorName: 'uniqueItems', specifiedAs: {uniqueItems: true}, reason: 'found a duplicate item',"
                  "  consideredValue: ['x', 'x', 3], duplicatedValue: 'x'},"
                  " {operatorName: 'items', reason: 'At least one item did not match the sub-schema', itemIndex: 2,"
                  "  details: [{operatorName: 'type', specifiedAs: {type: 'string'}, reason: 'type did not match',"
                  "             consideredValue: 3, consideredType: 'int'}]}]}]}]}");
    expectExplain("{properties: {a: {items: [{type: 'number'}, {type: 'string'}], additionalItems: false}}}",
                  "{a: [1, 2, 'x']}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'a', details: ["
                  " {operatorName: 'items', details: [{itemIndex: 1, details: [{operatorName: 'type', specifiedAs: "
                  "   {type: 'string'}, reason: 'type did not match', consideredValue: 2, consideredType: 'int'}]}]},"
                  " {operatorName: 'additionalItems', specifiedAs: {additionalItems: false}, reason: 'found additional items',"
                  "  additionalItems: ['x']}]}]}]}");
}

TEST(JsonSchemaExplain, ObjectKeywords) {
    expectExplain("{properties: {b: {type: 'number'}}, additionalProperties: false, minProperties: 9}",
                  "{_id: 0, a: 1, b: 2}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: ["
                  " {operatorName: 'additionalProperties', specifiedAs: {additionalProperties: false},"
                  "  additionalProperties: ['_id', 'a']},"
                  " {operatorName: 'minProperties', specifiedAs: {minProperties: 9},"
                  "  reason: 'specified number of properties was not satisfied', numberOfProperties: 3}]}");
    expectExplain("{patternProperties: {'^S': {type: 'number'}}, additionalProperties: {type: 'string'}}",
                  "{Super: 1, Slow: 'no', b: 1}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: ["
                  " {operatorName: 'additionalProperties', reason: 'at least one additional property did not match the "
                  "subschema', failingProperty: 'b', details: [{operatorName: 'type', specifiedAs: {type: 'string'},"
                  "  reason: 'type did not match', consideredValue: 1, consideredType: 'int'}]},"
                  " {operatorName: 'patternProperties', details: [{propertyName: 'Slow', regexMatched: '^S', details: ["
                  "  {operatorName: 'type', specifiedAs: {type: 'number'}, reason: 'type did not match',"
                  "   consideredValue: 'no', consideredType: 'string'}]}]}]}");
    expectExplain("{dependencies: {a: ['b', 'c'], b: {properties: {c: {type: 'string'}}}}}", "{a: 1, b: 2, c: 3}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'dependencies', "
                  "failingDependencies: [{conditionalProperty: 'b', details: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'c', details: [{operatorName: 'type', specifiedAs: "
                  "{type: 'string'}, reason: 'type did not match', consideredValue: 3, consideredType: 'int'}]}]}]}]}]}");
}

TEST(JsonSchemaExplain, LogicalKeywords) {
    expectExplain("{properties: {a: {oneOf: [{minimum: 1}, {maximum: 3}]}}}", "{a: 2}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'a', details: [{operatorName: 'oneOf', "
                  "reason: 'more than one subschema matched', matchingSchemaIndexes: [0, 1]}]}]}]}");
    expectExplain("{allOf: [{required: ['a']}, {required: ['b']}], not: {}}", "{a: 1}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'allOf', schemasNotSatisfied: ["
                  " {index: 1, details: [{operatorName: 'required', specifiedAs: {required: ['b']}, missingProperties: ['b']}]}]},"
                  " {operatorName: 'not', reason: 'child expression matched'}]}");
    expectExplain("{properties: {a: {enum: [1, 2]}}}", "{a: 3}",
                  "{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{operatorName: 'properties', "
                  "propertiesNotSatisfied: [{propertyName: 'a', details: [{operatorName: 'enum', specifiedAs: "
                  "{enum: [1, 2]}, reason: 'value was not found in enum', consideredValue: 3}]}]}]}");
}

TEST(JsonSchemaExplain, TopLevelTypeThatExcludesObjects) {
    expectExplain("{type: 'number', properties: {a: {}}}", "{a: 1}",
                  "{operatorName: '$jsonSchema', specifiedAs: {%jsonSchema: {type: 'number', properties: {a: {}}}},"
                  " reason: 'expression always evaluates to false'}");
}

}  // namespace
}  // namespace mongo
