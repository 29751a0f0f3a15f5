#pragma once
// Process-wide counters shown by serverStatus: opcounters and asserts.
// The command dispatcher increments them; all members are atomics (thread safe, relaxed).
#include <atomic>
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// serverStatus().opcounters. MongoDB's accounting: insert/update/delete count documents
// (or statements) per write command, query counts find commands (and legacy queries),
// getmore counts getMore commands, command counts every other command.
struct OpCounters {
    std::atomic<long long> insert{0};
    std::atomic<long long> query{0};
    std::atomic<long long> update{0};
    std::atomic<long long> deleted{0};  // "delete" in the output
    std::atomic<long long> getmore{0};
    std::atomic<long long> command{0};

    void gotInsert(long long n = 1) { insert.fetch_add(n, std::memory_order_relaxed); }
    void gotQuery() { query.fetch_add(1, std::memory_order_relaxed); }
    void gotUpdate(long long n = 1) { update.fetch_add(n, std::memory_order_relaxed); }
    void gotDelete(long long n = 1) { deleted.fetch_add(n, std::memory_order_relaxed); }
    void gotGetMore() { getmore.fetch_add(1, std::memory_order_relaxed); }
    void gotCommand() { command.fetch_add(1, std::memory_order_relaxed); }

    // {insert, query, update, delete, getmore, command} as NumberLong.
    BSONObj toBSON() const;
};
OpCounters& globalOpCounters();

// The dispatcher's per-command accounting, as mongod: find counts as query, getMore as
// getmore, other commands as command, except insert/update/delete, which count their
// documents/statements where they are executed (gotInsert(n), gotUpdate(n), gotDelete(n)).
void noteCommandForOpCounters(const std::string& cmdName);

// serverStatus().asserts: user counts user errors (uassert: errors replied to clients),
// regular counts internal errors, warning/msg/tripwire exist for shape compatibility.
struct AssertionCounters {
    std::atomic<int> regular{0};
    std::atomic<int> warning{0};
    std::atomic<int> msg{0};
    std::atomic<int> user{0};
    std::atomic<int> tripwire{0};
    std::atomic<int> rollovers{0};

    void gotUser() { user.fetch_add(1, std::memory_order_relaxed); }
    void gotRegular() { regular.fetch_add(1, std::memory_order_relaxed); }
    BSONObj toBSON() const;
};
AssertionCounters& globalAssertionCounters();

}  // namespace mongo
