// Pipelines under a collation: every stage and expression that compares strings follows the
// pipeline's collation (PipelineContext::collator); $strcasecmp and field names do not.
#include <gtest/gtest.h>

#include "mongo/db/pipeline/pipeline_test_util.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/query/collator.h"

namespace mongo {
namespace {

using test::A;
using test::J;
using test::run;
using test::str;

CollatorPtr en2() { return Collator::make(J("{locale: 'en', strength: 2}")); }

std::vector<BSONObj> runUnder(const std::string& pipeline, const std::string& docs, CollatorPtr c,
                              std::map<std::string, std::vector<BSONObj>> colls = {}) {
    PipelineContext ctx;
    ctx.collator = std::move(c);
    return run(pipeline, docs, std::move(colls), ctx);
}

TEST(PipelineCollation, ValueComparisonScopeNestsAndRestores) {
    CollatorPtr c = en2();
    EXPECT_NE(Value::compare(Value("a"), Value("A")), 0);
    {
        ValueComparisonScope outer(c.get());
        EXPECT_EQ(Value::compare(Value("a"), Value("A")), 0);
        // Inside arrays and documents too; field names stay bytewise.
        EXPECT_EQ(Value::compare(Value(std::vector<Value>{Value("x")}), Value(std::vector<Value>{Value("X")})), 0);
        EXPECT_NE(Value::compare(Value(Document::fromBson(J("{a: 1}"))), Value(Document::fromBson(J("{A: 1}")))), 0);
        {
            ValueComparisonScope inner(nullptr);
            EXPECT_NE(Value::compare(Value("a"), Value("A")), 0);
        }
        EXPECT_EQ(Value::compare(Value("a"), Value("A")), 0);
    }
    EXPECT_NE(Value::compare(Value("a"), Value("A")), 0);
}

TEST(PipelineCollation, MatchSortAndGroup) {
    const std::string docs = "[{_id: 1, s: 'b'}, {_id: 2, s: 'A'}, {_id: 3, s: 'a'}, {_id: 4, s: 'B'}]";
    EXPECT_EQ(str(runUnder("[{$match: {s: 'a'}}, {$project: {_id: 1}}]", docs, en2())), str("[{_id: 2}, {_id: 3}]"));
    EXPECT_EQ(str(runUnder("[{$sort: {s: 1, _id: 1}}, {$project: {_id: 1}}]", docs, en2())),
              str("[{_id: 2}, {_id: 3}, {_id: 1}, {_id: 4}]"));
    EXPECT_EQ(str(run("[{$sort: {s: 1, _id: 1}}, {$project: {_id: 1}}]", docs)),
              str("[{_id: 2}, {_id: 4}, {_id: 3}, {_id: 1}]"));
    auto groups = runUnder("[{$group: {_id: '$s', n: {$sum: 1}}}]", docs, en2());
    ASSERT_EQ(groups.size(), 2u);
    for (auto& g : groups) EXPECT_EQ(g["n"].numberInt(), 2);
    EXPECT_EQ(run("[{$group: {_id: '$s'}}]", docs).size(), 4u);
    EXPECT_EQ(str(runUnder("[{$group: {_id: null, set: {$addToSet: '$s'}, mx: {$max: '$s'}}}, {$project: {_id: 0, "
                           "n: {$size: '$set'}}}]",
                           docs, en2())),
              str("[{n: 2}]"));
    EXPECT_EQ(str(runUnder("[{$sortByCount: '$s'}, {$project: {_id: 0, count: 1}}]", docs, en2())),
              str("[{count: 2}, {count: 2}]"));
}

TEST(PipelineCollation, Expressions) {
    const std::string doc = "[{_id: 1, s: 'abc'}]";
    auto r = runUnder("[{$project: {_id: 0, eq: {$eq: ['$s', 'ABC']}, lt: {$lt: ['$s', 'ABD']}, in: {$in: ['$s', ['ABC']]}, "
                      "ix: {$indexOfArray: [['x', 'ABC'], '$s']}, cmp: {$cmp: ['$s', 'ABC']}, "
                      "u: {$size: {$setUnion: [['a', 'A', 'b']]}}, ci: {$strcasecmp: ['$s', 'ABD']}}}]",
                      doc, en2());
    EXPECT_EQ(str(r), str("[{eq: true, lt: true, in: true, ix: 1, cmp: 0, u: 2, ci: -1}]"));
    auto simple = run("[{$project: {_id: 0, eq: {$eq: ['$s', 'ABC']}, u: {$size: {$setUnion: [['a', 'A', 'b']]}}}}]", doc);
    EXPECT_EQ(str(simple), str("[{eq: false, u: 3}]"));
    // $expr inside $match too.
    EXPECT_EQ(runUnder("[{$match: {$expr: {$eq: ['$s', 'ABC']}}}]", doc, en2()).size(), 1u);
    EXPECT_EQ(run("[{$match: {$expr: {$eq: ['$s', 'ABC']}}}]", doc).size(), 0u);
}

TEST(PipelineCollation, LookupAndGraphLookupUseThePipelinesCollation) {
    std::map<std::string, std::vector<BSONObj>> colls{{"f", A("[{_id: 1, k: 'X'}, {_id: 2, k: 'y'}]")}};
    auto r = runUnder("[{$lookup: {from: 'f', localField: 'k', foreignField: 'k', as: 'm'}}, {$project: {_id: 0, n: {$size: '$m'}}}]",
                      "[{k: 'x'}]", en2(), colls);
    EXPECT_EQ(str(r), str("[{n: 1}]"));
    r = runUnder("[{$graphLookup: {from: 'f', startWith: 'x', connectFromField: 'k', connectToField: 'k', as: 'm'}}, "
                 "{$project: {_id: 0, n: {$size: '$m'}}}]",
                 "[{}]", en2(), colls);
    EXPECT_EQ(str(r), str("[{n: 1}]"));
    r = run("[{$lookup: {from: 'f', localField: 'k', foreignField: 'k', as: 'm'}}, {$project: {_id: 0, n: {$size: '$m'}}}]",
            "[{k: 'x'}]", colls);
    EXPECT_EQ(str(r), str("[{n: 0}]"));
}

}  // namespace
}  // namespace mongo
