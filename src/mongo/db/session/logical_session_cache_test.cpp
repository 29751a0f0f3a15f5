// The parts of the session cache that need no storage: ids, digests, the active set.
#include <gtest/gtest.h>

#include "mongo/bson/uuid.h"
#include "mongo/db/commands/sessions_cmds.h"
#include "mongo/db/session/logical_session_cache.h"
#include "mongo/db/session/logical_session_id.h"

namespace mongo {
namespace {

std::string hexOf(const std::string& bytes) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (unsigned char c : bytes) {
        s += d[c >> 4];
        s += d[c & 15];
    }
    return s;
}

bool listed(const std::vector<BSONObj>& docs, const BSONObj& lsid) {
    for (const BSONObj& d : docs)
        if (d["_id"].Obj()["id"].binaryEqual(lsid["id"])) return true;
    return false;
}

TEST(LogicalSessionId, DigestsAreMongoDBs) {
    // SHA-256 of "": the uid of every session on a server without authentication.
    EXPECT_EQ(hexOf(noAuthUserDigest()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(userDigest("", ""), noAuthUserDigest());
    EXPECT_EQ(userDigest("u", "admin").size(), 32u);
    EXPECT_NE(userDigest("u", "admin"), userDigest("admin", "u"));
}

TEST(LogicalSessionId, SessionIdCarriesTheOwner) {
    BSONObj lsid = makeLogicalSessionId();
    BSONObj full = sessionIdWithUid(lsid);
    EXPECT_TRUE(full["id"].binaryEqual(lsid["id"]));
    int len = 0, subtype = -1;
    const char* uid = full["uid"].binData(&len, &subtype);
    EXPECT_EQ(subtype, 0);
    EXPECT_EQ(std::string(uid, len), noAuthUserDigest());
    EXPECT_EQ(lsidIdHex(lsid), uuidHexFromElement(lsid["id"]));
    EXPECT_FALSE(lsidIdHex(BSONObj()).has_value());
}

TEST(LogicalSessionCache, ActiveUntilEnded) {
    auto& cache = LogicalSessionCache::get();
    BSONObj a = makeLogicalSessionId(), b = makeLogicalSessionId();
    cache.vivify(a);
    cache.vivify(b);
    cache.vivify(BSONObj());  // no id: ignored
    auto all = cache.listLocalSessions(std::nullopt);
    EXPECT_TRUE(listed(all, a) && listed(all, b));
    EXPECT_TRUE(listed(cache.listLocalSessions(std::set<std::string>{noAuthUserDigest()}), a));
    EXPECT_FALSE(listed(cache.listLocalSessions(std::set<std::string>{userDigest("u", "admin")}), a));
    cache.endSessions({a});
    all = cache.listLocalSessions(std::nullopt);
    EXPECT_FALSE(listed(all, a));
    EXPECT_TRUE(listed(all, b));
    cache.endSessions({b});
}

}  // namespace
}  // namespace mongo
