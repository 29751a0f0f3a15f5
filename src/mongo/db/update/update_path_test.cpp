// Path helpers and the mutable document the update operators work on.
#include "mongo/db/update/update_path.h"

#include <algorithm>

#include "mongo/db/update/update_test_util.h"

namespace mongo {
namespace {
using namespace update_test;

TEST(UpdatePath, SplitKeepsEmptyComponents) {
    EXPECT_EQ(splitDottedPath("a.b.c"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(splitDottedPath("a..b"), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(splitDottedPath(""), (std::vector<std::string>{""}));
    EXPECT_EQ(joinPath({"a", "b", "c"}, 1), "b.c");
}

TEST(UpdatePath, ArrayIndexes) {
    size_t i;
    EXPECT_TRUE(parseArrayIndex("12", &i));
    EXPECT_EQ(i, 12u);
    EXPECT_FALSE(parseArrayIndex("", &i));
    EXPECT_FALSE(parseArrayIndex("-1", &i));
    EXPECT_FALSE(parseArrayIndex("1a", &i));
    EXPECT_FALSE(parseArrayIndex("99999999999999999999999", &i));
    EXPECT_TRUE(isArrayFilterPart("$[]"));
    EXPECT_TRUE(isArrayFilterPart("$[x]"));
    EXPECT_FALSE(isArrayFilterPart("$["));
    EXPECT_TRUE(isPositionalPart("$"));
}

TEST(UpdatePath, FieldOrderIsNumericThenLexicographic) {
    std::vector<std::string> names = {"b", "10", "2", "a", "1a", "02", "$x"};
    std::sort(names.begin(), names.end(), UpdateFieldNameLess());
    EXPECT_EQ(names, (std::vector<std::string>{"02", "2", "10", "$x", "1a", "a", "b"}));
}

TEST(MutableDocument, UntouchedDocumentSerializesIdentically) {
    BSONObj in = J("{_id: 1, a: {b: [1, {c: 2}]}, d: 'x'}");
    MutableDocument doc(in);
    doc.root().childForPathPart("a")->childForPathPart("b")->childForPathPart("1");
    EXPECT_TRUE(doc.toBSON().binaryEqual(in));
}

TEST(MutableDocument, EditsNestedValues) {
    BSONObj in = J("{a: {b: [1, {c: 2}]}}");
    BSONObj v = J("{'': 'new'}");
    MutableDocument doc(in);
    MutableElement* c = doc.root().childForPathPart("a")->childForPathPart("b")->childForPathPart("1")->childForPathPart("c");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->fieldName(), "c");
    c->setValue(doc.keep(v));
    doc.root().childForPathPart("a")->childForPathPart("b")->removeChild(0);
    EXPECT_TRUE(bsonIdentical(doc.toBSON(), "{a: {b: [{c: 'new'}]}}"));
    EXPECT_EQ(doc.root().childForPathPart("a")->childForPathPart("b")->child(0)->fieldName(), "0");
}

TEST(MutableDocument, ValueOfExpandedElementReflectsEdits) {
    BSONObj in = J("{a: {b: 1}}"), two = J("{'': 2}");
    MutableDocument doc(in);
    MutableElement* a = doc.root().childForPathPart("a");
    a->appendChild("c", two.firstElement());
    EXPECT_TRUE(bsonIdentical(a->value().Obj(), "{b: 1, c: 2}"));
}

TEST(MutableDocument, CreatePathPadsArrays) {
    MutableDocument doc(J("{a: [1]}"));
    BSONObj v = J("{'': 5}");
    createPathAt(doc.root().childForPathPart("a"), {"3", "x"}, v.firstElement());
    EXPECT_TRUE(bsonIdentical(doc.toBSON(), "{a: [1, null, null, {x: 5}]}"));
}

}  // namespace
}  // namespace mongo
