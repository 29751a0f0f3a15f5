#pragma once
// The Stable API (MongoDB 7.0's "versioned API"): which commands and aggregation stages are in
// API version 1, and the check of a command's API parameters (apiVersion, apiStrict,
// apiDeprecationErrors, and the requireApiVersion server parameter) that the dispatcher runs
// before the command, with MongoDB's errors:
//   apiVersion not a string / apiStrict or apiDeprecationErrors not a bool: TypeMismatch;
//   apiStrict or apiDeprecationErrors without apiVersion: 4886600;
//   apiVersion other than "1": APIVersionError (322);
//   apiStrict: true and a command (or, for aggregate, a stage) outside version 1: APIStrictError (323);
//   apiDeprecationErrors: true and a command deprecated in version 1: APIDeprecationError (363);
//   requireApiVersion set and no apiVersion (hello and replica-set internal commands exempt): 498870.
// Thread safety: the sets are immutable after first use; the check has no state.
#include <set>
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {

const std::set<std::string>& apiVersion1Commands();
// Commands of version 1 that are deprecated in it (only the test command testDeprecation).
const std::set<std::string>& apiVersion1DeprecatedCommands();

// Throws the errors listed above for the command named commandName with this body.
// internalClient: the connection is another member of the replica set (repl/remote_client.h
// connects with appName "replication"), which requireApiVersion never applies to (MongoDB
// exempts its internal clients).
void checkAPIParameters(const std::string& commandName, const BSONObj& body, bool internalClient = false);

}  // namespace mongo
