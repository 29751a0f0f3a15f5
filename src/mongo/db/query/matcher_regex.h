#pragma once
// A compiled regular expression with MongoDB's $regex semantics (PCRE2, UTF-8, options
// i m s x u). Compiled once; matching is thread safe (per-thread match data).
#include <memory>
#include <string>
#include <string_view>

namespace mongo {

class MatcherRegex {
public:
    // Throws DBException: 51108 " invalid flag in regex options: z", 51091 "Regular expression
    // is invalid: ...", BadValue for embedded NUL bytes.
    MatcherRegex(std::string_view pattern, std::string_view flags);
    ~MatcherRegex();
    MatcherRegex(const MatcherRegex&) = delete;
    MatcherRegex& operator=(const MatcherRegex&) = delete;

    bool matches(std::string_view subject) const;
    const std::string& pattern() const { return _pattern; }
    const std::string& flags() const { return _flags; }

private:
    std::string _pattern;
    std::string _flags;
    void* _code = nullptr;  // pcre2_code_8*
};

}  // namespace mongo
