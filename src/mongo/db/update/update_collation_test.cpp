// Update operators under a collation: the ones that compare values ($addToSet, $pull,
// $pullAll, $push's $sort, $min, $max) and arrayFilters follow the update's collation.
#include "mongo/db/query/collator.h"
#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

BSONObj applyUnder(const std::string& update, const std::string& doc, const std::vector<std::string>& arrayFilters = {}) {
    std::vector<BSONObj> filters;
    for (const auto& f : arrayFilters) filters.push_back(J(f));
    UpdateDriver driver(J(update), filters, false, Collator::make(J("{locale: 'en', strength: 2}")));
    bool changed;
    return driver.apply(J(doc), "", false, &changed);
}

TEST(UpdateCollation, AddToSetDeduplicatesUnderTheCollation) {
    EXPECT_TRUE(bsonIdentical(applyUnder("{$addToSet: {a: {$each: ['A', 'c', 'C']}}}", "{_id: 1, a: ['a']}"),
                              "{_id: 1, a: ['a', 'c']}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$addToSet: {a: {$each: ['x', 'X']}}}", "{_id: 1}"), "{_id: 1, a: ['x']}"));
    EXPECT_TRUE(bsonIdentical(applyJson("{$addToSet: {a: 'A'}}", "{_id: 1, a: ['a']}"), "{_id: 1, a: ['a', 'A']}"));
}

TEST(UpdateCollation, PullAndPullAll) {
    EXPECT_TRUE(bsonIdentical(applyUnder("{$pull: {a: 'B'}}", "{_id: 1, a: ['a', 'b', 'B']}"), "{_id: 1, a: ['a']}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$pull: {a: {$gte: 'B'}}}", "{_id: 1, a: ['a', 'b', 'C']}"), "{_id: 1, a: ['a']}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$pull: {a: {k: 'X'}}}", "{_id: 1, a: [{k: 'x'}, {k: 'y'}]}"),
                              "{_id: 1, a: [{k: 'y'}]}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$pullAll: {a: ['A']}}", "{_id: 1, a: ['a', 'b']}"), "{_id: 1, a: ['b']}"));
}

TEST(UpdateCollation, PushSortMinMax) {
    EXPECT_TRUE(bsonIdentical(applyUnder("{$push: {a: {$each: ['B'], $sort: 1}}}", "{_id: 1, a: ['c', 'a']}"),
                              "{_id: 1, a: ['a', 'B', 'c']}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$push: {a: {$each: [], $sort: {k: -1}}}}", "{_id: 1, a: [{k: 'B'}, {k: 'c'}, {k: 'a'}]}"),
                              "{_id: 1, a: [{k: 'c'}, {k: 'B'}, {k: 'a'}]}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$max: {s: 'N'}}", "{_id: 1, s: 'm'}"), "{_id: 1, s: 'N'}"));
    EXPECT_TRUE(bsonIdentical(applyUnder("{$min: {s: 'M'}}", "{_id: 1, s: 'm'}"), "{_id: 1, s: 'm'}"));  // equal
    EXPECT_TRUE(bsonIdentical(applyJson("{$max: {s: 'N'}}", "{_id: 1, s: 'm'}"), "{_id: 1, s: 'm'}"));
}

TEST(UpdateCollation, ArrayFilters) {
    EXPECT_TRUE(bsonIdentical(applyUnder("{$set: {'a.$[x]': 0}}", "{_id: 1, a: ['A', 'b', 'a']}", {"{x: 'a'}"}),
                              "{_id: 1, a: [0, 'b', 0]}"));
}

}  // namespace
}  // namespace mongo
