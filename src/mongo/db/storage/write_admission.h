#pragma once
// Write admission: the point where a client's document write waits, before it takes the
// write lock (catalog_lock.h), for the storage layer to have room for it. The dedup service
// installs a hook that holds writers back while its encoder's backlog is full (under
// --dedupBacklogPolicy throttle) and lets its write-back batches take the write lock ahead
// of queued writers. Waiting happens with no lock held, so the background work the writer
// waits for can always run.
//
// Thread safety: setWriteAdmissionHook is called once at start-up, before clients connect;
// admitWrite may be called from any thread.
#include <atomic>
#include <functional>

namespace mongo {

class OperationContext;

using WriteAdmissionHook = std::function<void(OperationContext*)>;

void setWriteAdmissionHook(WriteAdmissionHook hook);

// Called by every client write (insert, update, delete, findAndModify) before it takes the
// write lock. May block; throws the operation's interruption error (killOp, maxTimeMS,
// shutdown) while it waits.
void admitWrite(OperationContext* opCtx);

// Background work (the dedup write-backs) waiting for the write lock. A long client write
// (the batches of an insert_many, the documents of a multi-update or delete) checks it between
// its units of work and, when it is non-zero, releases the write lock and calls admitWrite:
// otherwise a stream of large writes keeps the write-backs out for whole commands, and the
// raw bytes they would replace reach the disk.
std::atomic<int>& backgroundWriteLockWaiters();

}  // namespace mongo
