#pragma once
// The readConcern argument of a command, validated by the dispatcher before the command runs,
// with MongoDB 7.0's errors:
//   not an object: TypeMismatch; a field other than level, afterOpTime, afterClusterTime,
//   atClusterTime, provenance: InvalidOptions; a level other than local, majority,
//   linearizable, available, snapshot: FailedToParse;
//   on a server that is not a replica-set member: level snapshot or linearizable is
//   NotAReplicaSet (123), afterClusterTime / atClusterTime is IllegalOperation (as MongoDB's
//   standalone mongod, which has no timestamps to read at).
// The waits of a replica-set member are ReplicationCoordinator::waitForReadConcern's.
// Thread safety: stateless.
#include "mongo/bson/bsonobj.h"

namespace mongo {

void checkReadConcernArgument(const BSONObj& commandBody, bool replSet);

}  // namespace mongo
