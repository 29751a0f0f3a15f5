#pragma once
// MongoDB's 64-bit hash of a BSON value, the key of a hashed index ({a: "hashed"}): the first 8
// bytes (little-endian) of an MD5 over, in order, the seed (int32), then for the value:
//   its canonical type (int32, BSON's canonical type order: numbers 10, strings 15, ...),
//   then numbers as one int64 (safeNumberLongForHash: doubles truncated toward zero, NaN 0,
//   2^63 exactly as -2^63 (MongoDB's historic cast, kept for on-disk compatibility), larger
//   values 2^63 - 1, smaller -2^63; decimals truncated toward zero and clamped, NaN 0),
//   other scalars as their BSON value bytes, and documents/arrays as the same for each element
//   preceded by its field name with its NUL, then an end marker (canonical type 0 and an empty
//   name); a code-with-scope adds its code (with its NUL) before the scope's elements.
// So numbers that compare equal and differ only in type hash alike, strings and symbols hash
// alike, and a document's field order matters (as it does to equality).
// Thread safety: stateless functions.
#include <cstdint>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// hash64 with the seed MongoDB's hashed indexes use by default (0).
long long hashBSONElement(const BSONElement& e, int32_t seed = 0);

// The number a numeric element contributes to its hash (see above).
long long safeNumberLongForHash(const BSONElement& e);

// The hashed-index keys under which a document whose field equals v may be found: the hash of
// v, as MongoDB's bounds for an equality on a hashed field. Values equal to v hash alike
// (numbers of any type by their integer part: 2, 2.0, NumberLong(2) and NumberDecimal("2.0");
// 2.5 and NumberDecimal("2.5") as 2). A null also matches undefined and a missing field (7.0's
// matcher), which are filed under the hashes of null and of undefined: both.
std::vector<long long> hashedKeysForEquality(const BSONElement& v);

}  // namespace mongo
