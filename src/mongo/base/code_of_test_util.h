#pragma once
// For unit tests: the error code a piece of code throws (0 if it returns), and its message.
#include <functional>
#include <string>

#include "mongo/base/status.h"

namespace mongo {

inline int codeOf(const std::function<void()>& f, std::string* msg = nullptr) {
    try {
        f();
        return 0;
    } catch (const DBException& e) {
        if (msg) *msg = e.reason();
        return e.code();
    }
}

}  // namespace mongo
