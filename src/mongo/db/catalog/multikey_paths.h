#pragma once
// MultikeyPaths: which components of each key-pattern path held an array in some indexed
// document, as MongoDB tracks them per index (explain's "multiKeyPaths").
//
// For the key pattern {"a.b": 1, c: 1}, the paths {{0}, {}} mean that "a" was an array in some
// document (so "a.b" may have produced several keys), and "c" never was. The planner may only
// intersect or compound index bounds across predicates when no shared array lies between them
// (query/planner_ixselect.h). The sets only grow while the index exists: a document that no
// longer holds an array does not make a path non-multikey again (as MongoDB).
// Thread safety: plain values.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

using MultikeyComponents = std::set<size_t>;
using MultikeyPaths = std::vector<MultikeyComponents>;

// One empty set per key-pattern field.
MultikeyPaths emptyMultikeyPaths(size_t nFields);
bool anyMultikey(const MultikeyPaths& paths);
// Adds every component of 'from' to 'into' (resized to fit); returns true if 'into' grew.
bool mergeMultikeyPaths(MultikeyPaths* into, const MultikeyPaths& from);

// The persisted form: [[0], [], [0, 2]] (one array of component positions per field).
BSONObj multikeyPathsToBSON(const MultikeyPaths& paths);
// Tolerates a missing or malformed value by returning nullopt-like empty paths of nFields with
// every component marked (conservative: treat as fully multikey when unknown).
MultikeyPaths multikeyPathsFromBSON(const BSONElement& e, const BSONObj& keyPattern, bool multikey);

// explain's multiKeyPaths: {"a.b": ["a"], c: []} (the path prefixes that are arrays).
BSONObj multikeyPathsForExplain(const BSONObj& keyPattern, const MultikeyPaths& paths);

}  // namespace mongo
