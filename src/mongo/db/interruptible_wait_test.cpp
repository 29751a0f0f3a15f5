#include "mongo/db/interruptible_wait.h"

#include <gtest/gtest.h>

#include "mongo/base/code_of_test_util.h"
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "mongo/db/catalog/capped_insert_notifier.h"

namespace mongo {
namespace {

using namespace std::chrono;
using Clock = steady_clock;

// Generous bounds: these tests check that waits end because of the event, not how fast.
constexpr auto kLong = seconds(30);
constexpr auto kEarly = seconds(10);

class InterruptibleWaitTest : public ::testing::Test {
protected:
    Client client{1, "test"};
    OperationContext opCtx{&client, nullptr};
};

TEST_F(InterruptibleWaitTest, WakeBeforeWaitIsNotLost) {
    InterruptibleWaiter w(&opCtx);
    w.wake();
    auto t0 = Clock::now();
    EXPECT_TRUE(w.waitUntil(Clock::now() + kLong));
    EXPECT_LT(Clock::now() - t0, kEarly);
}

TEST_F(InterruptibleWaitTest, ReturnsFalseAtTheDeadline) {
    InterruptibleWaiter w(&opCtx);
    auto t0 = Clock::now();
    EXPECT_FALSE(w.waitUntil(t0 + milliseconds(50)));
    EXPECT_GE(Clock::now() - t0, milliseconds(50));
}

TEST_F(InterruptibleWaitTest, WakeFromAnotherThread) {
    InterruptibleWaiter w(&opCtx);
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(50));
        w.wake();
    });
    auto t0 = Clock::now();
    EXPECT_TRUE(w.waitUntil(t0 + kLong));
    EXPECT_LT(Clock::now() - t0, kEarly);
    t.join();
}

TEST_F(InterruptibleWaitTest, KillEndsTheWaitWithItsCode) {
    InterruptibleWaiter w(&opCtx);
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(50));
        opCtx.markKilled(ErrorCodes::CursorKilled);
    });
    auto t0 = Clock::now();
    EXPECT_EQ(codeOf([&] { w.waitUntil(t0 + kLong); }), static_cast<int>(ErrorCodes::CursorKilled));
    EXPECT_LT(Clock::now() - t0, kEarly);
    t.join();
    // The first kill wins.
    opCtx.markKilled(ErrorCodes::Interrupted);
    EXPECT_EQ(codeOf([&] { opCtx.checkForInterrupt(); }), static_cast<int>(ErrorCodes::CursorKilled));
}

TEST_F(InterruptibleWaitTest, OperationDeadlineStillApplies) {
    opCtx.setDeadlineAfterMillis(50);
    InterruptibleWaiter w(&opCtx);
    auto t0 = Clock::now();
    EXPECT_EQ(codeOf([&] { w.waitUntil(t0 + kLong); }), static_cast<int>(ErrorCodes::MaxTimeMSExpired));
    EXPECT_LT(Clock::now() - t0, kEarly);
}

TEST_F(InterruptibleWaitTest, ClientHangUpThrowsClientDisconnect) {
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    client.socketFd = sv[0];
    InterruptibleWaiter w(&opCtx);
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(50));
        ::close(sv[1]);
    });
    auto t0 = Clock::now();
    EXPECT_EQ(codeOf([&] { w.waitUntil(t0 + kLong); }), static_cast<int>(ErrorCodes::ClientDisconnect));
    EXPECT_LT(Clock::now() - t0, kEarly);
    t.join();
    ::close(sv[0]);
}

TEST_F(InterruptibleWaitTest, DataFromTheClientDoesNotEndTheWait) {
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    client.socketFd = sv[0];
    ASSERT_EQ(::write(sv[1], "x", 1), 1);
    InterruptibleWaiter w(&opCtx);
    auto t0 = Clock::now();
    EXPECT_FALSE(w.waitUntil(t0 + milliseconds(50)));
    ::close(sv[0]);
    ::close(sv[1]);
}

TEST_F(InterruptibleWaitTest, CappedInsertNotifierWakesWaiters) {
    CappedInsertNotifier n;
    uint64_t seen = n.version();
    // Already changed: no wait.
    n.notifyAll();
    EXPECT_TRUE(n.waitForChange(&opCtx, seen, Clock::now() + kLong));
    seen = n.version();
    EXPECT_FALSE(n.waitForChange(&opCtx, seen, Clock::now() + milliseconds(30)));
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(50));
        n.notifyAll();
    });
    auto t0 = Clock::now();
    EXPECT_TRUE(n.waitForChange(&opCtx, seen, t0 + kLong));
    EXPECT_LT(Clock::now() - t0, kEarly);
    t.join();
    EXPECT_EQ(n.version(), seen + 1);
}

TEST_F(InterruptibleWaitTest, CappedInsertNotifierWaitIsInterruptible) {
    CappedInsertNotifier n;
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(50));
        opCtx.markKilled();
    });
    EXPECT_EQ(codeOf([&] { n.waitForChange(&opCtx, n.version(), Clock::now() + kLong); }),
              static_cast<int>(ErrorCodes::Interrupted));
    t.join();
    // A later notification finds no stale waiter.
    n.notifyAll();
}

}  // namespace
}  // namespace mongo
