#include <gtest/gtest.h>

#include "mongo/db/pipeline/pipeline_test_util.h"

namespace mongo {
namespace {

using test::A;
using test::errorCode;
using test::J;
using test::run;
using test::str;

#define EXPECT_RUN(pipeline, docs, expected) EXPECT_EQ(str(run(pipeline, docs)), str(expected)) << pipeline
#define EXPECT_PIPELINE_CODE(pipeline, docs, code) \
    EXPECT_EQ(errorCode([&] { run(pipeline, docs); }), code) << pipeline

const char* kPeople =
    "[{_id: 1, name: 'ann', age: 30, city: 'x', tags: ['a', 'b']},"
    " {_id: 2, name: 'bob', age: 25, city: 'y', tags: []},"
    " {_id: 3, name: 'cat', age: 35, city: 'x'},"
    " {_id: 4, name: 'dan', age: 25, city: 'z', tags: 'solo'}]";

TEST(PipelineParse, StageShapeErrors) {
    EXPECT_PIPELINE_CODE("[{$foo: 1}]", "[]", 40324);
    EXPECT_PIPELINE_CODE("[{$match: {}, $sort: {a: 1}}]", "[]", 40323);
    EXPECT_PIPELINE_CODE("[{}]", "[]", 40323);
    EXPECT_PIPELINE_CODE("[{$project: {a: {$foo: 1}}}]", "[]", 31325);
    EXPECT_PIPELINE_CODE("[{$addFields: {a: {$foo: 1}}}]", "[]", 168);
}

TEST(PipelineEmpty, PassesDocumentsThrough) { EXPECT_RUN("[]", "[{a: 1}, {a: 2}]", "[{a: 1}, {a: 2}]"); }

TEST(StageMatch, FiltersWithTheMatcher) {
    EXPECT_RUN("[{$match: {age: {$gte: 30}}}]", kPeople,
               "[{_id: 1, name: 'ann', age: 30, city: 'x', tags: ['a', 'b']}, {_id: 3, name: 'cat', age: 35, city: 'x'}]");
    EXPECT_RUN("[{$match: {tags: 'b'}}, {$project: {_id: 1}}]", kPeople, "[{_id: 1}]");
    EXPECT_PIPELINE_CODE("[{$match: 1}]", "[]", 15959);
    EXPECT_PIPELINE_CODE("[{$match: {a: {$bogus: 1}}}]", "[]", 2);
}

TEST(StageMatch, ExprUsesAggregationExpressions) {
    EXPECT_RUN("[{$match: {$expr: {$gt: ['$a', '$b']}}}]", "[{a: 2, b: 1}, {a: 1, b: 2}]", "[{a: 2, b: 1}]");
    EXPECT_RUN("[{$match: {c: 1, $expr: {$eq: ['$a', 1]}}}]", "[{a: 1, c: 1}, {a: 1, c: 2}, {a: 2, c: 1}]",
               "[{a: 1, c: 1}]");
    EXPECT_RUN("[{$match: {$or: [{c: 2}, {$expr: {$eq: ['$a', 2]}}]}}]", "[{a: 1, c: 1}, {a: 1, c: 2}, {a: 2, c: 1}]",
               "[{a: 1, c: 2}, {a: 2, c: 1}]");
}

TEST(StageProject, InclusionKeepsDocumentOrderAndId) {
    EXPECT_RUN("[{$project: {name: 1, age: 1}}]", "[{age: 1, _id: 7, x: 1, name: 'n'}]", "[{age: 1, _id: 7, name: 'n'}]");
    EXPECT_RUN("[{$project: {_id: 0, name: 1}}]", "[{_id: 7, name: 'n'}]", "[{name: 'n'}]");
    EXPECT_RUN("[{$project: {_id: 1}}]", "[{_id: 7, name: 'n'}]", "[{_id: 7}]");
}

TEST(StageProject, ComputedFieldsFollowInSpecOrder) {
    EXPECT_RUN("[{$project: {b: 1, sum: {$add: ['$a', '$b']}, lit: 'x', a: 1}}]", "[{_id: 1, a: 1, b: 2}]",
               "[{_id: 1, a: 1, b: 2, sum: 3, lit: 'x'}]");
    EXPECT_RUN("[{$project: {a: '$$REMOVE', b: 1}}]", "[{_id: 1, a: 1, b: 2}]", "[{_id: 1, b: 2}]");
    EXPECT_RUN("[{$project: {_id: 0, 'a.b': {$literal: 1}}}]", "[{a: 5}]", "[{a: {b: 1}}]");
}

TEST(StageProject, NestedPathsAndArrays) {
    EXPECT_RUN("[{$project: {'a.b': 1}}]", "[{_id: 1, a: [{b: 1, c: 2}, 3, {c: 4}, [{b: 5}]]}]",
               "[{_id: 1, a: [{b: 1}, {}, [{b: 5}]]}]");
    EXPECT_RUN("[{$project: {a: {b: 1}}}]", "[{_id: 1, a: {b: 1, c: 2}}]", "[{_id: 1, a: {b: 1}}]");
    EXPECT_RUN("[{$project: {'a.c': 0}}]", "[{_id: 1, a: [{b: 1, c: 2}, 3]}]", "[{_id: 1, a: [{b: 1}, 3]}]");
}

TEST(StageProject, ExclusionAndErrors) {
    EXPECT_RUN("[{$project: {x: 0, _id: 0}}]", "[{_id: 1, x: 1, y: 2}]", "[{y: 2}]");
    EXPECT_RUN("[{$project: {_id: 0}}]", "[{_id: 1, y: 2}]", "[{y: 2}]");
    EXPECT_PIPELINE_CODE("[{$project: {}}]", "[]", 51272);
    EXPECT_PIPELINE_CODE("[{$project: {a: 1, b: 0}}]", "[]", 31254);
    EXPECT_PIPELINE_CODE("[{$project: {a: 0, b: 1}}]", "[]", 31253);
    EXPECT_PIPELINE_CODE("[{$project: {a: 0, b: 'x'}}]", "[]", 31310);
    EXPECT_PIPELINE_CODE("[{$project: {a: {}}}]", "[]", 51270);
    EXPECT_PIPELINE_CODE("[{$project: {a: 1, 'a.b': 1}}]", "[]", 31249);
    EXPECT_PIPELINE_CODE("[{$project: 1}]", "[]", 15969);
    EXPECT_PIPELINE_CODE("[{$project: {'$a': 1}}]", "[]", 16410);
    try {
        run("[{$project: {a: 1, b: 0}}]", "[]");
        FAIL();
    } catch (const DBException& e) {
        EXPECT_EQ(e.reason(), "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection");
    }
}

TEST(StageAddFields, AddsReplacesAndMergesNestedFields) {
    EXPECT_RUN("[{$addFields: {c: {$add: ['$a', 1]}, a: 'new'}}]", "[{_id: 1, a: 1, b: 2}]", "[{_id: 1, a: 'new', b: 2, c: 2}]");
    EXPECT_RUN("[{$set: {'x.y': 1}}]", "[{_id: 1, x: {z: 2}}]", "[{_id: 1, x: {z: 2, y: 1}}]");
    EXPECT_RUN("[{$set: {x: {y: 1}}}]", "[{_id: 1, x: {z: 2}}]", "[{_id: 1, x: {z: 2, y: 1}}]");
    EXPECT_RUN("[{$set: {'x.y': 1}}]", "[{_id: 1, x: [{z: 1}, 5]}]", "[{_id: 1, x: [{z: 1, y: 1}, {y: 1}]}]");
    EXPECT_RUN("[{$set: {e: {}}}]", "[{_id: 1}]", "[{_id: 1, e: {}}]");
    EXPECT_RUN("[{$addFields: {a: '$$REMOVE'}}]", "[{_id: 1, a: 1, b: 1}]", "[{_id: 1, b: 1}]");
    EXPECT_PIPELINE_CODE("[{$addFields: {}}]", "[]", 40177);
    EXPECT_PIPELINE_CODE("[{$addFields: 1}]", "[]", 40272);
    EXPECT_PIPELINE_CODE("[{$set: {a: 1, 'a.b': 2}}]", "[]", 40176);
    EXPECT_PIPELINE_CODE("[{$set: {a: {'b.c': 1}}}]", "[]", 40183);
}

TEST(StageUnset, RemovesFields) {
    EXPECT_RUN("[{$unset: 'a'}]", "[{_id: 1, a: 1, b: 2}]", "[{_id: 1, b: 2}]");
    EXPECT_RUN("[{$unset: ['a.x', 'b']}]", "[{_id: 1, a: {x: 1, y: 1}, b: 2}]", "[{_id: 1, a: {y: 1}}]");
    EXPECT_PIPELINE_CODE("[{$unset: 1}]", "[]", 31002);
    EXPECT_PIPELINE_CODE("[{$unset: [1]}]", "[]", 31120);
}

TEST(StageSort, SortsWithSortPatternAndStaysStable) {
    EXPECT_RUN("[{$sort: {age: 1, name: -1}}, {$project: {_id: 1}}]", kPeople, "[{_id: 4}, {_id: 2}, {_id: 1}, {_id: 3}]");
    EXPECT_RUN("[{$sort: {missing: 1}}, {$project: {_id: 1}}]", "[{_id: 1}, {_id: 2}]", "[{_id: 1}, {_id: 2}]");
    EXPECT_PIPELINE_CODE("[{$sort: 1}]", "[]", 15973);
    EXPECT_PIPELINE_CODE("[{$sort: {}}]", "[]", 15976);
}

TEST(StageSort, TopKWithFollowingLimitAndSkip) {
    std::string docs = "[";
    for (int i = 0; i < 50; i++) docs += (i ? "," : "") + std::string("{v: ") + std::to_string((i * 37) % 50) + "}";
    docs += "]";
    EXPECT_RUN("[{$sort: {v: -1}}, {$limit: 3}]", docs, "[{v: 49}, {v: 48}, {v: 47}]");
    EXPECT_RUN("[{$sort: {v: 1}}, {$skip: 2}, {$limit: 2}]", docs, "[{v: 2}, {v: 3}]");
}

TEST(StageLimitSkip, ValidatesArguments) {
    EXPECT_RUN("[{$skip: 1}, {$limit: 2}]", "[{a: 1}, {a: 2}, {a: 3}, {a: 4}]", "[{a: 2}, {a: 3}]");
    EXPECT_RUN("[{$skip: 10}]", "[{a: 1}]", "[]");
    EXPECT_PIPELINE_CODE("[{$limit: 0}]", "[]", 15958);
    EXPECT_PIPELINE_CODE("[{$limit: -1}]", "[]", 15958);
    EXPECT_PIPELINE_CODE("[{$limit: 'a'}]", "[]", 15957);
    EXPECT_PIPELINE_CODE("[{$skip: -1}]", "[]", 15956);
    EXPECT_PIPELINE_CODE("[{$skip: 'a'}]", "[]", 15972);
}

TEST(StageGroup, IdFirstThenAccumulatorsInSpecOrder) {
    EXPECT_RUN("[{$group: {_id: '$city', n: {$sum: 1}, total: {$sum: '$age'}, avg: {$avg: '$age'}, names: {$push: '$name'}}}]",
               kPeople,
               "[{_id: 'x', n: 2, total: 65, avg: 32.5, names: ['ann', 'cat']},"
               " {_id: 'y', n: 1, total: 25, avg: 25.0, names: ['bob']},"
               " {_id: 'z', n: 1, total: 25, avg: 25.0, names: ['dan']}]");
}

TEST(StageGroup, NullMissingAndCompoundIds) {
    EXPECT_RUN("[{$group: {_id: '$k', n: {$count: {}}}}]", "[{k: null}, {}, {k: 1}]", "[{_id: null, n: 2}, {_id: 1, n: 1}]");
    EXPECT_RUN("[{$group: {_id: {a: '$a', b: '$b'}, n: {$sum: 1}}}]", "[{a: 1, b: 2}, {a: 1, b: 2}, {a: 1}]",
               "[{_id: {a: 1, b: 2}, n: 2}, {_id: {a: 1}, n: 1}]");
    EXPECT_RUN("[{$group: {_id: null, n: {$sum: 1}}}]", "[{a: 1}, {a: 2}]", "[{_id: null, n: 2}]");
    EXPECT_RUN("[{$group: {_id: '$a'}}]", "[{a: 1}, {a: 1.0}, {a: 2}]", "[{_id: 1}, {_id: 2}]");
    EXPECT_RUN("[{$group: {_id: null}}]", "[]", "[]");
}

TEST(StageGroup, Accumulators) {
    const char* docs = "[{g: 1, v: 3, o: {a: 1}}, {g: 1, v: 1, o: {b: 2}}, {g: 1, v: null}, {g: 1, v: 'x', o: {a: 3}}]";
    EXPECT_RUN("[{$group: {_id: '$g', min: {$min: '$v'}, max: {$max: '$v'}, first: {$first: '$v'}, last: {$last: '$v'},"
               " set: {$addToSet: '$v'}, merged: {$mergeObjects: '$o'}, sum: {$sum: '$v'}}}]",
               docs, "[{_id: 1, min: 1, max: 'x', first: 3, last: 'x', set: [3, 1, null, 'x'], merged: {a: 3, b: 2}, sum: 4}]");
    EXPECT_RUN("[{$group: {_id: null, pop: {$stdDevPop: '$v'}, samp: {$stdDevSamp: '$v'}}}]", "[{v: 1}, {v: 3}]",
               "[{_id: null, pop: 1.0, samp: 1.4142135623730951}]");
    EXPECT_RUN("[{$group: {_id: null, f: {$first: '$nope'}, m: {$max: '$nope'}, a: {$avg: '$nope'}, p: {$push: '$nope'}}}]",
               "[{v: 1}]", "[{_id: null, f: null, m: null, a: null, p: []}]");
    EXPECT_RUN("[{$group: {_id: null, top: {$top: {sortBy: {v: -1}, output: '$n'}}, bn: {$bottomN: {n: 2, sortBy: {v: -1}, output: '$n'}},"
               " fn: {$firstN: {n: 2, input: '$n'}}, mx: {$maxN: {n: 2, input: '$v'}}}}]",
               "[{n: 'a', v: 2}, {n: 'b', v: 3}, {n: 'c', v: 1}]",
               "[{_id: null, top: 'b', bn: ['a', 'c'], fn: ['a', 'b'], mx: [3, 2]}]");
    EXPECT_RUN("[{$group: {_id: null, s: {$sum: '$v'}}}]", "[{v: 2147483647}, {v: 1}]",
               "[{_id: null, s: {$numberLong: '2147483648'}}]");
}

TEST(StageGroup, SpecErrors) {
    EXPECT_PIPELINE_CODE("[{$group: {n: {$sum: 1}}}]", "[]", 15955);
    EXPECT_PIPELINE_CODE("[{$group: 1}]", "[]", 15947);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, n: 1}}]", "[]", 40234);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, n: {$sum: 1, $max: 1}}}]", "[]", 40238);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, n: {$foo: 1}}}]", "[]", 15952);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, n: {$sum: [1, 2]}}}]", "[]", 40237);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, 'a.b': {$sum: 1}}}]", "[]", 40235);
    EXPECT_PIPELINE_CODE("[{$group: {_id: 1, n: {$count: 1}}}]", "[]", 14);
}

TEST(StageUnwind, StringAndObjectForms) {
    EXPECT_RUN("[{$unwind: '$tags'}, {$project: {_id: 1, tags: 1}}]", kPeople,
               "[{_id: 1, tags: 'a'}, {_id: 1, tags: 'b'}, {_id: 4, tags: 'solo'}]");
    EXPECT_RUN("[{$unwind: {path: '$tags', includeArrayIndex: 'i', preserveNullAndEmptyArrays: true}},"
               " {$project: {_id: 1, tags: 1, i: 1}}]",
               kPeople,
               "[{_id: 1, tags: 'a', i: {$numberLong: '0'}}, {_id: 1, tags: 'b', i: {$numberLong: '1'}},"
               " {_id: 2, i: null}, {_id: 3, i: null}, {_id: 4, tags: 'solo', i: null}]");
    EXPECT_RUN("[{$unwind: '$a.b'}]", "[{a: {b: [1, 2], c: 3}}]", "[{a: {b: 1, c: 3}}, {a: {b: 2, c: 3}}]");
    EXPECT_RUN("[{$unwind: {path: '$a', preserveNullAndEmptyArrays: true}}]", "[{a: null}, {a: []}]", "[{a: null}, {}]");
}

TEST(StageUnwind, SpecErrors) {
    EXPECT_PIPELINE_CODE("[{$unwind: 'tags'}]", "[]", 28818);
    EXPECT_PIPELINE_CODE("[{$unwind: 1}]", "[]", 15981);
    EXPECT_PIPELINE_CODE("[{$unwind: {}}]", "[]", 28812);
    EXPECT_PIPELINE_CODE("[{$unwind: {path: 1}}]", "[]", 28808);
    EXPECT_PIPELINE_CODE("[{$unwind: {path: '$a', preserveNullAndEmptyArrays: 1}}]", "[]", 28809);
    EXPECT_PIPELINE_CODE("[{$unwind: {path: '$a', includeArrayIndex: '$i'}}]", "[]", 28822);
    EXPECT_PIPELINE_CODE("[{$unwind: {path: '$a', foo: 1}}]", "[]", 28811);
}

TEST(StageCount, CountsOrProducesNothing) {
    EXPECT_RUN("[{$count: 'n'}]", "[{a: 1}, {a: 2}]", "[{n: 2}]");
    EXPECT_RUN("[{$count: 'n'}]", "[]", "[]");
    EXPECT_PIPELINE_CODE("[{$count: ''}]", "[]", 40156);
    EXPECT_PIPELINE_CODE("[{$count: '$n'}]", "[]", 40157);
    EXPECT_PIPELINE_CODE("[{$count: 'a.b'}]", "[]", 40158);
}

TEST(StageReplaceRoot, PromotesSubdocuments) {
    EXPECT_RUN("[{$replaceRoot: {newRoot: '$a'}}]", "[{a: {x: 1}}]", "[{x: 1}]");
    EXPECT_RUN("[{$replaceWith: {$mergeObjects: [{d: 0}, '$a']}}]", "[{a: {x: 1}}]", "[{d: 0, x: 1}]");
    EXPECT_PIPELINE_CODE("[{$replaceRoot: {newRoot: '$a'}}]", "[{a: 1}]", 40228);
    EXPECT_PIPELINE_CODE("[{$replaceRoot: {}}]", "[]", 40231);
    EXPECT_PIPELINE_CODE("[{$replaceRoot: {newRoot: '$a', x: 1}}]", "[]", 40230);
}

TEST(StageSortByCount, GroupsAndSortsByCountDescending) {
    EXPECT_RUN("[{$sortByCount: '$city'}]", kPeople, "[{_id: 'x', count: 2}, {_id: 'y', count: 1}, {_id: 'z', count: 1}]");
    EXPECT_PIPELINE_CODE("[{$sortByCount: 'city'}]", "[]", 40148);
    EXPECT_PIPELINE_CODE("[{$sortByCount: 1}]", "[]", 40149);
}

TEST(StageSample, ReturnsDistinctRandomDocuments) {
    auto out = run("[{$sample: {size: 2}}]", "[{_id: 1}, {_id: 2}, {_id: 3}, {_id: 4}]");
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NE(out[0]["_id"].numberInt(), out[1]["_id"].numberInt());
    EXPECT_EQ(run("[{$sample: {size: 10}}]", "[{_id: 1}, {_id: 2}]").size(), 2u);
    EXPECT_PIPELINE_CODE("[{$sample: {size: -1}}]", "[]", 28747);
    EXPECT_PIPELINE_CODE("[{$sample: {}}]", "[]", 28749);
}

TEST(StageLookup, LocalForeignEqualityWithArrays) {
    std::map<std::string, std::vector<BSONObj>> colls{
        {"inv", A("[{_id: 10, sku: 'a', qty: 1}, {_id: 11, sku: 'b', qty: 2}, {_id: 12, sku: ['a', 'c']}, {_id: 13}]")}};
    auto out = run("[{$lookup: {from: 'inv', localField: 'item', foreignField: 'sku', as: 'inv'}}, {$project: {'inv._id': 1}}]",
                   "[{_id: 1, item: 'a'}, {_id: 2, item: ['b', 'c']}, {_id: 3}]", colls);
    EXPECT_EQ(str(out), str("[{_id: 1, inv: [{_id: 10}, {_id: 12}]}, {_id: 2, inv: [{_id: 11}, {_id: 12}]},"
                            " {_id: 3, inv: [{_id: 13}]}]"));
    EXPECT_EQ(str(run("[{$lookup: {from: 'nope', localField: 'a', foreignField: 'a', as: 'r'}}]", "[{a: 1}]")),
              str("[{a: 1, r: []}]"));
}

TEST(StageLookup, PipelineWithLetAndExpr) {
    std::map<std::string, std::vector<BSONObj>> colls{{"o", A("[{k: 1, v: 'x'}, {k: 2, v: 'y'}, {k: 1, v: 'z'}]")}};
    auto out = run("[{$lookup: {from: 'o', let: {key: '$k'}, pipeline: [{$match: {$expr: {$eq: ['$k', '$$key']}}},"
                   " {$project: {_id: 0, v: 1}}], as: 'm'}}]",
                   "[{k: 1}, {k: 2}, {k: 3}]", colls);
    EXPECT_EQ(str(out), str("[{k: 1, m: [{v: 'x'}, {v: 'z'}]}, {k: 2, m: [{v: 'y'}]}, {k: 3, m: []}]"));
    auto uncorrelated = run("[{$lookup: {from: 'o', pipeline: [{$count: 'n'}], as: 'c'}}]", "[{a: 1}, {a: 2}]", colls);
    EXPECT_EQ(str(uncorrelated), str("[{a: 1, c: [{n: 3}]}, {a: 2, c: [{n: 3}]}]"));
}

TEST(StageLookup, SpecErrors) {
    EXPECT_PIPELINE_CODE("[{$lookup: 1}]", "[]", 9);
    EXPECT_PIPELINE_CODE("[{$lookup: {from: 'a', localField: 'x', foreignField: 'y'}}]", "[]", 9);
    EXPECT_PIPELINE_CODE("[{$lookup: {from: 'a', as: 'x'}}]", "[]", 9);
    EXPECT_PIPELINE_CODE("[{$lookup: {from: 'a', as: 'x', localField: 1, foreignField: 'y'}}]", "[]", 9);
    EXPECT_PIPELINE_CODE("[{$lookup: {from: 'a', as: 'x', bogus: 'y'}}]", "[]", 9);
    EXPECT_PIPELINE_CODE("[{$lookup: {from: 'a', as: 'x', pipeline: [{$out: 'b'}]}}]", "[]", 51047);
}

TEST(StageFacet, RunsEachSubPipelineOverTheSameInput) {
    EXPECT_RUN("[{$facet: {n: [{$count: 'c'}], big: [{$match: {a: {$gt: 1}}}, {$project: {_id: 0, a: 1}}]}}]",
               "[{a: 1}, {a: 2}, {a: 3}]", "[{n: [{c: 3}], big: [{a: 2}, {a: 3}]}]");
    EXPECT_PIPELINE_CODE("[{$facet: {}}]", "[]", 40169);
    EXPECT_PIPELINE_CODE("[{$facet: {a: 1}}]", "[]", 40170);
    EXPECT_PIPELINE_CODE("[{$facet: {a: [{$facet: {b: []}}]}}]", "[]", 40600);
}

TEST(StageBucket, GroupsIntoBoundaries) {
    EXPECT_RUN("[{$bucket: {groupBy: '$v', boundaries: [0, 10, 20], default: 'other'}}]",
               "[{v: 5}, {v: 15}, {v: 1}, {v: 25}, {v: 'x'}]",
               "[{_id: 0, count: 2}, {_id: 10, count: 1}, {_id: 'other', count: 2}]");
    EXPECT_RUN("[{$bucket: {groupBy: '$v', boundaries: [0, 10], output: {vals: {$push: '$v'}}}}]", "[{v: 5}, {v: 1}]",
               "[{_id: 0, vals: [5, 1]}]");
    EXPECT_PIPELINE_CODE("[{$bucket: {groupBy: '$v', boundaries: [0, 10]}}]", "[{v: 50}]", 40066);
    EXPECT_PIPELINE_CODE("[{$bucket: {groupBy: '$v', boundaries: [10, 0]}}]", "[]", 40194);
    EXPECT_PIPELINE_CODE("[{$bucket: {groupBy: '$v', boundaries: [0]}}]", "[]", 40192);
    EXPECT_PIPELINE_CODE("[{$bucket: {groupBy: '$v', boundaries: [0, 'a']}}]", "[]", 40193);
    EXPECT_PIPELINE_CODE("[{$bucket: {groupBy: '$v', boundaries: [0, 10], default: 5}}]", "[]", 40199);
}

TEST(StageBucketAuto, EvenBuckets) {
    EXPECT_RUN("[{$bucketAuto: {groupBy: '$v', buckets: 2}}]", "[{v: 4}, {v: 1}, {v: 3}, {v: 2}]",
               "[{_id: {min: 1, max: 3}, count: 2}, {_id: {min: 3, max: 4}, count: 2}]");
}

TEST(StageUnionWith, AppendsOtherCollection) {
    std::map<std::string, std::vector<BSONObj>> colls{{"other", A("[{b: 1}, {b: 2}]")}};
    EXPECT_EQ(str(run("[{$unionWith: 'other'}]", "[{a: 1}]", colls)), str("[{a: 1}, {b: 1}, {b: 2}]"));
    EXPECT_EQ(str(run("[{$unionWith: {coll: 'other', pipeline: [{$match: {b: 2}}]}}]", "[{a: 1}]", colls)),
              str("[{a: 1}, {b: 2}]"));
}

TEST(StageDocuments, ProducesLiteralDocuments) {
    EXPECT_RUN("[{$documents: [{x: 1}, {x: 2}]}, {$match: {x: 2}}]", "[{ignored: 1}]", "[{x: 2}]");
    EXPECT_PIPELINE_CODE("[{$match: {}}, {$documents: [{x: 1}]}]", "[]", 73);
}

TEST(StageRedact, DescendPruneKeep) {
    EXPECT_RUN("[{$redact: {$cond: [{$eq: ['$level', 5]}, '$$PRUNE', '$$DESCEND']}}]",
               "[{_id: 1, level: 1, sub: {level: 5, x: 1}, arr: [{level: 5}, {level: 2, y: 1}]}]",
               "[{_id: 1, level: 1, arr: [{level: 2, y: 1}]}]");
}

TEST(StageOut, UsesTheWriteHookOrFails) {
    EXPECT_PIPELINE_CODE("[{$out: 'x'}]", "[]", 238);
    EXPECT_PIPELINE_CODE("[{$out: 'x'}, {$match: {}}]", "[]", 40601);
    std::vector<BSONObj> written;
    BSONObj stage;
    PipelineContext ctx;
    ctx.writeOutput = [&](const BSONObj& s, const std::vector<BSONObj>& docs) {
        stage = s.getOwned();
        written = docs;
    };
    auto out = run("[{$match: {a: {$gt: 1}}}, {$out: 'dest'}]", "[{a: 1}, {a: 2}]", {}, ctx);
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(str(written), str("[{a: 2}]"));
    EXPECT_EQ(stage.jsonString(true), J("{$out: 'dest'}").jsonString(true));
}

TEST(StageGraphLookup, FollowsEdgesWithDepth) {
    std::map<std::string, std::vector<BSONObj>> colls{
        {"emp", A("[{_id: 1, name: 'a', boss: null}, {_id: 2, name: 'b', boss: 'a'}, {_id: 3, name: 'c', boss: 'b'},"
                  " {_id: 4, name: 'd', boss: 'c'}]")}};
    auto out = run("[{$graphLookup: {from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name',"
                   " as: 'chain', depthField: 'depth', maxDepth: 1}}, {$project: {chain: {$map: {input: '$chain', in:"
                   " ['$$this.name', '$$this.depth']}}}}]",
                   "[{_id: 9, boss: 'c'}]", colls);
    EXPECT_EQ(str(out), str("[{_id: 9, chain: [['c', {$numberLong: '0'}], ['b', {$numberLong: '1'}]]}]"));
    auto all = run("[{$graphLookup: {from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name',"
                   " as: 'chain', restrictSearchWithMatch: {_id: {$ne: 1}}}}, {$project: {n: {$size: '$chain'}}}]",
                   "[{_id: 9, boss: 'c'}]", colls);
    EXPECT_EQ(str(all), str("[{_id: 9, n: 2}]"));
    EXPECT_PIPELINE_CODE("[{$graphLookup: {from: 'emp', startWith: '$a', connectFromField: 'a', as: 'x'}}]", "[]", 40105);
    EXPECT_PIPELINE_CODE("[{$graphLookup: {from: 'emp', startWith: '$a', connectFromField: 'a', connectToField: 'b',"
                         " as: 'x', maxDepth: -1}}]", "[]", 40101);
}

TEST(StageSetWindowFields, RunningTotalsRanksAndShift) {
    const char* docs = "[{g: 'a', t: 1, v: 10}, {g: 'b', t: 1, v: 1}, {g: 'a', t: 2, v: 20}, {g: 'a', t: 3, v: 20},"
                       " {g: 'b', t: 2, v: 2}]";
    EXPECT_RUN("[{$setWindowFields: {partitionBy: '$g', sortBy: {t: 1}, output: {run: {$sum: '$v', window: {documents:"
               " ['unbounded', 'current']}}, tot: {$sum: '$v'}, r: {$rank: {}}, prev: {$shift: {output: '$v', by: -1,"
               " default: 0}}}}}, {$project: {_id: 0, g: 1, t: 1, run: 1, tot: 1, r: 1, prev: 1}}]",
               docs,
               "[{g: 'a', t: 1, run: 10, tot: 50, r: 1, prev: 0}, {g: 'a', t: 2, run: 30, tot: 50, r: 2, prev: 10},"
               " {g: 'a', t: 3, run: 50, tot: 50, r: 3, prev: 20}, {g: 'b', t: 1, run: 1, tot: 3, r: 1, prev: 0},"
               " {g: 'b', t: 2, run: 3, tot: 3, r: 2, prev: 1}]");
    EXPECT_RUN("[{$setWindowFields: {sortBy: {v: 1}, output: {dr: {$denseRank: {}}, avg: {$avg: {$sum: ['$v']},"
               " window: {documents: [-1, 1]}}, near: {$push: '$v', window: {range: [-5, 5]}}}}},"
               " {$project: {_id: 0, v: 1, dr: 1, avg: 1, near: 1}}]",
               "[{v: 20}, {v: 10}, {v: 20}]",
               "[{v: 10, dr: 1, avg: 15.0, near: [10]}, {v: 20, dr: 2, avg: 16.666666666666668, near: [20, 20]},"
               " {v: 20, dr: 2, avg: 20.0, near: [20, 20]}]");
    EXPECT_PIPELINE_CODE("[{$setWindowFields: {output: {r: {$rank: {}}}}}]", "[]", 5371601);
    EXPECT_PIPELINE_CODE("[{$setWindowFields: {sortBy: {a: 1}}}]", "[]", 40414);
    EXPECT_PIPELINE_CODE("[{$setWindowFields: {output: {x: {$bogus: 1}}}}]", "[]", 9);
}

TEST(StageFill, ValueLocfAndLinear) {
    EXPECT_RUN("[{$fill: {sortBy: {t: 1}, output: {a: {value: 0}, b: {method: 'locf'}, c: {method: 'linear'}}}},"
               " {$project: {_id: 0, t: 1, a: 1, b: 1, c: 1}}]",
               "[{t: 1, a: 1, b: 'x', c: 10}, {t: 2, b: null, c: null}, {t: 4, a: null, c: 40}, {t: 5}]",
               "[{t: 1, a: 1, b: 'x', c: 10}, {t: 2, b: 'x', c: 20.0, a: 0}, {t: 4, a: 0, c: 40, b: 'x'},"
               " {t: 5, b: 'x', c: null, a: 0}]");
    EXPECT_PIPELINE_CODE("[{$fill: {output: {c: {method: 'linear'}}}}]", "[]", 6050201);
    EXPECT_PIPELINE_CODE("[{$fill: {output: {c: {method: 'bogus'}}}}]", "[]", 6050202);
    EXPECT_PIPELINE_CODE("[{$fill: {sortBy: {t: 1}}}]", "[]", 40414);
}

TEST(StageDensify, FillsNumericAndDateGaps) {
    EXPECT_RUN("[{$densify: {field: 'v', range: {step: 3, bounds: [0, 10]}}}, {$project: {_id: 0}}]",
               "[{v: 4, x: 1}, {v: 12}, {}]", "[{}, {v: 0}, {v: 3}, {v: 4, x: 1}, {v: 6}, {v: 9}, {v: 12}]");
    EXPECT_RUN("[{$densify: {field: 'v', partitionByFields: ['p'], range: {step: 1, bounds: 'partition'}}}]",
               "[{p: 'a', v: 1}, {p: 'a', v: 3}, {p: 'b', v: 5}]",
               "[{p: 'a', v: 1}, {p: 'a', v: 2}, {p: 'a', v: 3}, {p: 'b', v: 5}]");
    EXPECT_RUN("[{$densify: {field: 'v', partitionByFields: ['p'], range: {step: 1, bounds: 'full'}}}]",
               "[{p: 'a', v: 1}, {p: 'b', v: 3}]",
               "[{p: 'a', v: 1}, {p: 'a', v: 2}, {p: 'a', v: 3}, {p: 'b', v: 1}, {p: 'b', v: 2}, {p: 'b', v: 3}]");
    EXPECT_RUN("[{$densify: {field: 'd', range: {step: 1, unit: 'day', bounds: 'full'}}}]",
               "[{d: {$date: '2021-01-01T00:00:00Z'}}, {d: {$date: '2021-01-03T00:00:00Z'}}]",
               "[{d: {$date: '2021-01-01T00:00:00Z'}}, {d: {$date: '2021-01-02T00:00:00Z'}},"
               " {d: {$date: '2021-01-03T00:00:00Z'}}]");
    // A month after January 31st is February 28th (the day is clamped, as $dateAdd does).
    EXPECT_RUN("[{$densify: {field: 'd', range: {step: 1, unit: 'month', bounds: 'full'}}}, {$limit: 2}]",
               "[{d: {$date: '2021-01-31T00:00:00Z'}}, {d: {$date: '2021-05-31T00:00:00Z'}}]",
               "[{d: {$date: '2021-01-31T00:00:00Z'}}, {d: {$date: '2021-02-28T00:00:00Z'}}]");
    EXPECT_PIPELINE_CODE("[{$densify: {field: 'v', range: {step: 0, bounds: 'full'}}}]", "[]", 5733401);
    EXPECT_PIPELINE_CODE("[{$densify: {field: 'v', range: {step: 1, bounds: 'full'}}}]", "[{v: 'x'}]", 5733201);
    EXPECT_PIPELINE_CODE("[{$densify: {range: {step: 1, bounds: 'full'}}}]", "[]", 40414);
}

TEST(StageServerSource, UsesTheServerHook) {
    EXPECT_PIPELINE_CODE("[{$collStats: {}}]", "[]", 238);
    EXPECT_PIPELINE_CODE("[{$changeStream: {}}]", "[]", 40573);
    EXPECT_PIPELINE_CODE("[{$match: {}}, {$indexStats: {}}]", "[]", 40602);
    PipelineContext ctx;
    ctx.serverSourceStage = [](const BSONObj& stage) -> std::function<std::optional<BSONObj>()> {
        auto sent = std::make_shared<bool>(false);
        BSONObj out = BSONObjBuilder().append("stage", stage.firstElementFieldName()).obj();
        return [sent, out]() -> std::optional<BSONObj> {
            if (*sent) return std::nullopt;
            *sent = true;
            return out;
        };
    };
    EXPECT_EQ(str(run("[{$indexStats: {}}, {$project: {_id: 0, stage: 1}}]", "[{a: 1}]", {}, ctx)),
              str("[{stage: '$indexStats'}]"));
}

TEST(PipelineContextLet, TopLevelVariables) {
    PipelineContext ctx;
    ctx.letVars = J("{min: 2}");
    EXPECT_EQ(str(run("[{$match: {$expr: {$gte: ['$a', '$$min']}}}]", "[{a: 1}, {a: 2}]", {}, ctx)), str("[{a: 2}]"));
}

TEST(PipelineApi, LeadingMatchAndSerialize) {
    Pipeline p(A("[{$match: {a: 1}}, {$sort: {b: 1}}, {$limit: 5}]"), PipelineContext());
    EXPECT_EQ(p.leadingMatchFilter().jsonString(true), J("{a: 1}").jsonString(true));
    auto s = p.serialize();
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[1].jsonString(true), J("{$sort: {sortKey: {b: 1}, limit: {$numberInt: '5'}}}").jsonString(true));
    Pipeline q(A("[{$project: {a: 1}}]"), PipelineContext());
    EXPECT_TRUE(q.leadingMatchFilter().isEmpty());
}

TEST(PipelineStreaming, PullsLazilyThroughLimit) {
    PipelineContext ctx;
    Pipeline p(A("[{$match: {}}, {$limit: 2}]"), ctx);
    int pulled = 0;
    p.setSource([&]() -> std::optional<BSONObj> {
        pulled++;
        return J("{a: 1}");  // an endless collection
    });
    int n = 0;
    while (p.getNext()) n++;
    EXPECT_EQ(n, 2);
    EXPECT_EQ(pulled, 2);
}

}  // namespace
}  // namespace mongo
