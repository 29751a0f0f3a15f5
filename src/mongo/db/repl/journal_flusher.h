#pragma once
// JournalFlusher: one thread that makes what this member applied durable and publishes how far
// it got (the coordinator's flushOnce), as MongoDB's JournalFlusher: at once when asked (a
// majority write or read waiting on the primary, a batch applied on a secondary), and every
// interval otherwise so that the durable optime, and with it the commit point, follows w: 1
// writes too.
//
// Why a thread rather than an fsync in each waiter: requests made while a flush runs are all
// served by the next one (group commit), a writer waiting for a majority no longer fsyncs
// before its wait (the primary's flush runs beside the secondaries' replication), and a
// secondary's fetcher asks for the next batch while the last one is being made durable.
// Thread safety: every method may be called from any thread.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace mongo {
namespace repl {

class JournalFlusher {
public:
    JournalFlusher() = default;
    ~JournalFlusher() { stop(); }
    JournalFlusher(const JournalFlusher&) = delete;
    JournalFlusher& operator=(const JournalFlusher&) = delete;

    // Starts the thread; flushOnce runs on it (never concurrently with itself) and must not throw.
    void start(std::function<void()> flushOnce, std::chrono::milliseconds interval);
    // Waits for a flush under way, then ends the thread. Requests made afterwards are ignored.
    void stop();
    // A flush soon: the next one starts once the current one (if any) ended.
    void request();

private:
    void run();

    std::mutex _mutex;
    std::condition_variable _cv;
    bool _requested = false;
    bool _stopping = false;
    std::chrono::milliseconds _interval{100};
    std::function<void()> _flushOnce;
    std::thread _thread;
};

}  // namespace repl
}  // namespace mongo
