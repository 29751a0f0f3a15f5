#include "mongo/db/repl/update_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

// Shell-style JSON ({a: 'x'}) to strict JSON for fromjson.
BSONObj J(const char* shell) {
    static const std::regex key(R"(([{,]\s*)([A-Za-z_$][A-Za-z0-9_$]*)\s*:)");
    std::string s = std::regex_replace(std::string(shell), key, "$1\"$2\":");
    for (auto& c : s)
        if (c == '\'') c = '"';
    return fromjson(s);
}

void expectDiff(const char* pre, const char* post, const char* diff) {
    BSONObj a = J(pre), b = J(post);
    BSONObj d = computeUpdateDiffAlways(a, b);
    EXPECT_EQ(d.jsonString(), J(diff).jsonString()) << pre << " -> " << post;
    EXPECT_TRUE(applyUpdateDiff(a, d).binaryEqual(b));
}

// The shapes MongoDB 7.0 logs for the common operators.
TEST(UpdateDiffTest, ShapesOfCommonUpdates) {
    expectDiff("{_id: 1, x: 1}", "{_id: 1, x: 2}", "{u: {x: 2}}");
    expectDiff("{_id: 1, x: 1, y: 1}", "{_id: 1, x: 1}", "{d: {y: false}}");
    expectDiff("{_id: 1, x: 1}", "{_id: 1, x: 1, z: 'a'}", "{i: {z: 'a'}}");
    expectDiff("{_id: 1, a: {b: 1, c: 'xxxxxxxxxxxxxxxxxxxx'}}", "{_id: 1, a: {b: 2, c: 'xxxxxxxxxxxxxxxxxxxx'}}",
               "{sa: {u: {b: 2}}}");
    expectDiff("{_id: 1, arr: [1, 2, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']}",
               "{_id: 1, arr: [1, 2, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 3]}", "{sarr: {a: true, u3: 3}}");
    expectDiff("{_id: 1, arr: [1, 2, 3, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']}", "{_id: 1, arr: [1, 2, 3]}",
               "{sarr: {a: true, l: 3}}");
    expectDiff("{_id: 1, x: 1}", "{_id: 1, x: 1}", "{}");
    // A type change is a replacement of the value, not a sub-diff.
    expectDiff("{_id: 1, x: {a: 1}}", "{_id: 1, x: [1]}", "{u: {x: [1]}}");
    expectDiff("{_id: 1, x: 1}", "{_id: 1, x: 1.0}", "{u: {x: 1.0}}");
}

TEST(UpdateDiffTest, FieldOrderChangesAreMovesToTheEnd) {
    expectDiff("{_id: 1, a: 1, b: 2}", "{_id: 1, b: 2, a: 1}", "{i: {a: 1}}");
    expectDiff("{_id: 1, a: 1, b: 2, c: 3}", "{_id: 1, c: 3, a: 1}", "{d: {b: false}, i: {a: 1}}");
}

TEST(UpdateDiffTest, ReplacementIsChosenWhenTheDiffIsNotSmaller) {
    BSONObj pre = J("{_id: 1, a: 1}"), post = J("{_id: 2, b: 2}");
    EXPECT_FALSE(computeUpdateDiff(pre, post).has_value());
    BSONObj big = J("{_id: 1, a: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', b: 1}");
    BSONObj big2 = J("{_id: 1, a: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', b: 2}");
    ASSERT_TRUE(computeUpdateDiff(big, big2).has_value());
}

TEST(UpdateDiffTest, ApplyingIsIdempotentAndToleratesMissingFields) {
    BSONObj diff = J("{d: {gone: false}, u: {x: 5}, i: {y: 1}, sn: {u: {k: 1}}, sarr: {a: true, u4: 9}}");
    BSONObj pre = J("{_id: 1, arr: [1]}");
    BSONObj once = applyUpdateDiff(pre, diff);
    EXPECT_EQ(once.jsonString(), J("{_id: 1, arr: [1, null, null, null, 9], x: 5, y: 1}").jsonString());
    EXPECT_TRUE(applyUpdateDiff(once, diff).binaryEqual(once));
}

TEST(UpdateDiffTest, MalformedDiffsAreErrorsNotCrashes) {
    BSONObj pre = J("{_id: 1, arr: [1, 2]}");
    for (const char* bad : {"{x: 1}", "{u: 1}", "{sarr: 5}", "{sarr: {a: true, ux: 1}}", "{sarr: {a: true, l: -1}}",
                            "{sarr: {a: true, q1: 1}}"}) {
        try {
            applyUpdateDiff(pre, J(bad));
            ADD_FAILURE() << bad;
        } catch (const DBException& e) {
            EXPECT_EQ(e.code(), int(ErrorCodes::FailedToParse)) << bad;
        }
    }
}

// Random documents with nested documents and arrays, mutated at random: the diff always
// turns the pre-image into the post-image exactly, and applying it twice changes nothing.
class RandomDocs {
public:
    explicit RandomDocs(uint32_t seed) : _rng(seed) {}
    int pick(int n) { return int(_rng() % uint32_t(n)); }

    void appendValue(BSONObjBuilder& b, const std::string& name, int depth) {
        switch (pick(depth > 2 ? 5 : 7)) {
            case 0: b.append(name, pick(5)); break;
            case 1: b.append(name, double(pick(5))); break;
            case 2: b.append(name, std::string(size_t(pick(30)), char('a' + pick(3)))); break;
            case 3: b.append(name, pick(2) == 0); break;
            case 4: b.appendNull(name); break;
            case 5: b.append(name, doc(depth + 1)); break;
            default: b.appendArray(name, array(depth + 1)); break;
        }
    }
    BSONObj doc(int depth) {
        BSONObjBuilder b;
        int n = pick(6);
        for (int k = 0; k < n; ++k) appendValue(b, "f" + std::to_string(pick(8)) + "_" + std::to_string(k), depth);
        return b.obj();
    }
    BSONObj array(int depth) {
        BSONObjBuilder b;
        int n = pick(6);
        for (int k = 0; k < n; ++k) appendValue(b, std::to_string(k), depth);
        return b.obj();
    }
    // A changed copy: fields dropped, values changed (recursively), fields added, reordered.
    BSONObj mutateDoc(const BSONObj& d, int depth) {
        std::vector<std::pair<std::string, BSONObj>> fields;  // name, wrapped value
        for (BSONElement e : d) {
            std::string name(e.fieldNameStringData());
            int r = pick(10);
            if (r == 0 && name != "_id") continue;  // dropped
            if (r <= 2 && name != "_id") {
                BSONObjBuilder b;
                if (e.type() == Object)
                    b.append(name, mutateDoc(e.embeddedObject(), depth + 1));
                else if (e.type() == Array)
                    b.appendArray(name, mutateArray(e.embeddedObject(), depth + 1));
                else
                    appendValue(b, name, depth);
                fields.emplace_back(name, b.obj());
                continue;
            }
            fields.emplace_back(name, e.wrap());
        }
        int adds = pick(3);
        for (int k = 0; k < adds; ++k) {
            std::string name = "n" + std::to_string(pick(1000));
            bool dup = false;
            for (auto& f : fields) dup = dup || f.first == name;
            if (dup) continue;
            BSONObjBuilder b;
            appendValue(b, name, depth);
            fields.emplace_back(name, b.obj());
        }
        if (pick(6) == 0 && fields.size() > 2) std::swap(fields[1], fields[fields.size() - 1]);
        BSONObjBuilder out;
        for (auto& f : fields) out.append(f.second.firstElement());
        return out.obj();
    }
    BSONObj mutateArray(const BSONObj& a, int depth) {
        std::vector<BSONObj> vals;
        for (BSONElement e : a) vals.push_back(e.wrap(""));
        if (!vals.empty() && pick(3) == 0) vals.resize(size_t(pick(int(vals.size()))));
        for (auto& v : vals) {
            if (pick(3) != 0) continue;
            BSONElement e = v.firstElement();
            BSONObjBuilder b;
            if (e.type() == Object)
                b.append("", mutateDoc(e.embeddedObject(), depth + 1));
            else
                appendValue(b, "", depth);
            v = b.obj();
        }
        int adds = pick(3);
        for (int k = 0; k < adds; ++k) {
            BSONObjBuilder b;
            appendValue(b, "", depth);
            vals.push_back(b.obj());
        }
        BSONObjBuilder out;
        for (size_t k = 0; k < vals.size(); ++k) out.appendAs(vals[k].firstElement(), std::to_string(k));
        return out.obj();
    }

private:
    std::mt19937 _rng;
};

TEST(UpdateDiffTest, RandomizedRoundTrips) {
    for (uint32_t seed = 1; seed <= 3000; ++seed) {
        RandomDocs g(seed);
        BSONObjBuilder b;
        b.append("_id", int(seed));
        b.appendElements(g.doc(0));
        BSONObj pre = b.obj();
        BSONObj post = g.mutateDoc(pre, 0);
        if (g.pick(2)) post = g.mutateDoc(post, 0);
        BSONObj d = computeUpdateDiffAlways(pre, post);
        BSONObj got = applyUpdateDiff(pre, d);
        ASSERT_TRUE(got.binaryEqual(post)) << "seed " << seed << "\npre  " << pre.jsonString() << "\npost "
                                           << post.jsonString() << "\ndiff " << d.jsonString() << "\ngot  "
                                           << got.jsonString();
        ASSERT_TRUE(applyUpdateDiff(got, d).binaryEqual(post)) << "not idempotent, seed " << seed;
        if (auto small = computeUpdateDiff(pre, post)) {
            EXPECT_LT(small->objsize(), post.objsize());
        }
    }
}

}  // namespace
}  // namespace repl
}  // namespace mongo
