#include <gtest/gtest.h>

#include "mongo/db/pipeline/pipeline_test_util.h"

namespace mongo {
namespace {

using test::errorCode;
using test::eval;
using test::evalStr;
using test::V;

#define EXPECT_EVAL(expr, doc, expected) EXPECT_EQ(evalStr(expr, doc), V(expected)) << expr
#define EXPECT_CODE(expr, doc, code) EXPECT_EQ(errorCode([&] { eval(expr, doc); }), code) << expr

TEST(ExpressionFieldPath, ReadsNestedFieldsAndTraversesArrays) {
    EXPECT_EVAL("'$a.b'", "{a: {b: 5}}", "5");
    EXPECT_EVAL("'$a.b'", "{a: [{b: 1}, {b: 2}, {c: 3}, 7]}", "[1, 2]");
    EXPECT_EVAL("'$a.b'", "{a: [[{b: 1}], {b: 2}]}", "[[1], 2]");
    EXPECT_EQ(evalStr("'$a.b'", "{a: 1}"), "missing");
    EXPECT_EQ(evalStr("'$x'", "{a: 1}"), "missing");
}

TEST(ExpressionFieldPath, NumericComponentsNeverIndexArrays) {
    // Deliberately unlike find/distinct (query/path_traversal.h), as MongoDB does.
    EXPECT_EVAL("'$a.0'", "{a: [1, 2]}", "[]");
    EXPECT_EVAL("'$a.1.b'", "{a: [{b: 'a'}, {b: 'd'}]}", "[]");
    EXPECT_EVAL("'$a.1.b'", "{a: [{'1': {b: 'x'}}, {b: 'd'}]}", "['x']");
    EXPECT_EVAL("'$a.1'", "{a: {'1': 5}}", "5");
}

TEST(ExpressionFieldPath, RootCurrentAndRemoveVariables) {
    EXPECT_EVAL("'$$ROOT.a'", "{a: 2}", "2");
    EXPECT_EVAL("'$$CURRENT'", "{a: 2}", "{a: 2}");
    EXPECT_EQ(evalStr("'$$REMOVE'", "{a: 2}"), "missing");
    EXPECT_CODE("'$$nope'", "{}", 17276);
    EXPECT_CODE("'$$1x'", "{}", 16870);
}

TEST(ExpressionParse, UnknownOperatorAndShapeErrors) {
    EXPECT_CODE("{$foo: 1}", "{}", 168);
    EXPECT_CODE("{$add: [1], $multiply: [2]}", "{}", 15983);
    EXPECT_CODE("{a: 1, $add: [1]}", "{}", 16410);
    EXPECT_CODE("{'a.b': 1}", "{}", 16412);
    EXPECT_CODE("{$subtract: [1]}", "{}", 16020);
    EXPECT_CODE("{$round: [1, 2, 3]}", "{}", 28667);
}

TEST(ExpressionObjectAndArray, MissingFieldsDroppedArraysGetNull) {
    EXPECT_EVAL("{x: '$a', y: '$nope', z: {$literal: '$a'}}", "{a: 1}", "{x: 1, z: '$a'}");
    EXPECT_EVAL("['$a', '$nope']", "{a: 1}", "[1, null]");
}

TEST(ExpressionArithmetic, TypePromotionAndOverflow) {
    EXPECT_EVAL("{$add: [1, 2]}", "{}", "3");
    EXPECT_EVAL("{$add: [2147483647, 1]}", "{}", "{$numberLong: '2147483648'}");
    EXPECT_EVAL("{$add: [{$numberLong: '9223372036854775807'}, 1]}", "{}", "9.223372036854775808e18");
    EXPECT_EVAL("{$add: [1, 1.5]}", "{}", "2.5");
    EXPECT_EVAL("{$add: [1, null]}", "{}", "null");
    EXPECT_EVAL("{$add: [1, '$missing']}", "{}", "null");
    EXPECT_EVAL("{$add: [{$date: {$numberLong: '1000'}}, 500]}", "{}", "{$date: {$numberLong: '1500'}}");
    EXPECT_CODE("{$add: ['a', 1]}", "{}", 16554);
    EXPECT_CODE("{$add: [{$date: {$numberLong: '1'}}, {$date: {$numberLong: '1'}}]}", "{}", 16612);
    EXPECT_EVAL("{$multiply: [3, 4]}", "{}", "12");
    EXPECT_EVAL("{$multiply: [65536, 65536]}", "{}", "{$numberLong: '4294967296'}");
    EXPECT_CODE("{$multiply: [2, 'x']}", "{}", 16555);
    EXPECT_EVAL("{$subtract: [5, 7]}", "{}", "-2");
    EXPECT_EVAL("{$subtract: [{$date: {$numberLong: '5000'}}, {$date: {$numberLong: '2000'}}]}", "{}",
                "{$numberLong: '3000'}");
    EXPECT_EVAL("{$subtract: [{$date: {$numberLong: '5000'}}, 1000]}", "{}", "{$date: {$numberLong: '4000'}}");
    EXPECT_CODE("{$subtract: [1, 'a']}", "{}", 16556);
}

TEST(ExpressionArithmetic, DivideModAndFriends) {
    EXPECT_EVAL("{$divide: [6, 3]}", "{}", "2.0");
    EXPECT_EVAL("{$divide: [1, 4]}", "{}", "0.25");
    EXPECT_CODE("{$divide: [1, 0]}", "{}", 2);
    EXPECT_CODE("{$divide: ['a', 1]}", "{}", 16609);
    EXPECT_EVAL("{$divide: [null, 1]}", "{}", "null");
    EXPECT_EVAL("{$mod: [7, 3]}", "{}", "1");
    EXPECT_EVAL("{$mod: [-7, 3]}", "{}", "-1");
    EXPECT_EVAL("{$mod: [7.5, 2]}", "{}", "1.5");
    EXPECT_CODE("{$mod: [7, 0]}", "{}", 16610);
    EXPECT_EVAL("{$abs: -5}", "{}", "5");
    EXPECT_EVAL("{$abs: -2147483648}", "{}", "{$numberLong: '2147483648'}");
    EXPECT_EVAL("{$ceil: 1.2}", "{}", "2.0");
    EXPECT_EVAL("{$floor: -1.2}", "{}", "-2.0");
    EXPECT_EVAL("{$floor: 3}", "{}", "3");
    EXPECT_CODE("{$ceil: 'x'}", "{}", 28765);
    EXPECT_EVAL("{$round: [2.5, 0]}", "{}", "2.0");
    EXPECT_EVAL("{$round: [3.5]}", "{}", "4.0");
    EXPECT_EVAL("{$round: [1.2345, 2]}", "{}", "1.23");
    EXPECT_EVAL("{$round: [1234, -2]}", "{}", "1200");
    EXPECT_EVAL("{$trunc: [1.789, 1]}", "{}", "1.7");
    EXPECT_EVAL("{$pow: [2, 10]}", "{}", "1024");
    EXPECT_EVAL("{$pow: [2, -1]}", "{}", "0.5");
    EXPECT_CODE("{$pow: [0, -1]}", "{}", 28764);
    EXPECT_EVAL("{$sqrt: 16}", "{}", "4.0");
    EXPECT_CODE("{$sqrt: -1}", "{}", 28714);
    EXPECT_EVAL("{$ln: 1}", "{}", "0.0");
    EXPECT_EVAL("{$log10: 100}", "{}", "2.0");
    EXPECT_EVAL("{$log: [8, 2]}", "{}", "3.0");
    EXPECT_CODE("{$ln: 0}", "{}", 28766);
    EXPECT_EVAL("{$exp: 0}", "{}", "1.0");
}

TEST(ExpressionArithmetic, DecimalResults) {
    EXPECT_EVAL("{$add: [{$numberDecimal: '1.1'}, 1]}", "{}", "{$numberDecimal: '2.1'}");
    EXPECT_EVAL("{$multiply: [{$numberDecimal: '2'}, 3]}", "{}", "{$numberDecimal: '6'}");
}

TEST(ExpressionComparison, CanonicalOrderAcrossTypes) {
    EXPECT_EVAL("{$eq: [1, 1.0]}", "{}", "true");
    EXPECT_EVAL("{$eq: ['$missing', null]}", "{}", "false");
    EXPECT_EVAL("{$lt: [5, 'a']}", "{}", "true");
    EXPECT_EVAL("{$gt: [{a: 1}, 'z']}", "{}", "true");
    EXPECT_EVAL("{$cmp: [2, 1]}", "{}", "1");
    EXPECT_EVAL("{$cmp: ['a', 'b']}", "{}", "-1");
    EXPECT_EVAL("{$ne: [[1, 2], [1, 2]]}", "{}", "false");
    EXPECT_EVAL("{$gte: ['$a', 3]}", "{a: 3}", "true");
    EXPECT_EVAL("{$lte: [null, 0]}", "{}", "true");
}

TEST(ExpressionLogic, BooleanAndConditionals) {
    EXPECT_EVAL("{$and: [1, true, 'x']}", "{}", "true");
    EXPECT_EVAL("{$and: [1, 0]}", "{}", "false");
    EXPECT_EVAL("{$and: []}", "{}", "true");
    EXPECT_EVAL("{$or: [null, '$missing', 0]}", "{}", "false");
    EXPECT_EVAL("{$or: [null, [ ]]}", "{}", "true");
    EXPECT_EVAL("{$not: [0]}", "{}", "true");
    EXPECT_EVAL("{$cond: [true, 1, 2]}", "{}", "1");
    EXPECT_EVAL("{$cond: {if: {$gt: ['$a', 5]}, then: 'big', else: 'small'}}", "{a: 3}", "'small'");
    EXPECT_CODE("{$cond: {if: true, then: 1}}", "{}", 17082);
    EXPECT_CODE("{$cond: {if: true, then: 1, else: 2, x: 3}}", "{}", 17083);
    EXPECT_CODE("{$cond: [1, 2]}", "{}", 16020);
    EXPECT_EVAL("{$ifNull: ['$a', 'dflt']}", "{}", "'dflt'");
    EXPECT_EVAL("{$ifNull: [null, '$missing', 3]}", "{}", "3");
    EXPECT_EVAL("{$ifNull: ['$a', 1]}", "{a: 0}", "0");
    EXPECT_EVAL("{$switch: {branches: [{case: {$eq: ['$a', 1]}, then: 'one'}, {case: true, then: 'other'}]}}",
                "{a: 1}", "'one'");
    EXPECT_EVAL("{$switch: {branches: [{case: false, then: 1}], default: 'd'}}", "{}", "'d'");
    EXPECT_CODE("{$switch: {branches: [{case: false, then: 1}]}}", "{}", 40066);
    EXPECT_CODE("{$switch: {branches: []}}", "{}", 40068);
}

TEST(ExpressionString, ConcatCaseSubstrings) {
    EXPECT_EVAL("{$concat: ['a', '$b', 'c']}", "{b: 'B'}", "'aBc'");
    EXPECT_EVAL("{$concat: ['a', '$nope']}", "{}", "null");
    EXPECT_CODE("{$concat: ['a', 1]}", "{}", 16702);
    EXPECT_EVAL("{$toLower: 'AbC'}", "{}", "'abc'");
    EXPECT_EVAL("{$toUpper: 'AbC'}", "{}", "'ABC'");
    EXPECT_EVAL("{$toUpper: 5}", "{}", "'5'");
    EXPECT_EVAL("{$toLower: null}", "{}", "''");
    EXPECT_EVAL("{$substr: ['hello', 1, 3]}", "{}", "'ell'");
    EXPECT_EVAL("{$substrBytes: ['hello', 2, -1]}", "{}", "'llo'");
    EXPECT_EVAL("{$substrBytes: ['hello', 10, 2]}", "{}", "''");
    EXPECT_CODE("{$substrBytes: ['h\\u00e9llo', 2, 1]}", "{}", 28656);
    EXPECT_EVAL("{$substrCP: ['h\\u00e9llo', 1, 2]}", "{}", "'\\u00e9l'");
    EXPECT_CODE("{$substrCP: ['x', -1, 2]}", "{}", 34455);
    EXPECT_EVAL("{$strLenBytes: 'h\\u00e9'}", "{}", "3");
    EXPECT_EVAL("{$strLenCP: 'h\\u00e9'}", "{}", "2");
    EXPECT_CODE("{$strLenBytes: 1}", "{}", 34473);
    EXPECT_CODE("{$strLenCP: '$nope'}", "{}", 34471);
}

TEST(ExpressionString, SplitTrimIndexOfCompare) {
    EXPECT_EVAL("{$split: ['a,b,,c', ',']}", "{}", "['a', 'b', '', 'c']");
    EXPECT_EVAL("{$split: [null, ',']}", "{}", "null");
    EXPECT_CODE("{$split: ['a', '']}", "{}", 40087);
    EXPECT_CODE("{$split: [1, ',']}", "{}", 40085);
    EXPECT_EVAL("{$trim: {input: '  hi \\n'}}", "{}", "'hi'");
    EXPECT_EVAL("{$ltrim: {input: 'xxhixx', chars: 'x'}}", "{}", "'hixx'");
    EXPECT_EVAL("{$rtrim: {input: 'xxhixx', chars: 'x'}}", "{}", "'xxhi'");
    EXPECT_CODE("{$trim: {chars: 'x'}}", "{}", 50695);
    EXPECT_CODE("{$trim: {input: 1}}", "{}", 50699);
    EXPECT_EVAL("{$indexOfBytes: ['cafeteria', 'e']}", "{}", "3");
    EXPECT_EVAL("{$indexOfBytes: ['cafeteria', 'e', 4]}", "{}", "5");
    EXPECT_EVAL("{$indexOfBytes: ['cafeteria', 'x']}", "{}", "-1");
    EXPECT_EVAL("{$indexOfCP: ['\\u00e9a\\u00e9b', 'b']}", "{}", "3");
    EXPECT_CODE("{$indexOfBytes: ['a', 'a', -1]}", "{}", 40097);
    EXPECT_EVAL("{$strcasecmp: ['abc', 'ABC']}", "{}", "0");
    EXPECT_EVAL("{$strcasecmp: ['abc', 'abd']}", "{}", "-1");
    EXPECT_EVAL("{$replaceOne: {input: 'aXbX', find: 'X', replacement: 'Y'}}", "{}", "'aYbX'");
    EXPECT_EVAL("{$replaceAll: {input: 'aXbX', find: 'X', replacement: 'Y'}}", "{}", "'aYbY'");
}

TEST(ExpressionString, RegexOperators) {
    EXPECT_EVAL("{$regexMatch: {input: 'Hello', regex: '^h', options: 'i'}}", "{}", "true");
    EXPECT_EVAL("{$regexMatch: {input: 'Hello', regex: {$regex: '^h'}}}", "{}", "false");
    EXPECT_EVAL("{$regexMatch: {input: null, regex: 'a'}}", "{}", "false");
    EXPECT_CODE("{$regexMatch: {input: 1, regex: 'a'}}", "{}", 51104);
    EXPECT_CODE("{$regexMatch: {input: 'a', regex: 'a', options: 'q'}}", "{}", 51108);
    EXPECT_CODE("{$regexMatch: {input: 'a', regex: '('}}", "{}", 51111);
    EXPECT_EVAL("{$regexFind: {input: 'abc123', regex: '([a-z]+)(\\\\d+)'}}", "{}",
                "{match: 'abc123', idx: 0, captures: ['abc', '123']}");
    EXPECT_EVAL("{$regexFind: {input: 'abc', regex: 'z'}}", "{}", "null");
    EXPECT_EVAL("{$regexFindAll: {input: 'a1b2', regex: '\\\\d'}}", "{}",
                "[{match: '1', idx: 1, captures: []}, {match: '2', idx: 3, captures: []}]");
}

TEST(ExpressionArray, AccessAndSlicing) {
    EXPECT_EVAL("{$size: [[1, 2, 3]]}", "{}", "3");
    EXPECT_EVAL("{$size: '$a'}", "{a: []}", "0");
    EXPECT_CODE("{$size: '$a'}", "{a: 1}", 17124);
    EXPECT_CODE("{$size: '$missing'}", "{}", 17124);
    EXPECT_EVAL("{$arrayElemAt: [[1, 2, 3], -1]}", "{}", "3");
    EXPECT_EQ(evalStr("{$arrayElemAt: [[1, 2, 3], 5]}"), "missing");
    EXPECT_CODE("{$arrayElemAt: [1, 0]}", "{}", 28689);
    EXPECT_CODE("{$arrayElemAt: [[1], 1.5]}", "{}", 28691);
    EXPECT_EVAL("{$first: [[4, 5]]}", "{}", "4");
    EXPECT_EVAL("{$last: '$a'}", "{a: [4, 5]}", "5");
    EXPECT_EVAL("{$slice: [[1, 2, 3, 4], 2]}", "{}", "[1, 2]");
    EXPECT_EVAL("{$slice: [[1, 2, 3, 4], -2]}", "{}", "[3, 4]");
    EXPECT_EVAL("{$slice: [[1, 2, 3, 4], 1, 2]}", "{}", "[2, 3]");
    EXPECT_EVAL("{$slice: [[1, 2, 3, 4], -3, 2]}", "{}", "[2, 3]");
    EXPECT_CODE("{$slice: [[1], 0, 0]}", "{}", 28729);
    EXPECT_CODE("{$slice: [1, 1]}", "{}", 28724);
    EXPECT_EVAL("{$concatArrays: [[1], [2, [3]]]}", "{}", "[1, 2, [3]]");
    EXPECT_EVAL("{$concatArrays: [[1], null]}", "{}", "null");
    EXPECT_CODE("{$concatArrays: [[1], 2]}", "{}", 28664);
    EXPECT_EVAL("{$in: [2, [1, 2]]}", "{}", "true");
    EXPECT_CODE("{$in: [2, 1]}", "{}", 40081);
    EXPECT_EVAL("{$isArray: [[1]]}", "{}", "true");
    EXPECT_EVAL("{$isArray: 'x'}", "{}", "false");
    EXPECT_EVAL("{$reverseArray: [[1, 2, 3]]}", "{}", "[3, 2, 1]");
    EXPECT_CODE("{$reverseArray: 1}", "{}", 34435);
    EXPECT_EVAL("{$indexOfArray: [['a', 'b', 'a'], 'a', 1]}", "{}", "2");
    EXPECT_EVAL("{$indexOfArray: [null, 'a']}", "{}", "null");
    EXPECT_EVAL("{$range: [0, 10, 3]}", "{}", "[0, 3, 6, 9]");
    EXPECT_EVAL("{$range: [5, 0, -2]}", "{}", "[5, 3, 1]");
    EXPECT_CODE("{$range: [0, 5, 0]}", "{}", 34449);
}

TEST(ExpressionArray, FilterMapReduceZip) {
    EXPECT_EVAL("{$filter: {input: [1, 2, 3, 4], as: 'x', cond: {$gt: ['$$x', 2]}}}", "{}", "[3, 4]");
    EXPECT_EVAL("{$filter: {input: [1, 2, 3, 4], cond: {$gt: ['$$this', 1]}, limit: 2}}", "{}", "[2, 3]");
    EXPECT_EVAL("{$filter: {input: '$nope', cond: true}}", "{}", "null");
    EXPECT_CODE("{$filter: {input: 1, cond: true}}", "{}", 28651);
    EXPECT_CODE("{$filter: {input: [], cond: true, x: 1}}", "{}", 28647);
    EXPECT_EVAL("{$map: {input: '$a', as: 'v', in: {$multiply: ['$$v', 10]}}}", "{a: [1, 2]}", "[10, 20]");
    EXPECT_EVAL("{$map: {input: [1], in: {$add: ['$$this', '$b']}}}", "{b: 5}", "[6]");
    EXPECT_CODE("{$map: {input: 1, in: 1}}", "{}", 16883);
    EXPECT_EVAL("{$reduce: {input: [1, 2, 3], initialValue: 0, in: {$add: ['$$value', '$$this']}}}", "{}", "6");
    EXPECT_EVAL("{$reduce: {input: [[1], [2]], initialValue: [], in: {$concatArrays: ['$$value', '$$this']}}}", "{}",
                "[1, 2]");
    EXPECT_CODE("{$reduce: {input: 1, initialValue: 0, in: 1}}", "{}", 40080);
    EXPECT_EVAL("{$zip: {inputs: [[1, 2], ['a']]}}", "{}", "[[1, 'a']]");
    EXPECT_EVAL("{$zip: {inputs: [[1, 2], ['a']], useLongestLength: true, defaults: [0, 'z']}}", "{}",
                "[[1, 'a'], [2, 'z']]");
    EXPECT_EVAL("{$sortArray: {input: [3, 1, 2], sortBy: -1}}", "{}", "[3, 2, 1]");
    EXPECT_EVAL("{$sortArray: {input: [{a: 2}, {a: 1}], sortBy: {a: 1}}}", "{}", "[{a: 1}, {a: 2}]");
    EXPECT_EVAL("{$firstN: {n: 2, input: [1, 2, 3]}}", "{}", "[1, 2]");
    EXPECT_EVAL("{$maxN: {n: 2, input: [1, null, 3, 2]}}", "{}", "[3, 2]");
}

TEST(ExpressionLet, BindsVariablesInScope) {
    EXPECT_EVAL("{$let: {vars: {x: 2, y: '$a'}, in: {$multiply: ['$$x', '$$y']}}}", "{a: 5}", "10");
    EXPECT_EVAL("{$let: {vars: {x: 1}, in: {$let: {vars: {x: 2}, in: '$$x'}}}}", "{}", "2");
    EXPECT_CODE("{$let: {vars: {x: 1}, in: '$$y'}}", "{}", 17276);
    EXPECT_CODE("{$let: {vars: {X: 1}, in: 1}}", "{}", 16867);
    EXPECT_CODE("{$let: {in: 1}}", "{}", 16876);
}

TEST(ExpressionSet, SetOperators) {
    EXPECT_EVAL("{$setUnion: [[1, 2], [2, 3]]}", "{}", "[1, 2, 3]");
    EXPECT_EVAL("{$setIntersection: [[1, 2, 3], [3, 2, 5]]}", "{}", "[2, 3]");
    EXPECT_EVAL("{$setDifference: [[1, 2, 3, 1], [2]]}", "{}", "[1, 3]");
    EXPECT_EVAL("{$setEquals: [[1, 2], [2, 1, 1]]}", "{}", "true");
    EXPECT_EVAL("{$setIsSubset: [[1], [1, 2]]}", "{}", "true");
    EXPECT_EVAL("{$allElementsTrue: [[1, true, 'a']]}", "{}", "true");
    EXPECT_EVAL("{$anyElementTrue: [[0, false]]}", "{}", "false");
    EXPECT_CODE("{$setUnion: [[1], 1]}", "{}", 17043);
    EXPECT_CODE("{$setEquals: [[1]]}", "{}", 17045);
    EXPECT_CODE("{$allElementsTrue: [1]}", "{}", 17040);
}

TEST(ExpressionObject, MergeAndConvertObjects) {
    EXPECT_EVAL("{$mergeObjects: [{a: 1, b: 1}, null, {b: 2, c: 3}]}", "{}", "{a: 1, b: 2, c: 3}");
    EXPECT_CODE("{$mergeObjects: [{a: 1}, 5]}", "{}", 40400);
    EXPECT_EVAL("{$objectToArray: {a: 1, b: 'x'}}", "{}", "[{k: 'a', v: 1}, {k: 'b', v: 'x'}]");
    EXPECT_EVAL("{$arrayToObject: [[['a', 1], ['b', 2]]]}", "{}", "{a: 1, b: 2}");
    EXPECT_EVAL("{$arrayToObject: [[{k: 'a', v: 1}]]}", "{}", "{a: 1}");
    EXPECT_CODE("{$arrayToObject: [[['a']]]}", "{}", 40396);
    EXPECT_CODE("{$objectToArray: 1}", "{}", 40390);
    EXPECT_EVAL("{$getField: 'a.b'}", "{'a.b': 4}", "4");
    EXPECT_EVAL("{$getField: {field: 'x', input: {x: 9}}}", "{}", "9");
    EXPECT_EVAL("{$setField: {field: 'y', input: {x: 1}, value: 2}}", "{}", "{x: 1, y: 2}");
    EXPECT_EVAL("{$unsetField: {field: 'x', input: {x: 1, y: 2}}}", "{}", "{y: 2}");
}

TEST(ExpressionType, TypeAndConversions) {
    EXPECT_EVAL("{$type: '$a'}", "{a: 1.5}", "'double'");
    EXPECT_EVAL("{$type: '$a'}", "{}", "'missing'");
    EXPECT_EVAL("{$toString: 5}", "{}", "'5'");
    EXPECT_EVAL("{$toString: 2.5}", "{}", "'2.5'");
    EXPECT_EVAL("{$toString: true}", "{}", "'true'");
    EXPECT_EVAL("{$toInt: '42'}", "{}", "42");
    EXPECT_EVAL("{$toInt: 4.9}", "{}", "4");
    EXPECT_EVAL("{$toLong: '42'}", "{}", "{$numberLong: '42'}");
    EXPECT_EVAL("{$toDouble: '1.5'}", "{}", "1.5");
    EXPECT_EVAL("{$toBool: 0}", "{}", "false");
    EXPECT_EVAL("{$toBool: 'false'}", "{}", "true");
    EXPECT_EVAL("{$toDate: {$numberLong: '0'}}", "{}", "{$date: {$numberLong: '0'}}");
    EXPECT_EVAL("{$toDate: '2020-01-02T03:04:05.006Z'}", "{}", "{$date: {$numberLong: '1577934245006'}}");
    EXPECT_EVAL("{$toObjectId: '5ab9cbfa31c2ab715d42129e'}", "{}", "{$oid: '5ab9cbfa31c2ab715d42129e'}");
    EXPECT_EVAL("{$toInt: null}", "{}", "null");
    EXPECT_CODE("{$toInt: 'abc'}", "{}", 241);
    EXPECT_CODE("{$toInt: 3000000000}", "{}", 241);
    EXPECT_CODE("{$toObjectId: 'zz'}", "{}", 241);
    EXPECT_EVAL("{$convert: {input: 'abc', to: 'int', onError: -1}}", "{}", "-1");
    EXPECT_EVAL("{$convert: {input: null, to: 'int', onNull: 0}}", "{}", "0");
    EXPECT_EVAL("{$convert: {input: 1, to: 2}}", "{}", "'1'");
    EXPECT_CODE("{$convert: {input: 1, to: 'bogus'}}", "{}", 2);
    EXPECT_CODE("{$convert: {input: 1}}", "{}", 9);
}

TEST(ExpressionDate, PartsFormattingAndTimezones) {
    // 2021-03-04T05:06:07.089Z is a Thursday.
    const char* doc = "{d: {$date: '2021-03-04T05:06:07.089Z'}}";
    EXPECT_EVAL("{$year: '$d'}", doc, "2021");
    EXPECT_EVAL("{$month: '$d'}", doc, "3");
    EXPECT_EVAL("{$dayOfMonth: '$d'}", doc, "4");
    EXPECT_EVAL("{$hour: '$d'}", doc, "5");
    EXPECT_EVAL("{$minute: '$d'}", doc, "6");
    EXPECT_EVAL("{$second: '$d'}", doc, "7");
    EXPECT_EVAL("{$millisecond: '$d'}", doc, "89");
    EXPECT_EVAL("{$dayOfWeek: '$d'}", doc, "5");
    EXPECT_EVAL("{$dayOfYear: '$d'}", doc, "63");
    EXPECT_EVAL("{$isoWeek: '$d'}", doc, "9");
    EXPECT_EVAL("{$hour: {date: '$d', timezone: '+02:30'}}", doc, "7");
    EXPECT_EVAL("{$hour: {date: '$d', timezone: 'America/New_York'}}", doc, "0");
    EXPECT_EVAL("{$year: null}", doc, "null");
    EXPECT_CODE("{$year: 'x'}", doc, 16006);
    EXPECT_CODE("{$hour: {date: '$d', timezone: 'Mars/Base'}}", doc, 40485);
    EXPECT_EVAL("{$dateToString: {date: '$d'}}", doc, "'2021-03-04T05:06:07.089Z'");
    EXPECT_EVAL("{$dateToString: {date: '$d', format: '%Y/%m/%d %H:%M:%S.%L %j %w %u'}}", doc,
                "'2021/03/04 05:06:07.089 063 5 4'");
    EXPECT_EVAL("{$dateToString: {date: '$d', format: '%H:%M %z', timezone: 'America/New_York'}}", doc,
                "'00:06 -0500'");
    EXPECT_EVAL("{$dateToString: {date: '$nope', onNull: 'none'}}", doc, "'none'");
    EXPECT_CODE("{$dateToString: {date: '$d', format: '%Q'}}", doc, 18536);
    EXPECT_EVAL("{$dateFromString: {dateString: '2021-03-04T05:06:07.089Z'}}", "{}",
                "{$date: '2021-03-04T05:06:07.089Z'}");
    EXPECT_EVAL("{$dateFromString: {dateString: '2021-03-04 05:06:07', timezone: '+01:00'}}", "{}",
                "{$date: '2021-03-04T04:06:07Z'}");
    EXPECT_EVAL("{$dateFromString: {dateString: '04/03/2021', format: '%d/%m/%Y'}}", "{}",
                "{$date: '2021-03-04T00:00:00Z'}");
    EXPECT_CODE("{$dateFromString: {dateString: 'garbage'}}", "{}", 241);
    EXPECT_EVAL("{$dateFromParts: {year: 2021, month: 14, day: 1}}", "{}", "{$date: '2022-02-01T00:00:00Z'}");
    EXPECT_EVAL("{$dateToParts: {date: '$d'}}", doc,
                "{year: 2021, month: 3, day: 4, hour: 5, minute: 6, second: 7, millisecond: 89}");
    EXPECT_EVAL("{$dateAdd: {startDate: '$d', unit: 'month', amount: 1}}", doc, "{$date: '2021-04-04T05:06:07.089Z'}");
    EXPECT_EVAL("{$dateDiff: {startDate: {$date: '2021-01-01T00:00:00Z'}, endDate: '$d', unit: 'day'}}", doc, "{$numberLong: '62'}");
    EXPECT_EVAL("{$dateTrunc: {date: '$d', unit: 'hour'}}", doc, "{$date: '2021-03-04T05:00:00Z'}");
}

TEST(ExpressionAccumulatorForms, SumAvgMinMaxOverArrays) {
    EXPECT_EVAL("{$sum: '$a'}", "{a: [1, 2, 'x', 3]}", "6");
    EXPECT_EVAL("{$sum: [1, 2.5]}", "{}", "3.5");
    EXPECT_EVAL("{$avg: [1, 2]}", "{}", "1.5");
    EXPECT_EVAL("{$avg: '$nope'}", "{}", "null");
    EXPECT_EVAL("{$max: [1, 5, 3]}", "{}", "5");
    EXPECT_EVAL("{$min: '$a'}", "{a: [4, null, 2]}", "2");
    EXPECT_EVAL("{$stdDevPop: [[1, 3]]}", "{}", "1.0");
}

TEST(AggregationExpression, LetVariablesAndTruthiness) {
    BSONObj e = test::J("{e: {$gt: ['$a', '$$limit']}}");
    AggregationExpression ae(e.firstElement(), test::J("{limit: 3}"));
    EXPECT_TRUE(ae.evaluateTruthy(test::J("{a: 4}")));
    EXPECT_FALSE(ae.evaluateTruthy(test::J("{a: 2}")));
}

}  // namespace
}  // namespace mongo
