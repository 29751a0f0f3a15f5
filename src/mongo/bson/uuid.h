#pragma once
// UUIDs. The catalog keeps a collection's UUID as 32 lowercase hex digits; on the wire (and in
// oplog entries, listCollections, dbHash, validate, session ids) a UUID is BinData subtype 4 of
// 16 bytes. This is the one place that converts between the two and makes random (version 4)
// UUIDs. Thread safe: every function is.
#include <optional>
#include <string>
#include <string_view>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

constexpr int kUuidLength = 16;
constexpr int kUuidBinDataSubtype = 4;

// "00112233..." (32 hex digits, either case) -> the 16 bytes. False (out untouched or partly
// written) when hex is not exactly 32 hex digits.
bool uuidHexToBytes(std::string_view hex, unsigned char out[kUuidLength]);
// The 16 bytes -> 32 lowercase hex digits.
std::string uuidBytesToHex(const unsigned char* bytes);

// Appends name: BinData(4) holding the UUID written as hex. Returns false and appends nothing
// when hex is not a UUID (e.g. empty: "no UUID").
bool appendUuidHex(BSONObjBuilder& b, std::string_view name, std::string_view hex);
// The hex digits of a BinData(4) element of 16 bytes; nullopt for any other element.
std::optional<std::string> uuidHexFromElement(const BSONElement& e);
// The 32 hex digits of a UUID in its canonical dashed form (8-4-4-4-12), as MongoDB prints UUIDs.
std::string uuidHexDashed(const std::string& hex);

// A new random UUID (RFC 4122 version 4) from the OS's random source, so that ids do not repeat
// across threads, restarts or servers.
void generateUuidBytes(unsigned char out[kUuidLength]);
std::string generateUuidHex();

}  // namespace mongo
