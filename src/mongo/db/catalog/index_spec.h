#pragma once
// Validation and normalisation of createIndexes specs, with MongoDB's rules and error codes:
//   key pattern values must be non-zero numbers (1 / -1 ...) or "hashed" (one field at most,
//   31303; never unique, 16764); other index plugins given as strings ("text", "2dsphere",
//   "2d", "wildcard") are not supported -> CannotCreateIndex (67);
//   unknown spec fields -> InvalidIndexSpecificationOption (197); a missing name is generated
//   as MongoDB's shell does ("a_1_b_-1").
// Thread safety: stateless functions.
#include <string>
#include <string_view>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/query/collator.h"

namespace mongo {

// "a_1_b_-1" for {a: 1, b: -1}, "a_hashed" for {a: "hashed"}.
std::string defaultIndexName(const BSONObj& keyPattern);

// Returns the spec as stored and listed: {v: 2, key, name, <other options in given order>}.
// Throws DBException. A collation is stored in its full form (query/collator.h); an index
// without one gets collectionDefault's (null: simple), and the simple collation is not stored;
// expireAfterSeconds is checked as MongoDB 7.0 does.
BSONObj validateAndNormalizeIndexSpec(const BSONObj& spec, const Collator* collectionDefault = nullptr);

// Whether createIndexes knows the spec field (createIndexes' ignoreUnknownIndexOptions drops
// the others instead of refusing them).
bool isKnownIndexSpecField(std::string_view field);

// The spec of the _id index every collection gets (with the collection's collation, if any).
BSONObj idIndexSpec(const Collator* collation = nullptr);

// Whether two normalised specs with equal key patterns describe the same index
// (unique, sparse, partialFilterExpression, collation, expireAfterSeconds, hidden...).
bool indexOptionsEquivalent(const BSONObj& a, const BSONObj& b);
// Whether they may coexist (same key pattern allowed if partialFilterExpressions differ).
bool indexesMayCoexist(const BSONObj& a, const BSONObj& b);

// MongoDB's shell style "{ v: 2, key: { a: 1 }, name: \"a_1\" }" for error messages.
std::string specForMessage(const BSONObj& spec);

}  // namespace mongo
