#pragma once
// Gives memory the server no longer uses back to the operating system.
//
// gperftools' tcmalloc keeps what is freed in its page heap and returns it to the system only
// a little at a time, and only while the program keeps freeing (the release rate): an idle
// server after a load keeps its peak RSS for ever. MongoDB 7.0 has the same behaviour; MongoDB
// 8.0 adds a background thread (tcmallocEnableBackgroundThread) for it. This is that thread,
// with 7.0's knob: once a second it samples the page heap's free bytes, and the bytes that
// stayed free for the whole of the last window (10 s / tcmallocReleaseRate, so 10 s by default,
// 1 s at the maximum rate 10) go back to the system. Memory a load keeps reusing is not
// released (no page-fault churn); memory left over after a load is, within the window.
// tcmallocReleaseRate=0 (tcmalloc's "never release") turns it off.
//
// Thread safety: start/shutdown from the main thread. FreeMemoryReleasePolicy is not thread
// safe (one owner: the thread).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>

namespace mongo::allocator {

// The decision alone, without tcmalloc or a clock, so that it can be tested.
class FreeMemoryReleasePolicy {
public:
    // Releases smaller than this are not worth a system call.
    static constexpr size_t kMinReleaseBytes = 1 << 20;

    // Seconds a byte must stay free before it is released, for a release rate (0: never).
    static int windowSeconds(double releaseRate);

    // One sample a second: the page heap's free bytes now, and the release rate now.
    // Returns the bytes to release now (0 for none).
    size_t onSample(size_t pageHeapFreeBytes, double releaseRate);

private:
    std::deque<size_t> _window;  // the last windowSeconds samples, oldest first
};

class MemoryReleaser {
public:
    static MemoryReleaser& get();

    // Starts the thread (nothing when the allocator is not tcmalloc) / stops and joins it.
    void start();
    void shutdown();

private:
    void run();

    std::mutex _mutex;
    std::condition_variable _cv;
    bool _shuttingDown = false;
    std::thread _thread;
};

}  // namespace mongo::allocator
