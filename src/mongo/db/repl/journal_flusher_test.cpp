// JournalFlusher: a request leads to a flush soon; requests made while one runs are served by
// one more flush (group commit), not one each; the interval flushes with no request; stop waits
// for the flush under way and ends the thread.
#include "mongo/db/repl/journal_flusher.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

namespace mongo {
namespace repl {
namespace {

using namespace std::chrono_literals;

// Waits up to a few seconds for pred (the flusher runs on its own thread).
template <typename P>
bool eventually(P pred) {
    for (int i = 0; i < 500; ++i) {
        if (pred()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return pred();
}

TEST(JournalFlusherTest, RequestLeadsToAFlush) {
    std::atomic<int> flushes{0};
    JournalFlusher f;
    f.start([&] { ++flushes; }, std::chrono::hours(1));
    f.request();
    EXPECT_TRUE(eventually([&] { return flushes.load() >= 1; }));
    f.stop();
}

TEST(JournalFlusherTest, RequestsDuringAFlushShareTheNextOne) {
    std::mutex m;
    std::condition_variable cv;
    bool release = false;
    std::atomic<int> flushes{0}, started{0};
    JournalFlusher f;
    f.start(
        [&] {
            ++started;
            std::unique_lock<std::mutex> lk(m);
            cv.wait(lk, [&] { return release; });
            ++flushes;
        },
        std::chrono::hours(1));
    f.request();
    ASSERT_TRUE(eventually([&] { return started.load() == 1; }));
    for (int i = 0; i < 10; ++i) f.request();  // while the first flush is held
    {
        std::lock_guard<std::mutex> lk(m);
        release = true;
    }
    cv.notify_all();
    ASSERT_TRUE(eventually([&] { return flushes.load() == 2; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(flushes.load(), 2);  // the ten requests were one more flush, not ten
    f.stop();
}

TEST(JournalFlusherTest, FlushesEveryIntervalWithoutRequests) {
    std::atomic<int> flushes{0};
    JournalFlusher f;
    f.start([&] { ++flushes; }, 5ms);
    EXPECT_TRUE(eventually([&] { return flushes.load() >= 3; }));
    f.stop();
}

TEST(JournalFlusherTest, StopEndsTheThreadAndLaterRequestsAreIgnored) {
    std::atomic<int> flushes{0};
    JournalFlusher f;
    f.start([&] { ++flushes; }, std::chrono::hours(1));
    f.stop();
    f.request();
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(flushes.load(), 0);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
