// The collation option and the ICU collator behind it (collator.h, collation_spec.h).
#include <gtest/gtest.h>

#include "mongo/db/query/collation_spec.h"

namespace mongo {
namespace {

int codeOf(const std::string& json) {
    BSONObj holder = fromjson(json);
    try {
        parseCollationOption(holder["collation"], "find.collation");
        return 0;
    } catch (const DBException& e) {
        return e.code();
    }
}

CollatorPtr make(const std::string& json) { return Collator::make(fromjson(json)); }

TEST(CollationSpecTest, AbsentEmptyAndSimple) {
    EXPECT_FALSE(parseCollationOption(BSONElement(), "x").given);
    BSONObj empty = fromjson(R"({"collation": {}})");
    EXPECT_FALSE(parseCollationOption(empty["collation"], "x").given);
    BSONObj simple = fromjson(R"({"collation": {"locale": "simple"}})");
    CollationOption o = parseCollationOption(simple["collation"], "x");
    EXPECT_TRUE(o.given);
    EXPECT_EQ(o.collator, nullptr);
}

TEST(CollationSpecTest, ErrorsHaveMongoDBCodes) {
    EXPECT_EQ(codeOf(R"({"collation": "fr"})"), 14);
    EXPECT_EQ(codeOf(R"({"collation": {"strength": 2}})"), 40414);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": 1}})"), 14);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "xx_invalid"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "root"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "simple", "strength": 2}})"), 9);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "bogus": 1}})"), 40415);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "strength": 6}})"), 51024);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "strength": -1}})"), 51024);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "strength": 0}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "caseFirst": "x"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "alternate": "x"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "maxVariable": "x"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "caseLevel": 1}})"), 14);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "version": "1.0"}})"), 161);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en", "version": "57.1"}})"), 0);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "de@collation=phonebook"}})"), 0);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "de@collation=nonsense"}})"), 2);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "fr_CA"}})"), 0);
    EXPECT_EQ(codeOf(R"({"collation": {"locale": "en_US"}})"), 0);
}

TEST(CollatorTest, FullFormWithLocaleDefaults) {
    EXPECT_EQ(make(R"({"locale": "en"})")->spec().jsonString(),
              R"({ "locale" : "en", "caseLevel" : false, "caseFirst" : "off", "strength" : 3, )"
              R"("numericOrdering" : false, "alternate" : "non-ignorable", "maxVariable" : "punct", )"
              R"("normalization" : false, "backwards" : false, "version" : "57.1" })");
    EXPECT_TRUE(make(R"({"locale": "fr_CA"})")->spec()["backwards"].boolean());
    CollatorPtr c = make(R"({"locale": "en", "strength": 2, "caseFirst": "upper", "alternate": "shifted"})");
    EXPECT_EQ(c->spec()["strength"].numberInt(), 2);
    EXPECT_EQ(c->spec()["caseFirst"].str(), "upper");
    EXPECT_EQ(c->spec()["alternate"].str(), "shifted");
    // The full form parses back to the same collation (listIndexes output fed to createIndexes).
    EXPECT_TRUE(sameCollation(Collator::make(c->spec()), c));
    EXPECT_FALSE(sameCollation(c, make(R"({"locale": "en"})")));
    EXPECT_FALSE(sameCollation(c.get(), nullptr));
}

TEST(CollatorTest, ComparesAsICU) {
    CollatorPtr s2 = make(R"({"locale": "en", "strength": 2})");
    EXPECT_EQ(s2->compare("abc", "ABC"), 0);
    EXPECT_LT(s2->compare("abc", "abd"), 0);
    EXPECT_NE(s2->compare("cafe", "café"), 0);
    CollatorPtr s1 = make(R"({"locale": "en", "strength": 1})");
    EXPECT_EQ(s1->compare("cafe", "Café"), 0);
    CollatorPtr s3 = make(R"({"locale": "en"})");
    EXPECT_LT(s3->compare("a", "A"), 0);  // lower first at tertiary strength
    EXPECT_LT(s3->compare("a", "B"), 0);  // unlike bytewise order
    CollatorPtr upper = make(R"({"locale": "en", "caseFirst": "upper"})");
    EXPECT_LT(upper->compare("A", "a"), 0);
    CollatorPtr num = make(R"({"locale": "en", "numericOrdering": true})");
    EXPECT_LT(num->compare("2", "10"), 0);
    EXPECT_GT(s3->compare("2", "10"), 0);
    CollatorPtr shifted = make(R"({"locale": "en", "alternate": "shifted"})");
    EXPECT_EQ(shifted->compare("a b", "ab"), 0);
    EXPECT_NE(s3->compare("a b", "ab"), 0);
    CollatorPtr phonebook = make(R"({"locale": "de@collation=phonebook"})");
    CollatorPtr de = make(R"({"locale": "de"})");
    // Phonebook German sorts ü as ue ("Mueller" < "Mull"); standard German as u ("Muller" > "Mull").
    EXPECT_LT(phonebook->compare("Müller", "Mull"), 0);
    EXPECT_GT(de->compare("Müller", "Mull"), 0);
    CollatorPtr frCA = make(R"({"locale": "fr_CA"})");
    // Backwards secondary: accents compared from the end ("cote" < "côte" < "coté" < "côté").
    EXPECT_LT(frCA->compare("côte", "coté"), 0);
    EXPECT_GT(make(R"({"locale": "fr"})")->compare("côte", "coté"), 0);
}

TEST(CollatorTest, KeysOrderAsCompare) {
    CollatorPtr c = make(R"({"locale": "en", "strength": 2, "numericOrdering": true})");
    const char* words[] = {"a", "A", "b", "B10", "b9", "é", "e", "", "zz"};
    for (const char* x : words)
        for (const char* y : words) {
            int k = c->comparisonKey(x).compare(c->comparisonKey(y));
            int d = c->compare(x, y);
            EXPECT_EQ(k < 0, d < 0) << x << " " << y;
            EXPECT_EQ(k == 0, d == 0) << x << " " << y;
        }
    BSONObj doc = fromjson(R"({"a": "X", "b": ["y", 1, {"c": "Z"}], "n": 5})");
    BSONObj keys = toComparisonKeys(doc, c.get());
    EXPECT_EQ(keys["n"].numberInt(), 5);
    EXPECT_EQ(keys["a"].str(), c->comparisonKey("X"));
    EXPECT_EQ(keys["b"].Obj()["2"].Obj()["c"].str(), c->comparisonKey("Z"));
    EXPECT_TRUE(toComparisonKeys(doc, nullptr).binaryEqual(doc));
}

TEST(CollatorTest, BSONComparisonUsesIt) {
    CollatorPtr c = make(R"({"locale": "en", "strength": 2})");
    BSONObj a = fromjson(R"({"x": "abc", "y": ["Q"]})"), b = fromjson(R"({"x": "ABC", "y": ["q"]})");
    EXPECT_NE(a.woCompare(b), 0);
    EXPECT_EQ(a.woCompare(b, true, c.get()), 0);
    // Field names never follow the collation.
    BSONObj n1 = fromjson(R"({"x": 1})"), n2 = fromjson(R"({"X": 1})");
    EXPECT_NE(n1.woCompare(n2, true, c.get()), 0);
}

}  // namespace
}  // namespace mongo
