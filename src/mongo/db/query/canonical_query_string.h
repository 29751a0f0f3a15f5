#pragma once
// A parsed query as MongoDB describes it in some error messages ("error processing query: "
// followed by this): "ns=<ns>[ batchSize=N][ limit=N][ skip=N]Tree: <filter tree>Sort:
// <sort>\nProj: <projection>\n". The filter tree is printed one node per line, children
// indented by four spaces ("$and\n", "a $eq 1\n", "a $in [ 1 2 ]\n", "a exists\n", ...);
// values and documents in the shell's notation ({ a: 1 }). Operators without a line form of
// their own print their parsed operator document.
// Thread safety: pure functions.
#include <string>

#include "mongo/db/query/query_planner.h"

namespace mongo {

std::string canonicalQueryString(const std::string& ns, const CanonicalQuery& cq);

// A value in the shell's notation (BSONElement::toString(false) in MongoDB): 1, 1.5, "x",
// { a: 1 }, [ 1, 2 ], true, null, ObjectId('...'), ...
std::string shellValueString(const BSONElement& e);
std::string shellObjectString(const BSONObj& o);

}  // namespace mongo
