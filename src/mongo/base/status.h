#pragma once
// Status: the error currency of every layer (MongoDB's numeric codes, see error_codes.h).
// DBException carries a Status through the command layer; uassert raises one for user errors,
// invariant() aborts on programming errors (never for bad input).
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "mongo/base/error_codes.h"

namespace mongo {

// s with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD.
// Status reasons go through it: they often quote user input cut at a byte (a regex flag, a
// field name's first character), and a reply's errmsg with invalid UTF-8 cannot be decoded by
// drivers, which turns a clear error into an undecodable reply.
std::string toValidUtf8(std::string s);
// Whether s is well-formed UTF-8 (the same rules as toValidUtf8: no overlong forms, no
// surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

class Status {
public:
    Status() = default;  // OK
    Status(ErrorCodes code, std::string reason)
        : _code(static_cast<int>(code)), _reason(toValidUtf8(std::move(reason))) {}
    Status(int code, std::string reason) : _code(code), _reason(toValidUtf8(std::move(reason))) {}
    static Status OK() { return Status(); }

    bool isOK() const { return _code == 0; }
    int code() const { return _code; }
    ErrorCodes errorCode() const { return static_cast<ErrorCodes>(_code); }
    const std::string& reason() const { return _reason; }
    std::string codeName() const { return errorCodeName(_code); }
    std::string toString() const { return isOK() ? "OK" : codeName() + ": " + _reason; }

private:
    int _code = 0;
    std::string _reason;
};

template <typename T>
class StatusWith {
public:
    StatusWith(T value) : _value(std::move(value)) {}  // NOLINT: implicit like MongoDB's
    StatusWith(Status s) : _status(std::move(s)) {}     // NOLINT
    StatusWith(ErrorCodes c, std::string reason) : _status(c, std::move(reason)) {}
    bool isOK() const { return _status.isOK(); }
    const Status& getStatus() const { return _status; }
    T& getValue() { return *_value; }
    const T& getValue() const { return *_value; }

private:
    Status _status;
    std::optional<T> _value;
};

class DBException : public std::exception {
public:
    explicit DBException(Status s) : _status(std::move(s)), _what(_status.toString()) {}
    const Status& toStatus() const { return _status; }
    int code() const { return _status.code(); }
    const std::string& reason() const { return _status.reason(); }
    const char* what() const noexcept override { return _what.c_str(); }

private:
    Status _status;
    std::string _what;
};

[[noreturn]] inline void uasserted(int code, std::string msg) { throw DBException(Status(code, std::move(msg))); }
[[noreturn]] inline void uasserted(ErrorCodes code, std::string msg) {
    throw DBException(Status(code, std::move(msg)));
}
inline void uassertStatusOK(const Status& s) {
    if (!s.isOK()) throw DBException(s);
}
template <typename T>
T uassertStatusOK(StatusWith<T> sw) {
    if (!sw.isOK()) throw DBException(sw.getStatus());
    return std::move(sw.getValue());
}

[[noreturn]] void invariantFailed(const char* expr, const char* file, int line);

}  // namespace mongo

// User error: throws DBException(code, msg) when cond is false. msg is only built on failure.
#define uassert(code, msg, cond)                              \
    do {                                                      \
        if (!(cond)) ::mongo::uasserted((code), (msg));       \
    } while (0)
// Programming error: logs and aborts. Never use for anything a client can cause.
#define invariant(cond)                                                           \
    do {                                                                          \
        if (!(cond)) ::mongo::invariantFailed(#cond, __FILE__, __LINE__);         \
    } while (0)
