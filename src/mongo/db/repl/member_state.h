#pragma once
// MongoDB's replica-set member states: the numbers replSetGetStatus shows as myState/state and
// the names it shows as stateStr. DOWN and UNKNOWN are never a node's own state: they are what
// others see of a member they cannot reach (DOWN) or have not heard from yet (UNKNOWN).
// Plain values: thread safe.

namespace mongo {
namespace repl {

enum class MemberState {
    kStartup = 0,
    kPrimary = 1,
    kSecondary = 2,
    kRecovering = 3,
    kStartup2 = 5,
    kUnknown = 6,
    kArbiter = 7,
    kDown = 8,
    kRollback = 9,
    kRemoved = 10,
};

inline const char* memberStateString(MemberState s) {
    switch (s) {
        case MemberState::kStartup: return "STARTUP";
        case MemberState::kPrimary: return "PRIMARY";
        case MemberState::kSecondary: return "SECONDARY";
        case MemberState::kRecovering: return "RECOVERING";
        case MemberState::kStartup2: return "STARTUP2";
        case MemberState::kUnknown: return "UNKNOWN";
        case MemberState::kArbiter: return "ARBITER";
        case MemberState::kDown: return "DOWN";
        case MemberState::kRollback: return "ROLLBACK";
        case MemberState::kRemoved: return "REMOVED";
    }
    return "UNKNOWN";
}

}  // namespace repl
}  // namespace mongo
