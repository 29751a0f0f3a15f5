#include "mongo/db/pipeline/date_util.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "mongo/base/status.h"

namespace mongo {

namespace {
long long floorDiv(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
long long floorMod(long long a, long long b) { return a - floorDiv(a, b) * b; }
bool isLeap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
}  // namespace

// Howard Hinnant's days_from_civil / civil_from_days.
long long daysFromCivil(long long y, int m, int d) {
    y -= m <= 2;
    long long era = floorDiv(y, 400);
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

DateParts partsFromMillis(long long millis) {
    DateParts p;
    long long days = floorDiv(millis, 86400000LL);
    long long msOfDay = millis - days * 86400000LL;
    long long z = days + 719468;
    long long era = floorDiv(z, 146097);
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    p.year = y + (m <= 2);
    p.month = m;
    p.day = d;
    p.hour = static_cast<int>(msOfDay / 3600000);
    p.minute = static_cast<int>(msOfDay / 60000 % 60);
    p.second = static_cast<int>(msOfDay / 1000 % 60);
    p.millisecond = static_cast<int>(msOfDay % 1000);
    p.dayOfWeek = static_cast<int>(floorMod(days + 4, 7)) + 1;  // 1970-01-01 was a Thursday
    p.dayOfYear = static_cast<int>(days - daysFromCivil(p.year, 1, 1)) + 1;
    return p;
}

long long millisFromParts(long long year, long long month, long long day, long long hour, long long minute,
                          long long second, long long millis) {
    // Carry months into years first; days and smaller units are plain offsets.
    long long y = year + floorDiv(month - 1, 12);
    int m = static_cast<int>(floorMod(month - 1, 12)) + 1;
    long long days = daysFromCivil(y, m, 1) + (day - 1);
    return days * 86400000LL + hour * 3600000LL + minute * 60000LL + second * 1000LL + millis;
}

int isoDayOfWeek(const DateParts& p) { return p.dayOfWeek == 1 ? 7 : p.dayOfWeek - 1; }

namespace {
int isoWeeksInYear(long long y) {
    // A year has 53 ISO weeks if Jan 1 is a Thursday, or a Wednesday in a leap year.
    DateParts jan1 = partsFromMillis(daysFromCivil(y, 1, 1) * 86400000LL);
    int dow = isoDayOfWeek(jan1);
    return (dow == 4 || (dow == 3 && isLeap(y))) ? 53 : 52;
}
}  // namespace

int isoWeek(const DateParts& p) {
    int w = (p.dayOfYear - isoDayOfWeek(p) + 10) / 7;
    if (w < 1) return isoWeeksInYear(p.year - 1);
    if (w > isoWeeksInYear(p.year)) return 1;
    return w;
}

long long isoWeekYear(const DateParts& p) {
    int w = (p.dayOfYear - isoDayOfWeek(p) + 10) / 7;
    if (w < 1) return p.year - 1;
    if (w > isoWeeksInYear(p.year)) return p.year + 1;
    return p.year;
}

int weekOfYear(const DateParts& p) { return (p.dayOfYear - p.dayOfWeek + 7) / 7; }

// ---------------------------------------------------------------- time zones

TimeZone TimeZone::fixed(long long offsetMillis) {
    TimeZone tz;
    tz._fixedOffset = offsetMillis;
    return tz;
}

long long TimeZone::offsetAt(long long utcMillis) const {
    if (!_transitions) return _fixedOffset;
    const auto& t = *_transitions;
    long long secs = floorDiv(utcMillis, 1000);
    auto it = std::upper_bound(t.times.begin(), t.times.end(), secs);
    int type = it == t.times.begin() ? t.initialType : t.typeIdx[it - t.times.begin() - 1];
    return t.offsets[type] * 1000;
}

long long TimeZone::utcFromLocal(long long localMillis) const {
    // Two passes settle the offset except inside DST gaps/overlaps, where either is acceptable.
    long long guess = localMillis - offsetAt(localMillis);
    return localMillis - offsetAt(guess);
}

std::string TimeZone::abbreviationAt(long long utcMillis) const {
    if (!_transitions) return "UTC";
    const auto& t = *_transitions;
    long long secs = floorDiv(utcMillis, 1000);
    auto it = std::upper_bound(t.times.begin(), t.times.end(), secs);
    int type = it == t.times.begin() ? t.initialType : t.typeIdx[it - t.times.begin() - 1];
    return t.abbrevs[type];
}

namespace {

long long readBE(const unsigned char* p, int n) {
    unsigned long long v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | p[i];
    if (n == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<long long>(v);
}

// Reads a TZif file (RFC 8536); uses the 64-bit section when present.
std::shared_ptr<TimeZone::Transitions> loadTzif(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return nullptr;
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto u = reinterpret_cast<const unsigned char*>(data.data());
    size_t size = data.size();
    auto parse = [&](size_t off, int timeSize, size_t* end) -> std::shared_ptr<TimeZone::Transitions> {
        if (off + 44 > size || data.compare(off, 4, "TZif") != 0) return nullptr;
        long long cnt[6];
        for (int i = 0; i < 6; i++) cnt[i] = readBE(u + off + 20 + 4 * i, 4);
        long long isut = cnt[0], isstd = cnt[1], leap = cnt[2], timecnt = cnt[3], typecnt = cnt[4], charcnt = cnt[5];
        size_t p = off + 44;
        size_t need = timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leap * (timeSize + 4) + isstd + isut;
        if (p + need > size || typecnt <= 0) return nullptr;
        auto t = std::make_shared<TimeZone::Transitions>();
        for (long long i = 0; i < timecnt; i++) t->times.push_back(readBE(u + p + i * timeSize, timeSize));
        p += timecnt * timeSize;
        for (long long i = 0; i < timecnt; i++) t->typeIdx.push_back(u[p + i]);
        p += timecnt;
        std::vector<int> desig;
        std::vector<bool> dst;
        for (long long i = 0; i < typecnt; i++) {
            t->offsets.push_back(readBE(u + p + 6 * i, 4));
            dst.push_back(u[p + 6 * i + 4] != 0);
            desig.push_back(u[p + 6 * i + 5]);
        }
        p += typecnt * 6;
        std::string chars(data, p, charcnt);
        for (int d : desig) t->abbrevs.push_back(d < static_cast<int>(chars.size()) ? std::string(chars.c_str() + d) : "");
        p += charcnt + leap * (timeSize + 4) + isstd + isut;
        for (int& ti : t->typeIdx)
            if (ti >= typecnt) ti = 0;
        // Before the first transition: the first standard-time type.
        t->initialType = 0;
        for (long long i = 0; i < typecnt; i++)
            if (!dst[i]) {
                t->initialType = static_cast<int>(i);
                break;
            }
        *end = p;
        return t;
    };
    size_t end = 0;
    auto v1 = parse(0, 4, &end);
    if (!v1) return nullptr;
    if (size > 4 && u[4] >= '2') {
        size_t end2;
        auto v2 = parse(end, 8, &end2);
        if (v2) return v2;
    }
    return v1;
}

bool parseOffset(const std::string& s, long long* millis) {
    // "+HH", "+HHMM", "+HH:MM" (and "-").
    if (s.size() < 3 || (s[0] != '+' && s[0] != '-')) return false;
    std::string digits;
    for (size_t i = 1; i < s.size(); i++) {
        if (s[i] == ':' && i == 3) continue;
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
        digits += s[i];
    }
    if (digits.size() != 2 && digits.size() != 4) return false;
    int h = std::stoi(digits.substr(0, 2));
    int m = digits.size() == 4 ? std::stoi(digits.substr(2, 2)) : 0;
    if (m >= 60) return false;
    *millis = (s[0] == '-' ? -1 : 1) * (h * 3600000LL + m * 60000LL);
    return true;
}

}  // namespace

bool parseTimeZone(const std::string& name, TimeZone* out) {
    if (name == "UTC" || name == "GMT" || name == "Z" || name == "Etc/UTC" || name == "Etc/GMT") {
        *out = TimeZone();
        return true;
    }
    long long off;
    if (parseOffset(name, &off)) {
        *out = TimeZone::fixed(off);
        return true;
    }
    if (name.empty() || name.find("..") != std::string::npos || name[0] == '/' ||
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/+-") != std::string::npos)
        return false;
    static std::mutex mu;
    static std::map<std::string, std::shared_ptr<const TimeZone::Transitions>> cache;
    std::lock_guard<std::mutex> lk(mu);
    auto it = cache.find(name);
    if (it == cache.end()) {
        std::shared_ptr<const TimeZone::Transitions> t = loadTzif("/usr/share/zoneinfo/" + name);
        it = cache.emplace(name, t).first;
    }
    if (!it->second) return false;
    TimeZone tz;
    tz._transitions = it->second;
    *out = tz;
    return true;
}

// ---------------------------------------------------------------- formatting

namespace {
std::string pad(long long v, int width) {
    char buf[32];
    if (v < 0) {
        std::snprintf(buf, sizeof buf, "-%0*lld", width, -v);
    } else {
        std::snprintf(buf, sizeof buf, "%0*lld", width, v);
    }
    return buf;
}
}  // namespace

std::string formatDate(const std::string& format, long long utcMillis, const TimeZone& tz) {
    long long off = tz.offsetAt(utcMillis);
    DateParts p = partsFromMillis(utcMillis + off);
    std::string out;
    for (size_t i = 0; i < format.size(); i++) {
        char c = format[i];
        if (c != '%') {
            out += c;
            continue;
        }
        uassert(18535, "Unmatched '%' at end of format string", i + 1 < format.size());
        char s = format[++i];
        switch (s) {
            case 'd': out += pad(p.day, 2); break;
            case 'G': out += pad(isoWeekYear(p), 4); break;
            case 'H': out += pad(p.hour, 2); break;
            case 'j': out += pad(p.dayOfYear, 3); break;
            case 'L': out += pad(p.millisecond, 3); break;
            case 'm': out += pad(p.month, 2); break;
            case 'M': out += pad(p.minute, 2); break;
            case 'S': out += pad(p.second, 2); break;
            case 'w': out += std::to_string(p.dayOfWeek); break;
            case 'u': out += std::to_string(isoDayOfWeek(p)); break;
            case 'U': out += pad(weekOfYear(p), 2); break;
            case 'V': out += pad(isoWeek(p), 2); break;
            case 'Y': out += pad(p.year, 4); break;
            case 'z': {
                long long mins = off / 60000;
                out += (mins < 0 ? '-' : '+');
                out += pad(std::abs(mins) / 60, 2) + pad(std::abs(mins) % 60, 2);
                break;
            }
            case 'Z': out += std::to_string(off / 60000); break;
            case '%': out += '%'; break;
            case 'b':
            case 'B': {
                static const char* kMonths[] = {"January", "February", "March", "April", "May", "June", "July",
                                                "August", "September", "October", "November", "December"};
                std::string m = kMonths[p.month - 1];
                out += s == 'b' ? m.substr(0, 3) : m;
                break;
            }
            default: uasserted(18536, std::string("Invalid format character '%") + s + "' in format string");
        }
    }
    return out;
}

// ---------------------------------------------------------------- parsing

namespace {

struct Cursor {
    const std::string& s;
    size_t i = 0;
    bool eof() const { return i >= s.size(); }
    char peek() const { return eof() ? '\0' : s[i]; }
    bool digits(int n, long long* out) {
        if (i + n > s.size()) return false;
        long long v = 0;
        for (int k = 0; k < n; k++) {
            if (!std::isdigit(static_cast<unsigned char>(s[i + k]))) return false;
            v = v * 10 + (s[i + k] - '0');
        }
        i += n;
        *out = v;
        return true;
    }
    bool lit(char c) {
        if (peek() != c) return false;
        i++;
        return true;
    }
};

bool validDate(long long y, long long m, long long d) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1) return false;
    int max = kDays[m - 1] + (m == 2 && isLeap(y) ? 1 : 0);
    return d <= max;
}

}  // namespace

bool parseDateString(const std::string& s, const std::string* format, const TimeZone& tz, long long* outMillis,
                     std::string* error) {
    long long y = 1970, mo = 1, d = 1, h = 0, mi = 0, sec = 0, ms = 0;
    bool haveZone = false;
    long long zoneOffset = 0;
    TimeZone namedZone;
    bool haveNamedZone = false;
    Cursor c{s};
    auto fail = [&](const std::string& why) {
        *error = "Error parsing date string '" + s + "'; " + why;
        return false;
    };
    if (format) {
        const std::string& f = *format;
        for (size_t k = 0; k < f.size(); k++) {
            if (f[k] != '%') {
                if (!c.lit(f[k])) return fail("Format literal not found");
                continue;
            }
            if (++k >= f.size()) return fail("Unmatched '%' at end of format string");
            bool ok = true;
            switch (f[k]) {
                case 'Y': ok = c.digits(4, &y); break;
                case 'm': ok = c.digits(2, &mo); break;
                case 'd': ok = c.digits(2, &d); break;
                case 'H': ok = c.digits(2, &h); break;
                case 'M': ok = c.digits(2, &mi); break;
                case 'S': ok = c.digits(2, &sec); break;
                case 'L': {
                    size_t start = c.i;
                    ms = 0;
                    int n = 0;
                    while (!c.eof() && std::isdigit(static_cast<unsigned char>(c.peek())) && n < 9) {
                        if (n < 3) ms = ms * 10 + (c.peek() - '0');
                        c.i++;
                        n++;
                    }
                    for (int z = n; z < 3; z++) ms *= 10;
                    ok = c.i > start;
                    break;
                }
                case 'z':
                case 'Z': {
                    size_t start = c.i;
                    while (!c.eof() && (std::isdigit(static_cast<unsigned char>(c.peek())) || c.peek() == '+' ||
                                        c.peek() == '-' || c.peek() == ':'))
                        c.i++;
                    std::string z = s.substr(start, c.i - start);
                    if (f[k] == 'Z') {
                        zoneOffset = std::stoll(z.empty() ? "0" : z) * 60000;
                        ok = !z.empty();
                    } else {
                        ok = parseOffset(z, &zoneOffset);
                    }
                    haveZone = true;
                    break;
                }
                case '%': ok = c.lit('%'); break;
                default: return fail(std::string("Invalid format character '%") + f[k] + "' in format string");
            }
            if (!ok) return fail("Data missing");
        }
        if (!c.eof()) return fail("Trailing data");
    } else {
        if (!c.digits(4, &y)) return fail("Unexpected data");
        if (c.lit('-')) {
            if (!c.digits(2, &mo)) return fail("Unexpected data");
            if (!c.lit('-') || !c.digits(2, &d)) return fail("Unexpected data");
        } else if (c.lit('/')) {
            if (!c.digits(2, &mo) || !c.lit('/') || !c.digits(2, &d)) return fail("Unexpected data");
        } else {
            if (!c.digits(2, &mo) || !c.digits(2, &d)) return fail("Unexpected data");
        }
        if (c.lit('T') || c.lit(' ')) {
            if (c.digits(2, &h)) {
                if (!c.lit(':') || !c.digits(2, &mi)) return fail("Unexpected data");
                if (c.lit(':')) {
                    if (!c.digits(2, &sec)) return fail("Unexpected data");
                    if (c.lit('.')) {
                        int n = 0;
                        ms = 0;
                        while (!c.eof() && std::isdigit(static_cast<unsigned char>(c.peek()))) {
                            if (n < 3) ms = ms * 10 + (c.peek() - '0');
                            c.i++;
                            n++;
                        }
                        if (n == 0) return fail("Unexpected data");
                        for (int z = n; z < 3; z++) ms *= 10;
                    }
                }
            } else {
                c.i--;  // the separator was followed by a zone name
            }
        }
        while (c.lit(' ')) {
        }
        if (!c.eof()) {
            std::string rest = s.substr(c.i);
            if (rest == "Z" || rest == "z") {
                haveZone = true;
                zoneOffset = 0;
            } else if (parseOffset(rest, &zoneOffset)) {
                haveZone = true;
            } else if (parseTimeZone(rest, &namedZone)) {
                haveZone = haveNamedZone = true;
            } else {
                return fail("Unexpected data");
            }
        }
    }
    if (!validDate(y, mo, d)) return fail("The parsed date was invalid");
    if (h > 24 || mi > 59 || sec > 60) return fail("The parsed time was invalid");
    long long local = millisFromParts(y, mo, d, h, mi, sec, ms);
    if (haveZone && !tz.isUtc()) {
        *error = "you cannot pass in a date/time string with time zone information ('" + s +
                 "') together with a timezone argument";
        return false;
    }
    if (haveNamedZone)
        *outMillis = namedZone.utcFromLocal(local);
    else if (haveZone)
        *outMillis = local - zoneOffset;
    else
        *outMillis = tz.utcFromLocal(local);
    return true;
}

bool parseDateUnit(const std::string& name, DateUnit* out) {
    static const std::pair<const char*, DateUnit> kUnits[] = {
        {"year", DateUnit::kYear},     {"quarter", DateUnit::kQuarter}, {"month", DateUnit::kMonth},
        {"week", DateUnit::kWeek},     {"day", DateUnit::kDay},         {"hour", DateUnit::kHour},
        {"minute", DateUnit::kMinute}, {"second", DateUnit::kSecond},   {"millisecond", DateUnit::kMillisecond}};
    for (auto& u : kUnits)
        if (name == u.first) {
            *out = u.second;
            return true;
        }
    return false;
}

long long dateUnitMillis(DateUnit u) {
    switch (u) {
        case DateUnit::kWeek: return 7 * 86400000LL;
        case DateUnit::kDay: return 86400000LL;
        case DateUnit::kHour: return 3600000LL;
        case DateUnit::kMinute: return 60000LL;
        case DateUnit::kSecond: return 1000LL;
        default: return 1;
    }
}

long long addDateUnits(long long utc, DateUnit u, long long amount, const TimeZone& tz) {
    if (u == DateUnit::kYear || u == DateUnit::kQuarter || u == DateUnit::kMonth) {
        long long months = amount * (u == DateUnit::kYear ? 12 : (u == DateUnit::kQuarter ? 3 : 1));
        long long local = utc + tz.offsetAt(utc);
        DateParts p = partsFromMillis(local);
        long long totalMonths = p.year * 12 + (p.month - 1) + months;
        long long y = totalMonths >= 0 ? totalMonths / 12 : -((-totalMonths + 11) / 12);
        int m = static_cast<int>(totalMonths - y * 12) + 1;
        // Clamp the day to the end of the target month, as MongoDB does.
        long long dim = daysFromCivil(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1);
        long long d = std::min<long long>(p.day, dim);
        long long newLocal = millisFromParts(y, m, d, p.hour, p.minute, p.second, p.millisecond);
        return tz.utcFromLocal(newLocal);
    }
    if (u == DateUnit::kDay || u == DateUnit::kWeek) {
        // Calendar days keep the local wall-clock time across DST changes.
        long long local = utc + tz.offsetAt(utc);
        return tz.utcFromLocal(local + amount * dateUnitMillis(u));
    }
    return utc + amount * dateUnitMillis(u);
}

}  // namespace mongo
