#include "mongo/db/query/projection.h"

#include <gtest/gtest.h>

#include "mongo/db/query/query_test_util.h"

namespace mongo {
namespace {

using query_test::q;
using query_test::statusOf;

const char* kDoc =
    "{_id: 1, name: 'n1', a: 1, b: 2, c: 3, x: {y: 1, z: 2}, arr: [1, 2, 3, 4, 5],"
    " items: [{k: 'x', v: 1}, {k: 'y', v: 2}, {k: 'y', v: 3}], mixed: [{y: 1, z: 1}, {z: 2}, 5]}";

// The projection of doc, as canonical extended JSON, compared with the expected document
// (also field order).
void expectProj(const std::string& spec, const std::string& doc, const std::string& expected) {
    BSONObj out = Projection(q(spec)).apply(q(doc));
    EXPECT_EQ(out.jsonString(true), q(expected).jsonString(true)) << "projection " << spec;
}

Status parseError(const std::string& spec) {
    return statusOf([&] { Projection p(q(spec)); });
}

TEST(ProjectionInclusion, KeepsIdAndDocumentOrder) {
    expectProj("{c: 1, a: 1}", kDoc, "{_id: 1, a: 1, c: 3}");
    expectProj("{a: 1, _id: 0}", kDoc, "{a: 1}");
    expectProj("{a: true, _id: false}", kDoc, "{a: 1}");
    expectProj("{a: 5}", kDoc, "{_id: 1, a: 1}");
    expectProj("{a: 1, nosuch: 1}", kDoc, "{_id: 1, a: 1}");
    expectProj("{_id: 1}", kDoc, "{_id: 1}");
    expectProj("{_id: 0, b: 1}", kDoc, "{b: 2}");
    expectProj("{a: 1}", "{a: 1, _id: 7}", "{a: 1, _id: 7}");  // _id stays where it is
}

TEST(ProjectionInclusion, DottedPathsAndSubDocuments) {
    expectProj("{'x.y': 1}", kDoc, "{_id: 1, x: {y: 1}}");
    expectProj("{x: {y: 1}}", kDoc, "{_id: 1, x: {y: 1}}");
    expectProj("{'x.nope': 1}", kDoc, "{_id: 1, x: {}}");
    expectProj("{'a.b': 1}", kDoc, "{_id: 1}");  // a scalar has no sub-fields
    expectProj("{'mixed.y': 1}", kDoc, "{_id: 1, mixed: [{y: 1}, {}]}");
    expectProj("{'items.v': 1}", kDoc, "{_id: 1, items: [{v: 1}, {v: 2}, {v: 3}]}");
    expectProj("{'a.b': 1}", "{_id: 1, a: [[{b: 1, c: 2}], 5]}", "{_id: 1, a: [[{b: 1}]]}");
    expectProj("{'x.y': 1, 'x.z': 1}", kDoc, "{_id: 1, x: {y: 1, z: 2}}");
    expectProj("{x: {y: 1}, 'x.z': 1}", kDoc, "{_id: 1, x: {y: 1, z: 2}}");
}

TEST(ProjectionExclusion, RemovesFieldsKeepsTheRest) {
    expectProj("{arr: 0, items: 0, mixed: 0, x: 0, name: 0}", kDoc, "{_id: 1, a: 1, b: 2, c: 3}");
    expectProj("{_id: 0, arr: 0, items: 0, mixed: 0, x: 0}", kDoc, "{name: 'n1', a: 1, b: 2, c: 3}");
    expectProj("{_id: 0}", "{_id: 1, a: 1}", "{a: 1}");
    expectProj("{'x.y': 0}", "{_id: 1, x: {y: 1, z: 2}}", "{_id: 1, x: {z: 2}}");
    expectProj("{'m.y': 0}", "{m: [{y: 1, z: 1}, {z: 2}, 5]}", "{m: [{z: 1}, {z: 2}, 5]}");
    expectProj("{'a.b': 0}", "{a: 5}", "{a: 5}");
    expectProj("{a: 0, _id: 1}", "{_id: 1, a: 1, b: 2}", "{_id: 1, b: 2}");
}

TEST(ProjectionEmpty, ReturnsWholeDocument) {
    Projection p(q("{}"));
    EXPECT_TRUE(p.isEmpty());
    EXPECT_EQ(p.apply(q(kDoc)).jsonString(true), q(kDoc).jsonString(true));
    EXPECT_FALSE(Projection(q("{a: 1}")).isEmpty());
}

TEST(ProjectionSlice, FindForms) {
    expectProj("{arr: {$slice: 2}, _id: 0, name: 0, a: 0, b: 0, c: 0, x: 0, items: 0, mixed: 0}", kDoc,
               "{arr: [1, 2]}");
    expectProj("{arr: {$slice: 2}}", "{_id: 1, arr: [1, 2, 3], z: 1}", "{_id: 1, arr: [1, 2], z: 1}");
    expectProj("{arr: {$slice: -2}}", "{arr: [1, 2, 3, 4, 5]}", "{arr: [4, 5]}");
    expectProj("{arr: {$slice: [1, 2]}}", "{arr: [1, 2, 3, 4, 5]}", "{arr: [2, 3]}");
    expectProj("{arr: {$slice: [-2, 5]}}", "{arr: [1, 2, 3, 4, 5]}", "{arr: [4, 5]}");
    expectProj("{arr: {$slice: [-10, 2]}}", "{arr: [1, 2, 3, 4, 5]}", "{arr: [1, 2]}");
    expectProj("{arr: {$slice: [10, 2]}}", "{arr: [1, 2, 3, 4, 5]}", "{arr: []}");
    expectProj("{arr: {$slice: 0}}", "{arr: [1, 2]}", "{arr: []}");
    expectProj("{arr: {$slice: 10}}", "{arr: [1, 2]}", "{arr: [1, 2]}");
    expectProj("{arr: {$slice: 1}}", "{arr: 'scalar'}", "{arr: 'scalar'}");
    expectProj("{name: 1, arr: {$slice: 1}}", kDoc, "{_id: 1, name: 'n1', arr: [1]}");
    expectProj("{_id: 1, arr: {$slice: 1}}", kDoc, "{_id: 1, arr: [1]}");
    expectProj("{'a.b': {$slice: 1}}", "{a: [{b: [1, 2]}, {b: [3, 4]}, 7]}", "{a: [{b: [1]}, {b: [3]}, 7]}");
}

TEST(ProjectionSlice, NonFindSyntaxIsTheAggregationSlice) {
    // As MongoDB: when the find form does not parse, the aggregation $slice is tried, and its
    // error (with both explanations) is reported.
    Status s = parseError("{arr: {$slice: 'x'}}");
    EXPECT_EQ(s.code(), 28667);
    EXPECT_NE(s.reason().find("Invalid $slice syntax"), std::string::npos) << s.reason();
    EXPECT_NE(s.reason().find("$slice only supports numbers and [skip, limit] arrays"), std::string::npos);
    EXPECT_EQ(parseError("{arr: {$slice: [1]}}").code(), 28667);
    expectProj("{_id: 0, s: {$slice: ['$arr', 1, 2]}}", kDoc, "{s: [2, 3]}");
    // [skip, 0] is not the find form; as an aggregation $slice its first argument must be an array.
    Projection p(q("{arr: {$slice: [1, 0]}}"));
    EXPECT_FALSE(statusOf([&] { p.apply(q(kDoc)); }).isOK());
}

TEST(ProjectionElemMatch, FirstMatchingElementOnly) {
    expectProj("{name: 1, items: {$elemMatch: {k: 'y'}}}", kDoc, "{_id: 1, name: 'n1', items: [{k: 'y', v: 2}]}");
    expectProj("{name: 1, items: {$elemMatch: {k: 'nope'}}}", kDoc, "{_id: 1, name: 'n1'}");
    // Alone it is an inclusion projection.
    expectProj("{items: {$elemMatch: {v: {$gte: 3}}}}", kDoc, "{_id: 1, items: [{k: 'y', v: 3}]}");
    // The field comes after the other included fields.
    expectProj("{items: {$elemMatch: {v: 1}}, name: 1}", "{_id: 1, items: [{v: 1}], name: 'n'}",
               "{_id: 1, name: 'n', items: [{v: 1}]}");
    expectProj("{arr: {$elemMatch: {$gt: 3}}}", kDoc, "{_id: 1, arr: [4]}");
    expectProj("{a: {$elemMatch: {$gt: 3}}}", "{_id: 1, a: 5}", "{_id: 1}");
    // With a $slice and no _id inclusion the projection is an exclusion.
    expectProj("{arr: {$slice: 1}, items: {$elemMatch: {v: 2}}}", "{_id: 1, items: [{v: 1}, {v: 2}], arr: [1, 2], z: 1}",
               "{_id: 1, arr: [1], z: 1, items: [{v: 2}]}");
}

TEST(ProjectionElemMatch, Errors) {
    EXPECT_EQ(parseError("{a: {$elemMatch: 1}}").code(), 31274);
    EXPECT_EQ(parseError("{'a.b': {$elemMatch: {x: 1}}}").code(), 31275);
    EXPECT_EQ(parseError("{a: {b: {$elemMatch: {x: 1}}}}").code(), 31275);
    EXPECT_EQ(parseError("{'a.$': 1, b: {$elemMatch: {x: 1}}}").code(), 31255);
    EXPECT_EQ(parseError("{b: {$elemMatch: {x: 1}}, 'a.$': 1}").code(), 31256);
    EXPECT_EQ(parseError("{b: {$elemMatch: {x: {$foo: 1}}}}").code(), int(ErrorCodes::BadValue));
}

MatchDetails detailsFor(const std::string& filter, const std::string& doc) {
    MatchDetails d;
    d.requestElemMatchKey = true;
    EXPECT_TRUE(Matcher(q(filter)).matches(q(doc), &d));
    return d;
}

TEST(ProjectionPositional, ProjectsTheMatchedElement) {
    Projection p(q("{'items.$': 1}"));
    EXPECT_TRUE(p.requiresMatchDetails());
    MatchDetails d = detailsFor("{'items.v': {$gte: 2}}", kDoc);
    EXPECT_EQ(p.apply(q(kDoc), &d).jsonString(true), q("{_id: 1, items: [{k: 'y', v: 2}]}").jsonString(true));
    Projection arr(q("{'arr.$': 1}"));
    d = detailsFor("{arr: 4}", kDoc);
    EXPECT_EQ(arr.apply(q(kDoc), &d).jsonString(true), q("{_id: 1, arr: [4]}").jsonString(true));
    // The first array along the path is the one projected; the rest of the path is included.
    Projection nested(q("{'o.list.$': 1, name: 1}"));
    std::string doc = "{_id: 2, name: 'n', o: {list: [{k: 1, w: 1}, {k: 2, w: 2}], other: 1}}";
    d = detailsFor("{'o.list.k': 2}", doc);
    EXPECT_EQ(nested.apply(q(doc), &d).jsonString(true),
              q("{_id: 2, name: 'n', o: {list: [{k: 2, w: 2}]}}").jsonString(true));
    EXPECT_FALSE(Projection(q("{a: 1}")).requiresMatchDetails());
}

TEST(ProjectionPositional, RuntimeErrors) {
    Projection p(q("{'arr.$': 1}"));
    EXPECT_EQ(statusOf([&] { p.apply(q(kDoc), nullptr); }).code(), 51246);
    MatchDetails none = detailsFor("{_id: 1}", kDoc);
    EXPECT_EQ(statusOf([&] { p.apply(q(kDoc), &none); }).reason(),
              "positional operator '.$' couldn't find a matching element in the array");
    MatchDetails far;
    far.requestElemMatchKey = far.hasElemMatchKey = true;
    far.elemMatchKey = "99";
    EXPECT_EQ(statusOf([&] { p.apply(q(kDoc), &far); }).code(), 51247);
    // No array on the path: nothing to pick.
    EXPECT_EQ(p.apply(q("{_id: 3, arr: 5}"), nullptr).jsonString(true), q("{_id: 3, arr: 5}").jsonString(true));
}

TEST(ProjectionPositional, ParseErrors) {
    EXPECT_EQ(parseError("{'a.$': 1, 'b.$': 1}").code(), 31276);
    EXPECT_EQ(parseError("{'a.$.b': 1}").code(), 31394);
    EXPECT_EQ(parseError("{'a.$.$': 1}").code(), 31287);
    EXPECT_EQ(parseError("{'a.$': {$slice: 1}}").code(), 31271);
    EXPECT_EQ(parseError("{'a.$': 'x'}").code(), 31308);
    EXPECT_EQ(parseError("{b: 0, 'a.$': 1}").code(), 31253);
    EXPECT_EQ(parseError("{'a.$': 0}").code(), 16410);
}

TEST(ProjectionComputed, LiteralsFieldPathsAndExpressions) {
    expectProj("{_id: 0, renamed: '$x.z'}", kDoc, "{renamed: 2}");
    expectProj("{_id: 0, s: 'lit', n: null}", kDoc, "{s: 'lit', n: null}");
    expectProj("{_id: 0, t: {$add: ['$a', '$b', '$c']}}", kDoc, "{t: 6}");
    expectProj("{_id: 0, l: {$literal: 1}}", kDoc, "{l: 1}");
    expectProj("{_id: 0, up: {$toUpper: '$name'}}", kDoc, "{up: 'N1'}");
    expectProj("{_id: 0, vs: '$items.v'}", kDoc, "{vs: [1, 2, 3]}");
    expectProj("{_id: 0, gone: '$nosuch'}", kDoc, "{}");
    expectProj("{_id: 0, arr2: ['$a', 'x']}", kDoc, "{arr2: [1, 'x']}");
    // Computed fields come after the included ones, in projection order.
    expectProj("{t: '$a', b: 1, s: '$c'}", kDoc, "{_id: 1, b: 2, t: 1, s: 3}");
}

TEST(ProjectionComputed, NestedComputedFields) {
    expectProj("{_id: 0, 'x.w': '$a'}", kDoc, "{x: {w: 1}}");
    expectProj("{_id: 0, 'x.y': 1, 'x.w': '$a'}", kDoc, "{x: {y: 1, w: 1}}");
    expectProj("{_id: 0, 'n.w': 'v'}", "{_id: 1, n: 5}", "{n: {w: 'v'}}");
    expectProj("{_id: 0, 'n.w': 'v'}", "{_id: 1}", "{n: {w: 'v'}}");
    expectProj("{_id: 0, 'n.w': 'v'}", "{_id: 1, n: [1, {c: 1}]}", "{n: [{w: 'v'}]}");
    expectProj("{_id: 0, n: {w: '$_id'}}", "{_id: 4}", "{n: {w: 4}}");
}

TEST(ProjectionComputed, Errors) {
    EXPECT_EQ(parseError("{a: 0, b: 'x'}").code(), 31310);
    EXPECT_EQ(parseError("{a: 0, b: {$add: [1, 2]}}").code(), 31252);
    EXPECT_EQ(parseError("{b: 'x', a: 0}").code(), 31254);
    EXPECT_EQ(parseError("{a: {$foo: 1}}").code(), 31325);
    EXPECT_EQ(parseError("{a: {$meta: 'textScore'}}").code(), int(ErrorCodes::BadValue));
}

TEST(ProjectionErrors, MixingAndCollisions) {
    Status s = parseError("{a: 1, b: 0}");
    EXPECT_EQ(s.code(), 31254);
    EXPECT_EQ(s.reason(), "Cannot do exclusion on field b in inclusion projection");
    s = parseError("{a: 0, b: 1}");
    EXPECT_EQ(s.code(), 31253);
    EXPECT_EQ(s.reason(), "Cannot do inclusion on field b in exclusion projection");
    s = parseError("{a: 1, 'a.b': 1}");
    EXPECT_EQ(s.code(), 31249);
    EXPECT_EQ(s.reason(), "Path collision at a.b remaining portion b");
    s = parseError("{'a.b': 1, a: 1}");
    EXPECT_EQ(s.code(), 31250);
    EXPECT_EQ(s.reason(), "Path collision at a");
    EXPECT_EQ(parseError("{a: {}}").code(), 51270);
    EXPECT_EQ(parseError("{'': 1}").code(), 40352);
    EXPECT_EQ(parseError("{'a.': 1}").code(), 40353);
    EXPECT_EQ(parseError("{'a..b': 1}").code(), 15998);
    EXPECT_EQ(parseError("{'$a': 1}").code(), 16410);
}

TEST(ProjectionApply, ResultIsOwnedAndProjectionIsReusable) {
    Projection p(q("{a: 1, _id: 0}"));
    BSONObj out;
    {
        BSONObj doc = q("{a: 'x', b: 1}");
        out = p.apply(BSONObj(doc.objdata()));
    }
    EXPECT_TRUE(out.isOwned());
    EXPECT_EQ(out.jsonString(true), q("{a: 'x'}").jsonString(true));
    EXPECT_EQ(p.apply(q("{a: 2}")).jsonString(true), q("{a: 2}").jsonString(true));
    Projection moved = std::move(p);
    EXPECT_EQ(moved.apply(q("{a: 3, c: 1}")).jsonString(true), q("{a: 3}").jsonString(true));
}

}  // namespace
}  // namespace mongo
