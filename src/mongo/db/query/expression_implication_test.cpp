// Partial index filters: which queries imply them.
#include <gtest/gtest.h>

#include "mongo/db/query/expression_implication.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/planner_ixselect.h"
#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;

bool implies(const char* query, const char* filter) {
    Matcher qm(q(query)), fm(q(filter));
    std::vector<const MatchExpression*> conj;
    collectConjuncts(qm.root(), &conj);
    return queryImplies(conj, *fm.root());
}

TEST(ExpressionImplication, Ranges) {
    EXPECT_TRUE(implies("{a: 5}", "{a: {%gt: 3}}"));
    EXPECT_FALSE(implies("{a: 1}", "{a: {%gt: 3}}"));
    EXPECT_TRUE(implies("{a: {%gt: 10}}", "{a: {%gt: 3}}"));
    EXPECT_TRUE(implies("{a: {%gt: 3}}", "{a: {%gte: 3}}"));
    EXPECT_FALSE(implies("{a: {%gte: 3}}", "{a: {%gt: 3}}"));
    EXPECT_FALSE(implies("{a: 'x'}", "{a: {%gt: 3}}"));  // type bracketing
    EXPECT_TRUE(implies("{a: {%in: [4, 5]}}", "{a: {%gt: 3}}"));
    EXPECT_FALSE(implies("{a: {%in: [2, 5]}}", "{a: {%gt: 3}}"));
    EXPECT_FALSE(implies("{b: 5}", "{a: {%gt: 3}}"));
}

TEST(ExpressionImplication, ExistsAndConjunctions) {
    EXPECT_TRUE(implies("{a: 5}", "{a: {%exists: true}}"));
    EXPECT_TRUE(implies("{a: {%type: 'string'}}", "{a: {%exists: true}}"));
    EXPECT_FALSE(implies("{a: null}", "{a: {%exists: true}}"));
    EXPECT_FALSE(implies("{a: {%ne: 1}}", "{a: {%exists: true}}"));
    EXPECT_TRUE(implies("{a: 5, b: 'x'}", "{a: {%gt: 1}, b: {%exists: true}}"));
    EXPECT_FALSE(implies("{a: 5}", "{a: {%gt: 1}, b: {%exists: true}}"));
    EXPECT_TRUE(implies("{%or: [{a: 5}, {a: 6}]}", "{a: {%gt: 1}}"));
    EXPECT_FALSE(implies("{%or: [{a: 5}, {b: 6}]}", "{a: {%gt: 1}}"));
    EXPECT_TRUE(implies("{a: 5}", "{%or: [{a: {%gt: 4}}, {b: 1}]}"));
}

TEST(ExpressionImplication, TypeFilters) {
    EXPECT_TRUE(implies("{a: true}", "{a: {%type: 'bool'}}"));
    EXPECT_TRUE(implies("{a: {b: 1}}", "{a: {%type: 'object'}}"));
    EXPECT_FALSE(implies("{a: 5}", "{a: {%type: 'string'}}"));
    // Equality also matches other types that compare equal: 5.0, NumberLong(5), a Symbol,
    // a missing field for null.
    EXPECT_FALSE(implies("{a: 5}", "{a: {%type: 'int'}}"));
    EXPECT_FALSE(implies("{a: 'x'}", "{a: {%type: 'string'}}"));
    EXPECT_FALSE(implies("{a: null}", "{a: {%type: 'null'}}"));
}

}  // namespace
}  // namespace mongo
