// OpTimeWaiters: a move of the optime wakes exactly the waiters it reached; wakeAll wakes every
// one; a waiter woken and still waiting is found by the next move; a waiter that leaves is gone.
#include "mongo/db/repl/optime_waiters.h"

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace mongo {
namespace repl {
namespace {

using namespace std::chrono_literals;

OpTime at(uint32_t secs) { return OpTime(Timestamp{secs, 1}, 1); }

// Threads that each wait for one optime until `reachedSoFar` passes it (as a majority writer
// waits for the commit point), counting their wakes.
struct WaitingThreads {
    std::mutex m;
    OpTimeWaiters list;
    OpTime reachedSoFar;
    std::atomic<int> wakes{0}, done{0};
    std::vector<std::thread> threads;

    void add(OpTime target) {
        threads.emplace_back([this, target] {
            std::unique_lock<std::mutex> lk(m);
            OpTimeWaiters::Waiter w(list, target);
            while (reachedSoFar < target) {
                w.waitFor(lk, 10s);
                ++wakes;
            }
            ++done;
        });
    }
    void waitRegistered(size_t n) {
        for (int i = 0; i < 1000; ++i) {
            {
                std::lock_guard<std::mutex> lk(m);
                if (list.waiting() == n) return;
            }
            std::this_thread::sleep_for(1ms);
        }
        FAIL() << "waiters did not register";
    }
    void reach(OpTime t) {
        std::lock_guard<std::mutex> lk(m);
        reachedSoFar = t;
        list.reached(t);
    }
    ~WaitingThreads() {
        {
            std::lock_guard<std::mutex> lk(m);
            reachedSoFar = at(1000);
            list.wakeAll();
        }
        for (auto& t : threads) t.join();
    }
};

TEST(OpTimeWaitersTest, AMoveWakesOnlyTheWaitersItReached) {
    WaitingThreads w;
    for (unsigned s = 1; s <= 8; ++s) w.add(at(s));
    w.waitRegistered(8);
    w.reach(at(3));
    for (int i = 0; i < 1000 && w.done.load() < 3; ++i) std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(w.done.load(), 3);
    EXPECT_EQ(w.wakes.load(), 3);  // the other five slept on
    std::lock_guard<std::mutex> lk(w.m);
    EXPECT_EQ(w.list.waiting(), 5u);
}

TEST(OpTimeWaitersTest, WakeAllWakesEveryWaiterAndTheUnsatisfiedWaitAgain) {
    WaitingThreads w;
    for (unsigned s = 1; s <= 4; ++s) w.add(at(10 + s));
    w.waitRegistered(4);
    {
        std::lock_guard<std::mutex> lk(w.m);
        w.list.wakeAll();  // a state change: all look, none is satisfied
    }
    for (int i = 0; i < 1000 && w.wakes.load() < 4; ++i) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(w.wakes.load(), 4);
    w.waitRegistered(4);  // registered again
    w.reach(at(14));
    for (int i = 0; i < 1000 && w.done.load() < 4; ++i) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(w.done.load(), 4);
}

TEST(OpTimeWaitersTest, AWaiterThatTimesOutAndLeavesIsRemoved) {
    std::mutex m;
    OpTimeWaiters list;
    std::unique_lock<std::mutex> lk(m);
    {
        OpTimeWaiters::Waiter w(list, at(5));
        w.waitFor(lk, 1ms);  // nobody moves the optime
        EXPECT_EQ(list.waiting(), 1u);
    }
    EXPECT_EQ(list.waiting(), 0u);
    list.reached(at(10));  // nothing left to wake (and nothing dangling)
    list.wakeAll();
}

TEST(OpTimeWaitersTest, EqualTargetsAreAllWoken) {
    WaitingThreads w;
    for (int i = 0; i < 3; ++i) w.add(at(7));
    w.add(at(8));
    w.waitRegistered(4);
    w.reach(at(7));
    for (int i = 0; i < 1000 && w.done.load() < 3; ++i) std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(w.done.load(), 3);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
