#pragma once
// Decimal128 arithmetic for $inc and $mul: IEEE 754-2008 decimal128 semantics (34 significant
// digits, round half to even, exponent range -6176..6111, NaN/Infinity propagation), computed
// exactly on decimal digit strings; values are decoded and encoded with bson/decimal128.h.
// Conversions from other numeric types follow mongod: int32/int64 exactly, doubles rounded to
// 15 significant digits. Stateless; thread safe.
#include <array>

#include "mongo/bson/bsonobj.h"

namespace mongo {

using Decimal128Bytes = std::array<unsigned char, 16>;

// REQUIRES: e.isNumber().
Decimal128Bytes decimalFromNumber(const BSONElement& e);
Decimal128Bytes decimalAdd(const Decimal128Bytes& a, const Decimal128Bytes& b);
Decimal128Bytes decimalMultiply(const Decimal128Bytes& a, const Decimal128Bytes& b);
// The decimal's canonical string ("1.5", "1.00E+3", "NaN", "-Infinity").
std::string decimalToString(const Decimal128Bytes& d);
// Parses a decimal string (as libbson accepts it); returns NaN bytes on bad input.
Decimal128Bytes decimalFromString(const std::string& s);

}  // namespace mongo
