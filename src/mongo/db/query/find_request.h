#pragma once
// Parsing of the find command's arguments (shared by find and explain), with MongoDB's errors.
#include "mongo/db/query/query_planner.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

struct FindRequest {
    QueryRequest qr;
    long long batchSize = 101;  // first batch default
    bool singleBatch = false;
    bool noCursorTimeout = false;
    bool tailable = false;   // also in qr (the planner needs it)
    bool awaitData = false;  // getMores at the end wait for inserts (REQUIRES tailable)
};

FindRequest parseFindRequest(const BSONObj& cmd);

// A hint argument: an index name (string) or a key pattern / {$natural: 1} (object).
BSONObj parseHint(const BSONElement& hint);

}  // namespace mongo
