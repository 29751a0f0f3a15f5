#pragma once
// Logical session ids as MongoDB 7.0 keeps them: {id: UUID, uid: BinData(0, 32 bytes)}, where
// uid is the SHA-256 digest of the user who owns the session. This server has no
// authentication, so every session belongs to "no user", whose digest is MongoDB's for an
// unauthenticated server: the SHA-256 of the empty string. A named user {user, db} (in
// $listLocalSessions/$listSessions filters) digests as SHA-256 of "<db>.<user>".
// Thread safety: stateless functions.
#include <optional>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

constexpr int kUserDigestLength = 32;

// The 32-byte digest of the unauthenticated user ("") / of a named user.
std::string noAuthUserDigest();
std::string userDigest(const std::string& user, const std::string& db);

// Appends name: BinData(0) holding a 32-byte digest.
void appendUserDigest(BSONObjBuilder& b, std::string_view name, const std::string& digest);

// The session's UUID as hex from an lsid ({id: UUID, ...}); nullopt when lsid has no UUID id.
std::optional<std::string> lsidIdHex(const BSONObj& lsid);

// {id, uid} for an lsid the client sent ({id: UUID}): the owner is the unauthenticated user.
// REQUIRES: lsidIdHex(lsid) has a value.
BSONObj sessionIdWithUid(const BSONObj& lsid);
// The same from the UUID's hex.
BSONObj sessionIdFromHex(const std::string& idHex);

}  // namespace mongo
