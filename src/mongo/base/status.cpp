#include "mongo/base/status.h"

namespace mongo {

namespace {
// Length of the well-formed UTF-8 sequence starting at s[i], or 0 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF).
size_t utf8SequenceLength(std::string_view s, size_t i) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) n = 3;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF) n = 3;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else return 0;
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; k++)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}
}  // namespace

bool isValidUtf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8SequenceLength(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string toValidUtf8(std::string s) {
    size_t i = 0;
    while (i < s.size()) {
        size_t n = utf8SequenceLength(s, i);
        if (n == 0) break;
        i += n;
    }
    if (i == s.size()) return s;  // the usual case: already valid, no copy
    std::string out = s.substr(0, i);
    while (i < s.size()) {
        size_t n = utf8SequenceLength(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
            i += 1;
        } else {
            out.append(s, i, n);
            i += n;
        }
    }
    return out;
}

}  // namespace mongo
