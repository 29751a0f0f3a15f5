#pragma once
// The aggregation stages whose documents come from the server rather than a collection, as
// MongoDB 7.0 has them (each must be the first stage; the pipeline checks that):
//   $currentOp: {allUsers, idleConnections, idleCursors, idleSessions, localOps, truncateOps,
//     backtrace} (booleans), on admin with {aggregate: 1}: the operations in progress
//     (commands/current_op_registry.h), idle connections and idle cursors when asked. This
//     server has no authentication, so allUsers changes nothing (every operation is visible),
//     no transactions, so there are no idle sessions to show, and no mongos, so localOps is
//     accepted and has no effect, as on a mongod.
//   $listLocalSessions: {allUsers, users: [{user, db}]}, on any database with {aggregate: 1}:
//     the sessions of the local cache (session/logical_session_cache.h) of those users.
//   $listSessions: the same spec, on config.system.sessions: the recorded sessions of those
//     users (a $match on _id.uid over the collection, as MongoDB runs it).
// Errors are MongoDB's: TypeMismatch (14) for a spec that is not an object or a field of the
// wrong type, 40415 unknown field, UnsupportedFormat (12) for allUsers with users,
// InvalidNamespace (73) on the wrong namespace.
// Thread safety: stateless functions; the generators read thread-safe registries.
#include <functional>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

// For a pipeline whose first stage is $currentOp or $listLocalSessions: checks it against the
// aggregate's namespace (collectionless: {aggregate: 1}) and returns the generator of its
// documents (computed at the first call). nullopt for any other stage.
std::optional<std::function<std::optional<BSONObj>()>> prepareServerSourceStage(const NamespaceString& nss,
                                                                                 bool collectionless,
                                                                                 const BSONObj& stage);

// For a first stage $listSessions: checks it and returns the stage that replaces it ({$match:
// {"_id.uid": {$in: [...]}}}, or an empty object when every session is wanted).
BSONObj listSessionsAsMatch(const NamespaceString& nss, bool collectionless, const BSONObj& stage);

}  // namespace mongo
