#pragma once
// Calendar arithmetic on BSON dates (milliseconds since the epoch, proleptic Gregorian, UTC)
// and the time zones of the date expressions: "UTC"/"GMT", fixed offsets ("+05:30", "-0800",
// "+03") and Olson names read from the system's tz database (/usr/share/zoneinfo).
// Thread safety: TimeZone objects are immutable; parseTimeZone caches loaded zones under a lock.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mongo {

struct DateParts {
    long long year = 1970;
    int month = 1;   // 1..12
    int day = 1;     // 1..31
    int hour = 0, minute = 0, second = 0, millisecond = 0;
    int dayOfWeek = 5;  // 1 = Sunday .. 7 = Saturday
    int dayOfYear = 1;  // 1..366
};

long long daysFromCivil(long long y, int m, int d);
DateParts partsFromMillis(long long millis);  // of a local (already offset) time
// Millis of the given (possibly out-of-range, carried over) parts.
long long millisFromParts(long long year, long long month, long long day, long long hour, long long minute,
                          long long second, long long millis);

// ISO 8601 week-numbering.
int isoDayOfWeek(const DateParts& p);  // 1 = Monday .. 7 = Sunday
int isoWeek(const DateParts& p);
long long isoWeekYear(const DateParts& p);
// %U week: weeks starting on Sunday, days before the first Sunday in week 0.
int weekOfYear(const DateParts& p);

class TimeZone {
public:
    TimeZone() = default;  // UTC
    static TimeZone fixed(long long offsetMillis);
    // Offset of local time from UTC at the given UTC instant.
    long long offsetAt(long long utcMillis) const;
    // The UTC instant for a local wall-clock time (first matching offset).
    long long utcFromLocal(long long localMillis) const;
    bool isUtc() const { return !_transitions && _fixedOffset == 0; }
    std::string abbreviationAt(long long utcMillis) const;

    struct Transitions {
        std::vector<long long> times;  // seconds since epoch
        std::vector<int> typeIdx;
        std::vector<long long> offsets;  // seconds, per type
        std::vector<std::string> abbrevs;
        int initialType = 0;
    };

private:
    long long _fixedOffset = 0;  // millis
    std::shared_ptr<const Transitions> _transitions;
    friend bool parseTimeZone(const std::string&, TimeZone*);
};

// False if the name is not a recognised zone or offset.
bool parseTimeZone(const std::string& name, TimeZone* out);

// Units of $dateAdd, $dateDiff, $dateTrunc and $densify.
enum class DateUnit { kYear, kQuarter, kMonth, kWeek, kDay, kHour, kMinute, kSecond, kMillisecond };
// False if name is not one of "year" .. "millisecond".
bool parseDateUnit(const std::string& name, DateUnit* out);
// Milliseconds of a fixed-length unit (week and smaller); 1 for the others.
long long dateUnitMillis(DateUnit u);
// utc plus amount units in time zone tz: months clamp the day to the end of the target month
// and calendar days keep the local wall-clock time, as MongoDB does.
long long addDateUnits(long long utc, DateUnit u, long long amount, const TimeZone& tz);

// Formats with MongoDB's $dateToString specifiers (%Y %m %d %H %M %S %L %j %w %u %U %V %G %z %Z
// %%). Throws 18536 for an unknown specifier, 18535 for a trailing '%'.
std::string formatDate(const std::string& format, long long utcMillis, const TimeZone& tz);

// Parses a date string as $dateFromString / $toDate do (ISO 8601 forms such as
// "2017-02-08T12:10:40.787Z", "2017-02-08 12:10:40 +02:00", "2017-02-08"), or with a format.
// Returns false when the string cannot be parsed; *error explains why.
bool parseDateString(const std::string& s, const std::string* format, const TimeZone& tz, long long* outMillis,
                     std::string* error);

}  // namespace mongo
