#pragma once
// Small helpers shared by command implementations: argument parsing with MongoDB's errors.
#include <string>
#include <initializer_list>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

// The namespace named by the command's first element: {find: "coll", $db: "db"}.
// Throws InvalidNamespace (73) for a missing/non-string/invalid collection name.
NamespaceString commandTargetNamespace(const OpMsgRequest& req);

// Integer argument (any numeric type, must be integral), with MongoDB's TypeMismatch errors.
long long parseIntegerArg(const BSONElement& e, const char* cmd);
// The integer field name of obj, checked as MongoDB's bsonExtractIntegerField checks it:
// NoSuchKey 'Missing expected field "name"', TypeMismatch for a non-number, BadValue for a
// number no 64-bit integer equals.
long long extractIntegerField(const BSONObj& obj, const char* name);
// Boolean argument (bool or number).
bool parseBoolArg(const BSONElement& e, const char* cmd);
// Object argument, TypeMismatch if not an object. Missing -> empty.
BSONObj parseObjectArg(const BSONElement& e, const char* cmd);

// writeConcern {w, j, wtimeout}: validates (BadValue for w > 1 on a standalone, bad types)
// and returns whether the writes must be durable before acknowledging: j: true, fsync: true,
// or a majority write on a replica set without j (writeConcernMajorityJournalDefault), which
// includes a write with no writeConcern or none naming w there (the implicit default is
// w: "majority"). The second form takes "is this a replica set member" and how many
// data-bearing members the set has (w may not exceed it: UnsatisfiableWriteConcern) as arguments
// (tests).
bool parseWriteConcernIsDurable(const BSONObj& cmd);
bool parseWriteConcernIsDurable(const BSONObj& cmd, bool replSet, int dataBearingMembers = 1);
// Whether a write concern document asks for w: "majority" (a document without w takes the
// implicit default, which is "majority" on a replica set).
bool isMajorityWriteConcern(const BSONObj& writeConcern);

// "<hostname>:<port>" as MongoDB reports its host (currentOp, $collStats, explain).
std::string hostAndPort();

// collStats' storage statistics of nss (stats_cmds.cpp), also $collStats {storageStats}.
// NamespaceNotFound if there is no such collection.
void appendCollectionStorageStats(OperationContext* opCtx, const NamespaceString& nss, long long scale,
                                  BSONObjBuilder& result);

}  // namespace mongo
