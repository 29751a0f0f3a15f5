// WiredTigerSessionCache: idle sessions are pooled, and closed once idle for longer than
// wiredTigerSessionCloseIdleTimeSecs.
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "mongo/db/server_parameters.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_test_util.h"

namespace mongo {
namespace {

class IdleTimeSecs {
public:
    explicit IdleTimeSecs(const char* value) {
        _param = ServerParameterSet::global().find("wiredTigerSessionCloseIdleTimeSecs");
        EXPECT_TRUE(_param->setFromString(value).isOK());
    }
    ~IdleTimeSecs() { EXPECT_TRUE(_param->setFromString("300").isOK()); }

private:
    ServerParameter* _param;
};

TEST(WiredTigerSessionCacheTest, IdleSessionsAreReusedThenClosedWhenExpired) {
    TempDir dir;
    auto engine = StorageEngine::open(testEngineOptions(dir.path()));
    WiredTigerSessionCache* cache = static_cast<WiredTigerKVEngine*>(engine->kvEngine())->sessionCache();

    IdleTimeSecs idle("300");
    cache->closeExpiredIdleSessions();  // whatever start-up left idle
    auto a = cache->getSession();
    auto b = cache->getSession();
    WT_SESSION* wa = a->get();
    cache->releaseSession(std::move(a));
    cache->releaseSession(std::move(b));
    EXPECT_EQ(cache->closeExpiredIdleSessions(), 0u);  // not idle for 300 s yet
    EXPECT_GE(cache->idleSessionCount(), 2u);

    // Reused while pooled: the most recently released first, then the other.
    auto again = cache->getSession();
    auto other = cache->getSession();
    EXPECT_TRUE(again->get() == wa || other->get() == wa);
    cache->releaseSession(std::move(again));
    cache->releaseSession(std::move(other));

    IdleTimeSecs zero("0");  // the engine's thread may close them first: either way they go
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    cache->closeExpiredIdleSessions();
    EXPECT_EQ(cache->idleSessionCount(), 0u);
    // The cache still works: a new session is opened.
    auto fresh = cache->getSession();
    EXPECT_NE(fresh->get(), nullptr);
    cache->releaseSession(std::move(fresh));
}

TEST(WiredTigerSessionCacheTest, ParameterIsBounded) {
    auto* p = ServerParameterSet::global().find("wiredTigerSessionCloseIdleTimeSecs");
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->setFromString("-1").isOK());
    BSONObjBuilder b;
    p->append(b, "v");
    EXPECT_EQ(b.obj()["v"].numberInt(), 300);
}

}  // namespace
}  // namespace mongo
