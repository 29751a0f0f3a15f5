#pragma once
// saslStart / saslContinue (SCRAM-SHA-1, SCRAM-SHA-256) and what hello carries for
// authentication: saslSupportedMechs for {saslSupportedMechs: "<db>.<user>"} and the reply
// to speculativeAuthenticate (the first saslStart sent inside the handshake).
// Called on the connection's thread; state lives in its AuthorizationSession.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"

namespace mongo::auth {

// Appends saslSupportedMechs / speculativeAuthenticate to a hello reply when the request
// asks for them. A failed speculative authentication is logged and leaves the field out
// (the driver then authenticates with saslStart), as in MongoDB.
void appendHelloAuthFields(OperationContext* opCtx, const BSONObj& helloCmd, BSONObjBuilder& result);

}  // namespace mongo::auth
