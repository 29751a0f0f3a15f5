#include "mongo/db/repl/journal_flusher.h"

#include "mongo/util/log.h"

namespace mongo {
namespace repl {

void JournalFlusher::start(std::function<void()> flushOnce, std::chrono::milliseconds interval) {
    stop();
    std::lock_guard<std::mutex> lk(_mutex);
    _flushOnce = std::move(flushOnce);
    _interval = interval;
    _stopping = false;
    _requested = false;
    _thread = std::thread([this] { run(); });
}

void JournalFlusher::stop() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _stopping = true;
    }
    _cv.notify_all();
    if (_thread.joinable()) _thread.join();
}

void JournalFlusher::request() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_requested) return;  // the flush to come serves this request too
        _requested = true;
    }
    _cv.notify_one();
}

void JournalFlusher::run() {
    logv2::setThreadName("JournalFlusher");
    std::unique_lock<std::mutex> lk(_mutex);
    while (!_stopping) {
        if (!_requested) _cv.wait_for(lk, _interval, [this] { return _requested || _stopping; });
        if (_stopping) break;
        // Taken before the flush: what is asked from now on needs the next one.
        _requested = false;
        lk.unlock();
        _flushOnce();
        lk.lock();
    }
}

}  // namespace repl
}  // namespace mongo
