#include "mongo/db/interruptible_wait.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <set>

namespace mongo {
namespace {

struct Registry {
    std::mutex mutex;
    std::set<InterruptibleWaiter*> waiters;
};

Registry& registry() {
    static Registry* r = new Registry();  // never destroyed: waits may end during exit
    return *r;
}

}  // namespace

InterruptibleWaiter::InterruptibleWaiter(OperationContext* opCtx) : _opCtx(opCtx) {
    _eventFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (_eventFd < 0)
        uasserted(ErrorCodes::InternalError, std::string("eventfd failed: ") + std::strerror(errno));
    {
        std::lock_guard<std::mutex> lk(registry().mutex);
        registry().waiters.insert(this);
    }
    _opCtx->setInterruptWaker([this] { wake(); });
}

InterruptibleWaiter::~InterruptibleWaiter() {
    // After these two, no thread can reach wake() any more.
    _opCtx->setInterruptWaker({});
    {
        std::lock_guard<std::mutex> lk(registry().mutex);
        registry().waiters.erase(this);
    }
    ::close(_eventFd);
}

void InterruptibleWaiter::wake() {
    uint64_t one = 1;
    // EAGAIN only when the counter is saturated, i.e. a wake is already pending.
    while (::write(_eventFd, &one, sizeof(one)) < 0 && errno == EINTR) {
    }
}

bool InterruptibleWaiter::waitUntil(std::chrono::steady_clock::time_point deadline) {
    using namespace std::chrono;
    Client* client = _opCtx->getClient();
    const int sock = client ? client->socketFd : -1;
    while (true) {
        _opCtx->checkForInterrupt();  // killed, shutting down, or its own maxTimeMS passed
        auto now = steady_clock::now();
        if (now >= deadline) return false;
        auto until = std::min(deadline, _opCtx->deadline());
        // Round up, so that the wait never ends just short of the deadline and spins.
        long long ms = until > now ? duration_cast<milliseconds>(until - now + microseconds(999)).count() : 1;
        int timeout = static_cast<int>(std::min<long long>(std::max<long long>(ms, 1), INT_MAX));

        pollfd fds[2];
        fds[0] = {_eventFd, POLLIN, 0};
        nfds_t n = 1;
        if (sock >= 0) {
            // Only a hang-up: data the client might send early stays unread for the session.
            fds[1] = {sock, POLLRDHUP, 0};
            n = 2;
        }
        int rc = ::poll(fds, n, timeout);
        if (rc < 0) {
            if (errno == EINTR) continue;
            uasserted(ErrorCodes::InternalError, std::string("poll failed: ") + std::strerror(errno));
        }
        if (rc == 0) continue;
        if (n == 2 && (fds[1].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) {
            // The client went away, or shutdown shut its socket down.
            if (!globalInShutdown()) _opCtx->markKilled(ErrorCodes::ClientDisconnect);
            _opCtx->checkForInterrupt();
        }
        if (fds[0].revents & POLLIN) {
            uint64_t count;
            while (::read(_eventFd, &count, sizeof(count)) < 0 && errno == EINTR) {
            }
            _opCtx->checkForInterrupt();  // a kill wakes too: report it rather than a wake
            return true;
        }
    }
}

void wakeAllInterruptibleWaits() {
    std::lock_guard<std::mutex> lk(registry().mutex);
    for (InterruptibleWaiter* w : registry().waiters) w->wake();
}

}  // namespace mongo
