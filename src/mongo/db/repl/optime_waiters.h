#pragma once
// OpTimeWaiters: the threads that wait for an optime to be reached (on a primary, the
// w: "majority" writers and the majority and linearizable readers waiting on the commit point),
// each woken only when its own optime is reached, or when all must look again (a state change,
// shutdown). As MongoDB's replication waiter list.
//
// Why not one condition variable: under w: "majority" every commit-point move woke every waiting
// writer (32 clients: 32 threads), of which the one or two whose write had just committed went
// on and the rest took the coordinator's mutex to go back to sleep. On a machine the set
// saturates, those wakes cost more CPU than the writes they waited for.
//
// Thread safety: every method, and Waiter's constructor, destructor and waitFor, REQUIRE the
// owner's mutex (the replication coordinator's): the list has no lock of its own.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>

#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

class OpTimeWaiters {
public:
    // One waiting thread, registered for its lifetime (a local of the waiting function).
    class Waiter {
    public:
        Waiter(OpTimeWaiters& list, const OpTime& target) : _list(list), _target(target) {}
        ~Waiter() {
            if (_registered) _list._waiters.erase(_it);
        }
        Waiter(const Waiter&) = delete;
        Waiter& operator=(const Waiter&) = delete;

        // Waits until woken (its optime reached, or wakeAll) or `max` passed. lk holds the
        // owner's mutex on entry and on return. The caller checks its condition again: a wake
        // says "look", not "done" (wakeAll wakes every waiter).
        void waitFor(std::unique_lock<std::mutex>& lk, std::chrono::milliseconds max);

    private:
        friend class OpTimeWaiters;
        OpTimeWaiters& _list;
        OpTime _target;
        std::condition_variable _cv;
        bool _registered = false;
        std::multimap<OpTime, Waiter*>::iterator _it;
    };

    // Wakes the waiters whose optime is at or before `reached`.
    void reached(const OpTime& reached);
    // Wakes every waiter (the state changed, or the server shuts down).
    void wakeAll();
    size_t waiting() const { return _waiters.size(); }

private:
    void wake(std::multimap<OpTime, Waiter*>::iterator end);

    std::multimap<OpTime, Waiter*> _waiters;  // by target optime
};

}  // namespace repl
}  // namespace mongo
