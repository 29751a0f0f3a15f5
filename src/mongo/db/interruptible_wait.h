#pragma once
// A wait a command can block in, holding no locks, that ends at once (no polling) when:
//   - another thread wakes it (InterruptibleWaiter::wake(): an insert committed, ...),
//   - the operation is killed (OperationContext::markKilled(): killOp, killCursors of the
//     cursor the command works on),
//   - the server shuts down (setGlobalInShutdown() wakes every wait; TransportLayer::shutdown()
//     also shuts the sockets down),
//   - the client's connection closes (the wait watches the client's socket for a hang-up),
//   - or a deadline passes.
// The thread sleeps in poll(2) on an eventfd and the client's socket. Used by awaitData
// getMores (db/catalog/capped_insert_notifier.h); anything that must wait for an event on
// behalf of a client can use it.
#include <chrono>

#include "mongo/db/operation_context.h"

namespace mongo {

class InterruptibleWaiter {
public:
    // Registers as opCtx's interrupt waker (OperationContext::setInterruptWaker) and in the
    // process-wide set that shutdown wakes. opCtx must outlive the waiter.
    explicit InterruptibleWaiter(OperationContext* opCtx);
    ~InterruptibleWaiter();
    InterruptibleWaiter(const InterruptibleWaiter&) = delete;
    InterruptibleWaiter& operator=(const InterruptibleWaiter&) = delete;

    // Thread safe. A wake before waitUntil() makes the next waitUntil() return at once.
    void wake();

    // Called by the owning thread only. Blocks until wake() or the deadline (or the
    // operation's own maxTimeMS deadline, if earlier). Returns true when woken, false when
    // the deadline passed. Throws the operation's interruption error (the kill code,
    // InterruptedAtShutdown, MaxTimeMSExpired) and ClientDisconnect when the client hung up
    // (the operation is then marked killed with it).
    bool waitUntil(std::chrono::steady_clock::time_point deadline);

private:
    OperationContext* _opCtx;
    int _eventFd;
};

// Wakes every InterruptibleWaiter (at shutdown, after globalInShutdown() became true).
void wakeAllInterruptibleWaits();

}  // namespace mongo
