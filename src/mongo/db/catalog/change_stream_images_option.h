#pragma once
// The changeStreamPreAndPostImages collection option ({enabled: <bool>}) of create and
// collMod, checked as MongoDB 7.0 parses it. It is stored with the collection's options and
// shown by listCollections; it asks change streams for pre- and post-images of updates,
// which a server without change streams never has to produce (accepted on a standalone as
// MongoDB 7.0 does).
// Thread safety: stateless.
#include <string_view>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

// cmdName: "create" or "collMod" (for the error messages). TypeMismatch for a non-object or a
// non-bool enabled, 40414 without enabled, 40415 for another field.
Status validateChangeStreamPreAndPostImages(const BSONElement& option, std::string_view cmdName);

}  // namespace mongo
