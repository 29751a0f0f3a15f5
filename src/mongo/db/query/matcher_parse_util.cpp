#include "mongo/db/query/matcher_parse_util.h"

#include <cmath>
#include <limits>

namespace mongo {
namespace {
constexpr double kLongLongMaxPlusOneAsDouble = 9223372036854775808.0;
}

StatusWith<long long> parseIntegerElementToLong(const BSONElement& e) {
    if (!e.isNumber()) return Status(ErrorCodes::FailedToParse, "Expected a number in: " + e.toString());
    if (e.type() == NumberInt || e.type() == NumberLong) return e.numberLong();
    double d = e.numberDouble();
    if (std::isnan(d))
        return Status(ErrorCodes::FailedToParse, "Expected an integer, but found NaN in: " + e.toString());
    if (d >= kLongLongMaxPlusOneAsDouble || d < -kLongLongMaxPlusOneAsDouble)
        return Status(ErrorCodes::FailedToParse, "Cannot represent as a 64-bit integer: " + e.toString());
    if (d != std::trunc(d)) return Status(ErrorCodes::FailedToParse, "Expected an integer: " + e.toString());
    return static_cast<long long>(d);
}

StatusWith<long long> parseIntegerElementToNonNegativeLong(const BSONElement& e) {
    auto v = parseIntegerElementToLong(e);
    if (!v.isOK()) return v;
    if (v.getValue() < 0) return Status(ErrorCodes::FailedToParse, "Expected a positive number in: " + e.toString());
    return v;
}

StatusWith<int> parseIntegerElementToInt(const BSONElement& e) {
    auto v = parseIntegerElementToLong(e);
    if (!v.isOK()) return v.getStatus();
    long long n = v.getValue();
    if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max())
        return Status(ErrorCodes::FailedToParse, "Cannot represent " + e.toString() + " in an int");
    return static_cast<int>(n);
}

StatusWith<int> parseIntegerElementToNonNegativeInt(const BSONElement& e) {
    auto v = parseIntegerElementToInt(e);
    if (!v.isOK()) return v;
    if (v.getValue() < 0) return Status(ErrorCodes::FailedToParse, "Expected a positive number in: " + e.toString());
    return v;
}

Status coerceToLongLong(const BSONElement& e, long long* out) {
    if (e.type() == NumberInt || e.type() == NumberLong) {
        *out = e.numberLong();
        return Status::OK();
    }
    double d = e.numberDouble();
    if (!std::isfinite(d)) return Status(ErrorCodes::BadValue, "Unable to coerce NaN/Inf to integral type");
    d = std::trunc(d);
    if (d >= kLongLongMaxPlusOneAsDouble || d < -kLongLongMaxPlusOneAsDouble)
        return Status(ErrorCodes::BadValue, "Out of bounds coercing to integral value");
    *out = static_cast<long long>(d);
    return Status::OK();
}

void validateFieldPath(std::string_view path) {
    uassert(40352, "FieldPath cannot be constructed with empty string", !path.empty());
    uassert(40353, "FieldPath must not end with a '.'.", path.back() != '.');
    size_t start = 0;
    while (start <= path.size()) {
        size_t dot = path.find('.', start);
        std::string_view part = path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        uassert(15998, "FieldPath field names may not be empty strings.", !part.empty());
        if (part[0] == '$' && part != "$id" && part != "$ref" && part != "$db")
            uasserted(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.");
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}

}  // namespace mongo
