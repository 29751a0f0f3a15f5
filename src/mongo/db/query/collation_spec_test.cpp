// Only the simple collation is accepted; everything else is refused the same way everywhere.
#include <gtest/gtest.h>

#include "mongo/db/query/collation_spec.h"

namespace mongo {
namespace {

int codeOf(const BSONObj& holder) {
    try {
        checkSimpleCollation(holder["collation"], "find.collation");
        return 0;
    } catch (const DBException& e) {
        return e.code();
    }
}

TEST(CollationSpecTest, SimpleAbsentAndEmptyPass) {
    EXPECT_EQ(codeOf(fromjson(R"({})")), 0);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {}})")), 0);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {"locale": "simple"}})")), 0);
}

TEST(CollationSpecTest, OthersAreRefused) {
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {"locale": "fr"}})")), 2);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {"locale": "simple", "strength": 2}})")), 2);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {"strength": 2}})")), 40414);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": {"locale": 1}})")), 14);
    EXPECT_EQ(codeOf(fromjson(R"({"collation": "fr"})")), 14);
}

}  // namespace
}  // namespace mongo
