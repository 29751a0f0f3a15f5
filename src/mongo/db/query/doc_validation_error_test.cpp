#include "mongo/db/query/doc_validation_error.h"

#include <gtest/gtest.h>

#include "mongo/db/query/matcher.h"
#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;

// Checks that doc fails the validator and that the details are exactly 'expected' (field order
// included). Filters are written with '%' for '$' in keys (see query_test_util.h).
void expectDetails(const std::string& validator, const std::string& doc, const std::string& expected) {
    BSONObj v = q(validator), d = q(doc);
    bool matched = false;
    try {
        matched = Matcher(v).matches(d);
    } catch (const DBException&) {
    }
    EXPECT_FALSE(matched) << validator << " on " << doc;
    EXPECT_EQ(explainValidatorFailure(v, d).jsonString(), q(expected).jsonString()) << validator << " on " << doc;
}

TEST(DocValidationError, ComparisonOperators) {
    expectDetails("{a: {%eq: 2}}", "{a: 1}",
                  "{operatorName: '$eq', specifiedAs: {a: {%eq: 2}}, reason: 'comparison failed', consideredValue: 1}");
    expectDetails("{a: 2}", "{a: 1}",
                  "{operatorName: '$eq', specifiedAs: {a: 2}, reason: 'comparison failed', consideredValue: 1}");
    expectDetails("{a: {%eq: 2}}", "{b: 1}", "{operatorName: '$eq', specifiedAs: {a: {%eq: 2}}, reason: 'field was missing'}");
    expectDetails("{a: {%lt: 0}}", "{a: [3, 4, 5]}",
                  "{operatorName: '$lt', specifiedAs: {a: {%lt: 0}}, reason: 'comparison failed', consideredValues: [3, 4, 5]}");
    expectDetails("{'a.b': {%eq: 2}}", "{a: [{b: 3}]}",
                  "{operatorName: '$eq', specifiedAs: {'a.b': {%eq: 2}}, reason: 'comparison failed', consideredValue: 3}");
    expectDetails("{'a.b': {%eq: 0}}", "{a: [{b: [1, 2]}, {b: [3, 4]}]}",
                  "{operatorName: '$eq', specifiedAs: {'a.b': {%eq: 0}}, reason: 'comparison failed',"
                  " consideredValues: [1, 2, 3, 4]}");
    expectDetails("{a: {%gte: 3}}", "{a: []}",
                  "{operatorName: '$gte', specifiedAs: {a: {%gte: 3}}, reason: 'comparison failed', consideredValues: []}");
    expectDetails("{a: {%ne: 2}}", "{a: 2}",
                  "{operatorName: '$ne', specifiedAs: {a: {%ne: 2}}, reason: 'comparison succeeded', consideredValue: 2}");
    expectDetails("{a: {%in: [1, 2, 3]}}", "{a: 4}",
                  "{operatorName: '$in', specifiedAs: {a: {%in: [1, 2, 3]}}, reason: 'no matching value found in array',"
                  " consideredValue: 4}");
    expectDetails("{a: {%nin: [1, 2, 3]}}", "{a: 3}",
                  "{operatorName: '$nin', specifiedAs: {a: {%nin: [1, 2, 3]}}, reason: 'matching value found in array',"
                  " consideredValue: 3}");
}

TEST(DocValidationError, ConsideredValuesAreCutAtTen) {
    BSONObj details = explainValidatorFailure(q("{a: {%lt: 0}}"), q("{a: [1,2,3,4,5,6,7,8,9,10,11,12]}"));
    EXPECT_EQ(details["consideredValues"].Obj().nFields(), 10);
}

TEST(DocValidationError, LogicalOperators) {
    expectDetails("{%and: [{b: {%gt: 0}}, {a: {%lt: 10}}]}", "{a: 11, b: 2}",
                  "{operatorName: '$and', clausesNotSatisfied: [{index: 1, details: {operatorName: '$lt', "
                  "specifiedAs: {a: {%lt: 10}}, reason: 'comparison failed', consideredValue: 11}}]}");
    expectDetails("{a: {%gt: 0, %lt: 10}}", "{a: 11}",
                  "{operatorName: '$and', clausesNotSatisfied: [{index: 1, details: {operatorName: '$lt', "
                  "specifiedAs: {a: {%lt: 10}}, reason: 'comparison failed', consideredValue: 11}}]}");
    expectDetails("{%and: [{%and: [{a: 1}]}, {%and: [{b: 1}]}]}", "{a: 1, b: 2}",
                  "{operatorName: '$and', clausesNotSatisfied: [{index: 1, details: {operatorName: '$and', "
                  "clausesNotSatisfied: [{index: 0, details: {operatorName: '$eq', specifiedAs: {b: 1}, "
                  "reason: 'comparison failed', consideredValue: 2}}]}}]}");
    expectDetails("{%nor: [{a: {%gt: 10}}, {b: {%lt: 10}}]}", "{a: 9, b: 9}",
                  "{operatorName: '$nor', clausesSatisfied: [{index: 1, details: {operatorName: '$lt', "
                  "specifiedAs: {b: {%lt: 10}}, reason: 'comparison succeeded', consideredValue: 9}}]}");
    expectDetails("{a: {%not: {%lt: 10}}}", "{a: 9}",
                  "{operatorName: '$not', details: {operatorName: '$lt', specifiedAs: {a: {%lt: 10}}, "
                  "reason: 'comparison succeeded', consideredValue: 9}}");
    expectDetails("{a: {%not: {%lt: 20, %gt: 5}}}", "{a: 10}",
                  "{operatorName: '$not', details: {operatorName: '$and', clausesSatisfied: ["
                  "{index: 0, details: {operatorName: '$lt', specifiedAs: {a: {%lt: 20}}, reason: 'comparison succeeded', "
                  "consideredValue: 10}}, {index: 1, details: {operatorName: '$gt', specifiedAs: {a: {%gt: 5}}, "
                  "reason: 'comparison succeeded', consideredValue: 10}}]}}");
    expectDetails("{%and: [{%or: [{price: {%lt: 20}}]}, {%nor: [{qty: {%gt: 30}}, {qty: {%not: {%lt: 20}}}]}]}",
                  "{price: 10, qty: 25}",
                  "{operatorName: '$and', clausesNotSatisfied: [{index: 1, details: {operatorName: '$nor', "
                  "clausesSatisfied: [{index: 1, details: {operatorName: '$not', details: {operatorName: '$lt', "
                  "specifiedAs: {qty: {%lt: 20}}, reason: 'comparison failed', consideredValue: 25}}}]}}]}");
    expectDetails("{%or: [{phone: {%type: 'string'}}, {email: {%regex: '@mongodb\\\\.com$'}}, "
                  "{status: {%in: ['Unknown', 'Incomplete']}}]}",
                  "{email: 'info@mongodb.co'}",
                  "{operatorName: '$or', clausesNotSatisfied: ["
                  "{index: 0, details: {operatorName: '$type', specifiedAs: {phone: {%type: 'string'}}, reason: 'field was missing'}},"
                  "{index: 1, details: {operatorName: '$regex', specifiedAs: {email: {%regex: '@mongodb\\\\.com$'}}, "
                  "reason: 'regular expression did not match', consideredValue: 'info@mongodb.co'}},"
                  "{index: 2, details: {operatorName: '$in', specifiedAs: {status: {%in: ['Unknown', 'Incomplete']}}, "
                  "reason: 'field was missing'}}]}");
}

TEST(DocValidationError, MiscellaneousOperators) {
    expectDetails("{a: {%exists: true}}", "{b: 1}",
                  "{operatorName: '$exists', specifiedAs: {a: {%exists: true}}, reason: 'path does not exist'}");
    expectDetails("{a: {%exists: false}}", "{a: 1}",
                  "{operatorName: '$exists', specifiedAs: {a: {%exists: false}}, reason: 'path does exist'}");
    expectDetails("{a: {%type: 'int'}}", "{a: 'one'}",
                  "{operatorName: '$type', specifiedAs: {a: {%type: 'int'}}, reason: 'type did not match', "
                  "consideredValue: 'one', consideredType: 'string'}");
    expectDetails("{a: {%not: {%type: 'string'}}}", "{a: 'w'}",
                  "{operatorName: '$not', details: {operatorName: '$type', specifiedAs: {a: {%type: 'string'}}, "
                  "reason: 'type did match', consideredValue: 'w', consideredType: 'string'}}");
    expectDetails("{a: {%mod: [2, 1]}}", "{a: 'two'}",
                  "{operatorName: '$mod', specifiedAs: {a: {%mod: [2, 1]}}, reason: 'type did not match', "
                  "consideredType: 'string', expectedTypes: ['decimal', 'double', 'int', 'long'], consideredValue: 'two'}");
    expectDetails("{a: {%mod: [2, 1]}}", "{a: [0, 'two']}",
                  "{operatorName: '$mod', specifiedAs: {a: {%mod: [2, 1]}}, "
                  "reason: '$mod did not evaluate to expected remainder', consideredValues: [0, 'two']}");
    expectDetails("{a: /^S/}", "{a: 'so'}",
                  "{operatorName: '$regex', specifiedAs: {a: /^S/}, reason: 'regular expression did not match', "
                  "consideredValue: 'so'}");
    expectDetails("{a: {%bitsAnyClear: 3}}", "{a: 'x'}",
                  "{operatorName: '$bitsAnyClear', specifiedAs: {a: {%bitsAnyClear: 3}}, reason: 'type did not match', "
                  "consideredType: 'string', expectedTypes: ['binData', 'decimal', 'double', 'int', 'long'], "
                  "consideredValue: 'x'}");
    expectDetails("{%expr: {%eq: ['$a', '$b']}}", "{a: 1, b: 2}",
                  "{operatorName: '$expr', specifiedAs: {%expr: {%eq: ['$a', '$b']}}, reason: 'expression did not match', "
                  "expressionResult: false}");
    expectDetails("{%expr: {%divide: [10, 0]}}", "{}",
                  "{operatorName: '$expr', specifiedAs: {%expr: {%divide: [10, 0]}}, "
                  "reason: 'failed to evaluate aggregation expression', "
                  "details: {code: 2, codeName: 'BadValue', errmsg: \"can't $divide by zero\"}}");
    expectDetails("{%nor: [{%alwaysTrue: 1}]}", "{}",
                  "{operatorName: '$nor', clausesSatisfied: [{index: 0, details: {operatorName: '$alwaysTrue', "
                  "specifiedAs: {%alwaysTrue: 1}, reason: 'expression always evaluates to true'}}]}");
}

TEST(DocValidationError, ArrayOperators) {
    expectDetails("{a: {%size: 2}}", "{a: [1, 2, 3]}",
                  "{operatorName: '$size', specifiedAs: {a: {%size: 2}}, reason: 'array length was not equal to given size', "
                  "consideredValue: [1, 2, 3]}");
    expectDetails("{a: {%size: 2}}", "{a: 3}",
                  "{operatorName: '$size', specifiedAs: {a: {%size: 2}}, reason: 'type did not match', "
                  "consideredType: 'int', expectedType: 'array', consideredValue: 3}");
    expectDetails("{a: {%all: [1, 2, 3]}}", "{a: [1, 2, 4]}",
                  "{operatorName: '$all', specifiedAs: {a: {%all: [1, 2, 3]}}, "
                  "reason: 'array did not contain all specified values', consideredValue: [1, 2, 4]}");
    expectDetails("{a: {%all: []}}", "{a: [1]}",
                  "{operatorName: '$all', specifiedAs: {a: {%all: []}}, reason: 'expression always evaluates to false'}");
    expectDetails("{a: {%elemMatch: {%gt: 0, %lt: 10}}}", "{a: [10, 11]}",
                  "{operatorName: '$elemMatch', specifiedAs: {a: {%elemMatch: {%gt: 0, %lt: 10}}}, "
                  "reason: 'array did not satisfy the child predicate', consideredValue: [10, 11]}");
}

TEST(DocValidationError, JsonSchemaClauses) {
    expectDetails("{%and: [{%jsonSchema: {properties: {a: {minimum: 1}}}}, {%jsonSchema: {properties: {b: {minimum: 1}}}}]}",
                  "{a: 0, b: 2}",
                  "{operatorName: '$and', clausesNotSatisfied: [{index: 0, details: {operatorName: '$jsonSchema', "
                  "schemaRulesNotSatisfied: [{operatorName: 'properties', propertiesNotSatisfied: [{propertyName: 'a', "
                  "details: [{operatorName: 'minimum', specifiedAs: {minimum: 1}, reason: 'comparison failed', "
                  "consideredValue: 0}]}]}]}}]}");
    expectDetails("{%nor: [{%jsonSchema: {minimum: 1}}]}", "{a: 2}",
                  "{operatorName: '$nor', clausesSatisfied: [{index: 0, details: {operatorName: '$jsonSchema', "
                  "reason: 'schema matched'}}]}");
}

TEST(DocValidationError, ErrInfoCarriesTheFailingDocumentId) {
    BSONObj info = generateDocValidationErrInfo(q("{a: {%eq: 2}}"), q("{_id: 10, a: 1}"));
    EXPECT_EQ(info.jsonString(), q("{failingDocumentId: 10, details: {operatorName: '$eq', specifiedAs: {a: {%eq: 2}}, "
                                   "reason: 'comparison failed', consideredValue: 1}}")
                                     .jsonString());
}

TEST(DocValidationError, DeepErrorsAreTruncated) {
    // {$or: [{$or: [... {a: 0} ...], {a: 1}]}, 80 levels deep (too deep for the JSON reader).
    BSONObj v = q("{a: 0}");
    for (int i = 1; i < 80; i++) {
        BSONArrayBuilder arr;
        arr.append(v);
        BSONObjBuilder clause;
        clause.append("a", i);
        arr.append(clause.obj());
        BSONObjBuilder b;
        b.append("$or", arr.arr());
        v = b.obj();
    }
    BSONObj info = generateDocValidationErrInfo(v, q("{_id: 1, b: 1}"));
    EXPECT_EQ(info["reason"].str(), "generated error was too deeply nested");
    EXPECT_TRUE(info["truncated"].trueValue());
}

}  // namespace
}  // namespace mongo
