// Interval lists, the translation of predicates into bounds, and the multikey rules of
// predicate assignment (planner_ixselect.h).
#include <gtest/gtest.h>

#include "mongo/db/query/index_bounds_builder.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/planner_ixselect.h"
#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;
using S = std::vector<std::string>;

S show(const OrderedIntervalList& l) {
    S out;
    for (const auto& i : l) out.push_back(i.toString());
    return out;
}

// Bounds of the filter's single predicate.
std::optional<LeafBounds> leafOf(const Matcher& m, bool multikey = false) { return translateLeaf(*m.root(), multikey); }

TEST(IndexBoundsBuilder, EqualityIsAnExactPoint) {
    Matcher m(q("{a: 5}"));
    auto b = leafOf(m);
    ASSERT_TRUE(b);
    EXPECT_EQ(show(b->oil), S({"[5, 5]"}));
    EXPECT_TRUE(b->exact);
}

TEST(IndexBoundsBuilder, RangesAreTypeBracketed) {
    Matcher gt(q("{a: {%gt: 5}}"));
    EXPECT_EQ(show(leafOf(gt)->oil), S({"(5, inf.0]"}));
    Matcher lt(q("{a: {%lt: 'm'}}"));
    EXPECT_EQ(show(leafOf(lt)->oil), S({"[\"\", \"m\")"}));
    Matcher gte(q("{a: {%gte: 'm'}}"));
    EXPECT_EQ(show(leafOf(gte)->oil), S({"[\"m\", {})"}));
    EXPECT_TRUE(leafOf(gte)->exact);
}

TEST(IndexBoundsBuilder, NullCoversUndefinedAndIsExactOnlyWithoutArrays) {
    Matcher m(q("{a: null}"));
    EXPECT_EQ(show(leafOf(m)->oil), S({"[undefined, null]"}));
    EXPECT_TRUE(leafOf(m, false)->exact);
    EXPECT_FALSE(leafOf(m, true)->exact);
}

TEST(IndexBoundsBuilder, ArrayEqualityCoversItsFirstElementAndItself) {
    Matcher m(q("{a: [3, 1]}"));
    auto b = leafOf(m);
    EXPECT_EQ(show(b->oil).size(), 2u);
    EXPECT_FALSE(b->exact);
    EXPECT_TRUE(oil::contains(b->oil, q("{x: 3}").firstElement()));
}

TEST(IndexBoundsBuilder, InUnitesItsValues) {
    Matcher m(q("{a: {%in: [3, 1, 3]}}"));
    EXPECT_EQ(show(leafOf(m)->oil), S({"[1, 1]", "[3, 3]"}));
    Matcher withNull(q("{a: {%in: [1, null]}}"));
    EXPECT_FALSE(leafOf(withNull, true)->exact);
}

TEST(IndexBoundsBuilder, NegationsComplementOnlyWithoutArrays) {
    Matcher ne(q("{a: {%ne: 5}}"));
    EXPECT_EQ(show(leafOf(ne, false)->oil), S({"[MinKey, 5)", "(5, MaxKey]"}));
    EXPECT_FALSE(leafOf(ne, true));  // {a: [5, 6]} would need the key 6 and the filter
    Matcher notGt(q("{a: {%not: {%gt: 5}}}"));
    EXPECT_EQ(show(leafOf(notGt, false)->oil), S({"[MinKey, 5]", "(inf.0, MaxKey]"}));
    Matcher notRegex(q("{a: {%not: /x/}}"));
    EXPECT_FALSE(leafOf(notRegex, false));  // regex bounds are inexact: no complement
}

TEST(IndexBoundsBuilder, RegexPrefixes) {
    EXPECT_EQ(regexLiteralPrefix("^abc", ""), std::optional<std::string>("abc"));
    EXPECT_EQ(regexLiteralPrefix("^ab*c", ""), std::optional<std::string>("a"));
    EXPECT_EQ(regexLiteralPrefix("^ab.c", ""), std::optional<std::string>("ab"));
    EXPECT_FALSE(regexLiteralPrefix("abc", ""));
    EXPECT_FALSE(regexLiteralPrefix("^abc", "i"));
    EXPECT_FALSE(regexLiteralPrefix("^abc", "m"));
    EXPECT_FALSE(regexLiteralPrefix("^a|^b", ""));
    Matcher m(q("{a: /^ab/}"));
    auto b = leafOf(m);
    EXPECT_FALSE(b->exact);
    EXPECT_EQ(show(b->oil), S({"[\"ab\", \"ac\")", "[/^ab/, /^ab/]"}));
}

TEST(IntervalList, IntersectUniteComplement) {
    Matcher a(q("{a: {%gt: 1, %lt: 9}}"));
    std::vector<const MatchExpression*> conj;
    collectConjuncts(a.root(), &conj);
    ASSERT_EQ(conj.size(), 2u);
    auto x = translateLeaf(*conj[0], false)->oil, y = translateLeaf(*conj[1], false)->oil;
    EXPECT_EQ(show(oil::intersect(x, y)), S({"(1, 9)"}));
    EXPECT_TRUE(oil::isSubset(oil::intersect(x, y), x));
    EXPECT_FALSE(oil::isSubset(x, y));
    EXPECT_EQ(show(oil::complement(oil::fullRange())), S({}));
    EXPECT_TRUE(oil::isFullRange(oil::unite(x, oil::complement(x))));
}

// ---- assignment ----

IndexEntry entry(const char* keyPattern, MultikeyPaths paths = {}) {
    IndexEntry e;
    e.keyPattern = fromjson(keyPattern);
    e.name = "idx";
    for (BSONElement f : e.keyPattern) {
        e.fields.emplace_back(f.fieldNameStringData());
        e.directions.push_back(f.numberInt() < 0 ? -1 : 1);
    }
    paths.resize(e.fields.size());
    e.multikeyPaths = paths;
    e.multikey = anyMultikey(paths);
    return e;
}

struct Planned {
    Matcher m;
    std::vector<const MatchExpression*> conj;
    std::vector<PredicateRef> preds;
    IndexAssignment a;
    Planned(const BSONObj& filter, const IndexEntry& idx) : m(filter) {
        collectConjuncts(m.root(), &conj);
        preds = collectPredicates(conj);
        a = assignPredicates(idx, preds);
    }
    S field(size_t i) const { return show(a.bounds.fields[i]); }
};

TEST(PlannerIxSelect, IntersectsWithoutArraysOnly) {
    Planned flat(q("{a: {%gt: 3, %lt: 5}}"), entry(R"({"a": 1})"));
    EXPECT_EQ(flat.field(0), S({"(3, 5)"}));
    Planned mk(q("{a: {%gt: 3, %lt: 5}}"), entry(R"({"a": 1})", {{0}}));
    EXPECT_EQ(mk.field(0), S({"(3, inf.0]"}));  // [1, 9] matches: one predicate only
    Planned em(q("{a: {%elemMatch: {%gt: 3, %lt: 5}}}"), entry(R"({"a": 1})", {{0}}));
    EXPECT_EQ(em.field(0), S({"(3, 5)"}));  // one element must satisfy both
}

TEST(PlannerIxSelect, CompoundsSiblingPathsOfOneArrayOnlyInsideElemMatch) {
    IndexEntry idx = entry(R"({"scores.level": 1, "scores.score": 1})", {{0}, {0}});
    Planned loose(q("{'scores.level': 2, 'scores.score': {%gt: 30}}"), idx);
    EXPECT_EQ(loose.field(0), S({"[2, 2]"}));
    EXPECT_EQ(loose.field(1), S({"[MinKey, MaxKey]"}));
    EXPECT_EQ(loose.a.answered.size(), 1u);
    Planned tight(q("{scores: {%elemMatch: {level: 2, score: {%gt: 30}}}}"), idx);
    EXPECT_EQ(tight.field(0), S({"[2, 2]"}));
    EXPECT_EQ(tight.field(1), S({"(30, inf.0]"}));
    EXPECT_TRUE(tight.a.answered.empty());  // the $elemMatch stays in the filter
    // Without arrays the same predicates compound.
    Planned flat(q("{'scores.level': 2, 'scores.score': {%gt: 30}}"), entry(R"({"scores.level": 1, "scores.score": 1})"));
    EXPECT_EQ(flat.field(1), S({"(30, inf.0]"}));
}

TEST(PlannerIxSelect, ElemMatchMustCoverTheDeepestSharedArray) {
    // a and a.b are both arrays: {a: {$elemMatch: ...}} does not pin one element of a.b.
    IndexEntry idx = entry(R"({"a.b.c": 1, "a.b.d": 1})", {{0, 1}, {0, 1}});
    Planned p(q("{a: {%elemMatch: {'b.c': 1, 'b.d': 2}}}"), idx);
    EXPECT_EQ(p.field(1), S({"[MinKey, MaxKey]"}));
    Planned nested(q("{a: {%elemMatch: {b: {%elemMatch: {c: 1, d: 2}}}}}"), idx);
    EXPECT_EQ(nested.field(1), S({"[2, 2]"}));
}

TEST(PlannerIxSelect, FieldsThroughDifferentArraysCompound) {
    // {x: [..], y: scalar}: every element of x is paired with y.
    Planned p(q("{x: 1, y: {%gt: 2}}"), entry(R"({"x": 1, "y": 1})", {{0}, {}}));
    EXPECT_EQ(p.field(1), S({"(2, inf.0]"}));
}

TEST(PlannerIxSelect, SparseNeedsAPredicateFailingOnMissing) {
    IndexEntry idx = entry(R"({"x": 1})");
    idx.sparse = true;
    auto eligible = [&](const char* filter) {
        Planned p(q(filter), idx);
        return sparseIndexEligible(idx, p.preds);
    };
    EXPECT_TRUE(eligible("{x: 5}"));
    EXPECT_TRUE(eligible("{x: {%exists: true}}"));
    EXPECT_FALSE(eligible("{x: null}"));
    EXPECT_FALSE(eligible("{x: {%ne: 5}}"));
    EXPECT_FALSE(eligible("{x: {%exists: false}}"));
    EXPECT_FALSE(eligible("{y: 5}"));
}

// An index under another collation than the query's bounds only what collations cannot
// affect (MongoDB 7.0): numbers, dates, null, $exists, $type, regexes; not strings, objects,
// arrays, nor a $not or $in holding one.
TEST(PlannerIxSelect, AnotherCollationBoundsOnlyCollationFreePredicates) {
    auto sensitive = [](const char* filter) {
        Matcher m(q(filter));
        std::vector<const MatchExpression*> conj;
        collectConjuncts(m.root(), &conj);
        std::vector<PredicateRef> preds = collectPredicates(conj);
        EXPECT_EQ(preds.size(), 1u) << filter;
        return preds.empty() || comparesCollatableValues(*preds[0].expr);
    };
    for (const char* f : {"{a: 'x'}", "{a: {%gt: 'x'}}", "{a: {%in: [1, 'x']}}", "{a: {%ne: 'x'}}", "{a: {b: 1}}",
                          "{a: [1]}", "{a: {%elemMatch: {%lt: 'x'}}}", "{a: {%not: {%gt: 1, %lt: 'x'}}}"})
        EXPECT_TRUE(sensitive(f)) << f;
    for (const char* f : {"{a: 1}", "{a: {%gt: 1}}", "{a: {%in: [1, null]}}", "{a: null}", "{a: {%exists: true}}",
                          "{a: {%type: 'string'}}", "{a: {%regex: '^x'}}", "{a: {%ne: 5}}", "{a: {%mod: [2, 0]}}"})
        EXPECT_FALSE(sensitive(f)) << f;

    IndexEntry idx = entry(R"({"a": 1, "b": 1})");
    Planned other(q("{a: 5, b: 'x'}"), idx);
    other.a = assignPredicates(idx, other.preds, /*sameCollation=*/false);
    EXPECT_EQ(other.field(0), S({"[5, 5]"}));
    EXPECT_EQ(other.field(1), S({"[MinKey, MaxKey]"}));
    EXPECT_EQ(other.a.answered.size(), 1u);  // b: 'x' stays in the filter
    Planned same(q("{a: 5, b: 'x'}"), idx);
    EXPECT_EQ(same.field(1), S({"[\"x\", \"x\"]"}));
}

TEST(IndexBounds, WhichIntervalsMayHoldCollatableValues) {
    auto holds = [](const char* filter) {
        Matcher m(q(filter));
        return oil::mayHoldCollatableValues(translateLeaf(*m.root(), false)->oil);
    };
    EXPECT_FALSE(holds("{a: 5}"));
    EXPECT_FALSE(holds("{a: {%gt: 5}}"));
    EXPECT_FALSE(holds("{a: null}"));
    EXPECT_FALSE(holds("{a: {%type: 'date'}}"));
    EXPECT_TRUE(holds("{a: 'x'}"));
    EXPECT_TRUE(holds("{a: {%exists: true}}"));  // [MinKey, MaxKey]
    EXPECT_TRUE(holds("{a: {%type: 'object'}}"));
    EXPECT_TRUE(holds("{a: {%ne: 5}}"));
}

}  // namespace
}  // namespace mongo
