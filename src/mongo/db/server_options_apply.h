#pragma once
// The per-option checks of mongod's start-up options: copies the typed, merged options
// (command line over config file, converted by server_options_parse.h) into
// ServerGlobalParams, checking ranges, allowed values and combinations, and refusing what
// the server does not implement (protection_options.h, replication_options.h).
//
// Pure: writes only *params. Callable from any thread.
#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/server_options.h"

namespace mongo {
namespace option_parsing {

// flat: {dotted path: typed value}, one field per option given. On error *params is partly
// written and must be discarded.
Status applyOptions(const BSONObj& flat, ServerGlobalParams* params);

}  // namespace option_parsing
}  // namespace mongo
