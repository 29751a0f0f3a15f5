#include "mongo/db/query/canonical_query_string.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

std::string describe(const char* filter, std::optional<long long> batchSize = std::nullopt, long long limit = 0,
                     long long skip = 0, const char* sort = "{}") {
    QueryRequest qr;
    qr.filter = fromjson(filter);
    qr.sort = fromjson(sort);
    qr.batchSize = batchSize;
    qr.limit = limit;
    qr.skip = skip;
    CanonicalQuery cq(qr, PlanPurpose::kFind);
    return canonicalQueryString("db.c", cq);
}

// The shapes MongoDB 7.0 prints in "error processing query: ..." messages.
TEST(CanonicalQueryString, EmptyFilter) {
    EXPECT_EQ(describe("{}"), "ns=db.cTree: $and\nSort: {}\nProj: {}\n");
}

TEST(CanonicalQueryString, OptionsAndOneClause) {
    EXPECT_EQ(describe(R"({"a": 1})", 10, 10), "ns=db.c batchSize=10 limit=10Tree: a $eq 1\nSort: {}\nProj: {}\n");
    EXPECT_EQ(describe(R"({"a": "x"})", std::nullopt, 0, 3, R"({"$natural": 1})"),
              "ns=db.c skip=3Tree: a $eq \"x\"\nSort: { $natural: 1 }\nProj: {}\n");
}

TEST(CanonicalQueryString, NestedClausesAreIndented) {
    EXPECT_EQ(describe(R"({"a": {"$gt": 1.5}, "$or": [{"b": {"$in": [1, 2]}}, {"c": {"$exists": true}}]})"),
              "ns=db.cTree: $and\n"
              "    a $gt 1.5\n"
              "    $or\n"
              "        b $in [ 1 2 ]\n"
              "        c exists\n"
              "Sort: {}\nProj: {}\n");
}

TEST(CanonicalQueryString, ShellNotation) {
    BSONObj o = fromjson(R"({"a": 1, "b": 2.0, "c": [1, "x"], "d": {"e": null}, "f": []})");
    EXPECT_EQ(shellObjectString(o), "{ a: 1, b: 2.0, c: [ 1, \"x\" ], d: { e: null }, f: [] }");
}

}  // namespace
}  // namespace mongo
