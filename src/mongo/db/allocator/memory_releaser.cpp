#include "mongo/db/allocator/memory_releaser.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mongo/db/allocator/allocator.h"
#include "mongo/util/log.h"

namespace mongo::allocator {

int FreeMemoryReleasePolicy::windowSeconds(double releaseRate) {
    if (!(releaseRate > 0)) return 0;  // 0 (and NaN): never release
    double w = std::ceil(10.0 / releaseRate);
    return static_cast<int>(std::clamp(w, 1.0, 600.0));
}

size_t FreeMemoryReleasePolicy::onSample(size_t pageHeapFreeBytes, double releaseRate) {
    const int window = windowSeconds(releaseRate);
    if (window == 0) {
        _window.clear();
        return 0;
    }
    _window.push_back(pageHeapFreeBytes);
    while (_window.size() > static_cast<size_t>(window)) _window.pop_front();
    if (_window.size() < static_cast<size_t>(window)) return 0;
    // What was free at every sample of the window was not needed during it.
    size_t idle = *std::min_element(_window.begin(), _window.end());
    if (idle < kMinReleaseBytes) return 0;
    // The samples so far describe memory that is about to be released: start a new window.
    _window.clear();
    return idle;
}

MemoryReleaser& MemoryReleaser::get() {
    static MemoryReleaser releaser;
    return releaser;
}

void MemoryReleaser::start() {
    if (!isTcmalloc() || _thread.joinable()) return;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _shuttingDown = false;
    }
    _thread = std::thread([this] { run(); });
}

void MemoryReleaser::shutdown() {
    if (!_thread.joinable()) return;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _shuttingDown = true;
    }
    _cv.notify_all();
    _thread.join();
}

void MemoryReleaser::run() {
    logv2::setThreadName("tcmallocReleaser");
    FreeMemoryReleasePolicy policy;
    std::unique_lock<std::mutex> lk(_mutex);
    while (!_cv.wait_for(lk, std::chrono::seconds(1), [this] { return _shuttingDown; })) {
        lk.unlock();
        size_t release = policy.onSample(numericProperty("tcmalloc.pageheap_free_bytes").value_or(0), releaseRate());
        if (release) releaseToSystem(release);
        lk.lock();
    }
}

}  // namespace mongo::allocator
