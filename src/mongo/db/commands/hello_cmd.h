#pragma once
// hello (and its legacy names isMaster / ismaster): the handshake and the monitoring command.
// Besides the command, this header is the seam the replication layer uses to describe
// the node, and where the topology version lives.
// Thread safety: all functions may be called from any thread.
#include <functional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"

namespace mongo {

// topologyVersion: {processId: <ObjectId chosen at startup>, counter: <long>}. Awaitable
// hellos ({topologyVersion, maxAwaitTimeMS}) wait until the counter moves past theirs.
OID topologyProcessId();
long long topologyVersionCounter();
// Increments the counter and wakes every waiting hello (the replication layer calls this
// on each state change: step up/down, reconfig).
void bumpTopologyVersion();

// Appends the node's role fields. Standalone default: {isWritablePrimary: true} for hello,
// {ismaster: true} for the legacy names. Installed by the replication layer (setName, hosts,
// primary, secondary, me, electionId, ...); it replaces the default, so it must append the
// primary flag itself. `legacyNames` is true for isMaster/ismaster.
using HelloReplicationHook =
    std::function<void(OperationContext* opCtx, bool legacyNames, BSONObjBuilder& result)>;
void setHelloReplicationHook(HelloReplicationHook hook);

// Compression negotiation (exposed for tests): the client's compressors, in the client's
// order, that the server also offers.
std::vector<std::string> negotiateCompressors(const std::vector<std::string>& clientOffered,
                                              const std::vector<std::string>& serverEnabled);

// Checks the client metadata document sent with the first hello ({driver: {name, version},
// os: {type}, application: {name}}). Returns MongoDB's error for a bad document.
Status validateClientMetadata(const BSONElement& client);

}  // namespace mongo
