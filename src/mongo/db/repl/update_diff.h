#pragma once
// The $v: 2 update diff of MongoDB's oplog: what an 'u' entry's {$v: 2, diff: <diff>} holds,
// computed from a document's pre- and post-image and applied to a pre-image to get the post.
//
// A document diff has, in this order, any of:
//   d: {<field>: false, ...}    fields removed
//   u: {<field>: <value>, ...}  fields whose value is replaced, where they stand
//   i: {<field>: <value>, ...}  fields appended at the end, in this order (a field that
//                               exists is moved there: how a change of field order is said)
//   s<field>: <diff>            a sub-diff of an embedded document or array
// An array diff is {a: true, l: <new length>?, u<index>: <value>, s<index>: <diff>, ...}:
// 'l' truncates, u<index> past the end appends (padding with nulls, as MongoDB does).
//
// Applying is idempotent as the oplog needs (MongoDB's applier rules): 'd' of a missing field
// and 'u' of a missing one (appended) succeed; a sub-diff whose field is missing or of the
// other kind (document vs array) is skipped.
// Pure functions: thread safe.
#include <optional>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

// The diff turning pre into post, or nullopt when it would not be smaller than post itself
// (the oplog then records the replacement document, as MongoDB does). An empty diff ({})
// when the two are identical. REQUIRES: both are valid documents.
std::optional<BSONObj> computeUpdateDiff(const BSONObj& pre, const BSONObj& post);
// Same, but always a diff (for tests and callers that need one).
BSONObj computeUpdateDiffAlways(const BSONObj& pre, const BSONObj& post);

// pre with diff applied. Throws DBException (BadValue, FailedToParse) for a malformed diff.
BSONObj applyUpdateDiff(const BSONObj& pre, const BSONObj& diff);

}  // namespace repl
}  // namespace mongo
