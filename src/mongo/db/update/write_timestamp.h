#pragma once
// Timestamps this server assigns to writes ($currentDate {$type: "timestamp"}, a top-level
// Timestamp(0, 0) in an inserted document): seconds since the epoch and an increment that makes
// every value handed out by the process unique and increasing. Thread safe.
#include "mongo/bson/bsonobj.h"

namespace mongo {

Timestamp nextWriteTimestamp();

}  // namespace mongo
