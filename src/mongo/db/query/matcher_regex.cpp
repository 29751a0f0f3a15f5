#include "mongo/db/query/matcher_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "mongo/base/status.h"

namespace mongo {
namespace {

// One match-data block per thread: matching only needs to know whether there was a match,
// so a single ovector pair is enough and the block can be reused across patterns.
struct ThreadMatchData {
    pcre2_match_data* md = pcre2_match_data_create(1, nullptr);
    ~ThreadMatchData() { pcre2_match_data_free(md); }
};

pcre2_match_data* threadMatchData() {
    thread_local ThreadMatchData data;
    return data.md;
}

}  // namespace

MatcherRegex::MatcherRegex(std::string_view pattern, std::string_view flags) : _pattern(pattern), _flags(flags) {
    uassert(ErrorCodes::BadValue, "Regular expression cannot contain an embedded null byte",
            _pattern.find('\0') == std::string::npos);
    uassert(ErrorCodes::BadValue, "Regular expression options string cannot contain an embedded null byte",
            _flags.find('\0') == std::string::npos);
    uint32_t options = PCRE2_UTF;
    for (size_t i = 0; i < _flags.size(); i++) {
        switch (_flags[i]) {
            case 'i': options |= PCRE2_CASELESS; break;
            case 'm': options |= PCRE2_MULTILINE; break;
            case 's': options |= PCRE2_DOTALL; break;
            case 'x': options |= PCRE2_EXTENDED; break;
            case 'u': break;  // UTF-8 is always on
            default: {
                // The whole character, not its first byte: half a UTF-8 sequence in errmsg made
                // the reply undecodable for drivers.
                size_t len = 1;
                while (i + len < _flags.size() && (static_cast<unsigned char>(_flags[i + len]) & 0xC0) == 0x80) len++;
                // MongoDB prefixes the operator name, which is empty for the query's $regex.
                uasserted(51108, " invalid flag in regex options: " + _flags.substr(i, len));
            }
        }
    }
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(_pattern.data()), _pattern.size(), options,
                                     &errorCode, &errorOffset, nullptr);
    if (!code) {
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(errorCode, buf, sizeof(buf));
        uasserted(51091, std::string("Regular expression is invalid: ") + reinterpret_cast<const char*>(buf));
    }
    _code = code;
}

MatcherRegex::~MatcherRegex() {
    if (_code) pcre2_code_free(static_cast<pcre2_code*>(_code));
}

bool MatcherRegex::matches(std::string_view subject) const {
    int rc = pcre2_match(static_cast<const pcre2_code*>(_code), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                         subject.size(), 0, 0, threadMatchData(), nullptr);
    // rc == 0 means "matched, ovector too small" (we ask for no captures); negative values
    // are no match or a matching error (e.g. invalid UTF-8 in the subject): not a match.
    return rc >= 0;
}

}  // namespace mongo
