// The pipeline's depth and memory limits: runaway expressions and blocking stages end in
// MongoDB's errors instead of exhausting the stack or memory.
#include <gtest/gtest.h>

#include "mongo/db/pipeline/pipeline_test_util.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

using test::errorCode;
using test::J;
using test::run;

// Sets a server parameter for the scope of a test.
class ParameterOverride {
public:
    ParameterOverride(const std::string& name, const std::string& value) : _p(ServerParameterSet::global().find(name)) {
        BSONObjBuilder b;
        _p->append(b, "v");
        _old = b.obj();
        EXPECT_TRUE(_p->setFromString(value).isOK());
    }
    ~ParameterOverride() { _p->set(_old.firstElement()); }

private:
    ServerParameter* _p;
    BSONObj _old;
};

// {a: {a: ... {a: 1}}}: 'levels' documents.
Document nestedDocument(int levels) {
    Value v(1);
    for (int i = 0; i < levels; i++) v = Value(Document({{"a", v}}));
    return v.getDocument();
}

TEST(ValueDepth, ScalarsAndContainersKnowTheirDepth) {
    EXPECT_EQ(Value(1).depth(), 0);
    EXPECT_EQ(Value(std::vector<Value>{Value(1)}).depth(), 1);
    EXPECT_EQ(Value(nestedDocument(3)).depth(), 3);
    // A document still backed by BSON counts as one level: its bytes are copied, not walked.
    EXPECT_EQ(Document::fromBson(J("{a: {b: {c: 1}}}")).depth(), 1);
}

TEST(ValueDepth, BuildingPastMaxDepthThrowsOverflow) {
    Document deepest = nestedDocument(kMaxValueDepth);
    EXPECT_EQ(deepest.depth(), kMaxValueDepth);
    EXPECT_EQ(errorCode([&] { Document({{"a", Value(deepest)}}); }), 15 /* Overflow */);
    EXPECT_EQ(errorCode([&] { Value(std::vector<Value>{Value(deepest)}); }), 15 /* Overflow */);
}

TEST(ValueDepth, WalksOverTheDeepestValuesStayOnTheStack) {
    Value a(nestedDocument(kMaxValueDepth)), b(nestedDocument(kMaxValueDepth));
    EXPECT_EQ(Value::compare(a, b), 0);
    EXPECT_GT(a.toString().size(), static_cast<size_t>(kMaxValueDepth));
    EXPECT_GT(a.approximateSize(), static_cast<size_t>(kMaxValueDepth));
    // Destruction of both happens here, recursively but bounded.
}

TEST(ValueDepth, ToBsonRefusesMoreThanMaxBSONDepthLevels) {
    EXPECT_EQ(nestedDocument(200).toBson().objsize() > 0, true);
    try {
        nestedDocument(201).toBson();
        FAIL() << "201 levels converted";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 15 /* Overflow */);
        EXPECT_EQ(e.reason(), "cannot convert document to BSON because it exceeds the limit of 200 levels of nesting");
    }
    // As MongoDB counts: an array's elements are one level below the array.
    Value arr(std::vector<Value>{Value(1)});
    Value v = arr;
    for (int i = 0; i < 199; i++) v = Value(Document({{"a", v}}));
    EXPECT_EQ(errorCode([&] { Document({{"a", v}}).toBson(); }), 15 /* Overflow */);
    EXPECT_EQ(errorCode([&] { v.getDocument().toBson(); }), 0);
}

TEST(ValueDepth, PipelineResultsDeeperThanTheLimitFail) {
    auto reduce = [](int n) {
        return "[{$project: {x: {$reduce: {input: {$range: [0, " + std::to_string(n) +
               "]}, initialValue: {}, in: {a: '$$value'}}}}}]";
    };
    EXPECT_EQ(run(reduce(150), "[{_id: 1}]").size(), 1u);
    EXPECT_EQ(errorCode([&] { run(reduce(250), "[{_id: 1}]"); }), 15 /* Overflow */);
    EXPECT_EQ(errorCode([&] { run(reduce(100000), "[{_id: 1}]"); }), 15 /* Overflow */);
    // Deep intermediate values are fine when what is output is shallow.
    std::string shallow = "[{$project: {x: {$size: {$objectToArray: {$reduce: {input: {$range: [0, 500]}, "
                          "initialValue: {}, in: {a: '$$value'}}}}}}}]";
    EXPECT_EQ(test::str(run(shallow, "[{_id: 1}]")), test::str("[{_id: 1, x: 1}]"));
}

TEST(ValueStrings, SixteenMegabytesOrMoreThrow16493) {
    EXPECT_NO_THROW(Value(std::string(BSONObjMaxUserSize - 18, 'x')));
    EXPECT_EQ(errorCode([] { Value(std::string(BSONObjMaxUserSize, 'x')); }), 16493);
}

TEST(ExpressionLimits, ConcatStopsAtMongoDBsLimits) {
    std::string doubling = "{$reduce: {input: {$range: [0, 40]}, initialValue: 'ab', in: {$concat: ['$$value', "
                           "'$$value']}}}";
    EXPECT_EQ(errorCode([&] { test::eval(doubling); }), 16493);
    // Nine 8MB strings: past the 64MB buffer before the string limit.
    std::string nine = "{$let: {vars: {s: {$reduce: {input: {$range: [0, 22]}, initialValue: 'ab', in: {$concat: "
                       "['$$value', '$$value']}}}}, in: {$concat: ['$$s', '$$s', '$$s', '$$s', '$$s', '$$s', '$$s', "
                       "'$$s', '$$s']}}}";
    EXPECT_EQ(errorCode([&] { test::eval(nine); }), 13548);
    std::string replace = "{$replaceAll: {input: {$reduce: {input: {$range: [0, 21]}, initialValue: 'a', in: "
                          "{$concat: ['$$value', '$$value']}}}, find: 'a', replacement: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'}}";
    EXPECT_EQ(errorCode([&] { test::eval(replace); }), 13548);
}

TEST(ExpressionLimits, RangeRefusesMoreThanInternalQueryMaxRangeBytes) {
    try {
        test::eval("{$range: [0, 1000000000]}");
        FAIL() << "no error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 146 /* ExceededMemoryLimit */);
        EXPECT_EQ(e.reason(),
                  "$range would use too much memory (16000000040 bytes) and cannot spill to disk. Memory limit: "
                  "104857600 bytes");
    }
    EXPECT_EQ(test::evalStr("{$size: {$range: [0, 100000]}}"), test::V("100000"));
    EXPECT_EQ(test::evalStr("{$range: [5, 0, -2]}"), test::V("[5, 3, 1]"));
    // MongoDB's accounting: 24 bytes for the array, 16 per element, under the limit.
    ParameterOverride p("internalQueryMaxRangeBytes", "1000");
    EXPECT_EQ(test::evalStr("{$size: {$range: [0, 59]}}"), test::V("59"));
    EXPECT_EQ(errorCode([] { test::eval("{$range: [0, 60]}"); }), 146 /* ExceededMemoryLimit */);
}

TEST(PipelineLimits, DensifyStopsAtInternalQueryMaxAllowedDensifyDocs) {
    ParameterOverride p("internalQueryMaxAllowedDensifyDocs", "10");
    // 0..9 but 5, which exists: 9 generated.
    EXPECT_EQ(test::str(run("[{$densify: {field: 'a', range: {step: 1, bounds: [0, 10]}}}, {$count: 'n'}]",
                            "[{a: 5}]")),
              test::str("[{n: 10}]"));
    try {
        run("[{$densify: {field: 'a', range: {step: 1, bounds: [0, 1000000000000]}}}]", "[{a: 5}]");
        FAIL() << "no error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 5897900);
        EXPECT_EQ(e.reason(),
                  "Generated 11 documents in $densify, which is over the limit of 10. Increase the "
                  "'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents");
    }
}

// 2000 documents of about 1KB: more than a 1MB limit.
const char* kBigInput =
    "[{$project: {x: {$range: [0, 2000]}}}, {$unwind: '$x'}, {$project: {x: 1, pad: {$reduce: {input: {$range: [0, "
    "10]}, initialValue: 'p', in: {$concat: ['$$value', '$$value']}}}}}]";

std::string withStages(const std::string& stages) {
    std::string in = kBigInput;
    return in.substr(0, in.size() - 1) + ", " + stages + "]";
}

PipelineContext diskUse(bool allowed) {
    PipelineContext ctx;
    ctx.allowDiskUse = allowed;
    return ctx;
}

TEST(PipelineLimits, SortAndGroupWithoutAllowDiskUseStopAtTheirMemoryLimit) {
    ParameterOverride sortLimit("internalQueryMaxBlockingSortMemoryUsageBytes", "1000000");
    ParameterOverride groupLimit("internalDocumentSourceGroupMaxMemoryBytes", "1000000");
    std::string sort = withStages("{$sort: {x: -1}}, {$count: 'n'}");
    std::string group = withStages("{$group: {_id: '$x', p: {$push: '$pad'}}}, {$count: 'n'}");
    std::string bucketAuto = withStages("{$bucketAuto: {groupBy: '$x', buckets: 2}}, {$count: 'n'}");
    for (const auto& p : {sort, group, bucketAuto}) {
        EXPECT_EQ(errorCode([&] { run(p, "[{}]", {}, diskUse(false)); }),
                  292 /* QueryExceededMemoryLimitNoDiskUseAllowed */)
            << p;
        // allowDiskUse: this server cannot spill and keeps going in memory (under its hard cap).
        EXPECT_EQ(run(p, "[{}]", {}, diskUse(true)).size(), 1u) << p;
    }
    try {
        run(sort, "[{}]", {}, diskUse(false));
        FAIL() << "no error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.reason(), "Sort exceeded memory limit of 1000000 bytes, but did not opt in to external sorting.");
    }
    try {
        run(group, "[{}]", {}, diskUse(false));
        FAIL() << "no error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.reason(),
                  "Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in.");
    }
    // A $sort followed by $limit keeps only the top documents.
    EXPECT_EQ(test::str(run(withStages("{$sort: {x: -1}}, {$limit: 2}, {$project: {_id: 0, x: 1}}"), "[{}]", {},
                            diskUse(false))),
              test::str("[{x: 1999}, {x: 1998}]"));
    // Groups that stay small are not limited by the input's size.
    EXPECT_EQ(test::str(run(withStages("{$group: {_id: null, n: {$sum: 1}}}"), "[{}]", {}, diskUse(false))),
              test::str("[{_id: null, n: 2000}]"));
}

TEST(PipelineLimits, AllowDiskUseStillHasAHardCap) {
    ParameterOverride sortLimit("internalQueryMaxBlockingSortMemoryUsageBytes", "100000");
    EXPECT_EQ(errorCode([] { run(withStages("{$sort: {x: -1}}"), "[{}]", {}, diskUse(true)); }),
              146 /* ExceededMemoryLimit */);
}

}  // namespace
}  // namespace mongo
