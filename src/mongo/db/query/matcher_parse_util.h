#pragma once
// Helpers shared by the filter, projection and sort parsers: reading integer arguments with
// MongoDB's messages, and validating field paths as MongoDB's FieldPath does.
#include <string_view>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

// An exactly integral number (int, long, integral double/decimal in range), else FailedToParse:
// "Expected a number in: ...", "Expected an integer: ...", "Cannot represent as a 64-bit
// integer: ...", "Expected an integer, but found NaN in: ...".
StatusWith<long long> parseIntegerElementToLong(const BSONElement& e);
StatusWith<long long> parseIntegerElementToNonNegativeLong(const BSONElement& e);  // "Expected a positive number in: ..."
StatusWith<int> parseIntegerElementToInt(const BSONElement& e);  // "Cannot represent ... in an int"
StatusWith<int> parseIntegerElementToNonNegativeInt(const BSONElement& e);

// Truncates a number toward zero into a long long (BadValue "Unable to coerce NaN/Inf to
// integral type" / "Out of bounds coercing to integral value").
Status coerceToLongLong(const BSONElement& e, long long* out);

// Throws as MongoDB's FieldPath does for a dotted path: 40352 (empty), 40353 (trailing '.'),
// 15998 (empty component), 16410 (component starting with '$', except $id/$ref/$db).
void validateFieldPath(std::string_view path);

}  // namespace mongo
