// Every operator, fed arguments of the wrong shape and type, must fail with a DBException (or
// succeed), never crash or throw anything else.
#include <gtest/gtest.h>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline_test_util.h"

namespace mongo {
namespace {

TEST(ExpressionRobustness, EveryOperatorRejectsBadArgumentsCleanly) {
    const std::vector<std::string> args = {
        "null", "1", "-1", "2147483648", "1.5", "'s'", "'$f'", "'$arr'", "'$obj'", "'$missing'", "true", "{}",
        "[]", "[null]", "[1]", "['a', 'b']", "[1, 2, 3]", "[[1, 2], [3]]", "['$arr', 0]", "['$f', '$missing']",
        "[{$numberDecimal: 'NaN'}, 0]", "[{$date: {$numberLong: '0'}}, 'x']", "{a: 1}", "{input: '$arr'}",
        "{input: 's', regex: 1}", "{date: 's'}", "{input: '$arr', as: 'x', in: '$$x'}", "{input: 1, cond: 1}",
        "[1e308, 1e308]", "[{$numberLong: '-9223372036854775808'}, -1]", "[[], [], []]", "{$literal: 1}"};
    const char* doc = "{f: 'v', arr: [1, 'a', {b: 2}, [3]], obj: {x: 1}, d: {$date: {$numberLong: '86400000'}}}";
    BSONObj root = test::J(doc);
    int evaluated = 0;
    for (const auto& op : Expression::registeredOperators()) {
        for (const auto& a : args) {
            // Built with the builder: names like $type/$date would be read as extended JSON.
            BSONObj argHolder = test::J("{a: " + a + "}");
            BSONObjBuilder b;
            BSONObjBuilder& sub = b.subobjStart("e");
            sub.appendAs(argHolder.firstElement(), op);
            sub.doneFast();
            BSONObj spec = b.obj();
            try {
                AggregationExpression e(spec.firstElement());
                e.evaluate(root);
                evaluated++;
            } catch (const DBException&) {
            } catch (const std::exception& ex) {
                ADD_FAILURE() << op << ": " << a << " threw " << ex.what();
            }
        }
    }
    EXPECT_GT(evaluated, 100);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(StageRobustness, EveryStageRejectsBadSpecsCleanly) {
    const std::vector<std::string> stages = {
        "$match", "$project", "$addFields", "$set", "$unset", "$sort", "$limit", "$skip", "$group", "$unwind",
        "$count", "$lookup", "$replaceRoot", "$replaceWith", "$sortByCount", "$sample", "$facet", "$bucket",
        "$bucketAuto", "$unionWith", "$documents", "$redact", "$graphLookup", "$setWindowFields", "$out", "$merge",
        "$collStats", "$changeStream", "$fill", "$densify"};
    const std::vector<std::string> specs = {
        "null", "1", "-1", "0", "1.5", "'s'", "'$f'", "true", "{}", "[]", "[1]", "[{}]", "{a: 1}", "{a: 'x'}",
        "{_id: '$f', n: {$sum: 1}}", "{path: '$arr'}", "{from: 'c', as: 'x'}", "{newRoot: 1}", "{size: 'x'}",
        "{groupBy: '$f', boundaries: [1, 2]}", "{groupBy: '$f', buckets: 2}", "{output: {x: {$sum: 1}}}",
        "{a: [{$match: {}}]}", "{coll: 1}", "{from: 'c', startWith: '$f', connectFromField: 'a', connectToField: 'b',"
        " as: 'x'}", "{a: {$bogus: 1}}", "{$expr: {$bogus: 1}}", "{a: {b: {}}}", "{'a.b': 1, a: 1}"};
    const char* docs = "[{f: 'v', arr: [1, 'a', {b: 2}, [3]], obj: {x: 1}}, {f: 2}, {}]";
    int ran = 0;
    for (const auto& st : stages) {
        for (const auto& s : specs) {
            BSONObj specHolder = test::J("{a: " + s + "}");
            BSONObjBuilder b;
            b.appendAs(specHolder.firstElement(), st);
            BSONObj stage = b.obj();
            try {
                PipelineContext ctx;
                ctx.openCollection = [](const std::string&) { return std::function<std::optional<BSONObj>()>(); };
                Pipeline p({stage}, ctx);
                auto input = std::make_shared<std::vector<BSONObj>>(test::A(docs));
                auto pos = std::make_shared<size_t>(0);
                p.setSource([input, pos]() -> std::optional<BSONObj> {
                    if (*pos >= input->size()) return std::nullopt;
                    return (*input)[(*pos)++];
                });
                while (p.getNext()) {
                }
                ran++;
            } catch (const DBException&) {
            } catch (const std::exception& ex) {
                ADD_FAILURE() << st << ": " << s << " threw " << ex.what();
            }
        }
    }
    EXPECT_GT(ran, 20);
}

}  // namespace
}  // namespace mongo
